/**
 * Registrations: generated ones are derived on demand (registration-generator.ts); only
 * changed or added ones are held, as RegState in `states` (the overlay). A byte map marks
 * shadowed base indices so index scans can skip them in O(1).
 */
import type { DispatchRecord } from './records'
import { deriveRegistration, registrationIndex, type RegState } from './registration-generator'
import { RegistrationIndex } from './registration-index'
import type { RegSource } from './registration-query'
import type { World } from './world'

export class RegistrationStore implements RegSource {
  readonly index: RegistrationIndex
  dirty: Uint8Array | null = null
  private readonly states = new Map<number, RegState>()
  private nextIndex: number
  private readonly addedLearners = new Map<number, number>()
  private readonly perCourse: Int32Array

  constructor(
    readonly world: World,
    readonly dispatchAt: (idx: number) => DispatchRecord | undefined = (idx) => world.dispatches[idx],
  ) {
    this.index = new RegistrationIndex(world)
    this.nextIndex = world.registrationCount
    this.perCourse = new Int32Array(world.courses.length)
    const starts = world.layout.regStart
    world.dispatches.forEach((d, idx) => {
      this.perCourse[d.courseIdx] =
        (this.perCourse[d.courseIdx] ?? 0) + ((starts[idx + 1] as number) - (starts[idx] as number))
    })
  }

  /** Base plus added registrations. */
  get total(): number {
    return this.nextIndex
  }

  /** Registrations held in memory (changed or added). */
  get overlaySize(): number {
    return this.states.size
  }

  get(i: number): RegState | undefined {
    const held = this.states.get(i)
    if (held) return held
    return i >= 0 && i < this.world.registrationCount ? deriveRegistration(this.world, i) : undefined
  }

  findIndex(id: string): number {
    const i = registrationIndex(this.world.seed, id)
    return i >= 0 && i < this.nextIndex ? i : -1
  }

  /** Stores a changed registration (copy it first: states handed out must stay untouched). */
  put(state: RegState): void {
    if (state.i < this.world.registrationCount) {
      this.dirty ??= new Uint8Array(this.world.registrationCount)
      this.dirty[state.i] = 1
    }
    this.states.set(state.i, state)
  }

  /** A brand-new registration: by a learner new to the destination, or by `learnerNo` again (a relaunch). */
  add(dispatchIdx: number, destinationIdx: number, courseIdx: number, nowMs: number, learnerNo?: number): RegState {
    let learner = learnerNo
    if (learner === undefined) {
      const pool = this.world.layout.poolSize[destinationIdx] ?? 0
      const added = this.addedLearners.get(destinationIdx) ?? 0
      this.addedLearners.set(destinationIdx, added + 1)
      learner = pool + added
    }
    this.perCourse[courseIdx] = (this.perCourse[courseIdx] ?? 0) + 1
    const state: RegState = {
      i: this.nextIndex++,
      dispatchIdx,
      learnerNo: learner,
      createdMs: nowMs,
      updatedMs: nowMs,
      firstAccessMs: nowMs,
      lastAccessMs: nowMs,
      completedMs: null,
      completion: 'INCOMPLETE',
      success: 'UNKNOWN',
      score: null,
      seconds: 30,
      amount: 5,
      instance: 0,
    }
    this.states.set(state.i, state)
    return state
  }

  countForCourse(courseIdx: number): number {
    return this.perCourse[courseIdx] ?? 0
  }

  overlay(): Iterable<RegState> {
    return this.states.values()
  }

  *dirtyBase(): Iterable<number> {
    for (const i of this.states.keys()) if (i < this.world.registrationCount) yield i
  }
}
