/**
 * `npx tsx bench/seed-sql-check.ts [--scale 0.01]`: proves the SQL seeder's derived tables are
 * the ones the sync builds. Seeds `portal_seedcheck_sql` with seed-sql.ts, then builds
 * `portal_seedcheck_sync` from the same courses, companies and dispatches and the same
 * registration rows, written the way a full sync writes them: the sync repository's
 * registration upsert, pages of 100 in transactions that defer the learner aggregate, then the
 * sync's deferred learner builds. Every aggregate table must hold the same rows (its
 * transaction-id versions and timestamps aside), and the read services must answer the same.
 * The seed's log rows are written again with the log's triggers on, for its day counts.
 * Exits 1 on any difference. Both databases are dropped at the end unless --keep.
 *
 * The two builds also take two paths to the dispatch aggregates: the SQL seed builds them in
 * grouped statements after its bulk load (seed-aggregates.ts), the sync's pages defer them and
 * build them at the end (dispatch_aggregates_build, migration 0044). `--prefix NAME` names the two
 * databases NAME_sql and NAME_sync (default portal_seedcheck).
 */
import pg from 'pg'
import { createDatabase, type Db } from '../apps/server/src/db/client'
import { createSyncRepository } from '../apps/server/src/modules/sync/sync.repository'
import type { RegistrationRow } from '../apps/server/src/modules/sync/sync.mapper'
import { buildDeferredAggregates } from '../apps/server/src/modules/sync/sync-learners'
import { ADMIN_URL } from './config'
import { recreateDatabase } from './pg-admin'
import { benchWorld, seedSql, writeCatalog } from './seed-sql'
import { dispatchesServiceOf, learnersServiceOf, reportsServiceOf } from './services'
import { findFixtures } from './seed-users'
import { pgRunner } from './sql-runner'

/** Tables the registration and dispatch triggers or the learner build keep. */
const DERIVED = [
  'dispatch_stat',
  'dispatch_learner',
  'dispatch_success',
  'dispatch_course_summary',
  'dispatch_summary',
  'dispatch_month',
  'dispatch_week',
  'dispatch_access_day',
  'dispatch_repeat_day',
  'company_month',
  'company_learner',
  'company_learner_facet',
  'company_learner_stat',
  'course',
  'company',
  'dispatch',
  'activity_log_day',
  'activity_log_user_day',
]
/** Log rows seeded: their day counts are built in bulk by the seed, by the log's triggers here. */
const LOG_ROWS = 20_000
/** Columns that differ between any two builds: versions are transaction ids, the rest clock times. */
const VOLATILE = ['version', 'created_at', 'updated_at', 'synced_at']

async function tableDigest(client: pg.Client, table: string): Promise<{ rows: number; digest: string }> {
  const strip = VOLATILE.map((c) => ` - '${c}'`).join('')
  const { rows } = await client.query<{ rows: number; digest: string }>(
    `select count(*)::int as rows, md5(coalesce(string_agg(r, '|' order by r), '')) as digest
     from (select (to_jsonb(t)${strip})::text as r from ${table} t) s`,
  )
  return rows[0]!
}

async function copyRegistrationsThroughSync(from: pg.Client, db: Db): Promise<void> {
  const repo = createSyncRepository(db)
  const { rows } = await from.query<Record<string, unknown>>(
    `select id, instance, dispatch_id as "dispatchId", course_id as "courseId", learner_id as "learnerId",
       learner_first_name as "learnerFirstName", learner_last_name as "learnerLastName", learner_email as "learnerEmail",
       completion_status as "completionStatus", success_status as "successStatus", score_scaled as "scoreScaled",
       total_seconds_tracked as "totalSecondsTracked", first_access_date as "firstAccessDate",
       last_access_date as "lastAccessDate", completed_date as "completedDate", created_date as "createdDate",
       provider_updated as "providerUpdated"
     from registration order by created_date, id`,
  )
  const regs = rows as unknown as (RegistrationRow & { courseId: string })[]
  for (let at = 0; at < regs.length; at += 100) {
    await db.transaction(async (tx) => {
      // As the sync's full listing: learners and dispatch aggregates built at the end.
      await repo.deferAggregates(tx)
      await repo.upsertRegistrations(regs.slice(at, at + 100), tx)
    })
  }
  await buildDeferredAggregates(repo, () => false)
}

