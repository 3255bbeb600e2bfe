/** Destination endpoints (docs/scorm-cloud-api.md §5): list, read, create/update, its dispatches. */
import { dispatchList } from './dispatch-list'
import { HttpError, asObject, noContent, ok, optionalString, presentFields, stringArray } from './http-util'
import { DATED_LIST_PARAMS, memoryList } from './memory-list'
import { parseBool } from './paging'
import type { DestinationRecord } from './records'
import { destinationIdx } from './route-params'
import type { Route } from './router'
import { parseLaunchAuth } from './request-bodies'

export const destinationRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/dispatch/destinations',
    handler: (rc) => {
      const { store } = rc.sim
      const { catalog } = store
      return memoryList<DestinationRecord>(rc, {
        kind: 'destinations',
        listKey: 'destinations',
        params: ['courseId', ...DATED_LIST_PARAMS, 'includeDispatchCount'],
        defaultOrderBy: 'updated_asc',
        orderFields: { name: (d) => d.name },
        filterFields: { destination_id: (d) => d.id, name: (d) => d.name, destination_name: (d) => d.name },
        items: () => catalog.destinations(),
        where: (query) => {
          if (query.courseId === undefined) return () => true
          // Destinations that have a dispatch of the course.
          const courseIdx = catalog.findCourse(query.courseId)
          const withCourse = new Set(
            catalog
              .dispatches()
              .filter((d) => d.courseIdx === courseIdx)
              .map((d) => d.destinationIdx),
          )
          return (d) => withCourse.has(d.idx)
        },
        toJson: (d, query) => ({ id: d.id, data: store.destinationJson(d.idx, parseBool(query.includeDispatchCount)) }),
        version: () => catalog.version,
      })
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/destinations/{destinationId}',
    handler: (rc) =>
      ok(
        rc.sim.store.destinationJson(destinationIdx(rc), parseBool(rc.search.get('includeDispatchCount') ?? undefined)),
      ),
  },
  {
    method: 'PUT',
    pattern: '/dispatch/destinations/{destinationId}',
    handler: (rc) => {
      const id = rc.params.destinationId ?? ''
      const obj = asObject(rc.body)
      const patch: Partial<Pick<DestinationRecord, 'name' | 'tags' | 'email' | 'notes' | 'launchAuth'>> = {}
      const name = optionalString(obj, 'name')
      if (name !== undefined) {
        if (name.trim() === '') throw new HttpError(400, 'name must not be empty')
        patch.name = name
      }
      if (obj.tags !== undefined && obj.tags !== null) patch.tags = stringArray(obj, 'tags')
      Object.assign(patch, presentFields(obj, ['email', 'notes'], optionalString))
      if (obj.launchAuth !== undefined && obj.launchAuth !== null) patch.launchAuth = parseLaunchAuth(obj.launchAuth)
      const { catalog } = rc.sim.store
      if (catalog.findDestination(id) === undefined && !patch.name)
        throw new HttpError(400, 'name is required to create a destination')
      catalog.upsertDestination(id, patch)
      return noContent()
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/destinations/{destinationId}/dispatches',
    handler: (rc) => dispatchList(rc, destinationIdx(rc)),
  },
  {
    method: 'GET',
    pattern: '/dispatch/destinations/{destinationId}/dispatches/registrationCount',
    handler: (rc) => {
      const idx = destinationIdx(rc)
      const result = rc.sim.store.catalog
        .dispatches()
        .filter((d) => d.destinationIdx === idx)
        .reduce((sum, d) => sum + d.registrationCount, 0)
      return ok({ result })
    },
  },
  {
    method: 'DELETE',
    pattern: '/dispatch/destinations/{destinationId}/dispatches/registrationCount',
    handler: (rc) => {
      const idx = destinationIdx(rc)
      const { store } = rc.sim
      for (const d of store.catalog.dispatches()) if (d.destinationIdx === idx) store.resetRegistrationCount(d.idx)
      return noContent()
    },
  },
]
