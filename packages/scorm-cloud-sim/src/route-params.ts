/**
 * The catalog entry a route's path names. An unknown id is answered 404 naming the kind and the
 * id; every route reading the same placeholder goes through one lookup, so their answers to an
 * unknown id cannot differ.
 */
import { HttpError } from './http-util'
import type { DispatchRecord } from './records'
import type { RequestContext } from './router'

type Catalog = RequestContext['sim']['store']['catalog']

/** Each path placeholder: the kind its 404 names and how the catalog finds its index. */
const LOOKUPS = {
  dispatchId: { kind: 'Dispatch', find: (catalog: Catalog, id: string) => catalog.findDispatch(id) },
  destinationId: { kind: 'Destination', find: (catalog: Catalog, id: string) => catalog.findDestination(id) },
  courseId: { kind: 'Course', find: (catalog: Catalog, id: string) => catalog.findCourse(id) },
}

function pathIdx(rc: RequestContext, param: keyof typeof LOOKUPS): number {
  const id = rc.params[param] ?? ''
  const { kind, find } = LOOKUPS[param]
  const idx = find(rc.sim.store.catalog, id)
  if (idx === undefined) throw new HttpError(404, `${kind} ${id} not found`)
  return idx
}

/** The index of the dispatch of `{dispatchId}`, a dispatch that still exists. */
export const dispatchIdx = (rc: RequestContext): number => pathIdx(rc, 'dispatchId')

/** The dispatch of `{dispatchId}` as it stands now. */
export const dispatchOf = (rc: RequestContext): DispatchRecord => rc.sim.store.catalog.dispatch(dispatchIdx(rc))

/** The index of the destination of `{destinationId}`. */
export const destinationIdx = (rc: RequestContext): number => pathIdx(rc, 'destinationId')

/** The index of the course of `{courseId}`. */
export const courseIdx = (rc: RequestContext): number => pathIdx(rc, 'courseId')
