/**
 * Dispatch writes beyond PUT (docs/scorm-cloud-api.md §6.1): POST /dispatch/dispatches (create, or modify the
 * pair's dispatch when no id is given) and DELETE …/registrationCount (counter reset).
 */
import { randomUUID } from 'node:crypto'
import { HttpError, asObject, noContent, optionalString, stringArray } from './http-util'
import type { RequestContext, Route } from './router'
import { parseDispatchUpdate } from './request-bodies'
import type { DispatchChanges } from './store'

interface CreateItem {
  id: string | undefined
  courseIdx: number
  destinationIdx: number
  changes: DispatchChanges
}

/** Every item is checked before any is applied: a bad item changes nothing (one 400). */
function parseItems(rc: RequestContext): CreateItem[] {
  const { catalog } = rc.sim.store
  const list = asObject(rc.body).dispatches
  if (!Array.isArray(list) || list.length === 0) throw new HttpError(400, 'dispatches must be a non-empty array')
  const ids = new Set<string>()
  const pairs = new Set<string>()
  return list.map((raw, n) => {
    const item = asObject(raw, `dispatches[${n}]`)
    const id = optionalString(item, 'id')
    const data = asObject(item.data, `dispatches[${n}].data`)
    const courseId = optionalString(data, 'courseId')
    const destinationId = optionalString(data, 'destinationId')
    if (!courseId || !destinationId) throw new HttpError(400, 'courseId and destinationId are required')
    const courseIdx = catalog.findCourse(courseId)
    if (courseIdx === undefined) throw new HttpError(400, `Course ${courseId} not found`)
    const destinationIdx = catalog.findDestination(destinationId)
    if (destinationIdx === undefined) throw new HttpError(400, `Destination ${destinationId} not found`)
    const changes = parseDispatchUpdate(data)
    if (data.tags !== undefined && data.tags !== null) changes.tags = stringArray(data, 'tags')
    const pair = `${courseIdx}:${destinationIdx}`
    if (pairs.has(pair)) throw new HttpError(400, `dispatches[${n}] repeats a course and destination`)
    pairs.add(pair)
    if (id !== undefined) {
      if (id.trim() === '') throw new HttpError(400, 'id must not be empty')
      if (catalog.dispatchIdTaken(id) || ids.has(id)) throw new HttpError(400, `Dispatch ${id} already exists`)
      // docs/scorm-cloud-api.md §1.2: a second dispatch for the same course+destination with an explicit id.
      if (catalog.findDispatchOfPair(courseIdx, destinationIdx) !== undefined)
        throw new HttpError(400, `A dispatch of course ${courseId} to destination ${destinationId} already exists`)
      ids.add(id)
    }
    return { id, courseIdx, destinationIdx, changes }
  })
}

export const dispatchWriteRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/dispatch/dispatches',
    handler: (rc) => {
      const { store } = rc.sim
      const { catalog } = store
      for (const item of parseItems(rc)) {
        const existing = catalog.findDispatchOfPair(item.courseIdx, item.destinationIdx)
        if (existing !== undefined) {
          // docs/scorm-cloud-api.md §6.1: the same pair again without an id modifies the existing dispatch.
          store.changeDispatch(existing, item.changes)
          continue
        }
        const created = catalog.addDispatch({
          id: item.id ?? randomUUID(),
          courseIdx: item.courseIdx,
          destinationIdx: item.destinationIdx,
          allowNewRegistrations: true,
          enabled: true,
          instanced: true,
          registrationCap: 0,
          registrationCount: 0,
          expirationMs: null,
          tags: [],
          email: catalog.destination(item.destinationIdx).email,
        })
        // Defaults above, then the caller's fields (same parsing and rules as PUT).
        store.changeDispatch(created.idx, item.changes)
      }
      return noContent()
    },
  },
]
