import { asc, eq, isNull, sql } from 'drizzle-orm'
import { companyIdForRole } from '@portal/shared'
import type { FastifyBaseLogger } from 'fastify'
import type { AppConfig } from '../../config'
import type { Db } from '../../db/client'
import { appUser, company } from '../../db/schema'
import { hashPassword, passwordPolicyError } from '../../lib/passwords'
import { createUsersRepository } from '../users/users.repository'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts'
import { seedDemoCatalogue } from './demo-catalogue'

export const DEMO_COMPANY = { id: 'demo-company', name: 'Demo Company' }

/** ADMIN_EMAIL / ADMIN_PASSWORD create the first admin, only while no admin exists. */
export async function ensureFirstAdmin(db: Db, config: AppConfig, log: FastifyBaseLogger) {
  if (!config.adminEmail || !config.adminPassword) return
  const [existing] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.role, 'admin')).limit(1)
  if (existing) return
  const policy = passwordPolicyError(config.adminPassword, { email: config.adminEmail })
  if (policy) throw new Error(`Invalid configuration: ADMIN_PASSWORD ${policy}`)
  try {
    await createUsersRepository(db).insert({
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
export async function ensureDemoAccounts(db: Db): Promise<string> {
  const [first] = await db
    .select({ id: company.id })
    .from(company)
    .where(isNull(company.removedAt))
    .orderBy(asc(sql`(select count(*) from dispatch d where d.destination_id = ${company.id}) = 0`), asc(company.name))
    .limit(1)
  let companyId = first?.id
  if (!companyId) {
    await db.insert(company).values(DEMO_COMPANY).onConflictDoNothing()
    companyId = DEMO_COMPANY.id
  }
  const users = createUsersRepository(db)
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  // The first start of a demo database: the catalogue is curated once, never over an admin's edits.
  const firstStart = !(await users.emailTaken(DEMO_ACCOUNTS[0]!.email))
  if (firstStart) await seedDemoCatalogue(db)
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
