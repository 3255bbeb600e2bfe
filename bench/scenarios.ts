/**
 * The read rows of the bench: each is a URL the web app calls, the account it calls it as, the
 * connection counts, and the same work as service calls (for the SQL baseline). Query objects
 * are written once and used for both, with the defaults the route schemas would fill in.
 *
 * - dispatch list: page 1 of 50, search "safety" (about one course title in seven), sort by
 *   course descending; as the admin (all 50,000) and as a client (its company's ~100);
 * - completion report of the 100,000-registration dispatch: status completed and a last-access
 *   range holding half of them, 100 a page, first and last page;
 * - logs: the last 30 days with one common action (page 1), and the deepest page of the
 *   unfiltered list that the screen can reach (its total stops at LOG_COUNT_CAP);
 * - GET /api/auth/me: what every screen asks first.
 */
import type { DispatchListQuery, LogListQuery, ReportQuery } from '@portal/shared'
import type { Db } from '../apps/server/src/db/client'
import { dispatchesServiceOf, logsServiceOf, reportsServiceOf } from './services'
import type { Viewer } from '../apps/server/src/lib/viewer'
import { BENCH_LOG_ACTION } from './seed-logs'
import type { BenchFixtures } from './seed-users'

export type Account = 'admin' | 'client'

export interface ReadScenario {
  id: string
  label: string
  group: 'dispatch list' | 'completion report' | 'logs' | 'auth'
  path: string
  as: Account
  connections: number[]
  /** Statements per sequential step after the session check (see sql-baselines.ts). */
  steps: number[]
  /** What the route handler runs, on the given database. */
  work(db: Db): Promise<unknown>
  /** GET /api/logs is being built in parallel: a 404 skips the row instead of failing. */
  optional?: boolean
}

export interface ScenarioContext {
  fixtures: BenchFixtures
  viewers: Record<Account, Viewer & { id: string }>
  /** Completion report filter: a status and a last-access range holding many rows. */
  report: { status: 'completed'; startDate: string; endDate: string; deepPage: number }
  /** Logs filter: the last 30 days and one common action; deepest page of the unfiltered list. */
  logs: { startDate: string; endDate: string; deepestPage: number }
}

const qs = (query: object) =>
  new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString()

const silentLog = { error() {} }

export function dispatchListQuery(): DispatchListQuery {
  return { page: 1, pageSize: 50, search: 'safety', status: 'all', sort: 'course', order: 'desc' }
}

export function reportQuery(ctx: ScenarioContext, page: number): ReportQuery {
  const { status, startDate, endDate } = ctx.report
  return { page, pageSize: 100, status, startDate, endDate }
}

export function logsQuery(ctx: ScenarioContext, deepest: boolean): LogListQuery {
  if (deepest) return { page: ctx.logs.deepestPage, limit: 50 }
  return { page: 1, limit: 50, startDate: ctx.logs.startDate, endDate: ctx.logs.endDate, action: BENCH_LOG_ACTION }
}

export function readScenarios(ctx: ScenarioContext): ReadScenario[] {
  const big = encodeURIComponent(ctx.fixtures.bigDispatchId)
  const list = dispatchListQuery()
  const reportFirst = reportQuery(ctx, 1)
  const reportDeep = reportQuery(ctx, ctx.report.deepPage)
  const logsFirst = logsQuery(ctx, false)
  const logsDeepest = logsQuery(ctx, true)
  const reader = { actor: null, ip: '127.0.0.1' }
  return [
    ...(['admin', 'client'] as const).map((as): ReadScenario => ({
      id: `dispatch-list-${as}`,
      label: `dispatch list p1 search+sort (${as})`,
      group: 'dispatch list',
      path: `/api/dispatches?${qs(list)}`,
      as,
      connections: [1, 50],
      // The summary with the version and the search's look-ups inline (staff: it also hands on
      // what the term matched). The page is cached until the dispatches change.
      steps: [1],
      work: (db) => dispatchesServiceOf(db).list(ctx.viewers[as], list),
    })),
    ...[
      { id: 'report-first', label: 'p1', query: reportFirst },
      { id: 'report-deep', label: `p${reportDeep.page} (last)`, query: reportDeep },
    ].map(({ id, label, query }): ReadScenario => ({
      id,
      label: `completion report ${label} status+dates`,
      group: 'completion report',
      path: `/api/reports/dispatch/${big}?${qs(query)}`,
      as: 'admin',
      connections: [1, 20],
      // The dispatch with its registration version; the page and the totals are cached until
      // the registrations change.
      steps: [1],
      work: (db) =>
        reportsServiceOf(db, dispatchesServiceOf(db)).dispatchReport(
          ctx.viewers.admin,
          ctx.fixtures.bigDispatchId,
          query,
        ),
    })),
    {
      id: 'logs-first',
      label: 'logs p1 30 days+action',
      group: 'logs',
      path: `/api/logs?${qs(logsFirst)}`,
      as: 'admin',
      connections: [1, 20],
      // The kept day counts (the total), then the page found with them.
      steps: [1, 1],
      work: (db) => logsServiceOf(db, silentLog).list(logsFirst, reader),
      optional: true,
    },
    {
      id: 'logs-deepest',
      label: `logs p${logsDeepest.page} (deepest) no filter`,
      group: 'logs',
      path: `/api/logs?${qs(logsDeepest)}`,
      as: 'admin',
      connections: [1, 20],
      steps: [1, 1],
      work: (db) => logsServiceOf(db, silentLog).list(logsDeepest, reader),
      optional: true,
    },
    {
      id: 'auth-me',
      label: 'GET /api/auth/me',
      group: 'auth',
      path: '/api/auth/me',
      as: 'admin',
      connections: [50],
      // The session check reads the whole user: the handler queries nothing more.
      steps: [],
      work: async () => {},
    },
  ]
}
