import { ownCompanyOnly, type Preferences, type Role } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { PreferencesRepository } from './preferences.repository'

/** Staff get alert mails unless they turn them off; a client only once it opts in. */
export const defaultAlertMails = (role: Role) => !ownCompanyOnly(role)

/** The caller's own preferences (every role). */
export function createPreferencesService(preferences: PreferencesRepository) {
  async function read(user: { id: string; role: Role }): Promise<Preferences> {
    const row = await preferences.find(user.id)
    return {
      alertMails: row?.alertMails ?? defaultAlertMails(user.role),
      weeklyDigest: row?.weeklyDigest ?? false,
      timeZone: row?.timeZone ?? 'UTC',
      reportFrequency: (row?.reportFrequency as Preferences['reportFrequency'] | undefined) ?? 'off',
      reportHour: row?.reportHour ?? 8,
      statementMails: row?.statementMails ?? false,
    }
  }

  /** A zone both Node and PostgreSQL know (the scheduler computes local time in SQL). */
  async function checkTimeZone(timeZone: string) {
    let known = true
    try {
      new Intl.DateTimeFormat('en', { timeZone })
    } catch {
      known = false
    }
    if (!known || !(await preferences.knowsTimeZone(timeZone))) {
      throw new AppError('VALIDATION_FAILED', `Unknown time zone: ${timeZone}.`, {
        details: [{ field: 'timeZone', message: 'must be an IANA time zone name, e.g. Europe/Paris' }],
      })
    }
  }

  return {
    read,
    async save(user: { id: string; role: Role }, values: Preferences): Promise<Preferences> {
      await checkTimeZone(values.timeZone)
      await preferences.save(user.id, values)
      return read(user)
    },
  }
}
export type PreferencesService = ReturnType<typeof createPreferencesService>
