/**
 * Results: the console table, bench/results/<date>-<db>.json, the full tables of the run in
 * bench/results/latest.md, and their summary in docs/performance.md (between its bench markers;
 * the prose around it is written by hand). The doc keeps what a reader checks first (targets,
 * sync, one line per read row); the per-request tables and the plans would bury it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DOC_FILE, LATEST_FILE, RESULTS_DIR, settings } from './config'
import type { ExportResult } from './csv-export'
import type { LoadResult } from './measure'
import type { SyncMeasurement } from './seed-sync'
import type { SqlResult } from './sql-baselines'
import type { TargetCheck } from './targets'
import type { VariedRowResult } from './varied-phase'

export interface RowResult {
  id: string
  label: string
  /** The request, as sent (the bench's ids and dates). */
  path: string
  group: string
  connections: number
  endpoint: LoadResult | null
  sql: SqlResult | null
  /** Endpoint p50 / SQL p50 at the same concurrency: how much of a request is above the database. */
  latencyRatio: number | null
  skipped?: string
}

export interface DbRun {
  database: 'postgres' | 'pglite'
  dataSet: string
  /** Repeated-URL rows (caches on). */
  rows: RowResult[]
  /** The varied rows (caches off: the cold path). */
  varied: VariedRowResult[]
  export: ExportResult | { skipped: string }
  /** The completion report export of the big dispatch (PostgreSQL). */
  reportExports?: { csv: ExportResult; xlsx: ExportResult } | { skipped: string }
  login: LoadResult | null
  notes: string[]
}

export interface BenchReport {
  startedAt: string
  finishedAt: string
  machine: Record<string, string | number>
  settings: Record<string, unknown>
  seed: Record<string, unknown>
  sync: { full: SyncMeasurement; incremental: SyncMeasurement } | null
  run: DbRun
  targets: TargetCheck[]
}

const fmt = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits })

/** One line per row, fixed columns, for the terminal. */
export function rowLine(row: RowResult): string {
  if (row.skipped) return `${row.label.slice(0, 44).padEnd(44)} ${String(row.connections).padStart(4)}  ${row.skipped}`
  const e = row.endpoint
  const s = row.sql
  const cells = [
    row.label.slice(0, 44).padEnd(44),
    String(row.connections).padStart(4),
    fmt(e?.p50).padStart(8),
    fmt(e?.p95).padStart(8),
    fmt(e?.p99).padStart(8),
    fmt(e?.rps, 0).padStart(7),
    String(e?.errors ?? '-').padStart(6),
    String(e?.non2xx ?? '-').padStart(6),
    fmt(s?.p50, 2).padStart(8),
    fmt(s?.p95, 2).padStart(8),
    fmt(s?.rps, 0).padStart(7),
    (row.latencyRatio === null ? '-' : `${fmt(row.latencyRatio, 1)}x`).padStart(6),
    fmt(e?.otherCores, 2).padStart(6),
  ]
  return cells.join(' ')
}

export const ROW_HEADER = [
  'row'.padEnd(44),
  'conn'.padStart(4),
  'p50 ms'.padStart(8),
  'p95 ms'.padStart(8),
  'p99 ms'.padStart(8),
  'req/s'.padStart(7),
  'errors'.padStart(6),
  'non2xx'.padStart(6),
  'SQL p50'.padStart(8),
  'SQL p95'.padStart(8),
  'SQL/s'.padStart(7),
  'ratio'.padStart(6),
  'other'.padStart(6),
].join(' ')

export function writeJson(report: BenchReport): string {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `${report.startedAt.slice(0, 10)}-${report.run.database}.json`)
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n')
  return file
}

function markdownRows(run: DbRun): string[] {
  const lines = [
    '| row | conn | p50 ms | p95 ms | p99 ms | req/s | errors | non-2xx | SQL p50 ms | SQL p95 ms | SQL runs/s | endpoint / SQL (p50) | other load |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const row of run.rows) {
    if (row.skipped) {
      lines.push(`| ${row.label} | ${row.connections} | ${row.skipped} | | | | | | | | | | |`)
      continue
    }
    const e = row.endpoint!
    const s = row.sql
    lines.push(
      `| ${row.label} | ${row.connections} | ${fmt(e.p50)} | ${fmt(e.p95)} | ${fmt(e.p99)} | ${fmt(e.rps, 0)} | ${e.errors} | ${e.non2xx} | ${fmt(s?.p50, 2)} | ${fmt(s?.p95, 2)} | ${fmt(s?.rps, 0)} | ${row.latencyRatio === null ? '-' : `${fmt(row.latencyRatio, 1)}×`} | ${fmt(e.otherCores, 2)} |`,
    )
  }
  if (run.login) {
    const l = run.login
    lines.push(
      `| POST /api/auth/login (argon2id m=19 MiB, t=2) | ${l.connections} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.p99)} | ${fmt(l.rps, 0)} | ${l.errors} | ${l.non2xx} | | | | | ${fmt(l.otherCores, 2)} |`,
    )
  }
  return lines
}

