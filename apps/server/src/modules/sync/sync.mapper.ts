import type {
  CourseSchema,
  DestinationIdSchema,
  DispatchIdSchema,
  RegistrationSchema,
} from '../scorm-cloud/scorm-cloud.types'
import { clampInstant, isStorableInstant } from '@portal/shared'
import { launchAuthColumns, type LaunchAuthColumns } from '../delivery/launch-auth'
import type { DispatchFields } from '../dispatches/dispatches.mapper'

/**
 * Provider JSON → mirror rows, following "Mapping to the portal" of
 * docs/scorm-cloud-api.md. Only provider-owned columns appear here: portal-owned
 * course fields (visibility, texts, image, level, demo URL) are never part of a sync row.
 */

export interface CourseRow {
  id: string
  title: string
  version: number | null
  providerCreated: Date | null
  providerUpdated: Date | null
  registrationCount: number
  tags: string[]
  learningStandard: string | null
  /** The SCORM Cloud application the course was read from (docs/product-rules.md §3 appSource). */
  appSource: string | null
}

export interface CompanyRow extends LaunchAuthColumns {
  id: string
  name: string
  providerCreated: Date | null
  providerUpdated: Date | null
}

export interface DispatchRow extends DispatchFields {
  /** null = not sent; the service falls back to the course mirror, then the id. */
  courseTitle: string | null
  /** null = not sent; the service falls back to the company mirror, then the id. */
  destinationName: string | null
  allowNewRegistrations: boolean
  instanced: boolean
  /** Last registration counter reset (docs/scorm-cloud-api.md §6.2 `registrationResetDate`, v5). */
  registrationResetDate: Date | null
}

export interface RegistrationRow {
  id: string
  instance: number
  dispatchId: string
  /** null = not sent; the service takes the dispatch's course. */
  courseId: string | null
  learnerId: string
  learnerFirstName: string
  learnerLastName: string
  learnerEmail: string
  completionStatus: 'completed' | 'incomplete' | 'not attempted'
  successStatus: 'passed' | 'failed' | 'unknown'
  scoreScaled: number | null
  totalSecondsTracked: number
  firstAccessDate: Date | null
  lastAccessDate: Date | null
  completedDate: Date | null
  createdDate: Date | null
  providerUpdated: Date | null
}

/** A page mapped: the rows to write, items refused as invalid, items deliberately left out. */
export interface Mapped<T> {
  rows: T[]
  errors: number
  ignored: number
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null)
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback)
const tagsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [])

const CALENDAR_DAY = /^\s*(\d{4})-(\d{2})-(\d{2})/

/**
 * ISO 8601 string → Date, at any date JavaScript can hold; null when unparsable, or when its
 * day does not exist (Date.parse rolls 2026-02-31 over to March 3).
 */
export function parseDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v.trim() === '') return null
  const ms = Date.parse(v)
  if (Number.isNaN(ms)) return null
  const day = CALENDAR_DAY.exec(v)
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])]
    const check = new Date(Date.UTC(2000, month - 1, date))
    check.setUTCFullYear(year) // Date.UTC maps years 0-99 to 1900-1999
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null
  }
  return new Date(ms)
}

/**
 * ISO 8601 string → Date; anything unparsable counts as absent, and so does a date the mirror
 * cannot store (outside 1000-9999, PostgreSQL refuses it and the page would fail).
 */
export function toDate(v: unknown): Date | null {
  const date = parseDate(v)
  return date && isStorableInstant(date) ? date : null
}

/**
 * docs/scorm-cloud-api.md §6.2: `null`, `""` and the older `"none"` all mean "never expires". An expiry the
 * mirror cannot store is moved to the nearest one it can: year 0 stays expired,
 * year 20000 stays far away, and the row is stored instead of failing every sync.
 */
export function toExpiration(v: unknown): Date | null {
  if (typeof v === 'string' && v.trim().toLowerCase() === 'none') return null
  const date = parseDate(v)
  return date ? clampInstant(date) : null
}

function mapAll<I, T>(items: readonly I[], one: (item: I) => T | null | 'ignore'): Mapped<T> {
  const out: Mapped<T> = { rows: [], errors: 0, ignored: 0 }
  for (const item of items) {
    const row = item && typeof item === 'object' ? one(item) : null
    if (row === null) out.errors += 1
    else if (row === 'ignore') out.ignored += 1
    else out.rows.push(row)
  }
  return out
}

