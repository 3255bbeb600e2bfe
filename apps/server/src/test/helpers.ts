import type { FastifyInstance } from 'fastify'
import type { Role } from '@portal/shared'
import { appParts, buildApp, type AppOptions } from '../app'
import type { AppConfig } from '../config'
import type { Database } from '../db/client'
import { company } from '../db/schema'
import { hashPassword } from '../lib/passwords'
import { createUsersRepository } from '../modules/users/users.repository'
import { createTestDatabase } from './test-database'

export const TEST_PASSWORD = 'correct-horse-battery-staple'

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: null,
    dataDir: '/tmp/portal-test-unused',
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-signing',
    scormCloud: null,
    postbackUser: 'scorm-cloud',
    postbackPassword: 'postback-secret',
    syncIntervalMinutes: 0,
    adminEmail: null,
    adminPassword: null,
    demoMode: true,
    mfaDefaultRoles: null,
    supportEmail: 'support@example.com',
    logLevel: 'silent',
    corsOrigins: [],
    trustProxy: false,
    sessionMaxHours: 12,
    webDistDir: '/nonexistent',
    databasePoolSize: 5,
    databaseQueueLimit: 64,
    readCache: true,
    smtpUrl: null,
    mailFrom: 'Dispatch Portal <portal@example.test>',
    publicUrl: 'http://portal.example.test',
    ssoSecretKey: 'test-sso-key-that-is-at-least-32-characters',
    demoOidcPort: 0,
    role: 'all',
    ...overrides,
  }
}

/** Runs every job that is due now, and those they send, as the background workers would. */
export async function runDueJobs(app: FastifyInstance): Promise<void> {
  await appParts(app).jobs.runDue()
}

let passwordHash: Promise<string> | null = null

export interface TestUser {
  id: string
  email: string
  role: Role
  companyId: string | null
}

export interface TestContext {
  app: FastifyInstance
  database: Database
  /** Creates a user with TEST_PASSWORD. */
  createUser(role: Role, options?: { email?: string; companyId?: string | null; name?: string }): Promise<TestUser>
  createCompany(id: string, name?: string): Promise<void>
  /** Signs in through the real login route and returns the tokens. */
  login(email: string, password?: string): Promise<{ accessToken: string; refreshToken: string }>
  /** Creates a user of the role and signs in: the headers to send. */
  loginAs(
    role: Role,
    options?: { companyId?: string | null },
  ): Promise<{ user: TestUser; headers: { 'x-auth-token': string } }>
  close(): Promise<void>
}

let counter = 0

export async function buildTestApp(options: Partial<Omit<AppOptions, 'database'>> = {}): Promise<TestContext> {
  const database = await createTestDatabase()
  // Jobs run when a test says so (runDueJobs), never by themselves in the background.
  const app = await buildApp({ config: testConfig(), logger: false, jobs: { background: false }, ...options, database })
  await app.ready()
  const users = createUsersRepository(database.db)

  const ctx: TestContext = {
    app,
    database,
    async createCompany(id, name = `Company ${id}`) {
      await database.db.insert(company).values({ id, name }).onConflictDoNothing()
    },
    async createUser(role, opts = {}) {
      passwordHash ??= hashPassword(TEST_PASSWORD)
      counter += 1
      const email = opts.email ?? `${role}-${counter}-${Date.now()}@example.test`
      let companyId = opts.companyId ?? null
      if (role === 'client' && opts.companyId === undefined) {
        companyId = 'company-a'
        await ctx.createCompany(companyId, 'Company A')
      }
      const id = await users.insert({
        email,
        username: email.split('@')[0]!,
        name: opts.name ?? null,
        passwordHash: await passwordHash,
        role,
        companyId,
      })
      return { id, email, role, companyId }
    },
    async login(email, password = TEST_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`)
      return res.json<{ accessToken: string; refreshToken: string }>()
    },
    async loginAs(role, opts = {}) {
      const user = await ctx.createUser(role, opts)
      const { accessToken } = await ctx.login(user.email)
      return { user, headers: { 'x-auth-token': accessToken } }
    },
    async close() {
      await app.close()
      await database.close()
    },
  }
  return ctx
}
