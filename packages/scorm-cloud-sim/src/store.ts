/**
 * The simulator's state: generated world + overlays, with JSON views for the routes and
 * the mutations shared by the API (PUT), the live mode and the test helpers.
 */
import { CatalogStore } from './catalog-store'
import { definedFields } from './fields'
import { courseToJson, destinationToJson, dispatchToJson, type DispatchRecord } from './records'
import { registrationToJson, type RecordLookup, type RegState } from './registration-generator'
import { RegistrationStore } from './registration-store'
import type {
  CourseSchema,
  DestinationInfoSchema,
  DispatchSchema,
  PostBackSchema,
  RegistrationCompletion,
  RegistrationSchema,
  RegistrationSuccess,
} from '@portal/server/scorm-cloud-types'
import type { World } from './world'

/** Changes to a dispatch; `expirationDate` null, "" or "none" clears the expiry. */
export interface DispatchChanges {
  allowNewRegistrations?: boolean
  instanced?: boolean
  registrationCap?: number
  registrationCount?: number
  expirationDate?: string | null
  enabled?: boolean
  email?: string
  notes?: string
  tags?: string[]
  postBack?: PostBackSchema
}

/** Progress changes for a registration (test helper and live mode). */
export interface RegistrationChanges {
  registrationCompletion?: RegistrationCompletion
  registrationSuccess?: RegistrationSuccess
  /** 0..100; null removes the score. */
  score?: number | null
  totalSecondsTracked?: number
  registrationCompletionAmount?: number
  lastAccessDate?: string
  instance?: number
}

/** Bad input to a mutation (an API caller's mistake, answered 400). */
export class InvalidInputError extends Error {}

export class SimStore {
  readonly catalog: CatalogStore
  readonly registrations: RegistrationStore
  readonly lookup: RecordLookup

  constructor(
    readonly world: World,
    readonly clock: () => number,
  ) {
    this.catalog = new CatalogStore(world, clock)
    this.registrations = new RegistrationStore(world, (idx) => this.catalog.dispatchAt(idx))
    this.lookup = {
      course: (idx) => this.catalog.course(idx),
      destination: (idx) => this.catalog.destination(idx),
      dispatch: (idx) => this.catalog.dispatch(idx),
    }
  }

  courseJson(idx: number, includeRegistrationCount: boolean): CourseSchema {
    const extra: { dispatched: boolean; registrationCount?: number } = {
      dispatched: this.catalog.courseDispatched(idx),
    }
    if (includeRegistrationCount) extra.registrationCount = this.registrations.countForCourse(idx)
    return courseToJson(this.catalog.course(idx), extra)
  }

  destinationJson(idx: number, includeDispatchCount: boolean): DestinationInfoSchema {
    return destinationToJson(
      this.catalog.destination(idx),
      includeDispatchCount ? this.catalog.dispatchCountOfDestination(idx) : undefined,
    )
  }

  dispatchJson(idx: number): DispatchSchema {
    const d = this.catalog.dispatch(idx)
    return dispatchToJson(d, this.catalog.course(d.courseIdx), this.catalog.destination(d.destinationIdx))
  }

  registrationJson(state: RegState): RegistrationSchema {
    return registrationToJson(this.world.seed, state, this.lookup)
  }

  registrationByIndex(i: number): RegistrationSchema | undefined {
    const state = this.registrations.get(i)
    return state ? this.registrationJson(state) : undefined
  }

  /** Applies changes and bumps `updated`; throws on an unparsable expiration date. */
  changeDispatch(idx: number, changes: DispatchChanges): DispatchRecord {
    const patch: Partial<DispatchRecord> = definedFields(changes, [
      'allowNewRegistrations',
      'instanced',
      'registrationCap',
      'registrationCount',
      'enabled',
      'email',
      'notes',
    ])
    if (changes.tags !== undefined) patch.tags = [...new Set(changes.tags)]
    if (changes.postBack !== undefined) patch.postBack = { ...changes.postBack }
    if (changes.expirationDate !== undefined) {
      const raw = changes.expirationDate
      if (raw === null || raw === '' || raw.toLowerCase() === 'none') patch.expirationMs = null
      else {
        const ms = Date.parse(raw)
        if (Number.isNaN(ms)) throw new InvalidInputError(`Invalid expirationDate: ${raw}`)
        patch.expirationMs = ms
      }
    }
    return this.catalog.updateDispatch(idx, patch)
  }

