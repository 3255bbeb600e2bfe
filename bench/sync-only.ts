/**
 * `npx tsx bench/sync-only.ts --db NAME [--keep]`: the bench's full sync and then its
 * incremental sync, alone, into a database of the caller's naming (dropped and created afresh;
 * never portal_bench, which `npm run bench` owns). The simulator at bench size, the sync
 * worker and the measurement are the bench's own (seed-sync.ts); what it adds is the CPU time
 * of the PostgreSQL backends serving that database, sampled every second, so a change to the
 * sync's writes can be judged by the database's work and not only by a wall time that other
 * work on a shared machine stretches. Prints one summary per sync and `SYNC_ONLY <json>`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { BENCH_DB_NAME } from './config'
import { runMain } from './child-process'
import { recreateDatabase } from './pg-admin'
import { measureSync, type SyncMeasurement } from './seed-sync'
import { startBenchSimulator } from './simulator'

const TICKS_PER_SECOND = 100

/** CPU ticks of the PostgreSQL backends serving `db`, kept per pid while they live. */
function startBackendCpu(db: string) {
  // "postgres: 15/main: user database host(port) state" (the cluster part only on some builds).
  const pattern = new RegExp(`^postgres: (\\S+: )?\\S+ ${db} `)
  const seen = new Map<number, { first: number; last: number }>()
  const sample = () => {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')
        if (!pattern.test(cmdline)) continue
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        const ticks = Number(rest[11]) + Number(rest[12])
        const pid = Number(entry)
        const known = seen.get(pid)
        if (known) known.last = ticks
        // A backend that started during the window: all its ticks are the window's.
        else seen.set(pid, { first: ticksAtStart ? ticks : 0, last: ticks })
      } catch {
        // gone between readdir and read
      }
    }
  }
  let ticksAtStart = true
  sample()
  ticksAtStart = false
  const timer = setInterval(sample, 1_000)
  return {
    stop(): number {
      clearInterval(timer)
      sample()
      let ticks = 0
      for (const { first, last } of seen.values()) ticks += last - first
      return ticks / TICKS_PER_SECOND
    },
  }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}

async function main() {
  const at = process.argv.indexOf('--db')
  const db = at >= 0 ? process.argv[at + 1] : undefined
  if (!db || !/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error('usage: sync-only.ts --db NAME')
  if (db === BENCH_DB_NAME || db.startsWith(`${BENCH_DB_NAME}`)) throw new Error(`${db} belongs to npm run bench`)
  const url = await recreateDatabase(db)
  const sim = await startBenchSimulator()
  const out: (SyncMeasurement & { postgresCpuSeconds: number; load: string })[] = []
  try {
    for (const mode of ['full', 'incremental'] as const) {
      const load = loadAverage()
      const backend = startBackendCpu(db)
      const m = await measureSync(mode, url, sim, (line) => console.log(line))
      const postgresCpuSeconds = backend.stop()
      out.push({ ...m, postgresCpuSeconds, load })
      console.log(
        `${mode}: ${(m.durationMs / 1000).toFixed(1)} s, ok ${m.ok}, sync process CPU ${(m.cpuMs / 1000).toFixed(1)} s, ` +
          `PostgreSQL backends CPU ${postgresCpuSeconds.toFixed(1)} s, peak RSS ${m.rss.peakMb} MB, ` +
          `other load ${m.otherCores} cores, load average at start ${load}`,
      )
      for (const r of m.results) console.log(`  ${JSON.stringify(r)}`)
    }
  } finally {
    await sim.process.stop()
  }
  console.log(`SYNC_ONLY ${JSON.stringify(out)}`)
  if (!process.argv.includes('--keep')) {
    const { ADMIN_URL } = await import('./config')
    const pg = (await import('pg')).default
    const admin = new pg.Client({ connectionString: ADMIN_URL })
    await admin.connect()
    await admin.query(`drop database if exists ${db} with (force)`)
    await admin.end()
  }
}

runMain(main)
