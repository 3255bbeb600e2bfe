import { eq, sql } from 'drizzle-orm'
import { ownCompanyOnly, type Preferences, type Role } from '@portal/shared'
import type { Db, DbOrTx } from '../../db/client'
import { userPreference } from '../../db/schema'
import { AppError } from '../../lib/app-error'

/** Staff get alert mails unless they turn them off; a client only once it opts in (the issue). */
export const defaultAlertMails = (role: Role) => !ownCompanyOnly(role)

export async function readPreferences(db: DbOrTx, user: { id: string; role: Role }): Promise<Preferences> {
  const [row] = await db.select().from(userPreference).where(eq(userPreference.userId, user.id))
  return {
    alertMails: row?.alertMails ?? defaultAlertMails(user.role),
    weeklyDigest: row?.weeklyDigest ?? false,
    timeZone: row?.timeZone ?? 'UTC',
    reportFrequency: (row?.reportFrequency as Preferences['reportFrequency'] | undefined) ?? 'off',
    reportHour: row?.reportHour ?? 8,
  }
}

/** A zone both Node and PostgreSQL know (the scheduler computes local time in SQL). */
async function checkTimeZone(db: DbOrTx, timeZone: string) {
  const invalid = () =>
    new AppError('VALIDATION_FAILED', `Unknown time zone: ${timeZone}.`, {
      details: [{ field: 'timeZone', message: 'must be an IANA time zone name, e.g. Europe/Paris' }],
    })
  try {
    new Intl.DateTimeFormat('en', { timeZone })
  } catch {
    throw invalid()
  }
  try {
    await db.execute(sql`select now() at time zone ${timeZone}`)
  } catch {
    throw invalid()
  }
}

/** The caller's own preferences (every role). */
export function createPreferencesService(db: Db) {
  return {
    read: (user: { id: string; role: Role }) => readPreferences(db, user),
    async save(user: { id: string; role: Role }, values: Preferences): Promise<Preferences> {
      await checkTimeZone(db, values.timeZone)
      await db
        .insert(userPreference)
        .values({ userId: user.id, ...values })
        .onConflictDoUpdate({ target: userPreference.userId, set: { ...values, updatedAt: sql`now()` } })
      return readPreferences(db, user)
    },
  }
}
export type PreferencesService = ReturnType<typeof createPreferencesService>
