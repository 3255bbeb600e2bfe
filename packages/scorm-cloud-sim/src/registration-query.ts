/**
 * Registration lists over two streams: the base registrations (through RegistrationIndex,
 * skipping those shadowed by the overlay) and the overlay (changed or added registrations,
 * few, kept as RegState). Both are ordered by (time, index) and merged; paging is keyset
 * based (the cursor is the last (time, index) sent), so a page costs a binary search plus
 * a walk, a full pass over N registrations is O(N), and items changed between pages are
 * neither skipped nor repeated unless they move past the cursor.
 */
import { learnerNumber } from './dispatch-generator'
import type { DispatchRecord } from './records'
import type { RegState } from './registration-generator'
import type { RegistrationIndex, TimeField } from './registration-index'
import type { World } from './world'

export interface RegFilter {
  /** undefined = any course; -1 = a course that does not exist (matches nothing). */
  courseIdx?: number
  /** undefined = any learner; null = an unknown learner id (matches nothing). */
  learner?: { destinationIdx: number; learnerNo: number } | null
  sinceMs?: number
  untilMs?: number
  dtField: TimeField
}

export interface RegOrder {
  field: TimeField
  desc: boolean
}

/** Last item sent: [time in ms of the order field, registration index]. */
export type RegCursor = [number, number]

export interface RegSource {
  world: World
  index: RegistrationIndex
  /** 1 at base indices that have an overlay state (null while the overlay is empty). */
  dirty: Uint8Array | null
  overlay(): Iterable<RegState>
  dirtyBase(): Iterable<number>
  /** A dispatch by index, generated or created through the API (changed or added registrations may use either). */
  dispatchAt(idx: number): Pick<DispatchRecord, 'courseIdx' | 'destinationIdx'> | undefined
}

const timeOf = (s: RegState, field: TimeField): number => (field === 'created' ? s.createdMs : s.updatedMs)

function compare(a: RegCursor, b: RegCursor): number {
  return a[0] - b[0] || a[1] - b[1]
}

export function pageRegistrations(
  src: RegSource,
  filter: RegFilter,
  order: RegOrder,
  after: RegCursor | null,
  limit: number,
): { items: Array<{ key: RegCursor; base: number } | { key: RegCursor; state: RegState }>; hasMore: boolean } {
  const want = limit + 1
  const sign = order.desc ? -1 : 1
  const inOrder = (a: RegCursor, b: RegCursor): number => sign * compare(a, b)

  const overlay: Array<{ key: RegCursor; state: RegState }> = []
  for (const s of src.overlay()) {
    if (!stateMatches(src, s, filter)) continue
    const key: RegCursor = [timeOf(s, order.field), s.i]
    if (after && inOrder(key, after) <= 0) continue
    overlay.push({ key, state: s })
  }
  overlay.sort((a, b) => inOrder(a.key, b.key))

  const base = basePage(src, filter, order, after, want)
  const merged: Array<{ key: RegCursor; base: number } | { key: RegCursor; state: RegState }> = []
  let a = 0
  let b = 0
  while (merged.length < want && (a < base.length || b < overlay.length)) {
    const x = base[a]
    const y = overlay[b]
    if (x && (!y || inOrder(x.key, y.key) < 0)) {
      merged.push(x)
      a++
    } else if (y) {
      merged.push(y)
      b++
    }
  }
  return { items: merged.slice(0, limit), hasMore: merged.length > limit }
}

