/**
 * Courses, destinations and dispatches as seen through the API: the frozen generated
 * records plus an overlay of copies for the ones changed at run time (PUT, test helpers,
 * live mode). Reads return the overlay copy when there is one.
 */
import type { CourseRecord, DestinationRecord, DispatchRecord } from './records'
import type { World } from './world'

export class CatalogStore {
  private readonly courseOverlay = new Map<number, CourseRecord>()
  private readonly destinationOverlay = new Map<number, DestinationRecord>()
  private readonly extraDestinations: DestinationRecord[] = []
  private readonly dispatchOverlay = new Map<number, DispatchRecord>()
  /** Dispatches created through POST /dispatch/dispatches, after the generated ones. */
  private readonly extraDispatches: DispatchRecord[] = []
  private readonly removed = new Set<number>()
  private readonly courseIds = new Map<string, number>()
  private readonly destinationIds = new Map<string, number>()
  private readonly dispatchIds = new Map<string, number>()
  private readonly dispatchesPerCourse: Int32Array
  private readonly dispatchesPerDestination: number[]
  /** Changes on every write; list caches key on it. */
  version = 0

  constructor(
    private readonly world: World,
    private readonly clock: () => number,
  ) {
    world.courses.forEach((c) => this.courseIds.set(c.id, c.idx))
    world.destinations.forEach((d) => this.destinationIds.set(d.id, d.idx))
    this.dispatchesPerCourse = new Int32Array(world.courses.length)
    this.dispatchesPerDestination = new Array<number>(world.destinations.length).fill(0)
    for (const d of world.dispatches) {
      if (this.dispatchIds.has(d.id)) throw new Error(`duplicate generated dispatch id ${d.id}`)
      this.dispatchIds.set(d.id, d.idx)
      this.dispatchesPerCourse[d.courseIdx] = (this.dispatchesPerCourse[d.courseIdx] ?? 0) + 1
      this.dispatchesPerDestination[d.destinationIdx] = (this.dispatchesPerDestination[d.destinationIdx] ?? 0) + 1
    }
  }

  /** A strictly newer `updated` than before, even if the clock is coarse or behind. */
  bump(previousMs: number): number {
    return Math.max(this.clock(), previousMs + 1)
  }

  /** Copy-on-write: the patched copy goes in the overlay; `touch` also bumps `updated`. */
  private write<T extends { tags: string[]; updatedMs: number }>(
    overlay: Map<number, T>,
    idx: number,
    previous: T,
    patch: Partial<NoInfer<T>>,
    touch = true,
  ): T {
    const next = patched(previous, patch)
    if (touch) next.updatedMs = this.bump(previous.updatedMs)
    overlay.set(idx, next)
    this.version++
    return next
  }

  course(idx: number): CourseRecord {
    return current(this.courseOverlay, this.world.courses, [], idx, 'course')
  }

  courses(): CourseRecord[] {
    return this.world.courses.map((c) => this.courseOverlay.get(c.idx) ?? c)
  }

  findCourse(id: string): number | undefined {
    return this.courseIds.get(id)
  }

  courseDispatched(idx: number): boolean {
    return (this.dispatchesPerCourse[idx] ?? 0) > 0
  }

  updateCourse(idx: number, patch: Partial<Pick<CourseRecord, 'title' | 'version' | 'tags'>>): CourseRecord {
    return this.write(this.courseOverlay, idx, this.course(idx), patch)
  }

  destination(idx: number): DestinationRecord {
    return current(this.destinationOverlay, this.world.destinations, this.extraDestinations, idx, 'destination')
  }

  destinations(): DestinationRecord[] {
    const all = [...this.world.destinations, ...this.extraDestinations]
    return all.map((d) => this.destinationOverlay.get(d.idx) ?? d)
  }

  findDestination(id: string): number | undefined {
    return this.destinationIds.get(id)
  }

  dispatchCountOfDestination(idx: number): number {
    return this.dispatchesPerDestination[idx] ?? 0
  }

  /** PUT /dispatch/destinations/{id}: creates (name required) or changes the given fields. */
  upsertDestination(
    id: string,
    patch: Partial<Pick<DestinationRecord, 'name' | 'tags' | 'email' | 'notes' | 'launchAuth' | 'hashUserInfo'>>,
  ): DestinationRecord {
    const idx = this.findDestination(id)
    if (idx === undefined) {
      if (!patch.name) throw new Error('name is required to create a destination')
      const now = this.clock()
      const created: DestinationRecord = {
        idx: this.world.destinations.length + this.extraDestinations.length,
        id,
        name: patch.name,
        createdMs: now,
        updatedMs: now,
        tags: [...(patch.tags ?? [])],
        email: patch.email ?? 'owner@learning-provider.example',
        domain: `${id.replace(/[^a-z0-9]/gi, '').toLowerCase() || 'company'}.example`,
      }
      if (patch.notes !== undefined) created.notes = patch.notes
      if (patch.launchAuth !== undefined) created.launchAuth = patch.launchAuth
      this.extraDestinations.push(created)
      this.destinationIds.set(id, created.idx)
      this.dispatchesPerDestination.push(0)
      this.version++
      return created
    }
    return this.write(this.destinationOverlay, idx, this.destination(idx), patch)
  }

