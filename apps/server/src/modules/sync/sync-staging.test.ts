import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { registration } from '../../db/schema'
import type { DbOrTx } from '../../db/client'
import { rowsOf } from '../../db/statement'
import { mapRegistrations } from './sync.mapper'
import {
  mirrorRows,
  SMALL_SIZES,
  stopRegistrationsAfterThreePages,
  useFixturesOnFaultySimulator,
} from './sync.test-support'
import { createSyncRepository } from './sync.repository'

const suite = useFixturesOnFaultySimulator()
const fixture = () => suite.fixture()

const count = async (db: DbOrTx, table: 'registration' | 'registration_load') => {
  const result = (await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)) as unknown as {
    rows: { n: number }[]
  }
  return Number(result.rows[0]!.n)
}

describe('a first sync', () => {
  it('stages its registrations while it lists them, and a stopped one is moved into the mirror by the next run', async () => {
    const f = await fixture()
    stopRegistrationsAfterThreePages(suite.sim)
    const first = await f.sync.run({ trigger: 'startup' })
    expect(first.results.find((r) => r.kind === 'registrations')).toMatchObject({ status: 'failed', created: 21 })
    expect(await count(f.database.db, 'registration_load')).toBe(21)
    expect(await count(f.database.db, 'registration')).toBe(0)

    suite.sim.clearFaults()
    const second = await f.sync.run({ trigger: 'schedule' })
    expect(second.ok).toBe(true)
    expect(await count(f.database.db, 'registration_load')).toBe(0)
    expect(await count(f.database.db, 'registration')).toBe(SMALL_SIZES.registrations)
    // Emptied, not only deleted from: the next run's look at it must not read the moved rows' space.
    const size = (await f.database.db.execute(
      sql`select pg_relation_size('registration_load')::int as bytes`,
    )) as unknown as { rows: { bytes: number }[] }
    expect(Number(size.rows[0]!.bytes)).toBe(0)

    const clean = await fixture()
    expect((await clean.sync.run({ trigger: 'startup' })).ok).toBe(true)
    expect(await mirrorRows(f.database.db, { volatile: false })).toEqual(
      await mirrorRows(clean.database.db, { volatile: false }),
    )
  })

  it('stages only a full listing into an empty mirror, or while staged rows wait', async () => {
    const f = await fixture()
    const mirror = createSyncRepository(f.database.db)
    expect(await mirror.stagesRegistrations(true)).toBe(true)
    expect(await mirror.stagesRegistrations(false)).toBe(false)
    expect((await f.sync.run({ trigger: 'startup' })).ok).toBe(true)
    // Mirrored: a full listing writes straight into the mirror.
    expect(await mirror.stagesRegistrations(true)).toBe(false)
    const [row] = mapRegistrations([suite.sim.data.registrationAt(0)!]).rows
    await mirror.stageRegistrations([{ ...row!, id: 'waiting', courseId: row!.courseId ?? 'c' }])
    expect(await mirror.stagesRegistrations(false)).toBe(true)
  })
})

describe('moving staged registrations', () => {
  it('keeps whichever copy is newer, the staged one or one a postback wrote meanwhile', async () => {
    const f = await fixture()
    expect((await f.sync.run({ trigger: 'startup' })).ok).toBe(true)
    const mirror = createSyncRepository(f.database.db)
    const [a, b] = mapRegistrations([suite.sim.data.registrationAt(0)!, suite.sim.data.registrationAt(1)!]).rows
    const at = (iso: string) => new Date(iso)
    const row = (r: NonNullable<typeof a>, name: string, updated: string) => ({
      ...r,
      courseId: r.courseId ?? 'c',
      learnerFirstName: name,
      providerUpdated: at(updated),
    })
    // a: the mirror holds a newer copy than the staged one; b: the staged copy is the newer.
    await mirror.upsertRegistrations([
      row(a!, 'Postback', '2031-01-02T00:00:00Z'),
      row(b!, 'Old', '2031-01-01T00:00:00Z'),
    ])
    await mirror.stageRegistrations([
      row(a!, 'Staged', '2031-01-01T00:00:00Z'),
      row(b!, 'Staged', '2031-01-02T00:00:00Z'),
    ])

    for (const group of (await mirror.stagedGroups()).groups) await mirror.moveStaged(group)

    const name = async (id: string) =>
      (await f.database.db.select().from(registration).where(eq(registration.id, id)))[0]?.learnerFirstName
    expect(await name(a!.id)).toBe('Postback')
    expect(await name(b!.id)).toBe('Staged')
    expect(await count(f.database.db, 'registration_load')).toBe(0)
  })
})

