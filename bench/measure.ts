/**
 * One load row: autocannon against the server on 127.0.0.1, a warm-up first (JIT, connection
 * pools, PostgreSQL's buffer cache), then a measurement bounded in time and in request count.
 * Latencies come from every response (autocannon's own summary has no p95).
 */
import autocannon, { type RequestData, type Result } from 'autocannon'
import { settings } from './config'
import { startCpuShare } from './cpu-share'
import type { VariedRequest } from './varied'

export interface LoadSpec {
  url: string
  connections: number
  headers?: Record<string, string>
  method?: 'GET' | 'POST'
  body?: string
  /**
   * A varied row: these requests in turn, each with its own path and user, shared by
   * all connections; `url` is then the server's base URL.
   */
  requests?: VariedRequest[]
  /** The server under test's process: its CPU per request is then reported (cpuMsPerRequest.server). */
  serverPid?: number
  /** Defaults from config.ts. */
  durationSeconds?: number
  warmupSeconds?: number
  maxRequests?: number
}

export interface LoadResult {
  connections: number
  requests: number
  seconds: number
  rps: number
  p50: number
  p95: number
  p99: number
  max: number
  errors: number
  non2xx: number
  statuses: Record<string, number>
  /** Answers refused with 503 (backpressure): how many, and how fast they came. */
  refused: { count: number; p95: number; max: number }
  /** Cores' worth of CPU other work on the machine used meanwhile (cpu-share.ts). */
  otherCores: number
  /**
   * CPU milliseconds per answered request: the whole machine's busy time (server, PostgreSQL,
   * load generator and anything else), and PostgreSQL's alone (cpu-share.ts). Steadier than
   * req/s on a shared machine whose speed drifts; compare them within one run (bench:ab).
   */
  cpuMsPerRequest: { machine: number; postgres: number; server?: number }
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]!
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits

/** The varied row's requests, taken in turn by every connection. */
function variedRequests(list: VariedRequest[]) {
  let next = 0
  return [
    {
      method: 'GET',
      setupRequest: (request: RequestData) => {
        const item = list[next % list.length]!
        next += 1
        return {
          ...request,
          method: 'GET',
          path: item.path,
          headers: { ...request.headers, 'x-auth-token': item.token },
        }
      },
    },
  ]
}

async function fire(spec: LoadSpec, seconds: number, maxRequests: number): Promise<LoadResult> {
  const latencies: number[] = []
  const refusedLatencies: number[] = []
  const share = startCpuShare(spec.serverPid)
  const started = performance.now()
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: seconds,
        maxOverallRequests: maxRequests,
        method: spec.method ?? 'GET',
        headers: spec.headers ?? {},
        ...(spec.body ? { body: spec.body } : {}),
        ...(spec.requests ? { requests: variedRequests(spec.requests) } : {}),
        timeout: 30,
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    )
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      latencies.push(ms)
      if (status === 503) refusedLatencies.push(ms)
    })
  })
  const elapsed = (performance.now() - started) / 1000
  const cpu = share.stop()
  const sorted = Float64Array.from(latencies).sort()
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]))
  return {
    connections: spec.connections,
    requests: latencies.length,
    seconds: round(elapsed, 2),
    rps: round(latencies.length / elapsed, 0),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1]! : 0),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses,
    refused: (() => {
      const refused = Float64Array.from(refusedLatencies).sort()
      return {
        count: refused.length,
        p95: round(percentile(refused, 95)),
        max: round(refused.length ? refused[refused.length - 1]! : 0),
      }
    })(),
    otherCores: cpu.otherCores,
    cpuMsPerRequest: {
      machine: latencies.length ? round((cpu.machineSeconds * 1000) / latencies.length, 2) : 0,
      postgres: latencies.length ? round((cpu.postgresSeconds * 1000) / latencies.length, 2) : 0,
      ...(spec.serverPid !== undefined
        ? { server: latencies.length ? round((cpu.serverSeconds * 1000) / latencies.length, 2) : 0 }
        : {}),
    },
  }
}

export async function measureLoad(spec: LoadSpec): Promise<LoadResult> {
  const warmup = spec.warmupSeconds ?? settings.warmupSeconds
  if (warmup > 0) {
    await fire(spec, warmup, Math.ceil((spec.maxRequests ?? settings.maxRequests) / 4))
    await new Promise((resolve) => setTimeout(resolve, settings.drainMs))
  }
  return fire(spec, spec.durationSeconds ?? settings.durationSeconds, spec.maxRequests ?? settings.maxRequests)
}