  dispatch(idx: number): DispatchRecord {
    return current(this.dispatchOverlay, this.world.dispatches, this.extraDispatches, idx, 'dispatch')
  }

  /** Any dispatch ever known by index (removed ones included), or undefined. */
  dispatchAt(idx: number): DispatchRecord | undefined {
    return idx >= 0 && idx < this.world.dispatches.length + this.extraDispatches.length ? this.dispatch(idx) : undefined
  }

  /** Dispatches still present upstream, generated ones first, then created ones. */
  dispatches(): DispatchRecord[] {
    const out: DispatchRecord[] = []
    for (const list of [this.world.dispatches, this.extraDispatches])
      for (const d of list) if (!this.removed.has(d.idx)) out.push(this.dispatchOverlay.get(d.idx) ?? d)
    return out
  }

  /** Whether the id was ever used, removed dispatches included (ids are never reused). */
  dispatchIdTaken(id: string): boolean {
    return this.dispatchIds.has(id)
  }

  /** The present dispatch of a course+destination pair (docs/scorm-cloud-api.md §6: at most one). */
  findDispatchOfPair(courseIdx: number, destinationIdx: number): number | undefined {
    return this.dispatches().find((d) => d.courseIdx === courseIdx && d.destinationIdx === destinationIdx)?.idx
  }

  /** POST /dispatch/dispatches: a new dispatch (the caller checked the id and the pair). */
  addDispatch(fields: Omit<DispatchRecord, 'idx' | 'createdMs' | 'updatedMs'>): DispatchRecord {
    const now = this.clock()
    const created: DispatchRecord = {
      ...fields,
      tags: [...fields.tags],
      idx: this.world.dispatches.length + this.extraDispatches.length,
      createdMs: now,
      updatedMs: now,
    }
    this.extraDispatches.push(created)
    this.dispatchIds.set(created.id, created.idx)
    this.dispatchesPerCourse[created.courseIdx] = (this.dispatchesPerCourse[created.courseIdx] ?? 0) + 1
    this.dispatchesPerDestination[created.destinationIdx] =
      (this.dispatchesPerDestination[created.destinationIdx] ?? 0) + 1
    this.version++
    return created
  }

  /** Index of a dispatch that still exists, else undefined. */
  findDispatch(id: string): number | undefined {
    const idx = this.dispatchIds.get(id)
    return idx === undefined || this.removed.has(idx) ? undefined : idx
  }

  /** Copy-on-write change; `touch` also bumps `updated` (API writes and helpers do, counters may not). */
  updateDispatch(idx: number, patch: Partial<DispatchRecord>, touch = true): DispatchRecord {
    return this.write(this.dispatchOverlay, idx, this.dispatch(idx), patch, touch)
  }

  /** Deleted upstream; its registrations stay, as registrations of the course. */
  removeDispatch(idx: number): boolean {
    if (this.removed.has(idx) || !this.dispatchAt(idx)) return false
    const d = this.dispatch(idx)
    this.removed.add(idx)
    this.dispatchesPerCourse[d.courseIdx] = (this.dispatchesPerCourse[d.courseIdx] ?? 1) - 1
    this.dispatchesPerDestination[d.destinationIdx] = (this.dispatchesPerDestination[d.destinationIdx] ?? 1) - 1
    this.version++
    return true
  }
}

/** The overlay's copy of record `idx`, else the generated record, else one created at run time. */
function current<T>(
  overlay: Map<number, T>,
  generated: readonly T[],
  created: readonly T[],
  idx: number,
  what: string,
): T {
  const record = overlay.get(idx) ?? generated[idx] ?? created[idx - generated.length]
  if (!record) throw new Error(`no ${what} #${idx}`)
  return record
}

/** A copy of the record with the patch's defined fields; the copy's tags array is its own. */
function patched<T extends { tags: string[] }>(record: T, patch: Partial<NoInfer<T>>): T {
  return { ...record, ...definedOnly(patch), tags: [...(patch.tags ?? record.tags)] }
}

/** Drops undefined values so a partial patch never erases a field by accident. */
function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>
}
