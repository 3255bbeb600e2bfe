/** Minimal path router: `/dispatch/dispatches/{dispatchId}/tags` style patterns, exact segments. */
import type { Reply } from './http-util'
import type { SimulatorOptions } from './options'
import type { SortedListCache } from './paging'
import type { SimStore } from './store'

/** What every handler can reach. */
export interface SimContext {
  store: SimStore
  options: SimulatorOptions
  lists: SortedListCache
  /** Application configuration settings set through /appManagement/configuration. */
  settings: Map<string, string>
}

export interface RequestContext {
  sim: SimContext
  params: Record<string, string>
  search: URLSearchParams
  body: unknown
  /** `http://host:port` as the caller reached the simulator (links inside packages use it). */
  origin: string
}

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE'

export interface Route {
  method: Method
  /** Relative to /api/v2, with `{name}` placeholders. */
  pattern: string
  handler: (rc: RequestContext) => Reply | Promise<Reply>
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { methodNotAllowed: true } | null

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const segments = path.split('/').filter(Boolean)
  let pathMatched = false
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments)
    if (!params) continue
    pathMatched = true
    if (route.method === method) return { route, params }
  }
  return pathMatched ? { methodNotAllowed: true } : null
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split('/').filter(Boolean)
  if (parts.length !== segments.length) return null
  const params: Record<string, string> = {}
  for (let n = 0; n < parts.length; n++) {
    const part = parts[n] as string
    const segment = segments[n] as string
    if (part.startsWith('{') && part.endsWith('}')) {
      try {
        params[part.slice(1, -1)] = decodeURIComponent(segment)
      } catch {
        return null // malformed escape: no route can match it
      }
    } else if (part !== segment) {
      return null
    }
  }
  return params
}