/**
 * CPU milliseconds per answered request of PostgreSQL's backends and of the server process (on
 * PGlite the database runs inside the server, so all of it is the server's).
 */
const cpuOf = (e: RowResult['endpoint']) =>
  e && 'cpuMsPerRequest' in e && e.cpuMsPerRequest
    ? `${fmt(e.cpuMsPerRequest.postgres, 2)}, ${e.cpuMsPerRequest.server === undefined ? '-' : fmt(e.cpuMsPerRequest.server, 2)}`
    : '-'

function variedRows(run: DbRun): string[] {
  const lines = [
    '| varied row (caches off) | conn | postbacks/s | distinct requests | p50 ms | p95 ms | p99 ms | req/s | CPU ms/request: PostgreSQL, server | 503 (p95 ms) | other non-2xx | errors | other load |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const row of run.varied) {
    const e = row.endpoint
    lines.push(
      `| ${row.label} | ${row.connections} | ${row.postbacks ? fmt(row.postbacks.perSecond) : 0} | ${fmt(row.distinctRequests, 0)} | ${fmt(e.p50)} | ${fmt(e.p95)} | ${fmt(e.p99)} | ${fmt(e.rps, 0)} | ${cpuOf(e)} | ${e.refused.count}${e.refused.count ? ` (${fmt(e.refused.p95)})` : ''} | ${e.non2xx - e.refused.count} | ${e.errors} | ${fmt(e.otherCores, 2)} |`,
    )
  }
  return lines
}

/** The slowest requests of each base varied row and the plan of their slowest statement. */
function slowestSection(run: DbRun): string[] {
  const out: string[] = []
  for (const row of run.varied.filter((r) => r.plans?.length)) {
    out.push(`**${row.label}**, slowest requests (server time):`, '')
    for (const slow of row.slowest.slice(0, 3)) out.push(`- ${fmt(slow.ms)} ms \`${slow.path}\``)
    out.push('')
    for (const plan of row.plans!) {
      const worst = [...plan.statements].sort((a, b) => (b.executionMs ?? 0) - (a.executionMs ?? 0))[0]
      if (!worst) continue
      const seq = plan.statements.flatMap((s) => s.seqScans)
      out.push(
        `<details><summary>\`${plan.path}\`: ${plan.statements.length} statements, slowest ${fmt(worst.executionMs, 2)} ms; sequential scans: ${[...new Set(seq)].join(', ') || 'none'}</summary>`,
        '',
        '```',
        worst.plan,
        '```',
        '',
        '</details>',
        '',
      )
    }
  }
  return out
}

function reportExportLines(run: DbRun): string[] {
  const x = run.reportExports
  if (!x) return []
  if ('skipped' in x) return [`Completion report export: ${x.skipped}`]
  return (['csv', 'xlsx'] as const).map((format) => {
    const e = x[format]
    return `Completion report export (${format}, the big dispatch): ${e.rows.toLocaleString('en-US')} rows, ${e.megabytes} MB, first byte ${e.ttfbMs} ms, total ${(e.totalMs / 1000).toFixed(1)} s, ${e.rowsPerSecond.toLocaleString('en-US')} rows/s, server RSS ${e.rss.startMb} → peak ${e.rss.peakMb} MB (growth ${e.rss.growthMb} MB).`
  })
}

function exportLine(run: DbRun): string {
  if ('skipped' in run.export) return `CSV export: ${run.export.skipped}`
  const x = run.export
  return `CSV export (GET /api/logs/export.csv): ${x.rows.toLocaleString('en-US')} rows, ${x.megabytes} MB, first byte ${x.ttfbMs} ms, total ${(x.totalMs / 1000).toFixed(1)} s, ${x.rowsPerSecond.toLocaleString('en-US')} rows/s, server RSS ${x.rss.startMb} → peak ${x.rss.peakMb} MB (growth ${x.rss.growthMb} MB); other load ${x.otherCores} cores.`
}

