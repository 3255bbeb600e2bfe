/** Simulator options: one typed object shared by the in-process API and the CLI. */

export interface SimulatorSizes {
  courses: number
  /** Destinations = client companies. */
  destinations: number
  dispatches: number
  /** Total generated registrations, including those of the big dispatch. */
  registrations: number
  /** Registrations held by one single large dispatch (0 = no such dispatch). */
  bigDispatchRegistrations: number
}

export type SizePreset = 'demo' | 'bench'

export const SIZE_PRESETS: Record<SizePreset, SimulatorSizes> = {
  demo: { courses: 40, destinations: 15, dispatches: 150, registrations: 5_000, bigDispatchRegistrations: 0 },
  bench: {
    courses: 300,
    destinations: 500,
    dispatches: 50_000,
    registrations: 1_000_000,
    bigDispatchRegistrations: 100_000,
  },
}

/** Within each window of `every` requests, the last `length` answer 429 with Retry-After. */
export interface RateLimitBurst {
  every: number
  length: number
  retryAfterSeconds: number
}

export interface FaultOptions {
  /** 0..1: share of requests answered 500 or 503. */
  errorRate: number
  /** Statuses used for injected errors, picked at random. */
  errorStatuses: number[]
  /** The next N requests fail with `errorStatuses[0]`, deterministic (for retry-count tests). */
  failNext: number
  /** Delay added before every answer. */
  latencyMs: number
  /** 0..1: share of requests that hang for `stallMs` before being answered. */
  stallRate: number
  stallMs: number
  rateLimitBurst: RateLimitBurst | null
  /** Path prefixes (relative to /api/v2, e.g. `/registrations`) that faults apply to; null = all. */
  onlyPaths: string[] | null
  /**
   * The next N requests that change data (POST, PUT, DELETE) are carried out, then their
   * connection is cut before any answer is sent: the change is made upstream and the caller
   * never learns it (a response lost on the way back).
   */
  dropAnswerNext: number
}

export const NO_FAULTS: FaultOptions = {
  errorRate: 0,
  errorStatuses: [500, 503],
  failNext: 0,
  latencyMs: 0,
  stallRate: 0,
  stallMs: 30_000,
  rateLimitBurst: null,
  onlyPaths: null,
  dropAnswerNext: 0,
}

export interface LiveOptions {
  /** Period of the progress timer; 0 = no timer (use `sim.liveTick()`). */
  intervalMs: number
  /** Registrations moved forward per tick. */
  batchSize: number
  /** 0..1: share of a batch that becomes a brand-new registration instead. */
  newRegistrationRate: number
  /**
   * 0..1: share of a batch where a learner relaunches a registration from the LMS: a new
   * registration of the same learner while the dispatch's instancing is on (the over-count the
   * demo shows), the same one again while it is off. 0 (the default) draws no random number.
   */
  relaunchRate: number
  postbackUrl?: string
  postbackUser?: string
  postbackPassword?: string
  /** `httpbasic` = JSON body + Basic header; `form` = urlencoded `data`, `userName`, `password`. */
  postbackAuthType: 'httpbasic' | 'form'
  /** Extra delivery attempts after the first failure, then the postback is dropped. */
  postbackRetries: number
  /** Backoff before retry n is `postbackBackoffMs * 2^(n-1)`. */
  postbackBackoffMs: number
}

export const DEFAULT_LIVE: LiveOptions = {
  intervalMs: 5_000,
  batchSize: 5,
  newRegistrationRate: 0.2,
  relaunchRate: 0,
  postbackAuthType: 'httpbasic',
  postbackRetries: 3,
  postbackBackoffMs: 500,
}

export interface SimulatorOptions {
  seed: number
  sizes: SimulatorSizes
  /** Items per list page (the real server chooses it; there is no size parameter). */
  pageSize: number
  appId: string
  secretKey: string
  /** Generated dates lie before this instant; never derived from the wall clock. */
  epoch: string
  host: string
  /** 0 = random free port, kept across stop()/start(). */
  port: number
  faults: FaultOptions
  /** null = no live progress; postbacks then only follow explicit test mutations if configured. */
  live: LiveOptions | null
  /** Clock for live changes and mutation helpers (`updated`, `lastAccessDate`). */
  clock: () => number
  /** Receives one line per notable event (postback failures...); silent by default. */
  log: (line: string) => void
  /**
   * How `more` tokens of the course, destination and dispatch lists continue: `keyset` (the
   * key of the last item sent; items moved by edits are neither skipped nor lost) or `offset`
   * (a position in the list as sorted at the time of the next request, like a plain OFFSET:
   * an edit that moves an item already sent to the end shifts the rest one place forward, so
   * the next page skips one item). The real token's semantics are unconfirmed (docs/scorm-cloud-api.md §2).
   */
  paging: PagingMode
  /**
   * Bytes of incompressible padding added to every dispatch package zip (`padding.bin`), so
   * benchmarks and memory tests get packages of any size; 0 = the small stub of a real dispatch.
   */
  packagePaddingBytes: number
}

