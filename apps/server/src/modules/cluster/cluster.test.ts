import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../app'
import type { Database } from '../../db/client'
import { rateLimitCounter } from '../../db/schema'
import { hashPassword } from '../../lib/passwords'
import { testConfig, TEST_PASSWORD } from '../../test/helpers'
import { createTestDatabase } from '../../test/test-database'
import { createUsersRepository } from '../users/users.repository'
import { createClusterRepository } from './cluster.repository'
import { checkSharedSecrets, secretFingerprint } from './shared-secrets'

/**
 * Two app instances on one database stand for two server nodes behind a balancer: what one
 * counts (failed sign-ins, rate-limited requests) the other sees, and a node whose secrets differ
 * from the first node's is refused. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
let database: Database
let a: FastifyInstance
let b: FastifyInstance
const email = 'cluster-admin@example.test'

beforeAll(async () => {
  database = await createTestDatabase()
  a = await buildApp({ config: testConfig(), logger: false, jobs: { background: false }, database })
  b = await buildApp({ config: testConfig(), logger: false, jobs: { background: false }, database })
  // One after the other: the first node's start creates the job engine's tables, as on PostgreSQL.
  await a.ready()
  await b.ready()
  await createUsersRepository(database.db).insert({
    email,
    username: 'cluster-admin',
    name: null,
    passwordHash: await hashPassword(TEST_PASSWORD),
    role: 'admin',
    companyId: null,
  })
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  await database?.close()
})

const signIn = (node: FastifyInstance, password: string, ip: string) =>
  node.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip })

describe('two nodes on one database', () => {
  it('share the sign-in throttle: five failures through A and the sixth through B block the account on both', async () => {
    for (let i = 0; i < 5; i += 1) expect((await signIn(a, 'wrong-password-1', '10.0.0.1')).statusCode).toBe(401)
    // The sixth failure, counted through B, passes the allowed five and blocks the account.
    expect((await signIn(b, 'wrong-password-1', '10.0.0.2')).statusCode).toBe(401)
    const next = await signIn(b, 'wrong-password-1', '10.0.0.2')
    expect(next.statusCode).toBe(429)
    expect(next.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' })
    // The right password is refused too while the account is blocked, through either node.
    expect((await signIn(a, TEST_PASSWORD, '10.0.0.3')).statusCode).toBe(429)
    // And through a node whose clock runs a day ahead: the block ends by the database's clock,
    // which set it. PGlite's clock is this process's own, moved ahead with it: there it has ended.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60_000 })
    try {
      expect((await signIn(b, TEST_PASSWORD, '10.0.0.4')).statusCode).toBe(database.kind === 'postgres' ? 429 : 200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('share the API rate limit: requests through A and B count together', async () => {
    const miss = (node: FastifyInstance) =>
      node.inject({ method: 'GET', url: '/api/no-such-route', remoteAddress: '10.0.1.1' })
    const answers: number[] = []
    for (let i = 0; i < 300; i += 1) answers.push((await miss(i % 2 === 0 ? a : b)).statusCode)
    expect(answers.every((status) => status === 404)).toBe(true)
    const refused = await miss(b)
    expect(refused.statusCode).toBe(429)
    expect((await miss(a)).statusCode).toBe(429)
    // Another client is not limited by the first one's requests.
    const other = await b.inject({ method: 'GET', url: '/api/no-such-route', remoteAddress: '10.0.1.2' })
    expect(other.statusCode).toBe(404)
  })

  it('refuse a node started with another JWT_SECRET or postback password, and accept the same ones', async () => {
    const repository = createClusterRepository(database.db)
    // buildApp does not check; the server's start does (server.ts). The first start records.
    await expect(checkSharedSecrets(repository, testConfig())).resolves.toBeUndefined()
    await expect(checkSharedSecrets(repository, testConfig())).resolves.toBeUndefined()
    await expect(
      checkSharedSecrets(repository, testConfig({ jwtSecret: 'another-secret-that-is-long-enough-for-hs256' })),
    ).rejects.toThrow(/^JWT_SECRET differs from the value the other server nodes on this database were started with/)
    await expect(
      checkSharedSecrets(repository, testConfig({ postbackPassword: 'another-postback-secret' })),
    ).rejects.toThrow(/^POSTBACK_PASSWORD differs/)
    await expect(
      checkSharedSecrets(repository, testConfig({ jwtSecret: 'x'.repeat(40), ssoSecretKey: 'y'.repeat(40) })),
    ).rejects.toThrow(/^JWT_SECRET, SSO_SECRET_KEY differ/)
  })

  it('refuse a node started with another SCORM Cloud application, or in demo mode, than the database mirrors', async () => {
    const repository = createClusterRepository(database.db)
    const application = (appId: string, demoMode = false) =>
      testConfig({ demoMode, scormCloud: { appId, secretKey: 'key', baseUrl: 'http://127.0.0.1:9/api/v2' } })
    // The first start with an application records it; the same application again is accepted.
    await expect(checkSharedSecrets(repository, application('vendor-app'))).resolves.toBeUndefined()
    await expect(checkSharedSecrets(repository, application('vendor-app'))).resolves.toBeUndefined()
    await expect(checkSharedSecrets(repository, application('another-app'))).rejects.toThrow(
      /^SCORM_CLOUD_APP_ID differs from the SCORM Cloud application this database mirrors/,
    )
    // Demo mode runs its simulator under an application id of its own; even the same id is refused.
    await expect(checkSharedSecrets(repository, application('vendor-app', true))).rejects.toThrow(
      /^This server has no SCORM Cloud credentials \(demo mode\), but its database mirrors a SCORM Cloud application/,
    )
    // A configuration with no application at all (no sync) has nothing to compare.
    await expect(checkSharedSecrets(repository, testConfig())).resolves.toBeUndefined()
  })

  it('refuse credentials on a database that demo mode made', async () => {
    const demoDatabase = await createTestDatabase()
    try {
      const repository = createClusterRepository(demoDatabase.db)
      const demo = testConfig({ scormCloud: { appId: 'sim-app', secretKey: 'key', baseUrl: 'http://127.0.0.1:9' } })
      await expect(checkSharedSecrets(repository, demo)).resolves.toBeUndefined()
      await expect(checkSharedSecrets(repository, demo)).resolves.toBeUndefined()
      await expect(checkSharedSecrets(repository, { ...demo, demoMode: false })).rejects.toThrow(
        /^SCORM_CLOUD_APP_ID differs .* \(a database made in demo mode mirrors the built-in simulator's\)/,
      )
    } finally {
      await demoDatabase.close()
    }
  })

  it('refuse demo mode on a database used before it recorded an application, unless the demo made it', async () => {
    const demo = testConfig({ scormCloud: { appId: 'sim-app', secretKey: 'key', baseUrl: 'http://127.0.0.1:9' } })
    const account = async (db: Database, address: string) =>
      createUsersRepository(db.db).insert({
        email: address,
        username: address.split('@')[0]!,
        name: null,
        passwordHash: 'not-a-real-hash',
        role: 'admin',
        companyId: null,
      })
    const fresh = await createTestDatabase()
    const used = await createTestDatabase()
    const demoMade = await createTestDatabase()
    try {
      // A fresh database: the demo's first start records its simulator's application.
      await expect(checkSharedSecrets(createClusterRepository(fresh.db), demo)).resolves.toBeUndefined()

      // An account of its own and no application recorded: a real mirror from before applications
      // were recorded. Demo mode is refused and records nothing; the real application is accepted.
      await account(used, 'Vendor-Admin@example.test')
      const repository = createClusterRepository(used.db)
      await expect(checkSharedSecrets(repository, demo)).rejects.toThrow(
        /^This server has no SCORM Cloud credentials \(demo mode\), but its database mirrors a SCORM Cloud application/,
      )
      expect(await repository.fingerprintOf('SCORM_CLOUD_APP_ID')).toBeNull()
      const real = { ...demo, demoMode: false, scormCloud: { ...demo.scormCloud!, appId: 'vendor-app' } }
      await expect(checkSharedSecrets(repository, real)).resolves.toBeUndefined()
      expect(await repository.fingerprintOf('SCORM_CLOUD_APP_ID')).toBe(secretFingerprint('vendor-app'))

      // A database the demo made before applications were recorded holds the demo admin (in any case).
      await account(demoMade, 'Admin@Demo.local')
      await expect(checkSharedSecrets(createClusterRepository(demoMade.db), demo)).resolves.toBeUndefined()
    } finally {
      await Promise.all([fresh.close(), used.close(), demoMade.close()])
    }
  })

  it('keeps a keyed fingerprint, never the secret', async () => {
    const fingerprint = secretFingerprint(testConfig().jwtSecret)
    expect(fingerprint).not.toContain(testConfig().jwtSecret)
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(secretFingerprint('another')).not.toBe(fingerprint)
  })

  it('prunes only counters whose window ended long ago by the database clock, even when a node runs ahead', async () => {
    const repository = createClusterRepository(database.db)
    await repository.rateLimitHit('prune-live', 60_000)
    await repository.rateLimitHit('prune-live', 60_000)
    // A node whose clock is a day ahead: its own "an hour ago" is after every live window's end.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60_000 })
    try {
      await repository.pruneRateLimits(60 * 60_000)
    } finally {
      vi.useRealTimers()
    }
    // PGlite's clock is this process's own (moved ahead with it, so the window has ended there);
    // PostgreSQL's is not, and the window still counts.
    const hits = (await repository.rateLimitHit('prune-live', 60_000)).hits
    expect(hits).toBe(database.kind === 'postgres' ? 3 : 1)

    // A window that has just ended is kept for the hour after it, then removed; live ones stay.
    await repository.rateLimitHit('prune-ended', 1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const keys = async () =>
      (await database.db.select({ key: rateLimitCounter.key }).from(rateLimitCounter)).map((r) => r.key).sort()
    await repository.pruneRateLimits(60 * 60_000)
    expect(await keys()).toEqual(expect.arrayContaining(['prune-ended', 'prune-live']))
    await repository.pruneRateLimits(0)
    expect(await keys()).toContain('prune-live')
    expect(await keys()).not.toContain('prune-ended')
  })
})
