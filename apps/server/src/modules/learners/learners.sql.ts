import { and, sql, type SQL } from 'drizzle-orm'
import type { CompletionStatus, LearnerSort } from '@portal/shared'
import { companyLearner, companyLearnerStat } from '../../db/schema'
import { matchesTermMatch, termMatch, type TermMatch } from '../../db/search'
import { placeholders } from '../../db/statement'
import { jsonArraySql, jsonObjectSql } from '../../db/json-rows'

/**
 * The learner list's query vocabulary: its filter and order, the table's sort keys,
 * conditions and columns, shared by the repository (pages, chunks, overview) and the search
 * (learners-search.sql.ts: counts and gathered pages).
 */

export interface LearnerFilter {
  companyId: string
  search?: string | undefined
  courseId?: string | undefined
  status?: CompletionStatus | undefined
}

export interface LearnerOrder {
  sort: LearnerSort
  order: 'asc' | 'desc'
}

/** The learner list's kept figures and course choices for a filter (LearnersRepository.overview). */
export interface LearnerOverview {
  /** The company's learners. */
  total: number
  /** The learners with the filter's course/status facet; null when the filter has none. */
  facetTotal: number | null
  /** The company's learner version (null: the company has never had a learner). */
  version: number | null
  /** Waiting for its bulk build (migration 0021). */
  building: boolean
  courses: { id: string; title: string }[]
}

export interface LearnerTotals {
  total: number
  /** A search matched more than LEARNER_SEARCH_COUNT_CAP learners: the total stops there. */
  capped: boolean
}

export type LearnerRow = Omit<
  typeof companyLearner.$inferSelect,
  'facets' | 'companyId' | 'nameKey' | 'emailKey' | 'scoreKey' | 'accessKey'
>

/** Like the report's search, a learner search counts its matches exactly up to this many. */
export const LEARNER_SEARCH_COUNT_CAP = 1_000

export const L = companyLearner

/**
 * Each sort key, a column with an index (company_id, key, learner_hash): the plain figures
 * (migration 0015) and the stored keys (0017: lowered name and e-mail, never-accessed learners
 * the oldest, unscored ones below every score). A page's offset is an index-only walk.
 * `type` casts a keyset value back.
 */
export const SORT_KEYS: Record<LearnerSort, { key: SQL; type: SQL }> = {
  name: { key: sql`${L.nameKey}`, type: sql`text` },
  email: { key: sql`${L.emailKey}`, type: sql`text` },
  courses: { key: sql`${L.registrations}`, type: sql`integer` },
  completed: { key: sql`${L.completed}`, type: sql`integer` },
  inProgress: { key: sql`${L.incomplete}`, type: sql`integer` },
  notStarted: { key: sql`${L.notAttempted}`, type: sql`integer` },
  averageScore: { key: sql`${L.scoreKey}`, type: sql`double precision` },
  totalTime: { key: sql`${L.totalSeconds}`, type: sql`double precision` },
  lastAccess: { key: sql`${L.accessKey}`, type: sql`timestamptz` },
}

/** Name and e-mail as one text, as the trigram index company_learner_search_idx holds it (migration 0056). */
const LEARNER_TEXT = sql`lower(${L.firstName} || ' ' || ${L.lastName} || ' ' || ${L.email})`

/** The facet a course and/or status filter asks for (migration 0015's facets). */
export function facetOf(filter: LearnerFilter): string | null {
  if (filter.courseId && filter.status) return `cs:${filter.courseId}:${filter.status}`
  if (filter.courseId) return `c:${filter.courseId}`
  if (filter.status) return `s:${filter.status}`
  return null
}

/**
 * A learner has the facet of a status exactly when they have a registration in it, so a status
 * filter alone is a range of that status's count, which every sort index carries (migration
 * 0018): a filtered page is an index-only walk. Sorted by that count, the walk starts at the first
 * match: a list of learners who have not started something, sorted by not started, no longer
 * walks past every learner with none; a deep page by name no longer reads the company's table.
 */
const STATUS_COUNT: Record<CompletionStatus, SQL> = {
  completed: sql`${L.completed}`,
  incomplete: sql`${L.incomplete}`,
  'not attempted': sql`${L.notAttempted}`,
}

/** The values of the list's kept statements, as placeholders (db/statement.ts). */
export const LP = placeholders('companyId', 'facet', 'pattern', 'limit', 'offset', 'walkRows')

/**
 * A filter as a condition takes it: the company, the term's match and the course's facet as
 * values or as placeholders for them; the status as is, since it chooses a column.
 */
