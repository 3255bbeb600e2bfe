/**
 * `npm run bench:seed -- --scale 1|10 [--db portal_bench]`: the bench data set built in SQL, in
 * minutes instead of a full sync through the simulator (which takes minutes per million
 * registrations, and far longer at ten times the size).
 *
 * What is the sync's and what is not:
 * - courses, companies and dispatches are the simulator's own (its generator, at the bench's
 *   sizes times the scale) written through the sync's own page writers (sync.kinds.ts), so their
 *   rows are the ones a full sync writes;
 * - registrations are made with generate_series from the simulator's layout (each dispatch's
 *   count and learner pool), with value distributions like the simulator's (not its exact
 *   values: its per-row hash streams have no SQL twin). They go in in bulk with the
 *   registration triggers bypassed (`session_replication_role = replica`); every table those
 *   triggers keep is then built in one set-based statement (seed-aggregates.ts), the companies
 *   are marked for their learner build as a full listing leaves them, and company_learner_build
 *   runs per company, as a sync ends. bench/seed-sql-check.ts compares every derived table with
 *   a rebuild through the sync's own writers;
 * - activity_log rows as seed-logs.ts makes them (2,000,000 times the scale), their day counts
 *   built after the load in the same way, the bench accounts as seed-users.ts makes them, and
 *   VACUUM ANALYZE at the end.
 *
 * The secondary indexes of registration, company_learner and company_learner_facet (and the
 * log's) are dropped for the load and made again from their own definitions after it. Each
 * phase prints its time.
 */
import pg from 'pg'
import { createDatabase, type Db } from '../apps/server/src/db/client'
import { createSyncRepository } from '../apps/server/src/modules/sync/sync.repository'
import { createKindHandlers } from '../apps/server/src/modules/sync/sync.kinds'
import { buildDeferredLearners } from '../apps/server/src/modules/sync/sync-learners'
import type { ScormCloudClient } from '../apps/server/src/modules/scorm-cloud/scorm-cloud.client'
import { FULL_RUN_CURSOR } from '../apps/server/src/modules/sync/sync-run.repository'
import { SYNC_KINDS } from '@portal/shared'
import { DEFAULT_EPOCH, SIZE_PRESETS } from '../packages/scorm-cloud-sim/src/options'
import { generateWorld, type World } from '../packages/scorm-cloud-sim/src/world'
import { courseToJson, destinationToJson, dispatchToJson } from '../packages/scorm-cloud-sim/src/records'
import { FIRST_NAMES, LAST_NAMES, slugify } from '../packages/scorm-cloud-sim/src/words'
import { BENCH_DB_NAME, settings } from './config'
import { databaseUrlOf, recreateDatabase, withClient } from './pg-admin'
import { dropRegistrationIndexes, secondaryIndexes, setJit } from './seed-db'
import { buildAggregates, REGISTRATION_AGGREGATES } from './seed-aggregates'
import { seedActivityLogs } from './seed-logs'
import { findFixtures, seedUsers } from './seed-users'
import { pgRunner, type SqlRunner } from './sql-runner'

export interface SqlSeedOptions {
  scale: number
  /** Activity log rows; default 2,000,000 times the scale. */
  logRows?: number
  progress?: (line: string) => void
  /**
   * Continue a run that stopped while loading registrations (`--resume`): the database is kept,
   * its catalog, batches loaded and index definitions (bench_seed_*) are used as they are.
   */
  resume?: boolean
}

/** The simulator's bench sizes times the scale; more companies so 300 courses still fit every dispatch. */
export function scaledSizes(scale: number) {
  const bench = SIZE_PRESETS.bench
  return {
    courses: bench.courses,
    destinations: Math.max(5, Math.round(bench.destinations * scale)),
    dispatches: Math.max(10, Math.round(bench.dispatches * scale)),
    registrations: Math.max(100, Math.round(bench.registrations * scale)),
    bigDispatchRegistrations: Math.max(10, Math.round(bench.bigDispatchRegistrations * scale)),
  }
}

