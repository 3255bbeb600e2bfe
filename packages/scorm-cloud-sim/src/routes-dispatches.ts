/** Dispatch endpoints (docs/scorm-cloud-api.md §6.1): read, update, enable, tags, counter, delete. */
import { dispatchList } from './dispatch-list'
import { asObject, enabledOf, noContent, ok, stringArray } from './http-util'
import { iso } from './records'
import { dispatchIdx, dispatchOf } from './route-params'
import type { RequestContext, Route } from './router'
import { parseDispatchUpdate } from './request-bodies'

/** PUT and DELETE …/tags: the dispatch's tags become `next` of them and the body's `tags`. */
function changeTags(rc: RequestContext, next: (current: string[], given: string[]) => string[]) {
  const idx = dispatchIdx(rc)
  const given = stringArray(asObject(rc.body), 'tags')
  rc.sim.store.changeDispatch(idx, { tags: next(rc.sim.store.catalog.dispatch(idx).tags, given) })
  return noContent()
}

export const dispatchRoutes: Route[] = [
  { method: 'GET', pattern: '/dispatch/dispatches', handler: (rc) => dispatchList(rc) },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}',
    handler: (rc) => ok(rc.sim.store.dispatchJson(dispatchIdx(rc))),
  },
  {
    method: 'PUT',
    pattern: '/dispatch/dispatches/{dispatchId}',
    handler: (rc) => {
      const idx = dispatchIdx(rc)
      rc.sim.store.changeDispatch(idx, parseDispatchUpdate(rc.body))
      return noContent()
    },
  },
  {
    method: 'DELETE',
    pattern: '/dispatch/dispatches/{dispatchId}',
    handler: (rc) => {
      rc.sim.store.catalog.removeDispatch(dispatchIdx(rc))
      return noContent()
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/enabled',
    handler: (rc) => ok({ enabled: dispatchOf(rc).enabled }),
  },
  {
    method: 'PUT',
    pattern: '/dispatch/dispatches/{dispatchId}/enabled',
    handler: (rc) => {
      const idx = dispatchIdx(rc)
      rc.sim.store.changeDispatch(idx, { enabled: enabledOf(rc.body) })
      return noContent()
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/tags',
    handler: (rc) => ok({ tags: [...dispatchOf(rc).tags] }),
  },
  {
    method: 'PUT',
    pattern: '/dispatch/dispatches/{dispatchId}/tags',
    handler: (rc) => changeTags(rc, (current, added) => [...current, ...added]),
  },
  {
    method: 'DELETE',
    pattern: '/dispatch/dispatches/{dispatchId}/tags',
    // Removing tags that are not there is not an error (docs/scorm-cloud-api.md §4, same for dispatches).
    handler: (rc) =>
      changeTags(rc, (current, removed) => {
        const gone = new Set(removed)
        return current.filter((t) => !gone.has(t))
      }),
  },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/registrationCount',
    handler: (rc) => {
      const d = dispatchOf(rc)
      return ok({
        registrationCount: d.registrationCount,
        ...(d.registrationResetMs === undefined ? {} : { lastResetDate: iso(d.registrationResetMs) }),
      })
    },
  },
  {
    method: 'DELETE',
    pattern: '/dispatch/dispatches/{dispatchId}/registrationCount',
    // Resets the counter only (the registrations stay) and, as SCORM Cloud does, leaves the
    // dispatch's `updated` as it was (a sync by `since` does not see it).
    handler: (rc) => {
      rc.sim.store.resetRegistrationCount(dispatchIdx(rc))
      return noContent()
    },
  },
]
