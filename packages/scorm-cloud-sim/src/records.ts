/**
 * Internal records (times as epoch milliseconds, relations as array indices) and their
 * conversion to the API JSON shapes. Keeping numbers internally makes filtering and
 * sorting cheap; ISO strings are only built for what is actually sent.
 */
import type {
  CourseLearningStandard,
  CourseSchema,
  DestinationInfoSchema,
  DispatchSchema,
  LaunchAuthSchema,
  PostBackSchema,
} from '@portal/server/scorm-cloud-types'

export const SECOND = 1_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

export interface CourseRecord {
  idx: number
  id: string
  title: string
  createdMs: number
  updatedMs: number
  version: number
  standard: CourseLearningStandard
  tags: string[]
  /** Whether the course reports a score (internal; drives registration scores). */
  scored: boolean
  xapiActivityId: string
}

export interface DestinationRecord {
  idx: number
  id: string
  name: string
  createdMs: number
  updatedMs: number
  tags: string[]
  email: string
  notes?: string
  launchAuth?: LaunchAuthSchema
  /** PUT …/destinations/{id}/dispatches/hashUserInfo; absent = never set (off). */
  hashUserInfo?: boolean
  /** E-mail domain of the company's learners (internal). */
  domain: string
}

export interface DispatchRecord {
  idx: number
  id: string
  courseIdx: number
  destinationIdx: number
  createdMs: number
  updatedMs: number
  allowNewRegistrations: boolean
  enabled: boolean
  instanced: boolean
  registrationCap: number
  registrationCount: number
  /** Last DELETE …/registrationCount (docs/scorm-cloud-api.md §6.2 `registrationResetDate`, v5); absent = never. */
  registrationResetMs?: number
  expirationMs: number | null
  tags: string[]
  email: string
  notes?: string
  postBack?: PostBackSchema
  /** PUT …/dispatches/{id}/hashUserInfo; absent = the destination's setting. */
  hashUserInfo?: boolean
}

/** ISO 8601 in UTC; the date part is cached per day because list pages format many dates. */
const dayPrefix = new Map<number, string>()
export function iso(ms: number): string {
  const day = Math.floor(ms / DAY)
  let prefix = dayPrefix.get(day)
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11)
    if (dayPrefix.size > 20_000) dayPrefix.clear()
    dayPrefix.set(day, prefix)
  }
  const rest = ms - day * DAY
  const h = Math.floor(rest / HOUR)
  const m = Math.floor((rest % HOUR) / 60_000)
  const s = Math.floor((rest % 60_000) / SECOND)
  const milli = rest % SECOND
  return `${prefix}${two(h)}:${two(m)}:${two(s)}.${String(milli).padStart(3, '0')}Z`
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n))

/** Floors to whole seconds: generated dates carry `.000Z` like many provider dates. */
export const toSecond = (ms: number): number => Math.floor(ms / SECOND) * SECOND

export function courseToJson(
  c: CourseRecord,
  extra: { dispatched: boolean; registrationCount?: number },
): CourseSchema {
  const json: CourseSchema = {
    id: c.id,
    title: c.title,
    xapiActivityId: c.xapiActivityId,
    created: iso(c.createdMs),
    updated: iso(c.updatedMs),
    version: c.version,
    courseLearningStandard: c.standard,
    tags: [...c.tags],
    dispatched: extra.dispatched,
  }
  if (extra.registrationCount !== undefined) json.registrationCount = extra.registrationCount
  return json
}

export function destinationToJson(d: DestinationRecord, dispatchCount?: number): DestinationInfoSchema {
  const json: DestinationInfoSchema = {
    name: d.name,
    created: iso(d.createdMs),
    updated: iso(d.updatedMs),
    tags: [...d.tags],
    email: d.email,
  }
  if (d.notes !== undefined) json.notes = d.notes
  if (d.launchAuth !== undefined) json.launchAuth = structuredClone(d.launchAuth)
  if (dispatchCount !== undefined) json.dispatchCount = dispatchCount
  return json
}

export function dispatchToJson(
  d: DispatchRecord,
  course: CourseRecord,
  destination: DestinationRecord,
): DispatchSchema {
  const json: DispatchSchema = {
    destinationId: destination.id,
    destinationName: destination.name,
    courseId: course.id,
    courseTitle: course.title,
    created: iso(d.createdMs),
    updated: iso(d.updatedMs),
    allowNewRegistrations: d.allowNewRegistrations,
    enabled: d.enabled,
    instanced: d.instanced,
    registrationCap: d.registrationCap,
    registrationCount: d.registrationCount,
    tags: [...d.tags],
    email: d.email,
  }
  // No expiry is sent as an absent field; clients must also accept null, "" and "none".
  if (d.expirationMs !== null) json.expirationDate = iso(d.expirationMs)
  if (d.notes !== undefined) json.notes = d.notes
  if (d.registrationResetMs !== undefined) json.registrationResetDate = iso(d.registrationResetMs)
  return json
}
