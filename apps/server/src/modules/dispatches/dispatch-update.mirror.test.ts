import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { activityLog, dispatch } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { EDIT_MESSAGES } from './dispatch-update.service'
import { appParts } from '../../app'
import { createScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { createKindHandlers } from '../sync/sync.kinds'
import { createSyncRepository } from '../sync/sync.repository'

/**
 * An edit is checked against what both SCORM Cloud and the mirror hold before the
 * provider is called, a value the provider holds that the mirror cannot store never poisons the
 * row, and an edit the provider took while the mirror write failed is answered honestly (202)
 * and repaired by the next sync.
 */
let sim: Simulator
let t: TestContext
let admin: { 'x-auth-token': string }
let id: string

beforeAll(async () => {
  sim = await startSimulator({
    sizes: { courses: 2, destinations: 2, dispatches: 2, registrations: 0, bigDispatchRegistrations: 0 },
    pageSize: 10,
  })
  const scormCloud = { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey }
  t = await buildTestApp({ config: testConfig({ scormCloud }) })
  admin = (await t.loginAs('admin')).headers
  id = sim.data.listDispatchIds()[0]!
  // The mirror as a real deployment has it: filled by a sync (which also sets its cursor).
  await appParts(t.app).sync!.run({ trigger: 'manual' })
})
afterAll(async () => {
  await t.close()
  await sim.close()
})

const put = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/dispatches/${id}`, headers: admin, payload })
const mirror = async () => (await t.database.db.select().from(dispatch).where(eq(dispatch.id, id)))[0]!

describe('PUT /api/dispatches/:id at the edges of what both sides hold', () => {
  it('refuses dates outside 1000-01-01..9999-12-31 with a 400 naming the field, before calling SCORM Cloud', async () => {
    const before = await mirror()
    sim.resetStats()
    for (const expirationDate of [
      '0000-01-01',
      '0999-12-31',
      '9999-12-31T23:59:59-05:00', // year 10000 in UTC
      '0000-01-01T00:00:00Z',
    ]) {
      const res = await put({ expirationDate, notes: 'never lands' })
      expect(res.statusCode, expirationDate).toBe(400)
      expect(res.json()).toMatchObject({
        message: EDIT_MESSAGES.expirationOutOfRange,
        details: [{ field: 'expirationDate' }],
      })
    }
    for (const expirationDate of ['+275760-09-13', '-000001-01-01', '10000-01-01']) {
      expect((await put({ expirationDate })).json().message).toBe(EDIT_MESSAGES.invalidExpiration)
    }
    expect(sim.stats().total).toBe(0)
    expect(await mirror()).toEqual(before)
  })

  it('accepts the last day both sides hold', async () => {
    const res = await put({ expirationDate: '9999-12-31' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().expirationDate).toBe('9999-12-31T00:00:00.000Z')
    expect((await mirror()).expirationDate?.toISOString()).toBe('9999-12-31T00:00:00.000Z')
  })

  it('a value SCORM Cloud holds that the mirror cannot store no longer poisons the row', async () => {
    // Set upstream by someone else (the portal now refuses it): year 0, which PostgreSQL lacks.
    sim.touchDispatch(id, { expirationDate: '0000-01-01T00:00:00.000Z' })
    const res = await put({ notes: 'edited after a bad upstream date' })
    expect(res.statusCode, res.body).toBe(200)
    // Stored as the nearest date the mirror holds: still long expired, as upstream.
    expect((await mirror()).expirationDate?.toISOString()).toBe('1000-01-01T00:00:00.000Z')
    expect((await put({ notes: 'and again' })).statusCode).toBe(200)
    // The sync stores it the same way instead of failing its page.
    const outcome = await appParts(t.app).sync!.run({ kinds: ['dispatches'], trigger: 'manual', full: true })
    expect(outcome.results.find((r) => r.kind === 'dispatches')).toMatchObject({ status: 'succeeded', errors: 0 })
    expect((await put({ expirationDate: null })).statusCode).toBe(200)
  })

  it('answers 202 when SCORM Cloud took the change but the mirror write failed, and the next sync repairs the row', async () => {
    const before = await mirror()
    const db = t.database.db
    await db.execute(sql`create or replace function test_refuse_dispatch_write() returns trigger
      language plpgsql as $$ begin raise exception 'simulated mirror failure'; end $$`)
    await db.execute(sql`create trigger test_refuse_dispatch_write before update on dispatch
      for each row execute function test_refuse_dispatch_write()`)
    let res
    try {
      res = await put({ registrationCap: 77, notes: 'landed upstream only' })
    } finally {
      await db.execute(sql`drop trigger test_refuse_dispatch_write on dispatch`)
    }
    expect(res.statusCode, res.body).toBe(202)
    expect(res.json()).toMatchObject({
      id,
      registrationCap: 77,
      notes: 'landed upstream only',
      message: EDIT_MESSAGES.mirrorBehind,
    })
    expect(sim.data.getDispatch(id)).toMatchObject({ registrationCap: 77, notes: 'landed upstream only' })
    expect(await mirror()).toEqual(before)
    // The change is in the audit log even though the mirror missed it.
    const [logged] = await db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'DISPATCH_UPDATED'))
      .orderBy(sql`${activityLog.id} desc`)
      .limit(1)
    expect(logged!.details).toMatchObject({ dispatchId: id, mirrorUpdated: false })

    // The next scheduled (incremental) sync reads dispatches updated since its last run.
    await appParts(t.app).sync!.run({ kinds: ['dispatches'], trigger: 'schedule' })
    expect(await mirror()).toMatchObject({ registrationCap: 77, notes: 'landed upstream only' })
    // And editing works again at once.
    expect((await put({ registrationCap: 78 })).statusCode).toBe(200)
  })

  it('a listing page the sync read before an edit, written after it, leaves the edit in place', async () => {
    const client = createScormCloudClient({ baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey })
    const { db } = t.database
    try {
      // The sync reads a page of dispatches; an admin's edit lands upstream and in the mirror
      // before the sync's write of that page reaches the database.
      const page = await client.dispatchPage({}, null)
      expect(page.items.map((d) => d.id)).toContain(id)
      expect((await put({ notes: 'edited while the sync read' })).statusCode).toBe(200)
      const write = createKindHandlers(createSyncRepository(db)).dispatches.write
      await db.transaction((tx) => write(tx, page.items, client))
      expect(await mirror()).toMatchObject({ notes: 'edited while the sync read' })

      // A copy as new as the mirror's still writes: here, the counter of a registration created
      // upstream since, as the next listing brings it.
      const fresh = await client.dispatchPage({}, null)
      const counted = fresh.items.map((d) => (d.id === id ? { ...d, data: { ...d.data, registrationCount: 5 } } : d))
      await db.transaction((tx) => write(tx, counted, client))
      expect(await mirror()).toMatchObject({ notes: 'edited while the sync read', registrationCount: 5 })
    } finally {
      await client.close()
    }
  })
})