function basePage(src: RegSource, filter: RegFilter, order: RegOrder, after: RegCursor | null, want: number) {
  const out: Array<{ key: RegCursor; base: number }> = []
  const n = src.index.size
  if (n === 0 || filter.courseIdx === -1 || filter.learner === null) return out
  const perm = src.index.perm(order.field)
  const col = src.index.column(order.field)
  const keyAt = (p: number): RegCursor => {
    const i = perm[p] as number
    return [src.index.toMs(col[i] as number), i]
  }
  // First position whose key is >= (or >) a bound; the permutation is sorted ascending.
  const firstAtLeast = (bound: RegCursor, strict: boolean): number => {
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const c = compare(keyAt(mid), bound)
      if (c < 0 || (strict && c === 0)) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  let lo = 0 // inclusive
  let hi = n // exclusive
  if (filter.dtField === order.field) {
    if (filter.sinceMs !== undefined) lo = firstAtLeast([src.index.toMs(src.index.relCeil(filter.sinceMs)), -1], false)
    if (filter.untilMs !== undefined) hi = firstAtLeast([src.index.toMs(src.index.relFloor(filter.untilMs)), n], true)
  }
  if (after && !order.desc) lo = Math.max(lo, firstAtLeast(after, true))
  if (after && order.desc) hi = Math.min(hi, firstAtLeast(after, false))
  const test = basePredicate(src, filter, filter.dtField !== order.field)
  const step = order.desc ? -1 : 1
  for (let p = order.desc ? hi - 1 : lo; p >= lo && p < hi && out.length < want; p += step) {
    const i = perm[p] as number
    if (test(i)) out.push({ key: [src.index.toMs(col[i] as number), i], base: i })
  }
  return out
}

/** Predicate over base indices; skips overlay-shadowed ones. */
function basePredicate(src: RegSource, filter: RegFilter, checkTime: boolean): (i: number) => boolean {
  const { dispatchOf } = src.index.columns()
  const dispatches = src.world.dispatches
  const dirty = src.dirty
  const dt = src.index.column(filter.dtField)
  const since = checkTime && filter.sinceMs !== undefined ? src.index.relCeil(filter.sinceMs) : -Infinity
  const until = checkTime && filter.untilMs !== undefined ? src.index.relFloor(filter.untilMs) : Infinity
  const { courseIdx, learner } = filter
  const layout = src.world.layout
  return (i) => {
    if (dirty && dirty[i] === 1) return false
    const t = dt[i] as number
    if (t < since || t > until) return false
    if (courseIdx === undefined && !learner) return true
    const d = dispatchOf[i] as number
    const dispatch = dispatches[d]
    if (!dispatch) return false
    if (courseIdx !== undefined && dispatch.courseIdx !== courseIdx) return false
    if (learner) {
      if (dispatch.destinationIdx !== learner.destinationIdx) return false
      return learnerNumber(layout, d, learner.destinationIdx, i - (layout.regStart[d] as number)) === learner.learnerNo
    }
    return true
  }
}

export function stateMatches(src: RegSource, s: RegState, filter: RegFilter): boolean {
  if (filter.courseIdx === -1 || filter.learner === null) return false
  const dispatch = src.dispatchAt(s.dispatchIdx)
  if (!dispatch) return false
  if (filter.courseIdx !== undefined && dispatch.courseIdx !== filter.courseIdx) return false
  if (
    filter.learner &&
    (dispatch.destinationIdx !== filter.learner.destinationIdx || s.learnerNo !== filter.learner.learnerNo)
  ) {
    return false
  }
  const t = timeOf(s, filter.dtField)
  if (filter.sinceMs !== undefined && t < filter.sinceMs) return false
  if (filter.untilMs !== undefined && t > filter.untilMs) return false
  return true
}

/** Total matches (for X-Total-Count): range arithmetic when possible, else one scan. */
export function countRegistrations(src: RegSource, filter: RegFilter): number {
  let total = 0
  for (const s of src.overlay()) if (stateMatches(src, s, filter)) total++
  if (filter.courseIdx === -1 || filter.learner === null || src.index.size === 0) return total
  const simple = filter.courseIdx === undefined && filter.learner === undefined
  if (simple && filter.sinceMs === undefined && filter.untilMs === undefined) {
    let dirty = 0
    for (const _ of src.dirtyBase()) dirty++
    return total + src.index.size - dirty
  }
  const test = basePredicate(src, filter, true)
  const col = src.index.column(filter.dtField)
  const since = filter.sinceMs !== undefined ? src.index.relCeil(filter.sinceMs) : -Infinity
  const until = filter.untilMs !== undefined ? src.index.relFloor(filter.untilMs) : Infinity
  // Walk only the part of the time-sorted permutation inside [since, until].
  const perm = src.index.perm(filter.dtField)
  let lo = 0
  let hi = perm.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((col[perm[mid] as number] as number) < since) lo = mid + 1
    else hi = mid
  }
  for (let p = lo; p < perm.length; p++) {
    const i = perm[p] as number
    if ((col[i] as number) > until) break
    if (test(i)) total++
  }
  return total
}
