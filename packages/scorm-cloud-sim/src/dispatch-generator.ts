/**
 * Generates dispatches and the layout of the (never materialised) registrations.
 *
 * Registration i belongs to exactly one dispatch: dispatch d owns the contiguous index range
 * [regStart[d], regStart[d + 1]). Only these offsets (one Int32Array of D + 1 entries) and a
 * few per-dispatch/per-destination numbers are kept; each registration's fields are derived
 * on demand from hash(seed, i) plus its dispatch (registration-generator.ts).
 */
import { allocate } from './allocate'
import { between } from './catalog-generator'
import { STREAM, chance, hash, intBetween, pick, rngFor, shuffleHead, uuidFrom } from './prng'
import { DAY, type CourseRecord, type DestinationRecord, type DispatchRecord } from './records'
import type { SimulatorSizes } from './options'
import { DISPATCH_NOTES, DISPATCH_TAGS, REALM_OWNER_EMAIL } from './words'

export interface RegistrationLayout {
  /** regStart[d] .. regStart[d + 1] - 1 are the registration indices of dispatch d. */
  regStart: Int32Array
  /** Per dispatch: learner-number offset inside its destination's learner pool. */
  learnerOffset: Int32Array
  /** Per destination: learner pool size and a stride coprime to it (see learnerNumber). */
  poolSize: Int32Array
  poolStride: Int32Array
  bigDispatchIdx: number
}

const ROUND_CAPS = [10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000]
const STRIDE_PRIMES = [7_919, 104_729, 1_299_709, 15_485_863]

export function generateDispatches(
  seed: number,
  sizes: SimulatorSizes,
  courses: CourseRecord[],
  destinations: DestinationRecord[],
  epochMs: number,
): { dispatches: DispatchRecord[]; layout: RegistrationLayout } {
  const pairs = choosePairs(seed, sizes.dispatches, courses.length, destinations.length)
  const counts = registrationCounts(seed, sizes, pairs.length)
  const dispatches = pairs.map(([courseIdx, destinationIdx], idx) =>
    makeDispatch(
      seed,
      idx,
      courses[courseIdx] as CourseRecord,
      destinations[destinationIdx] as DestinationRecord,
      counts.perDispatch[idx] ?? 0,
      epochMs,
    ),
  )
  ensureVariety(seed, dispatches, epochMs)
  return { dispatches, layout: buildLayout(seed, dispatches, destinations.length, counts.bigIdx) }
}

/** [courseIdx, destinationIdx] per dispatch; distinct courses per destination = one dispatch per pair. */
function choosePairs(
  seed: number,
  total: number,
  courseCount: number,
  destinationCount: number,
): Array<[number, number]> {
  const rng = rngFor(seed, STREAM.dispatchAlloc, 0xffff_ffff)
  const weights = Array.from({ length: destinationCount }, () => 0.2 + rng() * rng() * 3)
  const perDestination = allocate(total, weights, courseCount)
  const pairs: Array<[number, number]> = []
  perDestination.forEach((count, destinationIdx) => {
    const order = shuffleHead(
      rngFor(seed, STREAM.dispatchAlloc, destinationIdx),
      Array.from({ length: courseCount }, (_, i) => i),
      count,
    )
    for (let k = 0; k < count; k++) pairs.push([order[k] as number, destinationIdx])
  })
  return pairs
}

function registrationCounts(
  seed: number,
  sizes: SimulatorSizes,
  dispatchCount: number,
): { perDispatch: number[]; bigIdx: number } {
  if (dispatchCount === 0) return { perDispatch: [], bigIdx: -1 }
  const rng = rngFor(seed, STREAM.dispatchAlloc, 0xffff_fffe)
  const big = sizes.bigDispatchRegistrations > 0 ? Math.floor(rng() * dispatchCount) : -1
  // Skewed weights, some zero: a few busy dispatches, many small ones, some never used.
  const weights = Array.from({ length: dispatchCount }, (_, d) =>
    d === big ? 0 : chance(rng, 0.1) ? 0 : 0.05 + rng() ** 2,
  )
  const rest = sizes.registrations - (big >= 0 ? sizes.bigDispatchRegistrations : 0)
  let usable = weights
  if (usable.every((w) => w === 0)) usable = weights.map((_, d) => (d === big ? 0 : 1))
  if (usable.every((w) => w === 0)) usable = weights.map(() => 1) // the big dispatch is the only one
  const perDispatch = allocate(rest, usable)
  if (big >= 0) perDispatch[big] = (perDispatch[big] ?? 0) + sizes.bigDispatchRegistrations
  return { perDispatch, bigIdx: big }
}

