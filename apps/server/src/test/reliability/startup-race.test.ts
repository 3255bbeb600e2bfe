import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client'
import { appUser } from '../../db/schema'
import { ensureFirstAdmin } from '../../modules/demo/bootstrap'
import { createDemoRepository } from '../../modules/demo/demo.repository'
import { createUsersRepository } from '../../modules/users/users.repository'
import { testConfig } from '../helpers'
import { createTestDatabase } from '../test-database'

/**
 * Reliability suite: several server processes starting at once on one database each
 * create the first admin from ADMIN_EMAIL / ADMIN_PASSWORD when none exists. The loser of that
 * race must start normally, not stop on the unique email.
 */
let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => database.close())

const log = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger

describe('first admin created by processes starting together', () => {
  it('creates one admin and lets every starter carry on', async () => {
    const config = testConfig({ adminEmail: 'first-admin@example.test', adminPassword: 'a-long-unusual-passphrase-42' })
    const results = await Promise.allSettled([
      ensureFirstAdmin(
        { demo: createDemoRepository(database.db), users: createUsersRepository(database.db) },
        config,
        log,
      ),
      ensureFirstAdmin(
        { demo: createDemoRepository(database.db), users: createUsersRepository(database.db) },
        config,
        log,
      ),
      ensureFirstAdmin(
        { demo: createDemoRepository(database.db), users: createUsersRepository(database.db) },
        config,
        log,
      ),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    const admins = await database.db.select().from(appUser).where(eq(appUser.role, 'admin'))
    expect(admins.map((u) => u.email)).toEqual(['first-admin@example.test'])
  })
})