/** The run's machine and where its figures are; "other load" explained. */
function runHeader(first: BenchReport, more: string): string[] {
  return [
    `Run of ${first.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${first.machine.cpus} × ${first.machine.cpuModel}, ${first.machine.memoryGb} GB RAM, Node ${first.machine.node}, ${first.machine.postgres}; the server's pool on PostgreSQL: ${settings.poolSize} connections (\`DATABASE_POOL_SIZE\`). ${more}Raw figures: \`bench/results/${first.startedAt.slice(0, 10)}-*.json\`.`,
    '',
    "\"other load\": cores' worth of CPU that other work on this shared machine used while the row ran (busy time in /proc/stat minus the bench's own processes and portal_bench's PostgreSQL backends); anything above about 0.2 makes that row pessimistic.",
    '',
  ]
}

/** The targets of every database measured, then the sync, as both the doc and latest.md show them. */
function targetsAndSync(reports: BenchReport[], pgOnly: boolean): string[] {
  const out: string[] = []
  const pgReport = reports.find((r) => r.run.database === 'postgres')
  const checked = pgOnly ? (pgReport ? [pgReport] : []) : reports
  const targets = checked.flatMap((r) => r.targets)
  if (targets.length) {
    out.push(`#### Targets${pgOnly ? ' (PostgreSQL)' : ''}`, '', '| target | measured | met |', '| --- | --- | --- |')
    for (const t of targets)
      out.push(`| ${t.target} | ${t.measured} | ${t.met === null ? 'not measured' : t.met ? 'met' : '**not met**'} |`)
    out.push('')
  }
  if (pgReport?.sync) {
    const { full, incremental } = pgReport.sync
    out.push(
      '#### Sync (PostgreSQL, simulator at bench size)',
      '',
      '| run | duration | process CPU | peak RSS | rows written (pg_stat_user_tables) | other load |',
      '| --- | ---: | ---: | ---: | --- | ---: |',
    )
    for (const s of [full, incremental]) {
      const writes = Object.entries(s.writes)
        .map(([t, w]) => `${t} +${w.inserted}/~${w.updated}/-${w.deleted}`)
        .join(', ')
      out.push(
        `| ${s.mode} | ${(s.durationMs / 1000).toFixed(1)} s | ${(s.cpuMs / 1000).toFixed(1)} s | ${s.rss.peakMb} MB | ${writes || 'none'} | ${s.otherCores} |`,
      )
    }
    out.push(
      '',
      '(+inserted / ~updated / -deleted; the mirror tables are course, company, dispatch, registration.)',
      '',
    )
  }
  return out
}

/** Everything the run measured: bench/results/latest.md. */
export function markdownSection(reports: BenchReport[]): string {
  const out = [...runHeader(reports[0]!, ''), ...targetsAndSync(reports, true)]
  for (const report of reports) {
    const run = report.run
    out.push(`#### Reads on ${run.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}`, '', run.dataSet, '')
    if (run.varied.length) {
      out.push(...variedRows(run), '')
      out.push(
        'Examples of each mix (2,000 generated requests, seeded):',
        '',
        ...[...new Map(run.varied.map((r) => [r.id.replace(/-(postbacks|100)$/, ''), r.example])).entries()].map(
          ([id, example]) => `- ${id}: \`${example}\``,
        ),
        '',
      )
      out.push(...slowestSection(run))
    }
    if (run.rows.length) out.push('Repeated URL (caches on):', '', ...markdownRows(run), '')
    out.push(exportLine(run), '', ...reportExportLines(run).flatMap((line) => [line, '']))
    const paths = new Map(run.rows.map((r) => [r.label, r.path]))
    if (paths.size) {
      out.push('Repeated requests:', '')
      for (const [label, requestPath] of paths) out.push(`- ${label}: \`${requestPath}\``)
      out.push('')
    }
    for (const note of run.notes) out.push(`- ${note}`)
    if (run.notes.length) out.push('')
  }
  return out.join('\n')
}

const dbName = (run: DbRun) => (run.database === 'postgres' ? 'PostgreSQL' : 'PGlite')

