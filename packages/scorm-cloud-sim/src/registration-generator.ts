/**
 * On-demand registrations: registration i is a pure function of (seed, i) and its dispatch,
 * so a million of them cost nothing until read. Changed ones live in the store's overlay
 * as the same numeric RegState.
 */
import { createHash } from 'node:crypto'
import { learnerNumber } from './dispatch-generator'
import { STREAM, chance, hex8, intBetween, mix32, pick, rngFor, uuidFrom } from './prng'
import {
  DAY,
  HOUR,
  SECOND,
  iso,
  toSecond,
  type CourseRecord,
  type DestinationRecord,
  type DispatchRecord,
} from './records'
import type {
  LearnerSchema,
  RegistrationCompletion,
  RegistrationSchema,
  RegistrationSuccess,
} from '@portal/server/scorm-cloud-types'
import { dispatchOfIndex, type World } from './world'
import { FIRST_NAMES, LAST_NAMES, slugify } from './words'

/** Score at or above which a scored course counts as passed. */
export const MASTERY_SCORE = 70

export interface RegState {
  i: number
  dispatchIdx: number
  /** Learner number inside the destination's learner pool. */
  learnerNo: number
  createdMs: number
  updatedMs: number
  firstAccessMs: number | null
  lastAccessMs: number | null
  completedMs: number | null
  completion: RegistrationCompletion
  success: RegistrationSuccess
  /** 0..100, null = unscored. */
  score: number | null
  seconds: number
  amount: number
  instance: number
}

/** Current records by index (overlay-aware), supplied by the store. */
export interface RecordLookup {
  course(idx: number): CourseRecord
  destination(idx: number): DestinationRecord
  dispatch(idx: number): DispatchRecord
}

export function deriveRegistration(world: World, i: number): RegState {
  const { layout, epochMs } = world
  const d = dispatchOfIndex(layout, i)
  const dispatch = world.dispatches[d] as DispatchRecord
  const course = world.courses[dispatch.courseIdx] as CourseRecord
  const start = layout.regStart[d] as number
  const k = i - start
  const count = (layout.regStart[d + 1] as number) - start
  const rng = rngFor(world.seed, STREAM.registration, i)
  // Spread over the dispatch's lifetime and monotonic in k, so each dispatch's range is
  // already sorted by creation date.
  const from = dispatch.createdMs + HOUR
  const span = Math.max(0, epochMs - HOUR - from)
  const createdMs = toSecond(from + (span * (k + rng())) / count)
  const ageDays = (epochMs - createdMs) / DAY
  const u = rng()
  const completion: RegistrationCompletion =
    u < 0.12 + (ageDays < 14 ? 0.2 : 0) ? 'UNKNOWN' : u < 0.45 + (ageDays < 30 ? 0.2 : 0) ? 'INCOMPLETE' : 'COMPLETED'
  const state: RegState = {
    i,
    dispatchIdx: d,
    learnerNo: learnerNumber(layout, d, dispatch.destinationIdx, k),
    createdMs,
    updatedMs: createdMs,
    firstAccessMs: null,
    lastAccessMs: null,
    completedMs: null,
    completion,
    success: 'UNKNOWN',
    score: null,
    seconds: 0,
    amount: 0,
    instance: 0,
  }
  if (completion === 'UNKNOWN') return state // never launched: no access dates
  // Windows shrink with the time left before the epoch, so recent registrations get
  // plausible (short) histories instead of dates piled up at the epoch.
  const limit = epochMs - 60 * SECOND
  const first = toSecond(createdMs + rng() * Math.min(3 * DAY, Math.max(0, limit - createdMs) * 0.25))
  const last = toSecond(
    first + rng() * Math.min((completion === 'COMPLETED' ? 20 : 45) * DAY, Math.max(0, limit - first) * 0.9),
  )
  state.firstAccessMs = first
  state.lastAccessMs = last
  state.updatedMs = Math.min(epochMs, last + intBetween(rng, 1, 30) * SECOND)
  state.instance = dispatch.instanced && chance(rng, 0.1) ? intBetween(rng, 1, 2) : 0
  if (completion === 'COMPLETED') {
    state.completedMs = last
    state.amount = 100
    state.seconds = Math.min(intBetween(rng, 600, 9_000), sessionBound(first, last))
    if (course.scored) {
      state.score = Math.min(100, intBetween(rng, 35, 100) + (chance(rng, 0.5) ? 10 : 0))
      state.success = state.score >= MASTERY_SCORE ? 'PASSED' : 'FAILED'
    } else {
      state.success = chance(rng, 0.6) ? 'PASSED' : 'UNKNOWN'
    }
  } else {
    state.amount = intBetween(rng, 5, 95)
    state.seconds = Math.min(intBetween(rng, 60, 3_600), sessionBound(first, last))
    if (course.scored && chance(rng, 0.2)) {
      state.score = intBetween(rng, 10, MASTERY_SCORE - 1) // a failed quiz attempt, still in progress
      state.success = 'FAILED'
    }
  }
  return state
}

/** Tracked time cannot exceed the span between first and last access plus one long session. */
function sessionBound(firstMs: number, lastMs: number): number {
  return Math.max(60, Math.round((lastMs - firstMs) / SECOND) + 2 * 3_600)
}

