/** startSimulator(): wires world, store, HTTP server, faults, live mode and postbacks. */
import { Faults, type FaultStats } from './faults'
import { BASE_PATH, SimHttpServer, type RequestStats } from './http-server'
import { LiveRunner } from './live'
import {
  DEFAULT_LIVE,
  resolveOptions,
  type FaultOptions,
  type SimulatorOptions,
  type SimulatorOptionsInput,
  validatePadding,
} from './options'
import { SortedListCache } from './paging'
import { PostbackSender, type PostbackStats, type PostbackTarget } from './postback'
import type { RegState } from './registration-generator'
import { POSTBACK_SETTINGS, appRoutes } from './routes-app'
import { courseRoutes } from './routes-courses'
import { deliveryRoutes } from './routes-delivery'
import { destinationRoutes } from './routes-destinations'
import { dispatchRoutes } from './routes-dispatches'
import { dispatchWriteRoutes } from './routes-dispatch-writes'
import { packageRoutes } from './routes-packages'
import { registrationRoutes } from './routes-registrations'
import type { SimContext } from './router'
import { createSimulatorData, createTestHelpers, type SimulatorData, type TestHelpers } from './test-helpers'
import { SimStore } from './store'
import { generateWorld } from './world'

export interface SimulatorStats extends RequestStats {
  faults: FaultStats
  postbacks: PostbackStats
}

export interface Simulator extends TestHelpers {
  /** Base URL ending in /api/v2, e.g. http://127.0.0.1:41234/api/v2. */
  readonly url: string
  readonly port: number
  readonly appId: string
  readonly secretKey: string
  /** `Basic ...` header value for the app credentials. */
  readonly authorization: string
  readonly options: SimulatorOptions
  readonly listening: boolean
  /** Read helpers over the current state (the same data the API serves). */
  readonly data: SimulatorData
  /** Changes faults at run time; omitted fields keep their value. Returns the new settings. */
  setFaults(change: Partial<FaultOptions>): FaultOptions
  /** Back to no faults at all. */
  clearFaults(): FaultOptions
  faults(): FaultOptions
  /** Stops listening (connection refused from now on); state and port are kept. */
  stop(): Promise<void>
  /** Listens again on the same port. */
  start(): Promise<void>
  /** stop() plus live timer and pending postback retries. */
  close(): Promise<void>
  /** Requests served, by path / route / status, plus fault and postback counters. */
  stats(): SimulatorStats
  resetStats(): void
  /** Resolves when every queued postback was delivered or dropped. */
  postbacksIdle(): Promise<void>
  /** Padding bytes in every package zip from now on (benchmarks, memory tests); 0 = stub only. */
  setPackagePadding(bytes: number): void
}

export async function startSimulator(input: SimulatorOptionsInput = {}): Promise<Simulator> {
  const options = resolveOptions(input)
  const store = new SimStore(generateWorld(options), options.clock)
  const settings = new Map<string, string>()
  const ctx: SimContext = { store, options, lists: new SortedListCache(), settings }
  const faults = new Faults(options.faults, options.seed)
  const server = new SimHttpServer(ctx, faults, [
    ...appRoutes,
    ...courseRoutes,
    ...destinationRoutes,
    ...deliveryRoutes,
    ...dispatchRoutes,
    ...dispatchWriteRoutes,
    ...packageRoutes,
    ...registrationRoutes,
  ])
  const live = options.live ?? DEFAULT_LIVE
  const postbacks = new PostbackSender({
    retries: live.postbackRetries,
    backoffMs: live.postbackBackoffMs,
    timeoutMs: 5_000,
    log: options.log,
  })

  /** Most specific postback target first: dispatch, application setting, simulator option. */
  const postbackTarget = (state: RegState): PostbackTarget | null => {
    const own = store.catalog.dispatch(state.dispatchIdx).postBack
    if (own?.url) {
      const target: PostbackTarget = {
        url: own.url,
        authType: authTypeOf(own.authType),
      }
      if (own.userName !== undefined) target.user = own.userName
      if (own.password !== undefined) target.password = own.password
      return target
    }
    const url = settings.get(POSTBACK_SETTINGS.url) ?? options.live?.postbackUrl
    if (!url) return null
    const fromSettings = settings.has(POSTBACK_SETTINGS.url)
    const target: PostbackTarget = {
      url,
      authType: authTypeOf(fromSettings ? settings.get(POSTBACK_SETTINGS.authType) : live.postbackAuthType),
    }
    const user = fromSettings ? settings.get(POSTBACK_SETTINGS.user) : options.live?.postbackUser
    const password = fromSettings ? settings.get(POSTBACK_SETTINGS.password) : options.live?.postbackPassword
    if (user !== undefined) target.user = user
    if (password !== undefined) target.password = password
    return target
  }
  const notify = (state: RegState): void => {
    const target = postbackTarget(state)
    if (target) postbacks.send(store.registrationJson(state), target)
  }

  // The runner also exists without live mode, so tests can step it with liveTick().
  const runner = new LiveRunner(store, live, notify, options.log)
  await server.start()
  if (options.live) runner.start()

  const hostForUrl = urlHost(options.host)
  const sim: Simulator = {
    get url() {
      return `http://${hostForUrl}:${server.boundPort}${BASE_PATH}`
    },
    get port() {
      return server.boundPort
    },
    appId: options.appId,
    secretKey: options.secretKey,
    authorization: `Basic ${Buffer.from(`${options.appId}:${options.secretKey}`).toString('base64')}`,
    options,
    get listening() {
      return server.listening
    },
    data: createSimulatorData(store),
    ...createTestHelpers(store, notify, () => runner.tick()),
    setFaults: (change) => faults.set(change),
    clearFaults: () => faults.set({}, true),
    faults: () => faults.options,
    stop: () => server.stop(),
    start: () => server.start(),
    close: async () => {
      runner.stop()
      postbacks.close()
      await server.stop()
    },
    stats: () => ({ ...server.stats(), faults: faults.stats(), postbacks: postbacks.stats() }),
    resetStats: () => server.resetStats(),
    postbacksIdle: () => postbacks.idle(),
    setPackagePadding: (bytes) => {
      validatePadding(bytes)
      options.packagePaddingBytes = bytes
    },
  }
  return sim
}

/** Postback auth type from a setting or option value; anything but "form" means httpbasic. */
function authTypeOf(value: string | undefined): 'httpbasic' | 'form' {
  return value?.toLowerCase() === 'form' ? 'form' : 'httpbasic'
}

/** Host part of the base URL: wildcard binds are reached over loopback, IPv6 needs brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}
