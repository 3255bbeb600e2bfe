/** Tiny HTTP client for the simulator's own tests: real requests over 127.0.0.1 with fetch. */
import type { Simulator } from './simulator'

export interface ApiResponse<T = unknown> {
  status: number
  headers: Headers
  body: T
}

export interface TestClient {
  request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>
  get<T = unknown>(path: string): Promise<ApiResponse<T>>
  put(path: string, body: unknown): Promise<ApiResponse>
  del(path: string, body?: unknown): Promise<ApiResponse>
  /** Follows `more` to the end; returns every item and the X-Total-Count of the first page. */
  getAll<T = unknown>(path: string, listKey: string): Promise<{ items: T[]; pages: number; totalCount: number | null }>
}

export function testClient(sim: Simulator): TestClient {
  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${sim.url}${path}`, {
      method,
      headers: {
        Authorization: sim.authorization,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T }
  }
  const client: TestClient = {
    request,
    get: (path) => request('GET', path),
    put: (path, body) => request('PUT', path, body),
    del: (path, body) => request('DELETE', path, body),
    getAll: async <T>(path: string, listKey: string) => {
      const first = await request<Record<string, unknown>>('GET', path)
      if (first.status !== 200) throw new Error(`GET ${path} -> ${first.status} ${JSON.stringify(first.body)}`)
      const total = first.headers.get('x-total-count')
      const items = [...(first.body[listKey] as T[])]
      let more = first.body.more as string | undefined
      let pages = 1
      const base = path.split('?')[0] ?? path
      while (more) {
        const next = await request<Record<string, unknown>>('GET', `${base}?more=${encodeURIComponent(more)}`)
        if (next.status !== 200) throw new Error(`GET ${base}?more -> ${next.status} ${JSON.stringify(next.body)}`)
        if (next.headers.get('x-total-count') !== null)
          throw new Error('X-Total-Count must only come with the first page')
        items.push(...(next.body[listKey] as T[]))
        more = next.body.more as string | undefined
        pages++
      }
      return { items, pages, totalCount: total === null ? null : Number(total) }
    },
  }
  return client
}