// Registration ids look like UUIDs; the first block is a seeded 32-bit permutation of the
// index (4-round Feistel), so an id maps back to its index without any lookup table.
const keyCache = new Map<number, number[]>()
function roundKeys(seed: number): number[] {
  let keys = keyCache.get(seed)
  if (!keys) {
    keys = [1, 2, 3, 4].map((n) => mix32(seed ^ Math.imul(n, 0x27d4eb2d)))
    keyCache.set(seed, keys)
  }
  return keys
}

function feistel(x: number, keys: number[]): number {
  let l = x >>> 16
  let r = x & 0xffff
  for (const key of keys) {
    const t = r
    r = l ^ (mix32(r ^ key) & 0xffff)
    l = t
  }
  return ((l << 16) | r) >>> 0
}

function unfeistel(x: number, keys: number[]): number {
  let l = x >>> 16
  let r = x & 0xffff
  for (const key of [...keys].reverse()) {
    const t = l
    l = r ^ (mix32(l ^ key) & 0xffff)
    r = t
  }
  return ((l << 16) | r) >>> 0
}

export function registrationId(seed: number, i: number): string {
  const head = hex8(feistel(i, roundKeys(seed)))
  return head + uuidFrom(seed, STREAM.regId, i).slice(8)
}

/** Index encoded in an id, or -1 when the id was not produced by registrationId. */
export function registrationIndex(seed: number, id: string): number {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) return -1
  const i = unfeistel(parseInt(id.slice(0, 8), 16), roundKeys(seed))
  return registrationId(seed, i) === id ? i : -1
}

/** "O'Brien" -> "obrien", "Müller" -> "muller"; cached, the name lists are short. */
const emailParts = new Map<string, string>()
function emailPart(name: string): string {
  let part = emailParts.get(name)
  if (part === undefined) {
    part = slugify(name).replace(/-/g, '')
    emailParts.set(name, part)
  }
  return part
}

export function learnerId(destination: DestinationRecord, learnerNo: number): string {
  return `${destination.id}-${String(learnerNo).padStart(5, '0')}`
}

/** Learner identity: a few have no e-mail, a few send "Last, First" in lastName (as SCORM 1.2 LMSs do). */
export function learnerFor(seed: number, destination: DestinationRecord, learnerNo: number): LearnerSchema {
  const rng = rngFor(seed, STREAM.learner, destination.idx, learnerNo)
  const firstName = pick(rng, FIRST_NAMES)
  const lastName = pick(rng, LAST_NAMES)
  const id = learnerId(destination, learnerNo)
  const style = rng()
  if (style < 0.03) return { id, firstName: '', lastName: `${lastName}, ${firstName}` }
  if (style < 0.11) return { id, firstName, lastName }
  const local = `${emailPart(firstName)}.${emailPart(lastName)}${learnerNo}`
  return { id, firstName, lastName, email: `${local}@${destination.domain}` }
}

/** A learner's value as SCORM Cloud sends it with hashUserInfo on: a stable SHA-256 hex; empty stays empty. */
export const hashedUserInfo = (value: string) => (value ? createHash('sha256').update(value).digest('hex') : value)

/**
 * The learner as sent: with hashUserInfo on for the dispatch (else its destination), the names
 * and the e-mail are hashed (the id is kept, as the LMS's learner key). The simulator applies the
 * setting as it answers, to every registration of the dispatch.
 */
function learnerAsSent(learner: LearnerSchema, hashed: boolean): LearnerSchema {
  if (!hashed) return learner
  const sent: LearnerSchema = {
    ...learner,
    firstName: hashedUserInfo(learner.firstName ?? ''),
    lastName: hashedUserInfo(learner.lastName ?? ''),
  }
  if (learner.email !== undefined) sent.email = hashedUserInfo(learner.email)
  return sent
}

export function registrationToJson(seed: number, s: RegState, lookup: RecordLookup): RegistrationSchema {
  const dispatch = lookup.dispatch(s.dispatchIdx)
  const course = lookup.course(dispatch.courseIdx)
  const destination = lookup.destination(dispatch.destinationIdx)
  const json: RegistrationSchema = {
    id: registrationId(seed, s.i),
    instance: s.instance,
    xapiRegistrationId: uuidFrom(seed, STREAM.regId, s.i, 1),
    dispatchId: dispatch.id,
    updated: iso(s.updatedMs),
    registrationCompletion: s.completion,
    registrationCompletionAmount: s.amount,
    registrationSuccess: s.success,
    totalSecondsTracked: s.seconds,
    createdDate: iso(s.createdMs),
    course: { id: course.id, title: course.title, version: course.version },
    learner: learnerAsSent(
      learnerFor(seed, destination, s.learnerNo),
      dispatch.hashUserInfo ?? destination.hashUserInfo ?? false,
    ),
  }
  if (s.score !== null) json.score = { scaled: s.score }
  if (s.firstAccessMs !== null) json.firstAccessDate = iso(s.firstAccessMs)
  if (s.lastAccessMs !== null) json.lastAccessDate = iso(s.lastAccessMs)
  if (s.completedMs !== null) json.completedDate = iso(s.completedMs)
  return json
}
