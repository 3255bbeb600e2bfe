/** CLI flags and SIM_* environment variables -> SimulatorOptionsInput (flags win over env). */
import { parseArgs } from 'node:util'
import {
  SIZE_PRESETS,
  startOfUtcDay,
  type LiveOptions,
  type SimulatorOptionsInput,
  type SimulatorSizes,
} from './options'

/** flag name -> help text; each flag's environment variable is envOf(flag). */
export const CLI_FLAGS = {
  port: 'port to listen on (0 = random; default 0)',
  host: 'interface to bind (default 127.0.0.1)',
  seed: 'data seed (default 1)',
  size: 'demo | bench (default demo)',
  courses: 'number of courses (overrides --size)',
  destinations: 'number of destinations / companies',
  dispatches: 'number of dispatches',
  registrations: 'number of registrations',
  'big-dispatch': 'registrations of the one large dispatch',
  'page-size': 'items per list page (default 100)',
  paging: 'keyset | offset: what a `more` token holds (default keyset)',
  'app-id': 'Basic auth user = app id (default sim-app)',
  'secret-key': 'Basic auth password = secret key (default sim-secret)',
  epoch:
    'generated data lies before this ISO instant, or `today` (the start of the current UTC day; default 2026-01-01T00:00:00Z)',
  live: 'move learner progress forward over time (true/false)',
  'live-interval-ms': 'live tick period (default 5000)',
  'live-batch': 'registrations changed per tick (default 5)',
  'postback-url': 'where changed registrations are POSTed',
  'postback-user': 'Basic auth user for postbacks',
  'postback-password': 'Basic auth password for postbacks',
  'postback-auth': 'httpbasic | form (default httpbasic)',
  'error-rate': 'share of requests answered 500/503 (0..1)',
  'latency-ms': 'delay added to every request',
  'stall-rate': 'share of requests that hang for --stall-ms (0..1)',
  'stall-ms': 'how long stalled requests hang (default 30000)',
  'rate-limit': '429 bursts as every:length:retryAfterSeconds, e.g. 20:3:2',
  'package-padding-bytes': 'padding added to each dispatch package zip (default 0)',
} as const

export type CliFlag = keyof typeof CLI_FLAGS

/** A flag's environment variable: SIM_ and the flag in upper case, `-` as `_` (`--page-size` is SIM_PAGE_SIZE). */
const envOf = (flag: CliFlag) => `SIM_${flag.toUpperCase().replaceAll('-', '_')}`

export function usage(): string {
  const lines = Object.entries(CLI_FLAGS).map(
    ([flag, help]) => `  --${flag.padEnd(18)} ${envOf(flag as CliFlag).padEnd(22)} ${help}`,
  )
  return [
    'Usage: npm run sim -- [flags]   (each flag can also be set by its environment variable)',
    ...lines,
    '  --help',
  ].join('\n')
}

function number(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got "${value}"`)
  return n
}

/**
 * Parses argv (without node and script) and env; throws with a readable message on bad input.
 * `now` is the clock `--epoch today` reads.
 */
export function parseCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  now: () => number = Date.now,
): { options: SimulatorOptionsInput; help: boolean } {
  const spec = Object.fromEntries(
    Object.keys(CLI_FLAGS).map((flag) => [
      flag,
      flag === 'live' ? { type: 'boolean' as const } : { type: 'string' as const },
    ]),
  )
  const parsed = parseArgs({ args: argv, options: { ...spec, help: { type: 'boolean' } }, strict: true })
  const values = parsed.values as Record<string, string | boolean | undefined>
  const get = (flag: CliFlag): string | undefined => {
    const v = values[flag]
    if (typeof v === 'boolean') return String(v)
    return v ?? env[envOf(flag)]
  }
  const options: SimulatorOptionsInput = {}
  const num = (flag: CliFlag): number | undefined => {
    const v = get(flag)
    return v === undefined || v === '' ? undefined : number(flag, v)
  }
  const size = get('size')
  if (size !== undefined && size !== 'demo' && size !== 'bench')
    throw new Error(`--size must be demo or bench, got "${size}"`)
  const sizes: Partial<SimulatorSizes> = size === 'bench' ? { ...SIZE_PRESETS.bench } : {}
  const sizeFlags = [
    ['courses', 'courses'],
    ['destinations', 'destinations'],
    ['dispatches', 'dispatches'],
    ['registrations', 'registrations'],
    ['big-dispatch', 'bigDispatchRegistrations'],
  ] as const
  for (const [flag, key] of sizeFlags) {
    const v = num(flag)
    if (v !== undefined) sizes[key] = v
  }
  options.sizes = sizes
  const assign = <K extends keyof SimulatorOptionsInput>(key: K, value: SimulatorOptionsInput[K] | undefined) => {
    if (value !== undefined) options[key] = value
  }
  assign('port', num('port'))
  assign('host', get('host'))
  assign('seed', num('seed'))
  assign('pageSize', num('page-size'))
  const paging = get('paging')
  if (paging !== undefined && paging !== 'keyset' && paging !== 'offset')
    throw new Error(`--paging must be keyset or offset, got "${paging}"`)
  assign('paging', paging)
  assign('appId', get('app-id'))
  assign('secretKey', get('secret-key'))
  const epoch = get('epoch')
  if (epoch !== undefined && epoch !== 'today' && !Number.isFinite(Date.parse(epoch)))
    throw new Error(`--epoch must be an ISO instant or today, got "${epoch}"`)
  assign('epoch', epoch === 'today' ? startOfUtcDay(now()) : epoch)
  assign('packagePaddingBytes', num('package-padding-bytes'))

  const faults: NonNullable<SimulatorOptionsInput['faults']> = {}
  const errorRate = num('error-rate')
  if (errorRate !== undefined) faults.errorRate = errorRate
  const latency = num('latency-ms')
  if (latency !== undefined) faults.latencyMs = latency
  const stallRate = num('stall-rate')
  if (stallRate !== undefined) faults.stallRate = stallRate
  const stallMs = num('stall-ms')
  if (stallMs !== undefined) faults.stallMs = stallMs
  const rateLimit = get('rate-limit')
  if (rateLimit) {
    const [every, length, retry] = rateLimit.split(':').map((part) => number('rate-limit', part))
    if (every === undefined || length === undefined)
      throw new Error('--rate-limit must look like every:length[:retryAfterSeconds]')
    faults.rateLimitBurst = { every, length, retryAfterSeconds: retry ?? 1 }
  }
  options.faults = faults

  // A postback URL implies live mode: without it nothing would ever be posted.
  const liveValue = get('live')
  const postbackUrl = get('postback-url')
  if ((liveValue !== undefined && liveValue !== 'false' && liveValue !== '0') || postbackUrl) {
    const live: Partial<LiveOptions> = {}
    const interval = num('live-interval-ms')
    if (interval !== undefined) live.intervalMs = interval
    const batch = num('live-batch')
    if (batch !== undefined) live.batchSize = batch
    if (postbackUrl) live.postbackUrl = postbackUrl
    const user = get('postback-user')
    if (user !== undefined) live.postbackUser = user
    const password = get('postback-password')
    if (password !== undefined) live.postbackPassword = password
    const auth = get('postback-auth')
    if (auth !== undefined) {
      if (auth !== 'httpbasic' && auth !== 'form') throw new Error('--postback-auth must be httpbasic or form')
      live.postbackAuthType = auth
    }
    options.live = live
  }
  return { options, help: values.help === true }
}
