import { eq, sql } from 'drizzle-orm'
import type { Preferences } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { userPreference } from '../../db/schema'

/** A user's saved preferences (none until the user first saves them). */
export function createPreferencesRepository(db: DbOrTx) {
  return {
    async find(userId: string, tx: DbOrTx = db) {
      const [row] = await tx.select().from(userPreference).where(eq(userPreference.userId, userId))
      return row
    },
    async save(userId: string, values: Preferences, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(userPreference)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userPreference.userId, set: { ...values, updatedAt: sql`now()` } })
    },
    /** Whether PostgreSQL knows the time zone (the scheduler computes local time in SQL). */
    async knowsTimeZone(timeZone: string, tx: DbOrTx = db): Promise<boolean> {
      try {
        await tx.execute(sql`select now() at time zone ${timeZone}`)
        return true
      } catch {
        return false
      }
    },
  }
}
export type PreferencesRepository = ReturnType<typeof createPreferencesRepository>
