import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq, sql } from 'drizzle-orm'
import { ErrorResponseSchema, PreferencesSchema, type Preferences } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { userPreference } from '../../db/schema'
import { AppError } from '../../lib/app-error'
import { requireUser } from '../../plugins/app/auth'

const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema }

/** Staff get alert mails unless they turn them off; a client only once it opts in (the issue). */
export const defaultAlertMails = (role: string) => role !== 'client'

export async function readPreferences(db: DbOrTx, user: { id: string; role: string }): Promise<Preferences> {
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

/** Issue #17: GET/PUT /api/profile/preferences, the caller's own (every role). */
const preferencesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/preferences',
    {
      config: { permission: 'profile.manage' },
      schema: { tags: ['profile'], response: { 200: PreferencesSchema, ...errors } },
    },
    async (request) => readPreferences(app.db, requireUser(request)),
  )

  app.put(
    '/preferences',
    {
      config: { permission: 'profile.manage' },
      schema: { tags: ['profile'], body: PreferencesSchema, response: { 200: PreferencesSchema, ...errors } },
    },
    async (request) => {
      const user = requireUser(request)
      await checkTimeZone(app.db, request.body.timeZone)
      const values = { ...request.body }
      await app.db
        .insert(userPreference)
        .values({ userId: user.id, ...values })
        .onConflictDoUpdate({ target: userPreference.userId, set: { ...values, updatedAt: sql`now()` } })
      return readPreferences(app.db, user)
    },
  )
}

export default preferencesRoutes