  /**
   * DELETE …/registrationCount: the counter goes back to 0 and remembers when. The dispatch's
   * `updated` does not move (as observed on SCORM Cloud), so an incremental listing misses it.
   */
  resetRegistrationCount(idx: number): DispatchRecord {
    return this.catalog.updateDispatch(idx, { registrationCount: 0, registrationResetMs: this.clock() }, false)
  }

  /** Whether live mode may create a registration now (enabled, open, unexpired, under cap). */
  acceptsNewRegistrations(idx: number, nowMs: number): boolean {
    const d = this.catalog.dispatch(idx)
    if (!d.enabled || !d.allowNewRegistrations) return false
    if (d.expirationMs !== null && d.expirationMs < nowMs) return false
    return d.registrationCap === 0 || d.registrationCount < d.registrationCap
  }

  /** New registration on a dispatch; the dispatch's counter and `updated` follow. */
  addRegistration(dispatchIdx: number): RegState {
    const d = this.catalog.dispatch(dispatchIdx)
    const now = this.clock()
    const state = this.registrations.add(dispatchIdx, d.destinationIdx, d.courseIdx, now)
    // The counter changes; bumping `updated` too lets incremental dispatch syncs see it
    // (whether SCORM Cloud does this is unconfirmed).
    this.catalog.updateDispatch(dispatchIdx, { registrationCount: d.registrationCount + 1 })
    return state
  }

  /**
   * The LMS launches a registration again without its launch data (a learner relaunching from
   * the LMS): with instancing on the dispatch makes a new registration for the same learner,
   * which counts against the cap like any other (the over-count docs/scorm-cloud-api.md §6.2
   * `instanced` describes); with it off the learner's registration is reused.
   */
  relaunch(i: number): { state: RegState; created: boolean } {
    const current = this.registrations.get(i)
    if (!current) throw new InvalidInputError(`no registration #${i}`)
    const d = this.catalog.dispatch(current.dispatchIdx)
    if (!d.instanced) return { state: this.changeRegistration(i, {}), created: false }
    const now = this.clock()
    const state = this.registrations.add(d.idx, d.destinationIdx, d.courseIdx, now, current.learnerNo)
    this.catalog.updateDispatch(d.idx, { registrationCount: d.registrationCount + 1 })
    return { state, created: true }
  }

  /** Applies progress changes and bumps `updated`; fills access dates a real launch would set. */
  changeRegistration(i: number, changes: RegistrationChanges): RegState {
    const current = this.registrations.get(i)
    if (!current) throw new InvalidInputError(`no registration #${i}`)
    const next: RegState = { ...current }
    const now = Math.max(this.clock(), current.updatedMs + 1)
    if (changes.registrationCompletion !== undefined) next.completion = changes.registrationCompletion
    if (changes.registrationSuccess !== undefined) next.success = changes.registrationSuccess
    if (changes.score !== undefined) next.score = changes.score
    if (changes.totalSecondsTracked !== undefined) next.seconds = changes.totalSecondsTracked
    if (changes.registrationCompletionAmount !== undefined) next.amount = changes.registrationCompletionAmount
    if (changes.instance !== undefined) next.instance = changes.instance
    if (changes.lastAccessDate !== undefined) {
      const ms = Date.parse(changes.lastAccessDate)
      if (Number.isNaN(ms)) throw new InvalidInputError(`Invalid lastAccessDate: ${changes.lastAccessDate}`)
      next.lastAccessMs = ms
    } else if (next.completion !== 'UNKNOWN' && next.completion !== current.completion) {
      next.lastAccessMs = now
    }
    if (next.lastAccessMs !== null && next.firstAccessMs === null) next.firstAccessMs = Math.min(next.lastAccessMs, now)
    if (next.completion === 'COMPLETED' && next.completedMs === null) next.completedMs = next.lastAccessMs ?? now
    if (next.completion !== 'COMPLETED') next.completedMs = null
    if (next.completion === 'COMPLETED') next.amount = 100
    next.updatedMs = now
    this.registrations.put(next)
    return next
  }
}