describe('a first sync of many registrations', () => {
  const definitions = async (db: DbOrTx, table: string) =>
    rowsOf<{ indexname: string; indexdef: string }>(
      await db.execute(sql`select indexname, indexdef from pg_indexes where tablename = ${table} order by 1`),
    )
  const aside = async (db: DbOrTx) =>
    rowsOf<{ table_name: string }>(await db.execute(sql`select table_name from index_aside order by name`)).map(
      (r) => r.table_name,
    )
  /** Every first sync counts as many registrations, and `fail` breaks once, on its first call. */
  const bulkFixture = (fail: 'moveStaged' | 'buildCompanyLearners') => {
    let failed = false
    const breakOnce = () => {
      if (failed) return
      failed = true
      throw new Error(`${fail} broke`)
    }
    return suite.fixture({}, (built) => {
      const mirror = { ...built.mirror, bulkIndexRows: 0 }
      if (fail === 'moveStaged') {
        mirror.moveStaged = async (group) => (breakOnce(), built.mirror.moveStaged(group))
      } else {
        mirror.buildCompanyLearners = async (companyId) => (breakOnce(), built.mirror.buildCompanyLearners(companyId))
      }
      return { ...built, mirror }
    })
  }

  it("moves the registrations with the mirror's indexes set aside; a stopped move leaves them to the next run", async () => {
    const f = await bulkFixture('moveStaged')
    const first = await f.sync.run({ trigger: 'startup' })
    expect(first.results.find((r) => r.kind === 'registrations')).toMatchObject({ status: 'failed' })
    // Set aside with a note of each, the primary key kept; the foreign key noted too.
    expect((await definitions(f.database.db, 'registration')).map((i) => i.indexname)).toEqual(['registration_pkey'])
    expect(
      rowsOf(
        await f.database.db.execute(
          sql`select name from index_aside where definition like 'ALTER TABLE registration ADD CONSTRAINT %'`,
        ),
      ),
    ).toHaveLength(1)
    expect((await aside(f.database.db)).filter((t) => t === 'registration').length).toBeGreaterThan(5)
    expect(await count(f.database.db, 'registration')).toBe(0)

    expect((await f.sync.run({ trigger: 'schedule' })).ok).toBe(true)
    const clean = await fixture()
    expect((await clean.sync.run({ trigger: 'startup' })).ok).toBe(true)
    expect(await aside(f.database.db)).toEqual([])
    for (const table of ['registration', 'company_learner']) {
      expect(await definitions(f.database.db, table)).toEqual(await definitions(clean.database.db, table))
    }
    // The foreign key set aside with the indexes is back, as the clean run has it.
    const keys = (db: DbOrTx) =>
      db.execute(sql`select conname, pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = 'registration'::regclass and contype = 'f' order by 1`)
    expect(rowsOf(await keys(f.database.db))).toEqual(rowsOf(await keys(clean.database.db)))
    expect(rowsOf(await keys(f.database.db))).toHaveLength(1)
    expect(await mirrorRows(f.database.db, { volatile: false })).toEqual(
      await mirrorRows(clean.database.db, { volatile: false }),
    )
  })

  it("builds the companies' learners with their indexes set aside; a stopped build leaves them to the next run", async () => {
    const f = await bulkFixture('buildCompanyLearners')
    expect((await f.sync.run({ trigger: 'startup' })).ok).toBe(false)
    expect(await aside(f.database.db)).toContain('company_learner')
    expect(await aside(f.database.db)).not.toContain('registration')
    expect((await definitions(f.database.db, 'company_learner')).map((i) => i.indexname)).toEqual([
      'company_learner_pkey',
    ])

    expect((await f.sync.run({ trigger: 'schedule' })).ok).toBe(true)
    const clean = await fixture()
    expect((await clean.sync.run({ trigger: 'startup' })).ok).toBe(true)
    expect(await aside(f.database.db)).toEqual([])
    expect(await definitions(f.database.db, 'company_learner')).toEqual(
      await definitions(clean.database.db, 'company_learner'),
    )
    const learners = (db: DbOrTx) =>
      db.execute(sql`select company_id, learner_hash::text, email, registrations, completed, facets
        from company_learner order by 1, 2`)
    expect(rowsOf(await learners(f.database.db))).toEqual(rowsOf(await learners(clean.database.db)))
  })
})
