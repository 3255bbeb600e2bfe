import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { appUser, company, course, dispatch } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import type { Db } from '../../db/client'
import { createUsersRepository } from '../users/users.repository'
import { DEMO_COMPANY, ensureDemoAccounts, ensureFirstAdmin } from './bootstrap'
import { createDemoRepository } from './demo.repository'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts'

const seeding = (db: Db) => ({ demo: createDemoRepository(db), users: createUsersRepository(db) })

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => t.close())

describe('first admin from ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  it('refuses a weak password and creates nothing', async () => {
    const config = testConfig({ adminEmail: 'boss@example.test', adminPassword: 'short' })
    await expect(ensureFirstAdmin(seeding(t.database.db), config, t.app.log)).rejects.toThrow('ADMIN_PASSWORD')
    expect(await t.database.db.select().from(appUser).where(eq(appUser.email, 'boss@example.test'))).toHaveLength(0)
  })

  it('creates the admin once, who can sign in', async () => {
    const config = testConfig({ adminEmail: 'boss@example.test', adminPassword: 'a-very-long-admin-password' })
    await ensureFirstAdmin(seeding(t.database.db), config, t.app.log)
    await ensureFirstAdmin(seeding(t.database.db), config, t.app.log)
    const admins = await t.database.db.select().from(appUser).where(eq(appUser.role, 'admin'))
    expect(admins).toHaveLength(1)
    expect((await t.login('boss@example.test', 'a-very-long-admin-password')).accessToken).toBeTruthy()
  })
})

describe('demo accounts', () => {
  it('attaches the demo client to a company that has dispatches, and is idempotent', async () => {
    await t.createCompany('empty-co', 'Aaa Empty Co')
    await t.createCompany('busy-co', 'Busy Co')
    await t.database.db.insert(course).values({ id: 'c1', title: 'Course 1' })
    await t.database.db.insert(dispatch).values({
      id: 'd1',
      courseId: 'c1',
      courseTitle: 'Course 1',
      destinationId: 'busy-co',
      destinationName: 'Busy Co',
    })
    await ensureDemoAccounts(seeding(t.database.db))
    await ensureDemoAccounts(seeding(t.database.db))
    for (const account of DEMO_ACCOUNTS) {
      const rows = await t.database.db.select().from(appUser).where(eq(appUser.email, account.email))
      expect(rows).toHaveLength(1)
      expect(rows[0]!.role).toBe(account.role)
      expect(rows[0]!.companyId).toBe(account.role === 'client' ? 'busy-co' : null)
    }
    expect((await t.login('client@demo.local', DEMO_PASSWORD)).accessToken).toBeTruthy()
    expect(await t.database.db.select().from(company).where(eq(company.id, DEMO_COMPANY.id))).toHaveLength(0)
  })

  it('curates the catalogue on the first start only, never over an admin’s later edits', async () => {
    const fresh = await buildTestApp()
    const db = fresh.database.db
    const ids = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6']
    await db.insert(course).values(ids.map((id) => ({ id, title: `Course ${id}` })))
    await ensureDemoAccounts(seeding(db))
    const curated = await db.select().from(course).orderBy(course.id)
    expect(curated.map((c) => c.isVisible)).toEqual([true, true, true, true, true, false])
    expect(curated[0]).toMatchObject({ summary: expect.stringContaining('course k1'), level: 'Beginner' })
    expect(curated[0]!.demoUrl).toBe('https://demo.example.com/courses/k1')
    expect(curated[1]!.demoUrl).toBeNull()

    await db.update(course).set({ isVisible: false, summary: 'Admin summary' }).where(eq(course.id, 'k1'))
    await ensureDemoAccounts(seeding(db))
    const [k1] = await db.select().from(course).where(eq(course.id, 'k1'))
    expect(k1).toMatchObject({ isVisible: false, summary: 'Admin summary' })
    await fresh.close()
  })
})
