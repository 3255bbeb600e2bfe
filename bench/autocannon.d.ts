// The part of autocannon 9's API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface Options {
    url: string
    connections?: number
    duration?: number
    maxOverallRequests?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    timeout?: number
    requests?: {
      method?: string
      setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData
    }[]
  }

  export interface RequestData {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }

  export interface Result {
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
    requests: { total: number; average: number }
    throughput: { total: number }
  }

  export interface Instance extends EventEmitter {
    stop(): void
  }

  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance
  export default autocannon
}
