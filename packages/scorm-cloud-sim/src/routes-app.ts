/** Health check and application configuration (docs/scorm-cloud-api.md §3); the latter holds postback settings. */
import { HttpError, asObject, noContent, ok } from './http-util'
import type { Route } from './router'
import type { SettingItem } from '@portal/server/scorm-cloud-types'

/** Application-level postback settings (docs/scorm-cloud-api.md §9) that the simulator honours. */
export const POSTBACK_SETTINGS = {
  url: 'ApiRollupRegistrationPostBackUrl',
  authType: 'ApiRollupRegistrationAuthType',
  user: 'ApiRollupRegistrationAuthUser',
  password: 'ApiRollupRegistrationAuthPassword',
  format: 'ApiRollupRegistrationFormat',
  isJson: 'ApiRollupRegistrationIsJson',
} as const

export const appRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/ping',
    handler: (rc) => ok({ apiMessage: 'pong', currentTime: new Date(rc.sim.options.clock()).toISOString() }),
  },
  {
    method: 'GET',
    pattern: '/about',
    handler: () => ok({ version: '2.0', distribution: 'scorm-cloud-sim' }),
  },
  {
    method: 'GET',
    pattern: '/appManagement/configuration',
    handler: (rc) => {
      const settingItems: SettingItem[] = [...rc.sim.settings].map(([id, value]) => ({
        id,
        effectiveValue: value,
        effectiveValueSource: 'application',
        explicitValue: value,
      }))
      return ok({ settingItems })
    },
  },
  {
    method: 'POST',
    pattern: '/appManagement/configuration',
    handler: (rc) => {
      const settings = asObject(rc.body).settings
      if (!Array.isArray(settings)) throw new HttpError(400, 'settings must be an array')
      for (const entry of settings) {
        const { settingId, value } = asObject(entry, 'setting')
        if (typeof settingId !== 'string' || typeof value !== 'string')
          throw new HttpError(400, 'settingId and value must be strings')
        rc.sim.settings.set(settingId, value)
      }
      return noContent()
    },
  },
  {
    method: 'DELETE',
    pattern: '/appManagement/configuration/{settingId}',
    handler: (rc) => {
      rc.sim.settings.delete(rc.params.settingId ?? '')
      return noContent()
    },
  },
]