export type PagingMode = 'keyset' | 'offset'

/** What callers pass: every part optional, nested parts partial, sizes also as a preset name. */
export interface SimulatorOptionsInput {
  seed?: number
  sizes?: Partial<SimulatorSizes> | SizePreset
  pageSize?: number
  appId?: string
  secretKey?: string
  epoch?: string | number | Date
  host?: string
  port?: number
  faults?: Partial<FaultOptions>
  live?: Partial<LiveOptions> | boolean | null
  clock?: () => number
  log?: (line: string) => void
  paging?: PagingMode
  packagePaddingBytes?: number
}

export const DEFAULT_APP_ID = 'sim-app'
export const DEFAULT_SECRET_KEY = 'sim-secret'
export const DEFAULT_EPOCH = '2026-01-01T00:00:00.000Z'

/**
 * The start of the UTC day of `nowMs`, as an ISO instant: the epoch for data that ends today
 * (the demo, `--epoch today`). Generated activity spans the months before the epoch, so an
 * epoch fixed in the past would leave a dashboard's recent months empty; a day's start keeps
 * the data identical for every start on the same day.
 */
export function startOfUtcDay(nowMs: number): string {
  const now = new Date(nowMs)
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString()
}

export function resolveOptions(input: SimulatorOptionsInput = {}): SimulatorOptions {
  const base = typeof input.sizes === 'string' ? SIZE_PRESETS[input.sizes] : { ...SIZE_PRESETS.demo, ...input.sizes }
  const epochMs = input.epoch === undefined ? Date.parse(DEFAULT_EPOCH) : new Date(input.epoch).getTime()
  if (!Number.isFinite(epochMs)) throw new Error(`Invalid epoch: ${String(input.epoch)}`)
  const live = input.live === true ? { ...DEFAULT_LIVE } : input.live ? { ...DEFAULT_LIVE, ...input.live } : null
  const options: SimulatorOptions = {
    seed: input.seed ?? 1,
    sizes: { ...base },
    pageSize: input.pageSize ?? 100,
    appId: input.appId ?? DEFAULT_APP_ID,
    secretKey: input.secretKey ?? DEFAULT_SECRET_KEY,
    epoch: new Date(epochMs).toISOString(),
    host: input.host ?? '127.0.0.1',
    port: input.port ?? 0,
    faults: { ...NO_FAULTS, ...input.faults },
    live,
    clock: input.clock ?? Date.now,
    log: input.log ?? (() => {}),
    paging: input.paging ?? 'keyset',
    packagePaddingBytes: input.packagePaddingBytes ?? 0,
  }
  validateSizes(options.sizes)
  if (!Number.isInteger(options.pageSize) || options.pageSize < 1)
    throw new Error('pageSize must be a positive integer')
  if (options.paging !== 'keyset' && options.paging !== 'offset') throw new Error('paging must be keyset or offset')
  validatePadding(options.packagePaddingBytes)
  return options
}

function validateSizes(s: SimulatorSizes): void {
  for (const [key, value] of Object.entries(s)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`sizes.${key} must be a non-negative integer`)
  }
  if (s.dispatches > 0 && (s.courses === 0 || s.destinations === 0)) {
    throw new Error('dispatches need at least one course and one destination')
  }
  // At most one dispatch per course+destination pair (docs/scorm-cloud-api.md §6).
  if (s.dispatches > s.courses * s.destinations) {
    throw new Error(`sizes.dispatches (${s.dispatches}) exceeds courses x destinations (${s.courses * s.destinations})`)
  }
  if (s.registrations > 0 && s.dispatches === 0) throw new Error('registrations need at least one dispatch')
  if (s.bigDispatchRegistrations > s.registrations) {
    throw new Error('sizes.bigDispatchRegistrations cannot exceed sizes.registrations')
  }
  // Registration ids and sort keys pack the index into 23 bits (see registration-index.ts).
  if (s.registrations > 8_000_000) throw new Error('sizes.registrations is limited to 8,000,000')
}

/** Zip entries stay below 4 GiB (no zip64 in the stub); 2 GiB is far past any benchmark's need. */
export const MAX_PACKAGE_PADDING_BYTES = 2 ** 31

export function validatePadding(bytes: number): void {
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_PACKAGE_PADDING_BYTES)
    throw new Error(`packagePaddingBytes must be a whole number from 0 to ${MAX_PACKAGE_PADDING_BYTES}`)
}
