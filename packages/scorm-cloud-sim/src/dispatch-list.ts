/** GET /dispatch/dispatches and GET /dispatch/destinations/{id}/dispatches (docs/scorm-cloud-api.md §6.1). */
import type { Reply } from './http-util'
import { DATED_LIST_PARAMS, memoryList } from './memory-list'
import { HttpError } from './http-util'
import type { DispatchRecord } from './records'
import type { RequestContext } from './router'

const COMMON_PARAMS = ['courseId', ...DATED_LIST_PARAMS]

/** Lists dispatches of all destinations, or of one when `destinationIdx` is given. */
export function dispatchList(rc: RequestContext, destinationIdx?: number): Reply {
  const { store } = rc.sim
  const { catalog } = store
  const scoped = destinationIdx !== undefined
  return memoryList<DispatchRecord>(rc, {
    kind: scoped ? `destination-dispatches:${catalog.destination(destinationIdx).id}` : 'dispatches',
    listKey: 'dispatches',
    // isEnabled exists on the global list only (v5 release notes).
    params: scoped ? COMMON_PARAMS : [...COMMON_PARAMS, 'isEnabled'],
    defaultOrderBy: 'updated_asc',
    filterFields: {
      dispatch_id: (d) => d.id,
      course_id: (d) => catalog.course(d.courseIdx).id,
      destination_id: (d) => catalog.destination(d.destinationIdx).id,
    },
    items: () => {
      const all = catalog.dispatches()
      return scoped ? all.filter((d) => d.destinationIdx === destinationIdx) : all
    },
    where: (query) => {
      const courseIdx = query.courseId !== undefined ? (catalog.findCourse(query.courseId) ?? -1) : undefined
      const enabled = parseEnabled(query.isEnabled)
      return (d) =>
        (courseIdx === undefined || d.courseIdx === courseIdx) && (enabled === undefined || d.enabled === enabled)
    },
    toJson: (d) => ({ id: d.id, data: store.dispatchJson(d.idx) }),
    version: () => catalog.version,
  })
}

function parseEnabled(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  const v = value.toLowerCase()
  if (v !== 'true' && v !== 'false') throw new HttpError(400, `Invalid value for parameter isEnabled: ${value}`)
  return v === 'true'
}
