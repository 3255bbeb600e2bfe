/**
 * Cursor paging (docs/scorm-cloud-api.md §2). The `more` token is base64url JSON holding the list kind,
 * the original query parameters and the key of the last item sent, so a follow-up request
 * needs nothing but `more`, and items are neither skipped nor repeated between pages.
 */
import { HttpError } from './http-util'

export type SortKey = number | string

export interface CursorToken {
  /** List kind, e.g. `dispatches`; a token of another list is rejected. */
  kind: string
  /** Normalised original query (only parameters the list understands). */
  query: Record<string, string>
  /** Key of the last item sent: [sort value, tie-breaker]. */
  after: [SortKey, SortKey]
  /** `offset` paging mode only: the position the next page starts at. */
  offset?: number
}

export function encodeCursor(token: CursorToken): string {
  const parts: unknown[] = [token.kind, token.query, token.after]
  if (token.offset !== undefined) parts.push(token.offset)
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url')
}

export function decodeCursor(more: string, kind: string): CursorToken {
  try {
    const [k, query, after, offset] = JSON.parse(Buffer.from(more, 'base64url').toString('utf8')) as unknown[]
    if (k === kind && query && typeof query === 'object' && Array.isArray(after) && after.length === 2) {
      const token: CursorToken = { kind, query: query as Record<string, string>, after: after as [SortKey, SortKey] }
      if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) token.offset = offset
      return token
    }
  } catch {
    // fall through: any malformed token is the caller's error
  }
  throw new HttpError(400, 'Invalid value for parameter more')
}

/**
 * Resolves the effective query of a list request: the token's query when `more` is given
 * (other parameters are ignored, as the token remembers them), else the request's own.
 */
export function listQuery(
  search: URLSearchParams,
  kind: string,
  known: readonly string[],
): { query: Record<string, string>; after: [SortKey, SortKey] | null; offset: number | null; first: boolean } {
  const more = search.get('more')
  if (more) {
    const token = decodeCursor(more, kind)
    return { query: token.query, after: token.after, offset: token.offset ?? null, first: false }
  }
  const query: Record<string, string> = {}
  for (const name of known) {
    const value = search.get(name)
    if (value !== null && value !== '') query[name] = value
  }
  return { query, after: null, offset: null, first: true }
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const x = String(a)
  const y = String(b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function compareTuples(a: [SortKey, SortKey], b: [SortKey, SortKey]): number {
  return compareKeys(a[0], b[0]) || compareKeys(a[1], b[1])
}

/** Sorts items by (key, tie) in the requested direction; tie must be unique (the id). */
export function sortByKey<T>(items: T[], key: (t: T) => [SortKey, SortKey], desc: boolean): T[] {
  const keyed = items.map((item) => ({ item, k: key(item) }))
  keyed.sort((a, b) => (desc ? -1 : 1) * compareTuples(a.k, b.k))
  return keyed.map((x) => x.item)
}

/** One page of an already sorted list: the items strictly after `after` in list order. */
export function pageSorted<T>(
  sorted: T[],
  key: (t: T) => [SortKey, SortKey],
  desc: boolean,
  after: [SortKey, SortKey] | null,
  limit: number,
): { page: T[]; hasMore: boolean } {
  let start = 0
  if (after) {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const c = (desc ? -1 : 1) * compareTuples(key(sorted[mid] as T), after)
      if (c <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  return { page: sorted.slice(start, start + limit), hasMore: sorted.length > start + limit }
}

/** Small cache of sorted lists, so paging through 50,000 dispatches sorts them once. */
export class SortedListCache {
  private readonly entries = new Map<string, unknown[]>()

  constructor(private readonly capacity = 8) {}

  get<T>(key: string, build: () => T[]): T[] {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit as T[]
    }
    const value = build()
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    return value
  }
}

/** `orderBy` value `<field>_asc|_desc` restricted to the fields a list supports. */
export function parseOrderBy<F extends string>(
  value: string | undefined,
  fallback: string,
  fields: readonly F[],
): { field: F; desc: boolean } {
  const raw = (value ?? fallback).toLowerCase()
  const m = /^(.+)_(asc|desc)$/.exec(raw)
  const field = m?.[1] as F | undefined
  if (!m || !field || !fields.includes(field)) {
    throw new HttpError(
      400,
      `Invalid value for parameter orderBy: ${value}. Supported: ${fields.map((f) => `${f}_asc, ${f}_desc`).join(', ')}`,
    )
  }
  return { field, desc: m[2] === 'desc' }
}

export function parseDate(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw new HttpError(400, `Invalid value for parameter ${name}: ${value}`)
  return ms
}

export function parseBool(value: string | undefined): boolean {
  return value !== undefined && value.toLowerCase() === 'true'
}

export function parseDatetimeFilter(value: string | undefined, fallback: 'created' | 'updated'): 'created' | 'updated' {
  const v = (value ?? fallback).toLowerCase()
  if (v !== 'created' && v !== 'updated')
    throw new HttpError(400, `Invalid value for parameter datetimeFilter: ${value}`)
  return v
}
