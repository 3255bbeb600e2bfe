/**
 * The write bodies more than one route file takes, checked as the official clients' schemas
 * (LaunchAuthSchema, UpdateDispatchSchema) define them, with the reference's 400 messages.
 */
import { HttpError, asObject, optionalBoolean, optionalCount, optionalString, presentFields } from './http-util'
import type { DispatchChanges } from './store'
import type { LaunchAuthSchema, PostBackSchema } from '@portal/server/scorm-cloud-types'

/** LaunchAuthSchema: `type` is cookies or vault (the spec's enum); options are booleans and whole numbers. */
export function parseLaunchAuth(raw: unknown): LaunchAuthSchema {
  const obj = asObject(raw, 'launchAuth')
  const auth: LaunchAuthSchema = {}
  if (obj.type !== undefined && obj.type !== null) {
    if (obj.type !== 'cookies' && obj.type !== 'vault')
      throw new HttpError(400, `launchAuth.type must be one of cookies, vault`)
    auth.type = obj.type
  }
  if (obj.options !== undefined && obj.options !== null) {
    const options = asObject(obj.options, 'launchAuth.options')
    auth.options = {
      ...presentFields(options, ['ipAddress', 'fingerprint'], optionalBoolean),
      ...presentFields(options, ['expiry', 'slidingExpiry'], optionalCount),
    }
  }
  return auth
}

/** UpdateDispatchSchema: null and missing fields mean "leave as is". */
export function parseDispatchUpdate(body: unknown): DispatchChanges {
  const obj = asObject(body)
  // Checked in this order, so the first bad field is the one named.
  const changes: DispatchChanges = {
    ...presentFields(obj, ['allowNewRegistrations', 'instanced', 'enabled'], optionalBoolean),
    ...presentFields(obj, ['registrationCap', 'registrationCount'], optionalCount),
    ...presentFields(obj, ['email', 'notes'], optionalString),
  }
  const expiration = optionalString(obj, 'expirationDate')
  if (expiration !== undefined) {
    const clears = expiration === '' || expiration.toLowerCase() === 'none'
    if (!clears && Number.isNaN(Date.parse(expiration)))
      throw new HttpError(400, `Invalid expirationDate: ${expiration}`)
    changes.expirationDate = expiration
  }
  if (obj.postBack !== undefined && obj.postBack !== null)
    changes.postBack = asObject(obj.postBack, 'postBack') as PostBackSchema
  return changes
}
