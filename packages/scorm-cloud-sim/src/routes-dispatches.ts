/** Dispatch endpoints (docs/scorm-cloud-api.md §6.1): read, update, enable, tags, counter, delete. */
import { dispatchList } from './dispatch-list'
import {
  HttpError,
  asObject,
  enabledOf,
  noContent,
  ok,
  optionalBoolean,
  optionalCount,
  optionalString,
  presentFields,
  stringArray,
} from './http-util'
import { iso } from './records'
import { dispatchIdx, dispatchOf } from './route-params'
import type { RequestContext, Route } from './router'
import type { DispatchChanges } from './store'
import type { PostBackSchema } from '@portal/server/scorm-cloud-types'

/** UpdateDispatchSchema: null and missing fields mean "leave as is". */
export function parseDispatchUpdate(body: unknown): DispatchChanges {
  const obj = asObject(body)
  // Checked in this order, so the first bad field is the one named.
  const changes: DispatchChanges = {
    ...presentFields(obj, ['allowNewRegistrations', 'instanced', 'enabled'], optionalBoolean),
    ...presentFields(obj, ['registrationCap', 'registrationCount'], optionalCount),
    ...presentFields(obj, ['email', 'notes'], optionalString),
  }
  const expiration = optionalString(obj, 'expirationDate')
  if (expiration !== undefined) {
    const clears = expiration === '' || expiration.toLowerCase() === 'none'
    if (!clears && Number.isNaN(Date.parse(expiration)))
      throw new HttpError(400, `Invalid expirationDate: ${expiration}`)
    changes.expirationDate = expiration
  }
  if (obj.postBack !== undefined && obj.postBack !== null)
    changes.postBack = asObject(obj.postBack, 'postBack') as PostBackSchema
  return changes
}

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
