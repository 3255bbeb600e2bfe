/** Issue #7's targets for PostgreSQL on the 2-core reference machine, checked against a run. */
import type { ExportResult } from './csv-export'
import type { DbRun } from './report'
import type { SyncMeasurement } from './seed-sync'

export interface TargetCheck {
  target: string
  measured: string
  /** null: not measured in this run (e.g. the route answered 404). */
  met: boolean | null
}

/** Peak RSS of the full sync counted as bounded: a million registrations at once would need GBs. */
export const SYNC_RSS_BOUND_MB = 512

const ms = (n: number) => `${n.toLocaleString('en-US')} ms`

export function checkTargets(
  run: DbRun,
  sync: { full: SyncMeasurement; incremental: SyncMeasurement } | null,
): TargetCheck[] {
  const checks: TargetCheck[] = []
  const row = (id: string, connections: number) =>
    run.rows.find((r) => r.id === id && r.connections === connections && r.endpoint)?.endpoint ?? null
  const latency = (target: string, id: string, connections: number, limitMs: number) => {
    const r = row(id, connections)
    checks.push({
      target,
      measured: r ? `p95 ${ms(r.p95)} (${r.rps} req/s, ${r.non2xx + r.errors} failed)` : 'not measured',
      met: r ? r.p95 < limitMs && r.non2xx + r.errors === 0 : null,
    })
  }
  latency('dispatch list, admin: p95 < 100 ms at 50 connections', 'dispatch-list-admin', 50, 100)
  latency('dispatch list, client: p95 < 100 ms at 50 connections', 'dispatch-list-client', 50, 100)
  latency('completion report, first page: p95 < 100 ms at 20 connections', 'report-first', 20, 100)
  latency('completion report, last page: p95 < 100 ms at 20 connections', 'report-deep', 20, 100)
  latency('logs page 1 (date + action): p95 < 100 ms at 20 connections', 'logs-first', 20, 100)
  latency('deepest logs page: p95 < 500 ms at 20 connections', 'logs-deepest', 20, 500)

  const csv: ExportResult | null = 'status' in run.export ? run.export : null
  checks.push(
    {
      target: 'CSV export: first byte < 1 s',
      measured: csv ? ms(csv.ttfbMs) : 'not measured',
      met: csv ? csv.ttfbMs < 1000 : null,
    },
    {
      target: 'CSV export: >= 100,000 rows/s',
      measured: csv
        ? `${csv.rowsPerSecond.toLocaleString('en-US')} rows/s (${csv.rows.toLocaleString('en-US')} rows)`
        : 'not measured',
      met: csv ? csv.rowsPerSecond >= 100_000 : null,
    },
    {
      target: 'CSV export: server memory growth < 100 MB',
      measured: csv ? `${csv.rss.growthMb} MB (peak RSS ${csv.rss.peakMb} MB)` : 'not measured',
      met: csv ? csv.rss.growthMb < 100 : null,
    },
  )
  const me = row('auth-me', 50)
  checks.push({
    target: 'GET /api/auth/me: >= 2,000 req/s at 50 connections',
    measured: me ? `${me.rps.toLocaleString('en-US')} req/s (p95 ${ms(me.p95)})` : 'not measured',
    met: me ? me.rps >= 2000 && me.non2xx + me.errors === 0 : null,
  })
  if (sync) {
    const { full, incremental } = sync
    checks.push(
      {
        target: 'no-change incremental sync: < 5 s, writing no row',
        measured: `${ms(Math.round(incremental.durationMs))}, ${incremental.mirrorRowsWritten} mirror rows written`,
        met: incremental.ok && incremental.durationMs < 5000 && incremental.mirrorRowsWritten === 0,
      },
      {
        target: 'full sync of the benchmark size: < 3 minutes',
        measured: `${(full.durationMs / 1000).toFixed(1)} s`,
        met: full.ok && full.durationMs < 180_000,
      },
      {
        target: `full sync: memory bounded (peak RSS < ${SYNC_RSS_BOUND_MB} MB)`,
        measured: `peak RSS ${full.rss.peakMb} MB`,
        met: full.rss.peakMb < SYNC_RSS_BOUND_MB,
      },
    )
  }
  return checks
}