export function mapCourse(c: CourseSchema, appSource: string | null = null): CourseRow | null {
  const id = str(c.id)
  if (!id) return null
  return {
    id,
    // docs/product-rules.md §3: title, then `Course {id}` (the course list schema has no separate name).
    title: str(c.title)?.trim() ?? `Course ${id}`,
    version: int(c.version),
    providerCreated: toDate(c.created),
    providerUpdated: toDate(c.updated),
    registrationCount: Math.max(0, int(c.registrationCount) ?? 0),
    tags: tagsOf(c.tags),
    learningStandard: str(c.courseLearningStandard),
    appSource,
  }
}

export function mapDestination(x: DestinationIdSchema): CompanyRow | null {
  const id = str(x.id)
  if (!id) return null
  const data = x.data ?? {}
  return {
    id,
    name: str(data.name)?.trim() ?? id,
    providerCreated: toDate(data.created),
    providerUpdated: toDate(data.updated),
    ...launchAuthColumns(data),
  }
}

export function mapDispatch(d: DispatchIdSchema): DispatchRow | null {
  const id = str(d.id)
  const data = d.data ?? {}
  const courseId = str(data.courseId)
  const destinationId = str(data.destinationId)
  // Without its course and destination a dispatch cannot be placed: an error, not a guess.
  if (!id || !courseId || !destinationId) return null
  return {
    id,
    courseId,
    courseTitle: str(data.courseTitle),
    destinationId,
    destinationName: str(data.destinationName),
    enabled: bool(data.enabled, true),
    allowNewRegistrations: bool(data.allowNewRegistrations, true),
    instanced: bool(data.instanced, false),
    registrationCount: Math.max(0, int(data.registrationCount) ?? 0),
    // 0, null or missing = unlimited (docs/scorm-cloud-api.md §6.2, docs/product-rules.md §3).
    registrationCap: Math.max(0, int(data.registrationCap) ?? 0),
    expirationDate: toExpiration(data.expirationDate),
    tags: tagsOf(data.tags),
    notes: typeof data.notes === 'string' ? data.notes : '',
    providerCreated: toDate(data.created),
    providerUpdated: toDate(data.updated),
    registrationResetDate: toDate(data.registrationResetDate),
  }
}

const COMPLETION = { COMPLETED: 'completed', INCOMPLETE: 'incomplete' } as const
const SUCCESS = { PASSED: 'passed', FAILED: 'failed' } as const

/** SCORM 1.2 LMSs send one "Last, First" string; it arrives in lastName with firstName empty. */
export function learnerName(first: unknown, last: unknown): { first: string; last: string } {
  const f = typeof first === 'string' ? first.trim() : ''
  const l = typeof last === 'string' ? last.trim() : ''
  if (!f && l.includes(',')) {
    const cut = l.indexOf(',')
    return { first: l.slice(cut + 1).trim(), last: l.slice(0, cut).trim() }
  }
  return { first: f, last: l }
}

/** Registrations without a dispatchId are not the portal's (API or invitation launches): 'ignore'. */
export function mapRegistration(r: RegistrationSchema): RegistrationRow | 'ignore' | null {
  const id = str(r.id)
  if (!id) return null
  const dispatchId = str(r.dispatchId)
  if (!dispatchId) return 'ignore'
  const name = learnerName(r.learner?.firstName, r.learner?.lastName)
  const completion = r.registrationCompletion
  const success = r.registrationSuccess
  return {
    id,
    instance: Math.max(0, int(r.instance) ?? 0),
    dispatchId,
    courseId: str(r.course?.id),
    learnerId: str(r.learner?.id) ?? '',
    learnerFirstName: name.first,
    learnerLastName: name.last,
    learnerEmail: str(r.learner?.email) ?? '',
    completionStatus:
      completion === 'COMPLETED' || completion === 'INCOMPLETE' ? COMPLETION[completion] : 'not attempted',
    successStatus: success === 'PASSED' || success === 'FAILED' ? SUCCESS[success] : 'unknown',
    // score.scaled is already 0..100 (reference mapping): stored as sent, never rescaled.
    scoreScaled: num(r.score?.scaled),
    totalSecondsTracked: Math.max(0, num(r.totalSecondsTracked) ?? 0),
    firstAccessDate: toDate(r.firstAccessDate),
    lastAccessDate: toDate(r.lastAccessDate),
    completedDate: toDate(r.completedDate),
    createdDate: toDate(r.createdDate),
    providerUpdated: toDate(r.updated),
  }
}

export const mapCourses = (items: readonly CourseSchema[], appSource: string | null = null) =>
  mapAll(items, (c: CourseSchema) => mapCourse(c, appSource))
export const mapDestinations = (items: readonly DestinationIdSchema[]) => mapAll(items, mapDestination)
export const mapDispatches = (items: readonly DispatchIdSchema[]) => mapAll(items, mapDispatch)
export const mapRegistrations = (items: readonly RegistrationSchema[]) => mapAll(items, mapRegistration)
