/**
 * Programmatic access for tests: read helpers over the served state, and mutations that
 * behave like changes upstream (they bump `updated`, so incremental syncs notice them, and
 * registration changes are posted back when a postback target is configured).
 */
import { advance } from './progress'
import { STREAM, rngFor } from './prng'
import type { RegState } from './registration-generator'
import type { DispatchChanges, RegistrationChanges, SimStore } from './store'
import type {
  CourseSchema,
  DestinationInfoSchema,
  DispatchSchema,
  RegistrationSchema,
} from '@portal/server/scorm-cloud-types'

export interface SimulatorCounts {
  courses: number
  destinations: number
  /** Dispatches still present (removed ones excluded). */
  dispatches: number
  /** Generated plus added registrations. */
  registrations: number
  /** Registrations held in memory because they changed or were added. */
  changedRegistrations: number
}

export interface SimulatorData {
  counts(): SimulatorCounts
  listCourseIds(): string[]
  getCourse(id: string): CourseSchema | undefined
  listDestinationIds(): string[]
  getDestination(id: string): DestinationInfoSchema | undefined
  listDispatchIds(): string[]
  getDispatch(id: string): DispatchSchema | undefined
  getRegistration(id: string): RegistrationSchema | undefined
  /** Registration ids of a dispatch (generated range first, then added ones); `limit` caps the list. */
  listRegistrationIds(dispatchId: string, limit?: number): string[]
  /** Registration by position 0 .. counts().registrations - 1 (handy for sampling). */
  registrationAt(index: number): RegistrationSchema | undefined
}

export interface TestHelpers {
  /** Changes a dispatch like an upstream edit (or just bumps `updated`); throws for unknown ids. */
  touchDispatch(id: string, changes?: DispatchChanges): DispatchSchema
  touchDestination(
    id: string,
    changes?: { name?: string; tags?: string[]; notes?: string; email?: string },
  ): DestinationInfoSchema
  touchCourse(id: string, changes?: { title?: string; version?: number; tags?: string[] }): CourseSchema
  /** Applies progress changes (or just bumps `updated`) and posts the registration back. */
  touchRegistration(id: string, changes?: RegistrationChanges): RegistrationSchema
  /** One learner session of progress, as live mode does it. */
  advanceRegistration(id: string): RegistrationSchema
  /** A new learner launches the dispatch (no cap/enabled checks); its counter follows. */
  addRegistration(dispatchId: string): RegistrationSchema
  /**
   * The learner of a registration relaunches from the LMS: with the dispatch's instancing on, a
   * new registration of the same learner (`created`), else the same one again.
   */
  relaunch(registrationId: string): { registration: RegistrationSchema; created: boolean }
  /** Resets the dispatch's registration counter to 0 without moving its `updated` (as the API's DELETE does). */
  resetRegistrationCount(id: string): DispatchSchema
  /** The dispatch disappears upstream (404 from now on); its registrations remain. */
  removeDispatch(id: string): boolean
  /** Runs one live-mode round now, timer or not; returns the changed registrations. */
  liveTick(): RegistrationSchema[]
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} not found`)
  return value
}

export function createSimulatorData(store: SimStore): SimulatorData {
  const { catalog, registrations } = store
  return {
    counts: () => ({
      courses: catalog.courses().length,
      destinations: catalog.destinations().length,
      dispatches: catalog.dispatches().length,
      registrations: registrations.total,
      changedRegistrations: registrations.overlaySize,
    }),
    listCourseIds: () => catalog.courses().map((c) => c.id),
    getCourse: (id) => {
      const idx = catalog.findCourse(id)
      return idx === undefined ? undefined : store.courseJson(idx, true)
    },
    listDestinationIds: () => catalog.destinations().map((d) => d.id),
    getDestination: (id) => {
      const idx = catalog.findDestination(id)
      return idx === undefined ? undefined : store.destinationJson(idx, true)
    },
    listDispatchIds: () => catalog.dispatches().map((d) => d.id),
    getDispatch: (id) => {
      const idx = catalog.findDispatch(id)
      return idx === undefined ? undefined : store.dispatchJson(idx)
    },
    getRegistration: (id) => {
      const i = registrations.findIndex(id)
      const state = i >= 0 ? registrations.get(i) : undefined
      return state ? store.registrationJson(state) : undefined
    },
    listRegistrationIds: (dispatchId, limit = Number.POSITIVE_INFINITY) => {
      const idx = must(catalog.findDispatch(dispatchId), `dispatch ${dispatchId}`)
      const { regStart } = store.world.layout
      const ids: string[] = []
      for (let i = regStart[idx] as number; i < (regStart[idx + 1] as number) && ids.length < limit; i++) {
        ids.push(must(store.registrationByIndex(i), `registration #${i}`).id)
      }
      for (const s of registrations.overlay()) {
        if (ids.length >= limit) break
        if (s.i >= store.world.registrationCount && s.dispatchIdx === idx) ids.push(store.registrationJson(s).id)
      }
      return ids
    },
    registrationAt: (index) => store.registrationByIndex(index),
  }
}

export function createTestHelpers(
  store: SimStore,
  notify: (state: RegState) => void,
  tick: () => RegState[],
): TestHelpers {
  const { catalog, registrations } = store
  const registrationIdx = (id: string): number => {
    const i = registrations.findIndex(id)
    if (i < 0) throw new Error(`registration ${id} not found`)
    return i
  }
  const changed = (state: RegState): RegistrationSchema => {
    notify(state)
    return store.registrationJson(state)
  }
  const progressRng = rngFor(store.world.seed, STREAM.live, 1)
  return {
    touchDispatch: (id, changes = {}) => {
      const idx = must(catalog.findDispatch(id), `dispatch ${id}`)
      store.changeDispatch(idx, changes)
      return store.dispatchJson(idx)
    },
    touchDestination: (id, changes = {}) => {
      const idx = must(catalog.findDestination(id), `destination ${id}`)
      catalog.upsertDestination(id, changes)
      return store.destinationJson(idx, true)
    },
    touchCourse: (id, changes = {}) => {
      const idx = must(catalog.findCourse(id), `course ${id}`)
      catalog.updateCourse(idx, changes)
      return store.courseJson(idx, true)
    },
    touchRegistration: (id, changes = {}) => changed(store.changeRegistration(registrationIdx(id), changes)),
    advanceRegistration: (id) => {
      const current = must(registrations.get(registrationIdx(id)), `registration ${id}`)
      const course = store.world.courses[catalog.dispatch(current.dispatchIdx).courseIdx]
      const next = advance(current, course?.scored ?? false, store.clock(), progressRng)
      registrations.put(next)
      return changed(next)
    },
    addRegistration: (dispatchId) =>
      changed(store.addRegistration(must(catalog.findDispatch(dispatchId), `dispatch ${dispatchId}`))),
    relaunch: (registrationId) => {
      const { state, created } = store.relaunch(registrationIdx(registrationId))
      return { registration: changed(state), created }
    },
    resetRegistrationCount: (id) => {
      const idx = must(catalog.findDispatch(id), `dispatch ${id}`)
      store.resetRegistrationCount(idx)
      return store.dispatchJson(idx)
    },
    removeDispatch: (id) => {
      const idx = catalog.findDispatch(id)
      return idx === undefined ? false : catalog.removeDispatch(idx)
    },
    liveTick: () => tick().map((state) => store.registrationJson(state)),
  }
}