const PAGE = 1_000
/** Registrations per insert statement. */
const REGISTRATION_BATCH = 250_000
/** Connections loading registrations at once. */
const REGISTRATION_WORKERS = 3

const sqlArray = (items: readonly string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`
const emailPart = (name: string) => slugify(name).replace(/-/g, '')

/**
 * Registrations [from, to) of the global index range. r1..r5 are independent uniform draws from
 * the index (hashint8extended), so any batch gives the same rows; the shapes follow
 * registration-generator.ts: status by age, access dates within the dispatch's life, a score
 * on scored courses, 8 % learners without an e-mail.
 */
export function registrationInsert(from: number, to: number, epochMs: number): string {
  const u = (n: number) => `((hashint8extended(i, ${n}) & 2147483647)::double precision / 2147483648)`
  const epoch = epochMs / 1000
  const first = (h: string) => `(${sqlArray(FIRST_NAMES)})[1 + (${h} % ${FIRST_NAMES.length})]`
  const last = (h: string) => `(${sqlArray(LAST_NAMES)})[1 + ((${h} / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})]`
  const firstPart = (h: string) => `(${sqlArray(FIRST_NAMES.map(emailPart))})[1 + (${h} % ${FIRST_NAMES.length})]`
  const lastPart = (h: string) =>
    `(${sqlArray(LAST_NAMES.map(emailPart))})[1 + ((${h} / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})]`
  return `
with placed as (
  -- a function scan per dispatch returns i in order: rows go in in dispatch order, as the sync's pages do
  select d.*, i, (d.learner_offset + ((i - d.reg_start) * d.stride) % d.pool) % d.pool as learner_no,
    to_timestamp(floor(d.created_ms / 1000 + 3600 + greatest(0, ${epoch - 3600} - (d.created_ms / 1000 + 3600))
      * ((i - d.reg_start) + ${u(9)}) / d.reg_count)) as created
  from bench_seed_dispatch as d
  cross join lateral generate_series(greatest(${from}, d.reg_start), least(${to}, d.reg_start + d.reg_count) - 1) as i
  where d.reg_start < ${to} and d.reg_start + d.reg_count > ${from}
), drawn as (
  select p.*, hashint8extended(p.destination_idx::bigint * 1000003 + p.learner_no, 1) & 2147483647 as h,
    ${u(1)} as r1, ${u(2)} as r2, ${u(3)} as r3, ${u(4)} as r4, ${u(5)} as r5, ${u(6)} as r6,
    least(100, 35 + floor(${u(7)} * 66) + case when ${u(8)} < 0.5 then 10 else 0 end) as score,
    (${epoch} - extract(epoch from p.created)) / 86400 as age_days
  from placed as p
), staged as (
  select d.*,
    case when r1 < 0.12 + case when age_days < 14 then 0.2 else 0 end then 'not attempted'
         when r1 < 0.45 + case when age_days < 30 then 0.2 else 0 end then 'incomplete' else 'completed' end as completion,
    date_trunc('second', created + (r2 * least(3 * 86400, greatest(0, ${epoch - 60} - extract(epoch from created)) * 0.25)) * interval '1 second') as first_access
  from drawn as d
), dated as (
  select s.*, date_trunc('second', first_access + (r3 * least(case when completion = 'completed' then 20 else 45 end * 86400,
    greatest(0, ${epoch - 60} - extract(epoch from first_access)) * 0.9)) * interval '1 second') as last_access
  from staged as s
)
insert into registration (id, instance, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
  learner_email, completion_status, success_status, score_scaled, total_seconds_tracked, first_access_date,
  last_access_date, completed_date, created_date, provider_updated)
select
  md5('bench-registration-' || i)::uuid::text,
  case when instanced and completion <> 'not attempted' and r6 < 0.1 then 1 + (i % 2)::int else 0 end,
  id, course_id,
  slug || '-' || lpad(learner_no::text, 5, '0'),
  ${first('h')}, ${last('h')},
  -- 8 % of learners have no e-mail: the learner key is then their id
  case when (h / 1000) % 100 < 8 then '' else ${firstPart('h')} || '.' || ${lastPart('h')} || learner_no || '@' || domain end,
  completion,
  case when completion = 'completed' then case when scored then case when score >= 70 then 'passed' else 'failed' end
       when r5 < 0.6 then 'passed' else 'unknown' end
     when completion = 'incomplete' and scored and r5 < 0.2 then 'failed' else 'unknown' end,
  case when completion = 'completed' and scored then score
       when completion = 'incomplete' and scored and r5 < 0.2 then 10 + floor(r4 * 60) end,
  case when completion = 'not attempted' then 0 when completion = 'completed' then 600 + floor(r4 * 8400) else 60 + floor(r4 * 3540) end,
  case when completion <> 'not attempted' then first_access end,
  case when completion <> 'not attempted' then last_access end,
  case when completion = 'completed' then last_access end,
  created,
  case when completion = 'not attempted' then created else least(to_timestamp(${epoch}), last_access + interval '10 seconds') end
from dated`
}

/**
 * The simulator's courses, companies and dispatches as its list pages send them, through the
 * sync's own page writers (mapper, fallbacks, stubs, upserts), PAGE items a transaction.
 */
export async function writeCatalog(db: Db, world: World): Promise<void> {
  const repo = createSyncRepository(db)
  const handlers = createKindHandlers(repo)
  const appClient = { appId: 'bench-seed' } as unknown as ScormCloudClient
  const writePages = async (kind: 'courses' | 'destinations' | 'dispatches', items: unknown[]) => {
    for (let at = 0; at < items.length; at += PAGE) {
      await db.transaction(async (tx) => {
        await repo.commitWithoutWaiting(tx)
        await handlers[kind].write(tx, items.slice(at, at + PAGE), appClient)
      })
    }
  }
  const perCourse = new Map<number, number>()
  for (const d of world.dispatches) perCourse.set(d.courseIdx, (perCourse.get(d.courseIdx) ?? 0) + d.registrationCount)
  await writePages(
    'courses',
    world.courses.map((c) =>
      courseToJson(c, { dispatched: perCourse.has(c.idx), registrationCount: perCourse.get(c.idx) ?? 0 }),
    ),
  )
  await writePages(
    'destinations',
    world.destinations.map((d) => ({ id: d.id, data: destinationToJson(d) })),
  )
  await writePages(
    'dispatches',
    world.dispatches.map((d) => ({
      id: d.id,
      data: dispatchToJson(d, world.courses[d.courseIdx]!, world.destinations[d.destinationIdx]!),
    })),
  )
}

/** The simulator's world at the scale (its generator: no registration is materialised). */
export const benchWorld = (scale: number): World =>
  generateWorld({ seed: settings.simSeed, sizes: scaledSizes(scale), epoch: DEFAULT_EPOCH })

/** The layout the registrations are generated from, one row per dispatch (an unlogged work table). */
export async function createLayoutTable(client: pg.Client, world: World): Promise<void> {
  await client.query(`drop table if exists bench_seed_dispatch`)
  await client.query(`create unlogged table bench_seed_dispatch (idx int primary key, id text, course_id text,
    destination_idx int, slug text, domain text, reg_start bigint, reg_count int, learner_offset bigint, pool bigint,
    stride bigint, created_ms bigint, instanced boolean, scored boolean)`)
  const { layout } = world
  for (let at = 0; at < world.dispatches.length; at += 20_000) {
    const slice = world.dispatches.slice(at, at + 20_000)
    const col = <T>(f: (d: (typeof slice)[number]) => T) => slice.map(f)
    await client.query(
      `insert into bench_seed_dispatch select * from unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::text[],
         $6::text[], $7::bigint[], $8::int[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::boolean[], $14::boolean[])`,
      [
        col((d) => d.idx),
        col((d) => d.id),
        col((d) => world.courses[d.courseIdx]!.id),
        col((d) => d.destinationIdx),
        col((d) => world.destinations[d.destinationIdx]!.id),
        col((d) => world.destinations[d.destinationIdx]!.domain),
        col((d) => layout.regStart[d.idx]!),
        col((d) => d.registrationCount),
        col((d) => layout.learnerOffset[d.idx]!),
        col((d) => layout.poolSize[d.destinationIdx]!),
        col((d) => layout.poolStride[d.destinationIdx]!),
        col((d) => d.createdMs),
        col((d) => d.instanced),
        col((d) => world.courses[d.courseIdx]!.scored),
      ],
    )
  }
  await client.query(`create index on bench_seed_dispatch (reg_start)`)
  await client.query(`analyze bench_seed_dispatch`)
}

export async function seedSql(url: string, options: SqlSeedOptions): Promise<void> {
  const progress = options.progress ?? console.log
  const began = performance.now()
  const elapsed = () => `${Math.round((performance.now() - began) / 1000)} s`
  // The seed's statements are large and run once: compiling them with JIT took longer than
  // running them. Off for this database's sessions while it is seeded, back to the server's
  // default at the end.
  await setJit(url, 'off')
  // The server's own start: the migrations, so the schema is the one it reads.
  const database = await createDatabase({ databaseUrl: url, poolSize: 2 })
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const world = benchWorld(options.scale)
    progress(
      `world: ${world.courses.length} courses, ${world.destinations.length} companies, ${world.dispatches.length} dispatches, ${world.registrationCount} registrations`,
    )
    const repo = createSyncRepository(database.db)
    let phase = performance.now()
    const phaseTime = () => {
      const seconds = (performance.now() - phase) / 1000
      phase = performance.now()
      return `${seconds.toFixed(1)} s`
    }
    if (!options.resume) {
      await writeCatalog(database.db, world)
      progress(`courses, companies, dispatches written through the sync's writers (${phaseTime()}, ${elapsed()})`)
      await createLayoutTable(client, world)
      await client.query(`create unlogged table bench_seed_batch (start bigint primary key)`)
    }
    const indexes = await dropRegistrationIndexes(client)

    // The log shares nothing with the registrations: it goes in on its own connection meanwhile.
    const logRows = options.logRows ?? Math.round(2_000_000 * options.scale)
    const logs = withClient(url, async (logClient) => {
      const { rows } = await logClient.query<{ n: string }>(`select count(*) as n from activity_log`)
      const present = Number(rows[0]!.n)
      if (logRows <= 0 || present === logRows) return
      if (present > 0)
        throw new Error(`activity_log holds ${present} rows of a stopped run: seed again without --resume`)
      const started = performance.now()
      await seedActivityLogs(pgRunner(logClient), logRows, progress, {
        maintenanceWorkMem: '512MB',
        bulkDayCounts: true,
      })
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      progress(`activity_log: ${logRows.toLocaleString('en-US')} rows and indexes (${seconds} s, ${elapsed()})`)
    })
    // Logs already seeded by a run that stopped are kept (a resumed run).
    void logs.catch(() => {})

    // The load bypasses the registration triggers (and the foreign key check: the dispatches
    // were just written), whose work is then done once per table below. Batches go to a few
    // connections at once; each records itself with its rows, so a resumed run skips it.
    const total = world.registrationCount
    const { rows: done } = await client.query<{ start: string }>(`select start from bench_seed_batch`)
    const doneStarts = new Set(done.map((r) => Number(r.start)))
    const starts: number[] = []
    for (let from = 0; from < total; from += REGISTRATION_BATCH) if (!doneStarts.has(from)) starts.push(from)
    let loaded = doneStarts.size * REGISTRATION_BATCH
    await Promise.all(
      Array.from({ length: REGISTRATION_WORKERS }, () =>
        withClient(url, async (worker) => {
          await worker.query('set session_replication_role = replica')
          for (let from = starts.shift(); from !== undefined; from = starts.shift()) {
            const to = Math.min(total, from + REGISTRATION_BATCH)
            await worker.query('begin')
            await worker.query('set local synchronous_commit = off')
            await worker.query(registrationInsert(from, to, world.epochMs))
            await worker.query('insert into bench_seed_batch values ($1)', [from])
            await worker.query('commit')
            loaded += to - from
            progress(
              `  registrations: ${loaded.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} (${elapsed()})`,
            )
          }
        }),
      ),
    )
    progress(`registrations loaded without triggers (${phaseTime()}, ${elapsed()})`)
    await client.query(`set maintenance_work_mem = '512MB'`)
    await client.query(`set work_mem = '256MB'`)
    await client.query('analyze registration')
    await buildAggregates(pgRunner(client), REGISTRATION_AGGREGATES, progress)
    progress(`registration aggregates built (${phaseTime()}, ${elapsed()})`)
    for (const index of indexes) {
      await client.query(index.indexdef)
      progress(`  registration: index ${index.indexname} rebuilt (${elapsed()})`)
    }
    progress(`registration indexes built (${phaseTime()}, ${elapsed()})`)
    // The repeat learners' day counts (kept by triggers the load bypassed) read a repeat learner's
    // registrations through the learner index: built in one pass once the indexes are back.
    await client.query('select dispatch_repeat_day_build()')
    progress(`repeat learners' day counts built (${phaseTime()}, ${elapsed()})`)
    await client.query(`drop table bench_seed_dispatch, bench_seed_batch, bench_seed_index`)
    // The learners' secondary indexes are made once after the builds, not entry by entry (the
    // builds delete and look up by the primary key only).
    const learnerIndexes = await secondaryIndexes(client, ['company_learner', 'company_learner_facet'])
    for (const index of learnerIndexes) await client.query(`drop index "${index.indexname}"`)
    await buildDeferredLearners(repo, () => false)
    progress(`learner aggregates built (${phaseTime()}, ${elapsed()})`)
    for (const index of learnerIndexes) await client.query(index.indexdef)
    progress(`learner indexes built (${phaseTime()}, ${elapsed()})`)

    await logs
    progress(`activity_log done (${phaseTime()}, ${elapsed()})`)
    const runner = pgRunner(client)
    await seedUsers(runner, await findFixtures(runner))
    await markSynced(runner)
    await client.query('vacuum analyze')
    progress(`vacuum analyze done (${phaseTime()}, ${elapsed()})`)
  } finally {
    await client.end()
    await database.close()
    await setJit(url, 'default')
  }
}

