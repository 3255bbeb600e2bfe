import { and, asc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import type { CompletionStatus } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { progressColumns } from '../../db/columns'
import { dispatchLearner, registration } from '../../db/schema'
import { matchesTerm, matchesTermMatch, termMatch, type TermMatch } from '../../db/search'

/**
 * The completion report's query vocabulary: its filter, conditions, search text and order, shared
 * by the repository (pages, totals) and the export's chunks (reportChunkQuery, below).
 */

export interface RegistrationFilter {
  dispatchId: string
  search?: string | undefined
  status?: CompletionStatus | undefined
  /** Last access at or after this instant. */
  from?: Date | undefined
  /** Last access strictly before this instant (the day after the inclusive end day). */
  before?: Date | undefined
  /** Only learners holding more than one live registration on the dispatch (repeatLearnersSql). */
  repeatLearners?: boolean | undefined
}

export interface RegistrationRow {
  id: string
  learnerFirstName: string
  learnerLastName: string
  learnerEmail: string
  completionStatus: string
  successStatus: string
  scoreScaled: number | null
  totalSecondsTracked: number
  lastAccessDate: Date | null
}

/**
 * A filter as a statement reads it: its values (or placeholders for them, in a statement kept
 * for reuse: db/statement.ts); which of them are given, and how a search matches, make its shape.
 */
export interface RegistrationInput {
  dispatchId: unknown
  status?: unknown
  from?: unknown
  before?: unknown
  /** A shape, not a value: the condition takes only the dispatch's id. */
  repeatLearners?: boolean | undefined
  search: TermMatch | null
}

/**
 * The registrations of learners holding more than one live registration on the dispatch: the
 * learners dispatch_learner (kept by triggers, migration 0008) counts more than once, looked up
 * by its primary key (dispatch_id, learner_hash). The licence count reads the same rows.
 */
function repeatLearnersSql(dispatchId: unknown): SQL {
  return sql`${registration.learnerHash} in (select ${dispatchLearner.learnerHash} from ${dispatchLearner}
    where ${dispatchLearner.dispatchId} = ${dispatchId} and ${dispatchLearner.registrations} > 1)`
}

/** The report's rows of a filter as a statement's condition. */
export function whereSql(input: RegistrationInput): SQL {
  const conditions = [eq(registration.dispatchId, input.dispatchId as string), isNull(registration.removedAt)]
  if (input.search) conditions.push(matchesTermMatch(LEARNER_TEXT, input.search, { lowered: true }))
  if (input.status !== undefined) conditions.push(eq(registration.completionStatus, input.status as string))
  if (input.from !== undefined) conditions.push(gte(registration.lastAccessDate, input.from as Date))
  if (input.before !== undefined) conditions.push(lt(registration.lastAccessDate, input.before as Date))
  if (input.repeatLearners) conditions.push(repeatLearnersSql(input.dispatchId))
  return and(...conditions)!
}

/** The report's rows of a filter (live registrations of the dispatch); the export reads the same. */
export function whereOf(filter: RegistrationFilter): SQL {
  const term = filter.search?.trim()
  return whereSql({ ...filter, status: filter.status, search: term ? termMatch(term) : null })
}

/**
 * What a learner search looks in: first name, last name and e-mail as one text, which the trigram
 * index registration_learner_status_search_idx of migration 0020 holds (keep the two identical). It
 * covers the first name, the last name, "first last" and the e-mail.
 */
export const LEARNER_TEXT = sql`lower(${registration.learnerFirstName} || ' ' || ${registration.learnerLastName} || ' ' || ${registration.learnerEmail})`

export const searchOf = (term: string) => matchesTerm(LEARNER_TEXT, term, { lowered: true })

/** The report's order: newest last access first, never-accessed last, then id. */
export const ORDER = [sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id)]

/** A report row with the dates the export adds. */
export type ExportRow = RegistrationRow & { firstAccessDate: Date | null; completedDate: Date | null }

/** Where the previous chunk ended, in the report's order (last access newest first, never last, then id). */
export type Cursor = { lastAccess: Date | null; id: string }

const chunkColumns = {
  id: registration.id,
  learnerFirstName: registration.learnerFirstName,
  learnerLastName: registration.learnerLastName,
  learnerEmail: registration.learnerEmail,
  ...progressColumns,
}

/**
 * The next `limit` rows of the report's order after `cursor`: the accessed rows newest first (no
 * cursor, or a cursor with a last access), else the never-accessed ones by id. Their ids are
 * walked in the order of registration_report_idx (its `desc nulls last`, which a plain `desc`
 * does not match: the planner then sorted every remaining row of the dispatch for each chunk),
 * and only those rows are read by id.
 *
 * A search past the report's count cap (`walk`) walks the same rows as without it and keeps its
 * matches (`hit`): each chunk costs what an unsearched one does. (Taking such a search's next
 * matches directly sorted all its remaining matches for every chunk, which made a search matching
 * every row of a large dispatch export slower than the whole report.) A search within the cap takes its few matches from
 * the trigram index and sorts them, as the report's page does.
 */
export function reportChunkQuery(
  db: DbOrTx,
  filter: RegistrationFilter,
  cursor: Cursor | null,
  limit: number,
  walk = false,
) {
  const term = walk ? filter.search?.trim() : undefined
  const base = whereOf(term ? { ...filter, search: undefined } : filter)
  const accessed = !cursor || cursor.lastAccess !== null
  // One order for both parts: among the never-accessed rows, `last_access_date is null` does not
  // let the index give `order by id` alone (every remaining row was sorted for each chunk).
  const order = ORDER
  const where = accessed
    ? and(
        base,
        isNotNull(registration.lastAccessDate),
        // The bound on last access is the index's range.
        ...(cursor?.lastAccess
          ? [
              lte(registration.lastAccessDate, cursor.lastAccess),
              or(lt(registration.lastAccessDate, cursor.lastAccess), gt(registration.id, cursor.id))!,
            ]
          : []),
      )
    : and(base, isNull(registration.lastAccessDate), gt(registration.id, cursor.id))
  const ids = db
    .select({
      id: sql<string>`${registration.id}`.as('chunk_id'),
      hit: (term ? sql<boolean>`${searchOf(term)}` : sql<boolean>`true`).as('chunk_hit'),
    })
    .from(registration)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .as('chunk')
  return db
    .select({ ...chunkColumns, hit: ids.hit })
    .from(ids)
    .innerJoin(registration, eq(registration.id, ids.id))
    .orderBy(...order)
}
