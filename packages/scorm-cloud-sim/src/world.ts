/** The generated base data: everything derived from the options, nothing mutated later. */
import { generateCourses, generateDestinations } from './catalog-generator'
import { generateDispatches, type RegistrationLayout } from './dispatch-generator'
import type { SimulatorOptions } from './options'
import type { CourseRecord, DestinationRecord, DispatchRecord } from './records'

export interface World {
  seed: number
  epochMs: number
  courses: readonly CourseRecord[]
  destinations: readonly DestinationRecord[]
  dispatches: readonly DispatchRecord[]
  layout: RegistrationLayout
  /** Number of generated (base) registrations; indices 0 .. registrationCount - 1. */
  registrationCount: number
}

export function generateWorld(options: Pick<SimulatorOptions, 'seed' | 'sizes' | 'epoch'>): World {
  const epochMs = Date.parse(options.epoch)
  const courses = generateCourses(options.seed, options.sizes.courses, epochMs)
  const destinations = generateDestinations(options.seed, options.sizes.destinations, epochMs)
  const { dispatches, layout } = generateDispatches(options.seed, options.sizes, courses, destinations, epochMs)
  // Base records are shared with every reader; changes go to the store's overlay instead.
  for (const record of [...courses, ...destinations, ...dispatches]) {
    Object.freeze(record.tags)
    Object.freeze(record)
  }
  return {
    seed: options.seed,
    epochMs,
    courses,
    destinations,
    dispatches,
    layout,
    registrationCount: layout.regStart[dispatches.length] ?? 0,
  }
}

/** Dispatch owning base registration i: the last d with regStart[d] <= i (empty ranges skipped). */
export function dispatchOfIndex(layout: RegistrationLayout, i: number): number {
  const starts = layout.regStart
  let lo = 0
  let hi = starts.length - 2
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if ((starts[mid] as number) <= i) lo = mid
    else hi = mid - 1
  }
  return lo
}
