import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { registration } from '../../db/schema'
import type { DbOrTx } from '../../db/client'
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

    for (const group of await mirror.stagedGroups()) await mirror.moveStaged(group)

    const name = async (id: string) =>
      (await f.database.db.select().from(registration).where(eq(registration.id, id)))[0]?.learnerFirstName
    expect(await name(a!.id)).toBe('Postback')
    expect(await name(b!.id)).toBe('Staged')
    expect(await count(f.database.db, 'registration_load')).toBe(0)
  })
})