export interface LearnerInput {
  companyId: unknown
  search: TermMatch | null
  status: CompletionStatus | undefined
  /** The course's facet (facetOf), when a course is chosen. */
  facet: unknown
}

export function whereSql(input: LearnerInput): SQL {
  const conditions = [sql`${L.companyId} = ${input.companyId}`]
  if (input.search) conditions.push(matchSql(input.search))
  if (input.status) conditions.push(sql`${STATUS_COUNT[input.status]} > 0`)
  if (input.facet !== undefined) conditions.push(sql`${L.facets} @> array[${input.facet}]::text[]`)
  return and(...conditions)!
}

const courseFacetOf = (filter: LearnerFilter) => (filter.courseId ? (facetOf(filter) ?? undefined) : undefined)

export function whereOf(filter: LearnerFilter): SQL {
  const term = filter.search?.trim()
  return whereSql({
    companyId: filter.companyId,
    search: term ? termMatch(term) : null,
    status: filter.status,
    facet: courseFacetOf(filter),
  })
}

/** A filter as a kept statement's input (placeholders), with its values and its shape's key. */
export function inputOf(filter: LearnerFilter) {
  const term = filter.search?.trim()
  const match = term ? termMatch(term) : null
  const facet = courseFacetOf(filter)
  const input: LearnerInput = {
    companyId: LP.companyId,
    search: match && { kind: match.kind, pattern: LP.pattern },
    status: filter.status,
    facet: facet === undefined ? undefined : LP.facet,
  }
  const values = { companyId: filter.companyId, pattern: match?.pattern, facet }
  const shape = [match?.kind ?? '', filter.status ?? '', facet !== undefined]
  return { input, values, shape }
}

/** The learner's name or e-mail matches the term (a trigram index serves it). */
export const matchSql = (match: TermMatch) => matchesTermMatch(LEARNER_TEXT, match, { lowered: true })

/** The company's learner version (migration 0015), as a column of the statement reading its learners. */
export const versionOf = (companyId: unknown) =>
  sql<
    number | null
  >`(select ${companyLearnerStat.version} from ${companyLearnerStat} where ${companyLearnerStat.companyId} = ${companyId})`.mapWith(
    Number,
  )

export const rowColumns = {
  learnerHash: L.learnerHash,
  email: L.email,
  learnerId: L.learnerId,
  firstName: L.firstName,
  lastName: L.lastName,
  registrations: L.registrations,
  completed: L.completed,
  incomplete: L.incomplete,
  notAttempted: L.notAttempted,
  averageScore: L.averageScore,
  totalSeconds: L.totalSeconds,
  lastAccess: L.lastAccess,
}

/** The order of a list (its sort key, then the learner), or its reverse (a walk from the end). */
export const orderOf = ({ sort, order }: LearnerOrder, reverse = false) => {
  const dir = (order === 'desc') !== reverse ? sql`desc` : sql`asc`
  return [sql`${SORT_KEYS[sort].key} ${dir}`, sql`${L.learnerHash} ${dir}`]
}

/**
 * A page's learners (joined as company_learner) as the JSON array the answer carries, in the
 * list's order, written by PostgreSQL (db/json-rows.ts): the report's units, the average score
 * 0..1 (the provider's scaled score is 0..100) and whole seconds, rounded as Math.round does.
 */
export function rowsJsonSql(order: LearnerOrder): SQL {
  const object = jsonObjectSql([
    { key: 'email', value: sql`${L.email}`, kind: 'text' },
    { key: 'learnerId', value: sql`${L.learnerId}`, kind: 'text' },
    { key: 'firstName', value: sql`${L.firstName}`, kind: 'text' },
    { key: 'lastName', value: sql`${L.lastName}`, kind: 'text' },
    { key: 'courses', value: sql`${L.registrations}`, kind: 'number' },
    { key: 'completed', value: sql`${L.completed}`, kind: 'number' },
    { key: 'inProgress', value: sql`${L.incomplete}`, kind: 'number' },
    { key: 'notStarted', value: sql`${L.notAttempted}`, kind: 'number' },
    { key: 'averageScore', value: sql`${L.averageScore} / 100`, kind: 'json' },
    { key: 'totalTime', value: sql`floor(${L.totalSeconds} + 0.5)::bigint`, kind: 'number' },
    { key: 'lastAccessDate', value: sql`${L.lastAccess}`, kind: 'timestamp' },
  ])
  return jsonArraySql(object, sql.join(orderOf(order), sql`, `))
}
