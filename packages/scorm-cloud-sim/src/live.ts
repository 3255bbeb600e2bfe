/**
 * Live mode: every interval a batch of learners makes progress (and a few new learners
 * launch a dispatch); each changed registration is handed to `onChange` (postbacks).
 * Choices come from a seeded stream, so two runs make the same sequence of changes; only
 * the timestamps follow the clock.
 */
import { advance, canAdvance } from './progress'
import { STREAM, chance, rngFor, type Rng } from './prng'
import type { RegState } from './registration-generator'
import type { LiveOptions } from './options'
import type { SimStore } from './store'

export class LiveRunner {
  private timer: NodeJS.Timeout | null = null
  private readonly rng: Rng

  constructor(
    private readonly store: SimStore,
    private readonly options: LiveOptions,
    private readonly onChange: (state: RegState) => void,
    private readonly log: (line: string) => void,
  ) {
    this.rng = rngFor(store.world.seed, STREAM.live, 0)
  }

  start(): void {
    if (this.timer || this.options.intervalMs <= 0) return
    this.timer = setInterval(() => {
      try {
        this.tick()
      } catch (error) {
        // A bad tick must not take the simulator down; the next one tries again.
        this.log(`live tick failed: ${String(error)}`)
      }
    }, this.options.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** One round of progress; returns the changed registrations. */
  tick(): RegState[] {
    const changed: RegState[] = []
    const seen = new Set<number>()
    for (let n = 0; n < this.options.batchSize; n++) {
      const relaunch = this.options.relaunchRate > 0 && chance(this.rng, this.options.relaunchRate)
      const state = relaunch
        ? this.relaunchOne()
        : chance(this.rng, this.options.newRegistrationRate)
          ? this.newRegistration()
          : this.progressOne(seen)
      if (!state) continue
      seen.add(state.i)
      changed.push(state)
      this.onChange(state)
    }
    return changed
  }

  /** Moves one registration that is not finished yet; gives up after a bounded search. */
  private progressOne(seen: Set<number>): RegState | null {
    const { registrations, catalog, clock } = this.store
    const total = registrations.total
    for (let attempt = 0; attempt < 50 && total > 0; attempt++) {
      const i = Math.floor(this.rng() * total)
      if (seen.has(i)) continue
      const current = registrations.get(i)
      if (!current || !canAdvance(current)) continue
      const course = this.store.world.courses[catalog.dispatch(current.dispatchIdx).courseIdx]
      const next = advance(current, course?.scored ?? false, clock(), this.rng)
      registrations.put(next)
      return next
    }
    return null
  }

  /** A learner who started a course launches it again from the LMS (docs/scorm-cloud-api.md §6.2 `instanced`). */
  private relaunchOne(): RegState | null {
    const total = this.store.registrations.total
    if (total === 0) return null
    const i = Math.floor(this.rng() * total)
    const current = this.store.registrations.get(i)
    if (!current || current.lastAccessMs === null) return null
    if (!this.store.acceptsNewRegistrations(current.dispatchIdx, this.store.clock())) return null
    return this.store.relaunch(i).state
  }

  /** A learner launches an open dispatch for the first time. */
  private newRegistration(): RegState | null {
    const dispatches = this.store.catalog.dispatches()
    const now = this.store.clock()
    for (let attempt = 0; attempt < 20 && dispatches.length > 0; attempt++) {
      const d = dispatches[Math.floor(this.rng() * dispatches.length)]
      if (d && this.store.acceptsNewRegistrations(d.idx, now)) return this.store.addRegistration(d.idx)
    }
    return null
  }
}
