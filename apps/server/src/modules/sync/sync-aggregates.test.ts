import { asc, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { dispatchStat, registration, syncRun } from '../../db/schema'
import { buildDeferredAggregates } from './sync-learners'
import { createSyncRepository } from './sync.repository'
import { useSyncFixture } from './sync.test-support'

/**
 * Every table the registration triggers keep (migrations 0008, 0016, 0041, 0042), as the reads see it:
 * rows whose counts are all zero are left out (the page-by-page path may leave such rows behind
 * where a count went back to zero), and so are versions (transaction ids).
 */
const AGGREGATES: Record<string, string> = {
  dispatch_stat: `select dispatch_id, registrations, completed, incomplete, not_attempted, learners,
    learners_completed, learners_incomplete, learners_not_attempted, building from dispatch_stat order by 1`,
  dispatch_learner: `select * from dispatch_learner
    where (registrations, completed, incomplete, not_attempted) <> (0, 0, 0, 0) order by 1, 2`,
  dispatch_month: `select * from dispatch_month where registrations <> 0 order by 1, 2`,
  dispatch_week: `select * from dispatch_week where completions <> 0 order by 1, 2`,
  dispatch_success: `select * from dispatch_success where (passed, failed) <> (0, 0) order by 1`,
  dispatch_access_day: `select dispatch_id, completion_status, day::text, registrations from dispatch_access_day
    where registrations <> 0 order by 1, 2, 3`,
  dispatch_repeat_day: `select dispatch_id, day::text, completion_status, learner_hash::text, registrations
    from dispatch_repeat_day order by 1, 2, 3, 4`,
  company_month: `select company_id, enabled, month::text, registrations from company_month
    where registrations <> 0 order by 1, 2, 3`,
  dispatch_summary: `select company_id, enabled, dispatches, registrations, capped_registrations, capped_capacity,
    unlimited, active_registrations from dispatch_summary order by 1, 2`,
  dispatch_course_summary: `select course_id, enabled, dispatches, registrations, capped_registrations,
    capped_capacity, unlimited, active_registrations from dispatch_course_summary order by 1, 2`,
}

async function aggregates(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {}
  for (const [table, query] of Object.entries(AGGREGATES)) {
    out[table] = ((await db.execute(sql.raw(query))) as unknown as { rows: unknown[] }).rows
  }
  return out
}

class Rollback extends Error {}

/** Registration rows as the sync's upsert takes them (the learner hash is generated). */
type UpsertRows = Parameters<ReturnType<typeof createSyncRepository>['upsertRegistrations']>[0]
const rowsOf = (rows: (typeof registration.$inferSelect)[]) =>
  rows.map(({ learnerHash: _h, ...row }) => row) as unknown as UpsertRows

/**
 * The aggregates the page-by-page path builds from the same registrations: every registration
 * taken out (TRUNCATE, whose triggers empty the aggregates) and written again through the
 * sync's upsert in pages of 7, without any deferral; read, then rolled back.
 */
async function pageByPage(db: Db): Promise<Record<string, unknown[]>> {
  const repo = createSyncRepository(db)
  let expected: Record<string, unknown[]> = {}
  await db
    .transaction(async (tx) => {
      const rows = rowsOf(
        await tx.select().from(registration).orderBy(asc(registration.createdDate), asc(registration.id)),
      )
      await tx.execute(sql`truncate registration`)
      await tx.update(dispatchStat).set({ building: false })
      for (let at = 0; at < rows.length; at += 7) await repo.upsertRegistrations(rows.slice(at, at + 7), tx)
      expected = await aggregates(tx as unknown as Db)
      throw new Rollback()
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error
    })
  return expected
}

describe('a full sync builds the dispatch aggregates after its pages (migration 0044)', () => {
  const fixture = useSyncFixture()

  it('writes no aggregate row per page and ends equal to the page-by-page path', async () => {
    const { f } = fixture
    const db = f.database.db
    expect((await f.sync.run({ trigger: 'manual', full: true })).ok).toBe(true)
    const built = await aggregates(db)
    expect(built.dispatch_learner!.length).toBeGreaterThan(20)
    expect(built.dispatch_stat!.every((r) => !(r as { building: boolean }).building)).toBe(true)
    // Each dispatch's learners were written by one transaction, its build: not page by page.
    const writers = (await db.execute(sql`
      select count(*)::int as dispatches from (
        select dispatch_id from dispatch_learner group by dispatch_id having count(distinct xmin::text) > 1) m`)) as unknown as {
      rows: { dispatches: number }[]
    }
    expect(writers.rows[0]!.dispatches).toBe(0)
    expect(built).toEqual(await pageByPage(db))
    // The run's own split of its time, in its sync_run row.
    const [run] = await db
      .select({ wait: syncRun.providerWaitMs, write: syncRun.writeMs })
      .from(syncRun)
      .where(eq(syncRun.kind, 'registrations'))
    expect(run!.wait).toBeGreaterThanOrEqual(0)
    expect(run!.write).toBeGreaterThan(0)
  })

  it('keeps them page by page on an incremental sync, still equal', async () => {
    const { f, sim } = fixture
    const db = f.database.db
    const ids = (await db.select({ id: registration.id }).from(registration).orderBy(asc(registration.id))).map(
      (r) => r.id,
    )
    sim.touchRegistration(ids[0]!, { registrationCompletion: 'COMPLETED', registrationSuccess: 'PASSED' })
    sim.touchRegistration(ids[1]!, { registrationCompletion: 'INCOMPLETE' })
    sim.touchRegistration(ids[2]!)
    expect((await f.sync.run({ trigger: 'schedule' })).ok).toBe(true)
    const after = await aggregates(db)
    expect(after).toEqual(await pageByPage(db))
  })

  it('a build left by a stopped run is done by the next run, and a postback meanwhile is counted once', async () => {
    const { f } = fixture
    const db = f.database.db
    const before = await aggregates(db)
    const found = (await db.execute(
      sql`select dispatch_id from dispatch_stat where registrations > 1 order by 1 limit 1`,
    )) as unknown as { rows: { dispatch_id: string }[] }
    const [victim] = found.rows
    const id = victim!.dispatch_id
    // As a crash between the listing and the build leaves it: marked, its aggregates not written.
    await db.transaction(async (tx) => {
      const rows = rowsOf(await tx.select().from(registration).where(eq(registration.dispatchId, id)))
      await tx.delete(registration).where(eq(registration.dispatchId, id))
      await tx.execute(sql`select set_config('portal.dispatch_aggregates_deferred', 'on', true)`)
      await createSyncRepository(db).upsertRegistrations(rows.slice(1), tx)
      // A postback without the setting, for the marked dispatch: left to the build.
      await tx.execute(sql`select set_config('portal.dispatch_aggregates_deferred', 'off', true)`)
      await createSyncRepository(db).upsertRegistrations(rows.slice(0, 1), tx)
    })
    const [marked] = await db.select().from(dispatchStat).where(eq(dispatchStat.dispatchId, id))
    expect(marked).toMatchObject({ building: true, registrations: 0, learners: 0 })
    expect((await f.sync.run({ trigger: 'manual', kinds: ['registrations'] })).ok).toBe(true)
    expect(await aggregates(db)).toEqual(before)
  })
  it("builds a waiting dispatch's repeat learners' day counts as the page-by-page path keeps them", async () => {
    const { f } = fixture
    const db = f.database.db
    const found = (await db.execute(sql`select dispatch_id from registration
      where removed_at is null and last_access_date is not null
      group by dispatch_id having count(*) > 2 order by 1 limit 1`)) as unknown as { rows: { dispatch_id: string }[] }
    const id = found.rows[0]!.dispatch_id
    const repo = createSyncRepository(db)
    await db.transaction(async (tx) => {
      const rows = rowsOf(
        await tx
          .select()
          .from(registration)
          .where(sql`${registration.dispatchId} = ${id} and ${registration.lastAccessDate} is not null`)
          .orderBy(asc(registration.id)),
      )
      // Two of its accessed registrations become one learner's: a learner who repeats.
      rows[1] = { ...rows[1]!, learnerId: rows[0]!.learnerId, learnerEmail: rows[0]!.learnerEmail }
      await tx.delete(registration).where(eq(registration.dispatchId, id))
      await tx.execute(sql`select set_config('portal.dispatch_aggregates_deferred', 'on', true)`)
      await repo.upsertRegistrations(rows, tx)
    })
    const [marked] = await db.select().from(dispatchStat).where(eq(dispatchStat.dispatchId, id))
    expect(marked).toMatchObject({ building: true })
    await buildDeferredAggregates(repo, () => false)
    const built = await aggregates(db)
    expect(built.dispatch_repeat_day!.length).toBeGreaterThan(0)
    expect(built).toEqual(await pageByPage(db))
  })

  it("leaves a waiting dispatch's repeat learners to its build when their registrations are deleted", async () => {
    const { f } = fixture
    const db = f.database.db
    const found = (await db.execute(sql`select dispatch_id from registration
      where removed_at is null and last_access_date is not null
      group by dispatch_id having count(*) > 3 order by 1 desc limit 1`)) as unknown as {
      rows: { dispatch_id: string }[]
    }
    const id = found.rows[0]!.dispatch_id
    const repo = createSyncRepository(db)
    const accessed = sql`${registration.dispatchId} = ${id} and ${registration.lastAccessDate} is not null`
    await db.transaction(async (tx) => {
      const rows = rowsOf(await tx.select().from(registration).where(accessed).orderBy(asc(registration.id)))
      // Its first two accessed registrations become one learner's, who repeats.
      rows[1] = { ...rows[1]!, learnerId: rows[0]!.learnerId, learnerEmail: rows[0]!.learnerEmail }
      await tx.delete(registration).where(eq(registration.dispatchId, id))
      await tx.execute(sql`select set_config('portal.dispatch_aggregates_deferred', 'on', true)`)
      await repo.upsertRegistrations(rows, tx)
    })
    // While it waits, both of that learner's registrations go in one statement.
    const [first] = await db.select().from(registration).where(accessed).orderBy(asc(registration.id)).limit(1)
    await db
      .delete(registration)
      .where(sql`${registration.dispatchId} = ${id} and ${registration.learnerHash} = ${first!.learnerHash}`)
    const [marked] = await db.select().from(dispatchStat).where(eq(dispatchStat.dispatchId, id))
    expect(marked).toMatchObject({ building: true })
    await buildDeferredAggregates(repo, () => false)
    const built = await aggregates(db)
    expect(built.dispatch_repeat_day!.every((r) => (r as { registrations: number }).registrations > 0)).toBe(true)
    expect(built).toEqual(await pageByPage(db))
  })
})