/** The seed's log rows written again with the day-count triggers on, in pages as a server writes them. */
async function copyLogsThroughTriggers(from: pg.Client, to: pg.Client): Promise<void> {
  await to.query(`select activity_log_ensure_months((current_date - 366)::date, current_date)`)
  const { rows } = await from.query<{ row: string }>(
    `select to_jsonb(l)::text as row from (select id, created_at, user_id, actor_name, actor_email, action, details,
       ip_address from activity_log) as l order by created_at, id`,
  )
  for (let at = 0; at < rows.length; at += 1_000) {
    await to.query(
      `insert into activity_log (id, created_at, user_id, actor_name, actor_email, action, details, ip_address)
       select id, created_at, user_id, actor_name, actor_email, action, details, ip_address
       from jsonb_populate_recordset(null::activity_log, $1::jsonb)`,
      [
        `[${rows
          .slice(at, at + 1_000)
          .map((r) => r.row)
          .join(',')}]`,
      ],
    )
  }
}

async function answers(db: Db, url: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const fixtures = await findFixtures(pgRunner(client))
    const admin = { id: '00000000-0000-0000-0000-000000000000', role: 'admin', companyId: null } as never
    const dispatches = dispatchesServiceOf(db)
    const reports = reportsServiceOf(db, dispatches)
    const out: unknown[] = [fixtures]
    for (const query of [
      { page: 1, pageSize: 100 },
      { page: 2, pageSize: 100, status: 'completed' },
      { page: 1, pageSize: 100, status: 'incomplete', search: 'smith' },
      { page: 1, pageSize: 100, startDate: '2025-06-01', endDate: '2025-12-31' },
    ]) {
      out.push(await reports.dispatchReport(admin, fixtures.bigDispatchId, query as never))
    }
    const learners = learnersServiceOf(db, { error() {} })
    for (const query of [
      { page: 1, pageSize: 50, sort: 'name', order: 'asc', status: 'all' },
      { page: 3, pageSize: 50, sort: 'completed', order: 'desc', status: 'all' },
      { page: 1, pageSize: 50, sort: 'lastAccess', order: 'desc', status: 'completed', search: 'an' },
    ]) {
      out.push(await learners.list(admin, { ...query, companyId: fixtures.clientCompanyId } as never))
    }
    out.push(
      await dispatches.list(admin, {
        page: 1,
        pageSize: 50,
        search: 'safety',
        status: 'all',
        sort: 'course',
        order: 'desc',
      } as never),
    )
    return out
  } finally {
    await client.end()
  }
}

async function main() {
  const at = process.argv.indexOf('--scale')
  const scale = at >= 0 ? Number(process.argv[at + 1]) : 0.01
  const named = process.argv.indexOf('--prefix')
  const prefix = named >= 0 ? process.argv[named + 1]! : 'portal_seedcheck'
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`not a database name: ${prefix}`)
  const sqlUrl = await recreateDatabase(`${prefix}_sql`)
  await seedSql(sqlUrl, { scale, logRows: LOG_ROWS, progress: () => {} })
  const syncUrl = await recreateDatabase(`${prefix}_sync`)
  const syncDb = await createDatabase({ databaseUrl: syncUrl, poolSize: 2 })
  const sqlDb = await createDatabase({ databaseUrl: sqlUrl, poolSize: 2, migrate: false })
  const a = new pg.Client({ connectionString: sqlUrl })
  const b = new pg.Client({ connectionString: syncUrl })
  await a.connect()
  await b.connect()
  let failed = 0
  try {
    await writeCatalog(syncDb.db, benchWorld(scale))
    await copyRegistrationsThroughSync(a, syncDb.db)
    await copyLogsThroughTriggers(a, b)
    for (const table of ['registration', ...DERIVED]) {
      const [x, y] = [await tableDigest(a, table), await tableDigest(b, table)]
      const same = x.rows === y.rows && x.digest === y.digest
      if (!same) failed += 1
      console.log(`${same ? 'same     ' : 'DIFFERENT'} ${table}: ${x.rows} rows (SQL seed) vs ${y.rows} (sync writers)`)
    }
    const [x, y] = [JSON.stringify(await answers(sqlDb.db, sqlUrl)), JSON.stringify(await answers(syncDb.db, syncUrl))]
    const sameAnswers = x === y
    if (!sameAnswers) failed += 1
    console.log(`${sameAnswers ? 'same     ' : 'DIFFERENT'} report and dispatch list answers (${x.length} characters)`)
  } finally {
    await a.end()
    await b.end()
    await syncDb.close()
    await sqlDb.close()
  }
  if (!process.argv.includes('--keep')) {
    const admin = new pg.Client({ connectionString: ADMIN_URL })
    await admin.connect()
    for (const name of [`${prefix}_sql`, `${prefix}_sync`])
      await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
  console.log(failed === 0 ? 'the SQL seed matches the sync writers' : `${failed} difference(s)`)
  process.exit(failed === 0 ? 0 : 1)
}

void main()