/**
 * The sync's cursors as a full sync leaves them: without them a server started on the seeded
 * database runs a full sync at start-up (no full run in the last day), which rewrites the
 * registrations from the simulator while the bench measures. Existing cursors are kept.
 */
export async function markSynced(db: SqlRunner): Promise<void> {
  await db.query(
    `insert into sync_cursor (kind, since) select kind, now() from unnest($1::text[]) as kind on conflict (kind) do nothing`,
    [[...SYNC_KINDS, FULL_RUN_CURSOR]],
  )
}

async function main() {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`)
    return at >= 0 ? process.argv[at + 1] : undefined
  }
  const scale = Number(arg('scale') ?? process.env.BENCH_SCALE ?? 1)
  if (!Number.isFinite(scale) || scale <= 0) throw new Error('--scale must be a positive number')
  const name = arg('db') ?? (scale === 1 ? BENCH_DB_NAME : `${BENCH_DB_NAME}${scale}`)
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`)
  const resume = process.argv.includes('--resume')
  const url = resume ? databaseUrlOf(name) : await recreateDatabase(name)
  const began = performance.now()
  await seedSql(url, {
    scale,
    resume,
    ...(arg('logs') !== undefined ? { logRows: Number(arg('logs')) } : {}),
    progress: (line) => console.log(`[${Math.round((performance.now() - began) / 1000)} s] ${line}`),
  })
  console.log(`${name}: seeded at scale ${scale} in ${Math.round((performance.now() - began) / 1000)} s`)
}

if (process.argv[1]?.endsWith('seed-sql.ts')) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
      process.exit(1)
    },
  )
}
