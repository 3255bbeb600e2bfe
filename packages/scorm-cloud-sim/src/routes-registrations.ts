/** GET /registrations and GET /registrations/{id} (docs/scorm-cloud-api.md §8), over registration-query.ts. */
import { HttpError, ok } from './http-util'
import { encodeCursor, listQuery, parseBool, parseDate, parseDatetimeFilter, parseOrderBy } from './paging'
import { learnerId as learnerIdOf } from './registration-generator'
import { countRegistrations, pageRegistrations, type RegCursor, type RegFilter } from './registration-query'
import type { RequestContext, Route } from './router'

const PARAMS = ['courseId', 'learnerId', 'since', 'until', 'datetimeFilter', 'orderBy', 'filter', 'filterBy', 'tags']

function listRegistrations(rc: RequestContext) {
  const { store, options } = rc.sim
  const { query, after, first } = listQuery(rc.search, 'registrations', [...PARAMS, 'includeTotalCount'])
  // Text filters would need every id and name built; the simulator does not offer them.
  if (query.filter !== undefined)
    throw new HttpError(400, 'The simulator does not support filter/filterBy on registrations')
  const order = parseOrderBy(query.orderBy, 'created_desc', ['created', 'updated'] as const)
  const filter: RegFilter = { dtField: parseDatetimeFilter(query.datetimeFilter, 'created') }
  const since = parseDate(query.since, 'since')
  const until = parseDate(query.until, 'until')
  if (since !== undefined) filter.sinceMs = since
  if (until !== undefined) filter.untilMs = until
  if (query.courseId !== undefined) filter.courseIdx = store.catalog.findCourse(query.courseId) ?? -1
  if (query.learnerId !== undefined) filter.learner = parseLearnerId(rc, query.learnerId)
  // Generated registrations carry no tags, so a tag filter matches none of them.
  if (query.tags !== undefined) filter.courseIdx = -1

  const cursor = after ? toCursor(after) : null
  const { items, hasMore } = pageRegistrations(store.registrations, filter, order, cursor, options.pageSize)
  const registrations = items.map((item) => {
    const state = 'state' in item ? item.state : store.registrations.get(item.base)
    if (!state) throw new Error(`registration #${'base' in item ? item.base : '?'} vanished`)
    return store.registrationJson(state)
  })
  const body: { registrations: unknown[]; more?: string } = { registrations }
  const last = items[items.length - 1]
  if (hasMore && last) body.more = encodeCursor({ kind: 'registrations', query, after: last.key })
  const headers =
    first && parseBool(query.includeTotalCount)
      ? { 'X-Total-Count': String(countRegistrations(store.registrations, filter)) }
      : undefined
  return ok(body, headers)
}

function toCursor(after: [unknown, unknown]): RegCursor {
  const [t, i] = after
  if (typeof t !== 'number' || typeof i !== 'number') throw new HttpError(400, 'Invalid value for parameter more')
  return [t, i]
}

/** Learner ids are `<destinationId>-<number>`; anything else belongs to nobody here. */
function parseLearnerId(rc: RequestContext, learnerId: string): RegFilter['learner'] {
  const cut = learnerId.lastIndexOf('-')
  const destinationIdx = cut > 0 ? rc.sim.store.catalog.findDestination(learnerId.slice(0, cut)) : undefined
  if (destinationIdx === undefined) return null
  const learnerNo = Number(learnerId.slice(cut + 1))
  const destination = rc.sim.store.catalog.destination(destinationIdx)
  if (!Number.isSafeInteger(learnerNo) || learnerIdOf(destination, learnerNo) !== learnerId) return null
  return { destinationIdx, learnerNo }
}

function registration(rc: RequestContext) {
  const id = rc.params.registrationId ?? ''
  const { registrations } = rc.sim.store
  const i = registrations.findIndex(id)
  const state = i >= 0 ? registrations.get(i) : undefined
  if (!state) throw new HttpError(404, `Registration ${id} not found`)
  return ok(rc.sim.store.registrationJson(state))
}

export const registrationRoutes: Route[] = [
  { method: 'GET', pattern: '/registrations', handler: listRegistrations },
  { method: 'GET', pattern: '/registrations/{registrationId}', handler: registration },
]
