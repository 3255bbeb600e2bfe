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
  stringArray,
} from './http-util'
import { iso } from './records'
import { dispatchIdx, dispatchOf } from './route-params'
import type { Route } from './router'
import type { DispatchChanges } from './store'
import type { PostBackSchema } from '@portal/server/scorm-cloud-types'

/** UpdateDispatchSchema: null and missing fields mean "leave as is". */
export function parseDispatchUpdate(body: unknown): DispatchChanges {
  const obj = asObject(body)
  const changes: DispatchChanges = {}
  // Checked in this order, so the first bad field is the one named.
  for (const key of ['allowNewRegistrations', 'instanced', 'enabled'] as const) {
    const value = optionalBoolean(obj, key)
    if (value !== undefined) changes[key] = value
  }
  for (const key of ['registrationCap', 'registrationCount'] as const) {
    const value = optionalCount(obj, key)
    if (value !== undefined) changes[key] = value
  }
  for (const key of ['email', 'notes'] as const) {
    const value = optionalString(obj, key)
    if (value !== undefined) changes[key] = value
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
    handler: (rc) => {
      const idx = dispatchIdx(rc)
      const added = stringArray(asObject(rc.body), 'tags')
      const current = rc.sim.store.catalog.dispatch(idx).tags
      rc.sim.store.changeDispatch(idx, { tags: [...current, ...added] })
      return noContent()
    },
  },
  {
    method: 'DELETE',
    pattern: '/dispatch/dispatches/{dispatchId}/tags',
    handler: (rc) => {
      const idx = dispatchIdx(rc)
      // Removing tags that are not there is not an error (docs/scorm-cloud-api.md §4, same for dispatches).
      const removed = new Set(stringArray(asObject(rc.body), 'tags'))
      const current = rc.sim.store.catalog.dispatch(idx).tags
      rc.sim.store.changeDispatch(idx, { tags: current.filter((t) => !removed.has(t)) })
      return noContent()
    },
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
