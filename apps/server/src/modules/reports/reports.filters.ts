import type { CompletionStatus } from '@portal/shared'
import type { KeptRegistrationStats } from '../../db/dispatch-stats'
import type { RegistrationFilter } from './reports.sql'

/**
 * The completion report's filters as the repository and the service weigh them: which totals are
 * kept, which windows the day counts hold, which searches gather their matches. No SQL here.
 */

export interface ReportTotals {
  total: number
  distinctLearners: number
  /** A search matched more than REPORT_SEARCH_COUNT_CAP rows: both figures stop at the cap. */
  capped: boolean
}

/**
 * A learner search counts its matches exactly up to this many, then shows "1,000+"
 * (each match is a row visit; a two-letter search of a 100,000-learner dispatch matched 6,000).
 */
export const REPORT_SEARCH_COUNT_CAP = 1_000

/**
 * A search of two characters or more gathers at most this many of its matches, once,
 * and counts them and takes its page from them in the same statement (ReportsRepository.gather).
 * A common name matches thousands of registrations of a large dispatch: counting them
 * (to the cap), walking the order and then sorting them read the trigram index twice; gathered
 * once, it is read once. A term with more matches still counts to the cap from them ("1,000+") and
 * takes its page the other way (searchedPage).
 */
export const REPORT_SEARCH_GATHER_ROWS = 3_000

/**
 * A search the report gathers (above): two characters or more, which the trigram index serves (a
 * word start of two letters is a trigram: db/search.ts). Two letters with a status match well over
 * a thousand registrations of a large dispatch, and gathering them costs half of counting,
 * walking and sorting them.
 * (The learners probe a shorter term first and gather it whole only when it is rare: their
 * table holds every company, and with a limit the planner may read all of it for two letters.)
 */
export const gathersMatches = (filter: RegistrationFilter) => [...(filter.search?.trim() ?? '')].length >= 2

const isUtcMidnight = (date: Date | undefined) => date === undefined || date.getTime() % 86_400_000 === 0

/**
 * A last-access window of whole UTC days (the report's own filter always is) without a search:
 * its totals come from kept counts (dayTotalsStatement).
 */
export const isDayWindow = (filter: RegistrationFilter) =>
  !filter.search?.trim() &&
  Boolean(filter.from || filter.before) &&
  isUtcMidnight(filter.from) &&
  isUtcMidnight(filter.before)

/**
 * A filter whose rows the kept day counts hold (dispatch_access_day, by status and day): no
 * search, not the repeat-learners filter, and a window, if any, of whole UTC days.
 */
export const isDaySeekable = (filter: RegistrationFilter) =>
  !filter.search?.trim() && !filter.repeatLearners && isUtcMidnight(filter.from) && isUtcMidnight(filter.before)

/** A filter without a search, a last-access window or repeat learners: its totals are kept (migration 0008). */
export const isKeptFilter = (filter: RegistrationFilter) =>
  !filter.search?.trim() && !filter.from && !filter.before && !filter.repeatLearners

/**
 * The totals of such a filter, from the dispatch's kept counts (read with the dispatch itself:
 * DispatchRow.registrationStats; none before its first registration).
 */
export function keptTotals(
  stats: KeptRegistrationStats | null | undefined,
  status: CompletionStatus | undefined,
): ReportTotals {
  if (!stats) return { total: 0, distinctLearners: 0, capped: false }
  const kept: Record<CompletionStatus | 'all', [total: number, learners: number]> = {
    all: [stats.registrations, stats.learners],
    completed: [stats.completed, stats.learnersCompleted],
    incomplete: [stats.incomplete, stats.learnersIncomplete],
    'not attempted': [stats.notAttempted, stats.learnersNotAttempted],
  }
  const [total, distinctLearners] = kept[status ?? 'all']
  return { total, distinctLearners, capped: false }
}