function makeDispatch(
  seed: number,
  idx: number,
  course: CourseRecord,
  destination: DestinationRecord,
  count: number,
  epochMs: number,
): DispatchRecord {
  const rng = rngFor(seed, STREAM.dispatch, idx)
  const createdMs = between(rng, Math.max(course.createdMs, destination.createdMs), epochMs - 30 * DAY)
  const updatedMs = chance(rng, 0.5) ? createdMs : between(rng, createdMs, epochMs - DAY)
  const expiry = rng()
  const expirationMs =
    expiry < 0.08
      ? between(rng, createdMs + DAY, epochMs - DAY) // expired before the epoch
      : expiry < 0.28
        ? between(rng, epochMs + 730 * DAY, epochMs + 1460 * DAY) // far enough to stay in the future for years
        : null
  const record: DispatchRecord = {
    idx,
    id: uuidFrom(seed, STREAM.uuid, idx),
    courseIdx: course.idx,
    destinationIdx: destination.idx,
    createdMs,
    updatedMs,
    allowNewRegistrations: chance(rng, 0.92),
    enabled: chance(rng, 0.88),
    instanced: chance(rng, 0.4),
    registrationCap: capFor(rng, count),
    registrationCount: count,
    expirationMs,
    tags: shuffleHead(rng, [...DISPATCH_TAGS], 2).slice(0, intBetween(rng, 0, 2)),
    email: REALM_OWNER_EMAIL,
  }
  if (chance(rng, 0.3)) record.notes = pick(rng, DISPATCH_NOTES)
  return record
}

/** 0 = unlimited for about a third; about 1 in 10 of the rest sit over their cap. */
function capFor(rng: () => number, count: number): number {
  if (chance(rng, 0.35)) return 0
  if (count >= 2 && chance(rng, 0.1)) return Math.max(1, Math.floor(count * (0.4 + 0.5 * rng())))
  const fit = ROUND_CAPS.findIndex((cap) => cap >= count)
  if (fit < 0) return Math.ceil((count * 2) / 1000) * 1000
  return ROUND_CAPS[Math.min(ROUND_CAPS.length - 1, fit + (chance(rng, 0.4) ? 1 : 0))] as number
}

/** Guarantees the demo shows every dispatch state, whatever the seed (needs at least 4 dispatches). */
function ensureVariety(seed: number, dispatches: DispatchRecord[], epochMs: number): void {
  if (dispatches.length < 4) return
  const rng = rngFor(seed, STREAM.variety, 0)
  const forced = new Set<number>()
  const take = (prefer: (d: DispatchRecord) => boolean): DispatchRecord => {
    const candidates = dispatches.filter((d) => !forced.has(d.idx) && prefer(d))
    const pool = candidates.length > 0 ? candidates : dispatches.filter((d) => !forced.has(d.idx))
    const chosen = pick(rng, pool)
    forced.add(chosen.idx)
    return chosen
  }
  if (!dispatches.some((d) => d.registrationCap === 0)) take(() => true).registrationCap = 0
  if (!dispatches.some((d) => !d.enabled)) take(() => true).enabled = false
  if (!dispatches.some((d) => d.expirationMs !== null && d.expirationMs < epochMs)) {
    const d = take(() => true)
    d.expirationMs = between(rng, d.createdMs + DAY, epochMs - DAY)
  }
  if (!dispatches.some((d) => d.registrationCap > 0 && d.registrationCount > d.registrationCap)) {
    const d = take((x) => x.registrationCount >= 2)
    if (d.registrationCount >= 2) d.registrationCap = Math.max(1, Math.floor(d.registrationCount / 2))
  }
}

function buildLayout(
  seed: number,
  dispatches: DispatchRecord[],
  destinationCount: number,
  bigIdx: number,
): RegistrationLayout {
  const regStart = new Int32Array(dispatches.length + 1)
  const total = new Float64Array(destinationCount)
  const largest = new Int32Array(destinationCount)
  dispatches.forEach((d, i) => {
    regStart[i + 1] = (regStart[i] ?? 0) + d.registrationCount
    total[d.destinationIdx] = (total[d.destinationIdx] ?? 0) + d.registrationCount
    largest[d.destinationIdx] = Math.max(largest[d.destinationIdx] ?? 0, d.registrationCount)
  })
  // A pool at least as large as the biggest dispatch lets learnerNumber() be injective per
  // dispatch (no learner twice in one dispatch) while learners still recur across dispatches.
  const poolSize = new Int32Array(destinationCount)
  const poolStride = new Int32Array(destinationCount)
  for (let t = 0; t < destinationCount; t++) {
    const size = Math.max(1, largest[t] ?? 0, Math.ceil((total[t] ?? 0) * 0.7))
    poolSize[t] = size
    poolStride[t] = STRIDE_PRIMES.find((p) => size % p !== 0 && p % size !== 0) ?? 1
  }
  const learnerOffset = new Int32Array(dispatches.length)
  dispatches.forEach((d, i) => {
    learnerOffset[i] = hash(seed, STREAM.learner, i) % (poolSize[d.destinationIdx] ?? 1)
  })
  return { regStart, learnerOffset, poolSize, poolStride, bigDispatchIdx: bigIdx }
}

/** Learner number of the k-th registration of a dispatch: (offset + k * stride) mod pool. */
export function learnerNumber(
  layout: RegistrationLayout,
  dispatchIdx: number,
  destinationIdx: number,
  k: number,
): number {
  const pool = layout.poolSize[destinationIdx] ?? 1
  const stride = layout.poolStride[destinationIdx] ?? 1
  return ((layout.learnerOffset[dispatchIdx] ?? 0) + ((k * stride) % pool)) % pool
}
