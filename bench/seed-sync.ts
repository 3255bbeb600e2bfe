/**
 * Part 1 of the seed, through the real path: the simulator at benchmark size, a full sync and
 * then an incremental sync that finds nothing new, each in a fresh server-like process (see
 * sync-worker.ts) whose RSS is sampled. Table writes come from pg_stat_user_tables deltas.
 * The worker is compiled as the production server is (apps/server/bundle.mjs) and run by node
 * alone: under tsx the process also holds the compiler and its caches, which is not what a
 * deployed server's memory holds.
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { bundleServer } from '../apps/server/bundle.mjs'
import { startNodeChild } from './child-process'
import { JWT_SECRET, ROOT } from './config'
import { tableWrites, writesBetween, type TableWrites } from './pg-admin'
import { startCpuShare } from './cpu-share'
import { sampleRss, type RssSummary } from './rss-sampler'
import type { RunningSimulator } from './simulator'

/** Tables the mirror owns; the rest (sync_run, sync_cursor) is the sync's own bookkeeping. */
export const MIRROR_TABLES = ['course', 'company', 'dispatch', 'registration']

export interface SyncMeasurement {
  mode: 'full' | 'incremental'
  ok: boolean
  durationMs: number
  /** CPU time of the sync process itself during the run. */
  cpuMs: number
  rss: RssSummary
  results: { kind: string; status: string; created: number; updated: number; skipped: number; errors: number }[]
  writes: Record<string, TableWrites>
  /** Rows inserted, updated or deleted in the mirror tables. */
  mirrorRowsWritten: number
  otherCores: number
}

let compiledWorker: Promise<string> | undefined

/** bench/sync-worker.ts bundled into bench/dist/sync-worker, once per bench process. */
function syncWorkerScript(): Promise<string> {
  compiledWorker ??= (async () => {
    const outdir = path.join(ROOT, 'bench', 'dist', 'sync-worker')
    await bundleServer({ entryPoints: [path.join(ROOT, 'bench', 'sync-worker.ts')], outdir })
    return path.join(outdir, 'sync-worker.js')
  })()
  return compiledWorker
}

export function syncEnv(databaseUrl: string, sim: RunningSimulator): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'portal-bench-sync-')),
    JWT_SECRET,
    POSTBACK_PASSWORD: 'bench-postback-password',
    SCORM_CLOUD_APP_ID: sim.appId,
    SCORM_CLOUD_SECRET_KEY: sim.secretKey,
    SCORM_CLOUD_BASE_URL: sim.url,
    SYNC_INTERVAL_MINUTES: '0',
    LOG_LEVEL: 'warn',
  }
}

export async function measureSync(
  mode: 'full' | 'incremental',
  databaseUrl: string,
  sim: RunningSimulator,
  progress: (line: string) => void,
): Promise<SyncMeasurement> {
  const before = await tableWrites(databaseUrl).catch(() => ({}))
  const worker = startNodeChild(await syncWorkerScript(), [mode], {
    env: syncEnv(databaseUrl, sim),
    nodeArgs: ['--enable-source-maps'],
  })
  const rss = sampleRss(worker.pid)
  const share = startCpuShare()
  const ticker = setInterval(() => progress(`  ${mode} sync running, RSS ${rss.peek().toFixed(0)} MB`), 15_000)
  try {
    const [, json] = await worker.waitForLine(/^BENCH_RESULT (.*)$/, 30 * 60_000)
    const memory = rss.stop()
    const { otherCores } = share.stop()
    const code = await worker.exited
    if (code !== 0) throw new Error(`sync worker exited ${code}:\n${worker.stderrTail()}`)
    const outcome = JSON.parse(json!) as Pick<SyncMeasurement, 'ok' | 'durationMs' | 'cpuMs' | 'results'>
    // The worker has exited, so its backends have reported their counters.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const writes = writesBetween(before, await tableWrites(databaseUrl))
    const mirrorRowsWritten = MIRROR_TABLES.reduce((sum, table) => {
      const w = writes[table]
      return sum + (w ? w.inserted + w.updated + w.deleted : 0)
    }, 0)
    return { mode, ...outcome, rss: memory, writes, mirrorRowsWritten, otherCores }
  } finally {
    clearInterval(ticker)
    await worker.stop()
  }
}
