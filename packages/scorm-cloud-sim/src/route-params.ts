/**
 * The catalog entry a route's path names. An unknown id is answered 404 naming the kind and the
 * id; every route reading the same placeholder goes through one of these, so their answers to an
 * unknown id cannot differ.
 */
import { HttpError } from './http-util'
import type { DispatchRecord } from './records'
import type { RequestContext } from './router'

/** The index of the dispatch of `{dispatchId}`, a dispatch that still exists. */
export function dispatchIdx(rc: RequestContext): number {
  const id = rc.params.dispatchId ?? ''
  const idx = rc.sim.store.catalog.findDispatch(id)
  if (idx === undefined) throw new HttpError(404, `Dispatch ${id} not found`)
  return idx
}

/** The dispatch of `{dispatchId}` as it stands now. */
export function dispatchOf(rc: RequestContext): DispatchRecord {
  return rc.sim.store.catalog.dispatch(dispatchIdx(rc))
}

/** The index of the destination of `{destinationId}`. */
export function destinationIdx(rc: RequestContext): number {
  const id = rc.params.destinationId ?? ''
  const idx = rc.sim.store.catalog.findDestination(id)
  if (idx === undefined) throw new HttpError(404, `Destination ${id} not found`)
  return idx
}

/** The index of the course of `{courseId}`. */
export function courseIdx(rc: RequestContext): number {
  const id = rc.params.courseId ?? ''
  const idx = rc.sim.store.catalog.findCourse(id)
  if (idx === undefined) throw new HttpError(404, `Course ${id} not found`)
  return idx
}
