import { companyIdForRole } from '@portal/shared'
import type { FastifyBaseLogger } from 'fastify'
import type { AppConfig } from '../../config'
import { hashPassword, passwordPolicyError } from '../../lib/passwords'
import type { UsersRepository } from '../users/users.repository'
import type { DemoRepository } from './demo.repository'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts'
import { seedDemoCatalogue } from './demo-catalogue'

export const DEMO_COMPANY = { id: 'demo-company', name: 'Demo Company' }

/** What start-up seeding reads and writes, built by server.ts as app.ts builds the app's. */
export interface BootstrapRepositories {
  demo: DemoRepository
  users: UsersRepository
}

/** ADMIN_EMAIL / ADMIN_PASSWORD create the first admin, only while no admin exists. */
export async function ensureFirstAdmin(
  { demo, users }: BootstrapRepositories,
  config: AppConfig,
  log: FastifyBaseLogger,
) {
  if (!config.adminEmail || !config.adminPassword) return
  if (await demo.adminExists()) return
  const policy = passwordPolicyError(config.adminPassword, { email: config.adminEmail })
  if (policy) throw new Error(`Invalid configuration: ADMIN_PASSWORD ${policy}`)
  try {
    await users.insert({
      email: config.adminEmail,
      username: config.adminEmail.split('@')[0]!,
      name: null,
      passwordHash: await hashPassword(config.adminPassword),
      role: 'admin',
      companyId: null,
    })
  } catch (error) {
    // Another process starting at the same time created it first.
    if (isUniqueViolation(error)) return
    throw error
  }
  log.info({ email: config.adminEmail }, 'first admin created')
}

/** PostgreSQL unique_violation, bare or wrapped by Drizzle (the driver's error as `cause`). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null
  return e?.code === '23505' || e?.cause?.code === '23505'
}

/**
 * Demo mode only: the four demo accounts. The client belongs to the first company the
 * mirror holds (one of the simulated companies, with dispatches) or to a placeholder.
 */
export async function ensureDemoAccounts({ demo, users }: BootstrapRepositories): Promise<string> {
  let companyId = await demo.firstCompanyId()
  if (!companyId) {
    await demo.ensureCompany(DEMO_COMPANY)
    companyId = DEMO_COMPANY.id
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  // The first start of a demo database: the catalogue is curated once, never over an admin's edits.
  const firstStart = !(await users.emailTaken(DEMO_ACCOUNTS[0]!.email))
  if (firstStart) await seedDemoCatalogue(demo)
  for (const account of DEMO_ACCOUNTS) {
    if (await users.emailTaken(account.email)) continue
    await users.insert({
      email: account.email,
      username: account.email.split('@')[0]!,
      name: account.name,
      passwordHash,
      role: account.role,
      companyId: companyIdForRole(account.role, companyId),
    })
  }
  return companyId
}
