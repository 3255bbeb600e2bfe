import { eq, sql } from 'drizzle-orm'
import { normaliseLevels, type AlertSettings, type CompanyAlertSettings } from '@portal/shared'
import type { Db, DbOrTx } from '../../db/client'
import { alertSettings, company, companyAlertSettings } from '../../db/schema'

/** The global thresholds and the per-company overrides. */
export function createAlertSettingsRepository(db: Db) {
  const repository = {
    async global(tx: DbOrTx = db): Promise<AlertSettings> {
      const [row] = await tx.select().from(alertSettings).where(eq(alertSettings.id, 1))
      return {
        usageThresholds: normaliseLevels(row?.usageThresholds ?? []),
        expiryDays: normaliseLevels(row?.expiryDays ?? []),
      }
    },

    async setGlobal(settings: AlertSettings, tx: DbOrTx = db): Promise<AlertSettings> {
      const values = {
        usageThresholds: normaliseLevels(settings.usageThresholds),
        expiryDays: normaliseLevels(settings.expiryDays),
      }
      await tx
        .insert(alertSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: alertSettings.id, set: { ...values, updatedAt: sql`now()` } })
      return values
    },

    /** null when there is no such company (the route's 404). */
    async forCompany(companyId: string, tx: DbOrTx = db): Promise<CompanyAlertSettings | null> {
      const [row] = await tx
        .select({
          id: company.id,
          usage: companyAlertSettings.usageThresholds,
          expiry: companyAlertSettings.expiryDays,
        })
        .from(company)
        .leftJoin(companyAlertSettings, eq(companyAlertSettings.companyId, company.id))
        .where(eq(company.id, companyId))
      if (!row) return null
      if (row.usage && row.expiry) {
        return {
          usageThresholds: normaliseLevels(row.usage),
          expiryDays: normaliseLevels(row.expiry),
          overridden: true,
        }
      }
      return { ...(await repository.global(tx)), overridden: false }
    },

    /** Removes a company's override (it follows the global thresholds again); false when there is no such company. */
    async clearCompany(companyId: string, tx: DbOrTx = db): Promise<boolean> {
      const [exists] = await tx.select({ id: company.id }).from(company).where(eq(company.id, companyId))
      if (!exists) return false
      await tx.delete(companyAlertSettings).where(eq(companyAlertSettings.companyId, companyId))
      return true
    },

    async setCompany(
      companyId: string,
      settings: AlertSettings,
      tx: DbOrTx = db,
    ): Promise<CompanyAlertSettings | null> {
      const [exists] = await tx.select({ id: company.id }).from(company).where(eq(company.id, companyId))
      if (!exists) return null
      const values = {
        usageThresholds: normaliseLevels(settings.usageThresholds),
        expiryDays: normaliseLevels(settings.expiryDays),
      }
      await tx
        .insert(companyAlertSettings)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: companyAlertSettings.companyId, set: { ...values, updatedAt: sql`now()` } })
      return { ...values, overridden: true }
    },
  }
  return repository
}
export type AlertSettingsRepository = ReturnType<typeof createAlertSettingsRepository>
