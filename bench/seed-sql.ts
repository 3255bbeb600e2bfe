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
 *   values: its per-row hash streams have no SQL twin). They go in as the sync's full listing
 *   writes them: in pages whose transaction defers the learner aggregate, the registration
 *   triggers keeping every per-dispatch aggregate, then company_learner_build per company.
 *   So every derived table is made by the same SQL a sync runs (bench/seed-sql-check.ts
 *   compares them with a rebuild through the sync's writers);
 * - activity_log rows as seed-logs.ts makes them (2,000,000 times the scale), the bench
 *   accounts as seed-users.ts makes them, and VACUUM ANALYZE at the end.
 *
 * The registration table's secondary indexes are dropped for the load and rebuilt from their
 * own definitions after it: the per-page triggers read only their own aggregate tables, except
 * the repeat learners' day counts (migration 0042), disabled for the load and built after it.
 */
import pg from 'pg'
import { createDatabase, type Db } from '../apps/server/src/db/client'
import { createSyncRepository } from '../apps/server/src/modules/sync/sync.repository'
import { createKindHandlers } from '../apps/server/src/modules/sync/sync.kinds'
import { buildDeferredLearners } from '../apps/server/src/modules/sync/sync-learners'
import type { ScormCloudClient } from '../apps/server/src/modules/scorm-cloud/scorm-cloud.client'
import { DEFAULT_EPOCH, SIZE_PRESETS } from '../packages/scorm-cloud-sim/src/options'
import { generateWorld, type World } from '../packages/scorm-cloud-sim/src/world'
import { courseToJson, destinationToJson, dispatchToJson } from '../packages/scorm-cloud-sim/src/records'
import { FIRST_NAMES, LAST_NAMES, slugify } from '../packages/scorm-cloud-sim/src/words'
import { ADMIN_URL, BENCH_DB_NAME, settings } from './config'
import { seedActivityLogs } from './seed-logs'
import { findFixtures, seedUsers } from './seed-users'
import { pgRunner } from './sql-runner'

export interface SqlSeedOptions {
  scale: number
  /** Activity log rows; default 2,000,000 times the scale. */
  logRows?: number
  progress?: (line: string) => void
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
/** Registrations per insert: each is one of the sync's pages as far as the triggers can tell. */
const REGISTRATION_BATCH = 100_000

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
    await writeCatalog(database.db, world)
    progress(`courses, companies, dispatches written through the sync's writers (${elapsed()})`)

    await createLayoutTable(client, world)

    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where schemaname = 'public' and tablename = 'registration' and indexname <> 'registration_pkey'`,
    )
    for (const index of indexes) await client.query(`drop index "${index.indexname}"`)
    // The repeat learners' day counts (migration 0042) read the registrations of a learner who
    // starts repeating: without the indexes, a scan per page. They are built once after the load.
    await client.query(`alter table registration disable trigger registration_then_repeat_day_insert`)
    const total = world.registrationCount
    for (let from = 0; from < total; from += REGISTRATION_BATCH) {
      const to = Math.min(total, from + REGISTRATION_BATCH)
      await client.query('begin')
      await client.query('set local synchronous_commit = off')
      // As the sync's full registration listing: companies without learners are built at the end.
      await client.query(`select set_config('portal.learners_deferred', 'on', true)`)
      await client.query(registrationInsert(from, to, world.epochMs))
      await client.query('commit')
      progress(`  registrations: ${to.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} (${elapsed()})`)
    }
    await client.query(`set maintenance_work_mem = '512MB'`)
    for (const index of indexes) {
      await client.query(index.indexdef)
      progress(`  registration: index ${index.indexname} rebuilt (${elapsed()})`)
    }
    await client.query(`alter table registration enable trigger registration_then_repeat_day_insert`)
    await client.query(`select dispatch_repeat_day_build()`)
    progress(`repeat learners' day counts built (${elapsed()})`)
    await client.query(`drop table bench_seed_dispatch`)
    await buildDeferredLearners(repo, () => false)
    progress(`learner aggregates built (${elapsed()})`)

    const logRows = options.logRows ?? Math.round(2_000_000 * options.scale)
    if (logRows > 0) {
      await seedActivityLogs(pgRunner(client), logRows, progress, { maintenanceWorkMem: '512MB' })
      progress(`activity_log: ${logRows.toLocaleString('en-US')} rows (${elapsed()})`)
    }
    const runner = pgRunner(client)
    await seedUsers(runner, await findFixtures(runner))
    await client.query('vacuum analyze')
    progress(`vacuum analyze done (${elapsed()})`)
  } finally {
    await client.end()
    await database.close()
    await setJit(url, 'default')
  }
}

async function setJit(url: string, value: 'off' | 'default'): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const to = value === 'off' ? 'set jit = off' : 'reset jit'
    await client.query(`do $$ begin execute format('alter database %I ${to}', current_database()); end $$`)
  } finally {
    await client.end()
  }
}

/** Drops and creates the database `name` on the DATABASE_URL server. */
export async function recreateDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
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
  const url = await recreateDatabase(name)
  const began = performance.now()
  await seedSql(url, {
    scale,
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
