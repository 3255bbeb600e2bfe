/** How a learner moves forward in live mode: not attempted -> incomplete -> completed (-> retake). */
import { chance, intBetween, type Rng } from './prng'
import { MASTERY_SCORE, type RegState } from './registration-generator'

/** Whether live mode can still move this registration (completed and not failed = done). */
export function canAdvance(state: RegState): boolean {
  return state.completion !== 'COMPLETED' || state.success === 'FAILED'
}

/** Next state after one more learner session ending at `nowMs`; the input is not modified. */
export function advance(state: RegState, scored: boolean, nowMs: number, rng: Rng): RegState {
  const next: RegState = { ...state }
  const now = Math.max(nowMs, state.updatedMs + 1)
  next.firstAccessMs ??= now
  next.lastAccessMs = now
  next.updatedMs = now
  next.seconds = state.seconds + intBetween(rng, 60, 900)
  if (state.completion === 'UNKNOWN') {
    next.completion = 'INCOMPLETE'
    next.amount = intBetween(rng, 5, 40)
    return next
  }
  if (state.completion === 'INCOMPLETE' && !chance(rng, 0.55)) {
    next.amount = Math.min(95, state.amount + intBetween(rng, 5, 30))
    return next
  }
  // Finishing the course, or retaking the final test after a failed attempt.
  next.completion = 'COMPLETED'
  next.amount = 100
  next.completedMs = now
  if (scored) {
    next.score = intBetween(rng, 40, 100)
    next.success = next.score >= MASTERY_SCORE ? 'PASSED' : 'FAILED'
  } else {
    next.success = chance(rng, 0.7) ? 'PASSED' : 'UNKNOWN'
  }
  return next
}
