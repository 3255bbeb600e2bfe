/**
 * The read part against one running server: every scenario row through HTTP (autocannon), the
 * CSV export, /api/auth/me and sign-in; then the SQL baselines of the same rows, run when the
 * caller has a database handle (for PGlite only after the server has let go of the folder).
 */
import { signIn, getJson, type ApiSession } from './api-session'
import { ADMIN_EMAIL, BENCH_PASSWORD, CLIENT_EMAIL, settings } from './config'
import { measureExport } from './csv-export'
import { measureLoad } from './measure'
import type { RowResult } from './report'
import { ROW_HEADER, rowLine } from './report'
import type { RunningServer } from './run-server'
import { readScenarios, type Account, type ReadScenario, type ScenarioContext } from './scenarios'
import { captureSteps, sessionCheck, timeSteps, type SqlTarget } from './sql-baselines'
import type { BenchFixtures } from './seed-users'
import type { ExportResult } from './csv-export'
import type { LoadResult } from './measure'

export interface ReadInputs {
  fixtures: BenchFixtures
  report: { status: 'completed'; startDate: string; endDate: string }
  /** First day of the export filter: about settings.exportRows rows from there to now. */
  exportStartDate: string
}

export interface ReadOutcome {
  rows: RowResult[]
  export: ExportResult | { skipped: string }
  /** The completion report of the big dispatch exported as CSV and as .xlsx. */
  reportExports: { csv: ExportResult; xlsx: ExportResult } | { skipped: string }
  login: LoadResult | null
  /** Fills rows[].sql and latencyRatio; call with the database the server used. */
  baselines(target: SqlTarget, progress: (line: string) => void): Promise<void>
}

const day = (d: Date) => d.toISOString().slice(0, 10)

