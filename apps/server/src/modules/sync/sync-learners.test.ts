import { asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { companyLearner, companyLearnerFacet, companyLearnerStat, registration } from '../../db/schema'
import { createTestDatabase } from '../../test/test-database'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { DEFER_LEARNERS_SQL } from './sync.repository'
import { useSyncFixture } from './sync.test-support'

/** The learner aggregate as the lists read it: rows, facet counts, and each company's count and flag. */
async function aggregate(db: Db) {
  return {
    learners: await db
      .select()
      .from(companyLearner)
      .orderBy(asc(companyLearner.companyId), asc(companyLearner.learnerHash)),
    facets: await db
      .select()
      .from(companyLearnerFacet)
      .where(sql`${companyLearnerFacet.learners} <> 0`)
      .orderBy(asc(companyLearnerFacet.companyId), asc(companyLearnerFacet.facet)),
    companies: await db
      .select({
        id: companyLearnerStat.companyId,
        learners: companyLearnerStat.learners,
        building: companyLearnerStat.building,
      })
      .from(companyLearnerStat)
      .where(sql`${companyLearnerStat.learners} <> 0 or ${companyLearnerStat.building}`)
      .orderBy(asc(companyLearnerStat.companyId)),
  }
}

/**
 * The aggregate recomputed from nothing by the page-by-page path (migration 0017's refresh,
 * without the deferral), learner by learner: what the bulk build must equal.
 */
async function refreshedFromScratch(db: Db) {
  await db.transaction(async (tx) => {
    await tx.delete(companyLearner)
    await tx.delete(companyLearnerFacet)
    await tx.update(companyLearnerStat).set({ learners: 0, building: false })
    await tx.execute(sql`
      select company_learner_refresh_keys(array_agg(k.company_id), array_agg(k.learner_hash))
      from (
        select distinct d.destination_id as company_id, r.learner_hash
        from registration r join dispatch d on d.id = r.dispatch_id
        where r.removed_at is null and d.removed_at is null
      ) k`)
  })
  return aggregate(db)
}

describe('a full sync builds the learner aggregate in one pass per company (migration 0021)', () => {
  const fixture = useSyncFixture()

  it('ends with every company built, equal to the learner-by-learner refresh', async () => {
    const { f } = fixture
    expect((await f.sync.run({ trigger: 'manual', full: true })).ok).toBe(true)
    const built = await aggregate(f.database.db)
    expect(built.learners.length).toBeGreaterThan(20)
    expect(built.companies.length).toBeGreaterThan(1)
    expect(built.companies.every((c) => !c.building)).toBe(true)
    // Written once, by each company's build: the pages (7 registrations each) did not upsert learners.
    const writers = (await f.database.db.execute(sql`
      select company_id, count(distinct xmin::text)::int as transactions from company_learner group by company_id
      order by company_id`)) as unknown as { rows: { company_id: string; transactions: number }[] }
    expect(writers.rows).toEqual(built.companies.map((c) => ({ company_id: c.id, transactions: 1 })))
    expect(built).toEqual(await refreshedFromScratch(f.database.db))
  })

  it('finishes a build a stopped run left (even from an incremental run)', async () => {
    const { f } = fixture
    const db = f.database.db
    const before = await aggregate(db)
    const [victim] = before.companies
    // As a crash between the listing and the build leaves it: marked, its rows not written.
    await db.transaction(async (tx) => {
      await tx.delete(companyLearner).where(eq(companyLearner.companyId, victim!.id))
      await tx.delete(companyLearnerFacet).where(eq(companyLearnerFacet.companyId, victim!.id))
      await tx
        .update(companyLearnerStat)
        .set({ learners: 0, building: true })
        .where(eq(companyLearnerStat.companyId, victim!.id))
    })
    expect((await f.sync.run({ trigger: 'manual', kinds: ['registrations'] })).ok).toBe(true)
    expect(await aggregate(db)).toEqual(before)
  })
})

describe('company_learner_refresh with portal.learners_deferred on', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  const fresh = 'bulk-new'
  const known = 'bulk-known'
  beforeAll(async () => {
    database = await createTestDatabase()
    await insertDispatches(database.db, [
      { id: 'bulk-d1', destinationId: fresh, courseId: 'bulk-c1' },
      { id: 'bulk-d2', destinationId: known, courseId: 'bulk-c1' },
    ])
    // The known company has a learner already (written without the setting).
    await insertRegistrations(database.db, [
      { id: 'bulk-k0', dispatchId: 'bulk-d2', learnerEmail: 'k0@example.test', completionStatus: 'completed' },
    ])
  })
  afterAll(async () => {
    await database.close()
  })

  const learnersOf = (companyId: string) =>
    database.db
      .select({ email: companyLearner.email, completed: companyLearner.completed })
      .from(companyLearner)
      .where(eq(companyLearner.companyId, companyId))
      .orderBy(asc(companyLearner.email))
  const statOf = async (companyId: string) =>
    (
      await database.db
        .select({ learners: companyLearnerStat.learners, building: companyLearnerStat.building })
        .from(companyLearnerStat)
        .where(eq(companyLearnerStat.companyId, companyId))
    )[0]

  it('marks a company without learners for the build and refreshes one that has them at once', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(DEFER_LEARNERS_SQL)
      await tx.insert(registration).values([
        ...['a', 'b', 'c'].map((x) => ({
          id: `bulk-n-${x}`,
          dispatchId: 'bulk-d1',
          courseId: 'bulk-c1',
          learnerEmail: `${x}@example.test`,
          completionStatus: 'incomplete',
          successStatus: 'unknown',
        })),
        {
          id: 'bulk-k1',
          dispatchId: 'bulk-d2',
          courseId: 'bulk-c1',
          learnerEmail: 'k1@example.test',
          completionStatus: 'completed',
          successStatus: 'unknown',
        },
      ])
    })
    expect(await learnersOf(fresh)).toEqual([])
    expect(await statOf(fresh)).toEqual({ learners: 0, building: true })
    expect(await learnersOf(known)).toEqual([
      { email: 'k0@example.test', completed: 1 },
      { email: 'k1@example.test', completed: 1 },
    ])
    expect(await statOf(known)).toEqual({ learners: 2, building: false })
  })

  it('without the setting, refreshes a company being built as before; the build then takes it all', async () => {
    await insertRegistrations(database.db, [
      { id: 'bulk-n-d', dispatchId: 'bulk-d1', learnerEmail: 'd@example.test', completionStatus: 'completed' },
    ])
    expect(await learnersOf(fresh)).toEqual([{ email: 'd@example.test', completed: 1 }])
    expect((await statOf(fresh))?.building).toBe(true)
    await database.db.execute(sql`select company_learner_build(${fresh})`)
    expect(await learnersOf(fresh)).toEqual([
      { email: 'a@example.test', completed: 0 },
      { email: 'b@example.test', completed: 0 },
      { email: 'c@example.test', completed: 0 },
      { email: 'd@example.test', completed: 1 },
    ])
    expect(await statOf(fresh)).toEqual({ learners: 4, building: false })
  })
})
