/** GET /courses and GET /courses/{courseId} (docs/scorm-cloud-api.md §4). */
import { ok } from './http-util'
import { DATED_LIST_PARAMS, memoryList } from './memory-list'
import { parseBool } from './paging'
import type { CourseRecord } from './records'
import { courseIdx } from './route-params'
import type { Route } from './router'

export const courseRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/courses',
    handler: (rc) => {
      const { store } = rc.sim
      return memoryList<CourseRecord>(rc, {
        kind: 'courses',
        listKey: 'courses',
        params: [...DATED_LIST_PARAMS, 'includeCourseMetadata', 'includeRegistrationCount'],
        defaultOrderBy: 'created_desc',
        orderFields: { title: (c) => c.title },
        filterFields: { course_id: (c) => c.id, title: (c) => c.title, course_title: (c) => c.title },
        items: () => store.catalog.courses(),
        toJson: (c, query) => store.courseJson(c.idx, parseBool(query.includeRegistrationCount)),
        version: () => store.catalog.version,
      })
    },
  },
  {
    method: 'GET',
    pattern: '/courses/{courseId}',
    handler: (rc) => {
      return ok(
        rc.sim.store.courseJson(courseIdx(rc), parseBool(rc.search.get('includeRegistrationCount') ?? undefined)),
      )
    },
  },
]