export async function runReads(
  server: RunningServer,
  inputs: ReadInputs,
  progress: (line: string) => void,
): Promise<ReadOutcome> {
  const sessions: Record<Account, ApiSession> = {
    admin: await signIn(server.baseUrl, ADMIN_EMAIL, BENCH_PASSWORD),
    client: await signIn(server.baseUrl, CLIENT_EMAIL, BENCH_PASSWORD),
  }
  // Access tokens live 15 minutes: sign in again before one could expire mid-row.
  const tokenOf = async (account: Account) => {
    if (Date.now() - sessions[account].signedInAt > 8 * 60_000) {
      sessions[account] = await signIn(server.baseUrl, account === 'admin' ? ADMIN_EMAIL : CLIENT_EMAIL, BENCH_PASSWORD)
    }
    return sessions[account].accessToken
  }
  const admin = await tokenOf('admin')

  // Deep pages as the screens would reach them: the last page their own totals offer.
  const today = new Date()
  const ctx: ScenarioContext = {
    fixtures: inputs.fixtures,
    viewers: {
      admin: { id: sessions.admin.user.id, role: sessions.admin.user.role, companyId: sessions.admin.user.companyId },
      client: {
        id: sessions.client.user.id,
        role: sessions.client.user.role,
        companyId: sessions.client.user.companyId,
      },
    },
    report: { ...inputs.report, deepPage: 1 },
    logs: { startDate: day(new Date(today.getTime() - 29 * 86_400_000)), endDate: day(today), deepestPage: 1 },
  }
  const first = readScenarios(ctx).find((s) => s.id === 'report-first')!
  const report = await getJson<{ pagination: { totalPages: number } }>(server.baseUrl, first.path, admin)
  ctx.report.deepPage = Math.max(1, report.body?.pagination.totalPages ?? 1)
  const logs = await getJson<{ totalPages: number }>(server.baseUrl, '/api/logs?page=1&limit=50', admin)
  const logsAvailable = logs.status !== 404
  ctx.logs.deepestPage = Math.max(1, logs.body?.totalPages ?? 1)

  const scenarios = readScenarios(ctx)
  const rows: RowResult[] = []
  const planned: { row: RowResult; scenario: ReadScenario }[] = []
  progress(ROW_HEADER)
  for (const scenario of scenarios) {
    for (const connections of scenario.connections) {
      const row: RowResult = {
        id: scenario.id,
        label: scenario.label,
        path: scenario.path,
        group: scenario.group,
        connections,
        endpoint: null,
        sql: null,
        latencyRatio: null,
      }
      rows.push(row)
      const token = await tokenOf(scenario.as)
      const probe = await fetch(`${server.baseUrl}${scenario.path}`, { headers: { 'x-auth-token': token } })
      await probe.arrayBuffer()
      if (probe.status === 404 && scenario.optional) {
        row.skipped = 'not available yet (the route answers 404)'
      } else if (!probe.ok) {
        row.skipped = `skipped: the route answered ${probe.status}`
      } else {
        row.endpoint = await measureLoad({
          url: `${server.baseUrl}${scenario.path}`,
          connections,
          headers: { 'x-auth-token': token },
        })
        planned.push({ row, scenario })
      }
      progress(rowLine(row))
    }
  }

  let exported: ExportResult | { skipped: string } = { skipped: 'not available yet (the route answers 404)' }
  if (logsAvailable) {
    progress(`CSV export from ${inputs.exportStartDate} (about ${settings.exportRows.toLocaleString('en-US')} rows)...`)
    exported = await measureExport(
      `${server.baseUrl}/api/logs/export.csv?startDate=${inputs.exportStartDate}`,
      await tokenOf('admin'),
      server.pid,
    )
    if (exported.status !== 200) exported = { skipped: `the export answered ${exported.status}` }
    progress(`  ${JSON.stringify(exported)}`)
  }

  const reportExports = await measureReportExports(server, inputs.fixtures, await tokenOf('admin'), progress)

  progress('sign-in at 10 connections...')
  const login = await measureLoad({
    url: `${server.baseUrl}/api/auth/login`,
    connections: 10,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: BENCH_PASSWORD }),
    durationSeconds: settings.loginSeconds,
    warmupSeconds: 1,
  })
  progress(`  sign-in: ${login.rps} req/s, p50 ${login.p50} ms, p95 ${login.p95} ms, non-2xx ${login.non2xx}`)

  return {
    rows,
    export: exported,
    reportExports,
    login,
    async baselines(target, log) {
      log(`SQL baselines (${planned.length} rows)...`)
      for (const { row, scenario } of planned) {
        const token = sessions[scenario.as].accessToken
        const steps = await captureSteps(target, [1, ...scenario.steps], async (db) => {
          await sessionCheck(db, token)
          await scenario.work(db)
        })
        row.sql = await timeSteps(target.execute, steps, {
          iterations: Math.max(50, row.endpoint!.requests),
          concurrency: row.connections,
          maxSeconds: settings.durationSeconds,
        })
        row.latencyRatio = row.sql.p50 > 0 ? Math.round((row.endpoint!.p50 / row.sql.p50) * 10) / 10 : null
        log(rowLine(row))
      }
    },
  }
}

/** GET /api/reports/dispatch/{big}/export as CSV, then as .xlsx (every row, no filter). */
export async function measureReportExports(
  server: RunningServer,
  fixtures: BenchFixtures,
  token: string,
  progress: (line: string) => void,
): Promise<ReadOutcome['reportExports']> {
  const url = (format: string) =>
    `${server.baseUrl}/api/reports/dispatch/${encodeURIComponent(fixtures.bigDispatchId)}/export?format=${format}`
  progress(
    `completion report export of the big dispatch (${fixtures.bigDispatchRegistrations} rows), CSV then .xlsx...`,
  )
  const csv = await measureExport(url('csv'), token, server.pid)
  if (csv.status !== 200) return { skipped: `the export answered ${csv.status}` }
  progress(`  csv: ${JSON.stringify(csv)}`)
  // Every live registration of the dispatch is a row: the CSV's line count says how many.
  const xlsx = await measureExport(url('xlsx'), token, server.pid, csv.rows)
  progress(`  xlsx: ${JSON.stringify(xlsx)}`)
  return { csv, xlsx }
}