/** One line per varied mix and database: the row at its base load, with postbacks, and at 100 connections. */
function variedSummary(reports: BenchReport[]): string[] {
  const lines = [
    '| varied row (caches off) | database | conn | p50 ms | p95 ms | req/s | CPU ms/request: PostgreSQL, server | p95 with 20 postbacks/s | 100 conn: p95 ms; 503s (their p95 ms); errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ]
  for (const { run } of reports) {
    for (const row of run.varied.filter((r) => !/-(postbacks|100)$/.test(r.id))) {
      const e = row.endpoint
      const withPostbacks = run.varied.find((r) => r.id === `${row.id}-postbacks`)?.endpoint
      const at100 = run.varied.find((r) => r.id === `${row.id}-100`)?.endpoint
      const failed = e.non2xx + e.errors
      lines.push(
        `| ${row.label}${failed ? ` (${failed} failed)` : ''} | ${dbName(run)} | ${row.connections} | ${fmt(e.p50)} | ${fmt(e.p95)} | ${fmt(e.rps, 0)} | ${cpuOf(e)} | ${withPostbacks ? `${fmt(withPostbacks.p95)} (${fmt(withPostbacks.p95 / e.p95, 2)}×)` : '-'} | ${at100 ? `${fmt(at100.p95)}; ${fmt(at100.refused.count, 0)} (${fmt(at100.refused.p95)}); ${at100.errors}` : '-'} |`,
      )
    }
  }
  return lines
}

/** One line per repeated-URL row and database, at its highest concurrency, and sign-in. */
function repeatedSummary(reports: BenchReport[]): string[] {
  const lines = [
    '| one URL repeated (caches on) | database | conn | p50 ms | p95 ms | req/s | failed | SQL alone p95 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const { run } of reports) {
    const busiest = new Map<string, RowResult>()
    for (const row of run.rows) {
      const kept = busiest.get(row.label)
      if (!kept || row.connections > kept.connections) busiest.set(row.label, row)
    }
    for (const row of busiest.values()) {
      const label = row.label.replace(/^cached, one URL repeated: /, '')
      if (row.skipped || !row.endpoint) {
        lines.push(`| ${label} | ${dbName(run)} | ${row.connections} | ${row.skipped ?? 'not measured'} | | | | |`)
        continue
      }
      const e = row.endpoint
      lines.push(
        `| ${label} | ${dbName(run)} | ${row.connections} | ${fmt(e.p50)} | ${fmt(e.p95)} | ${fmt(e.rps, 0)} | ${e.non2xx + e.errors} | ${fmt(row.sql?.p95, 2)} |`,
      )
    }
    if (run.login) {
      const l = run.login
      lines.push(
        `| POST /api/auth/login (argon2id m=19 MiB, t=2) | ${dbName(run)} | ${l.connections} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.rps, 0)} | ${l.non2xx + l.errors} | - |`,
      )
    }
  }
  return lines
}

/**
 * The summary docs/performance.md carries: targets (the exports' figures among them), sync, one
 * line per read row. The per-request tables, the requests themselves, the exports' details and
 * the plans stay in latest.md.
 */
export function summarySection(reports: BenchReport[]): string {
  const out = [
    ...runHeader(
      reports[0]!,
      'Full tables, the requests measured and the plans of the slowest: [bench/results/latest.md](../bench/results/latest.md). ',
    ),
    ...targetsAndSync(reports, false),
  ]
  out.push('#### Reads', '')
  for (const { run } of reports) out.push(`- ${run.dataSet}`)
  out.push('')
  if (reports.some((r) => r.run.varied.length)) out.push(...variedSummary(reports), '')
  if (reports.some((r) => r.run.rows.length || r.run.login)) out.push(...repeatedSummary(reports), '')
  return out.join('\n')
}

const BEGIN = '<!-- bench:results:begin (written by npm run bench) -->'
const END = '<!-- bench:results:end -->'

/**
 * Writes bench/results/latest.md whole, and replaces the generated section of docs/performance.md
 * with the summary, keeping everything around it.
 */
export function writeMarkdown(reports: BenchReport[]): void {
  mkdirSync(RESULTS_DIR, { recursive: true })
  writeFileSync(
    LATEST_FILE,
    `# Latest bench run\n\nWritten by \`npm run bench\` (the summary and how to read it: [docs/performance.md](../../docs/performance.md)).\n\n${markdownSection(reports)}`,
  )
  const block = `${BEGIN}\n\n${summarySection(reports)}\n${END}`
  const doc = existsSync(DOC_FILE) ? readFileSync(DOC_FILE, 'utf8') : '# Performance\n'
  const start = doc.indexOf(BEGIN)
  const end = doc.indexOf(END)
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + block + doc.slice(end + END.length)
      : `${doc.trimEnd()}\n\n## Latest bench figures\n\n${block}\n`
  writeFileSync(DOC_FILE, next)
}
