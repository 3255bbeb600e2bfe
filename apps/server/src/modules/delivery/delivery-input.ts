import {
  CSS_URL_MAX,
  DELIVERY_MESSAGES as M,
  LAUNCH_AUTH_EXPIRY_MAX,
  LAUNCH_AUTH_TYPES,
  type LaunchAuth,
  type LaunchAuthType,
  type UpdateCompanyDeliveryBody,
  type UpdateDispatchDeliveryBody,
} from '@portal/shared'
import { AppError } from '../../lib/app-error'

const invalid = (message: string, field: string) =>
  new AppError('RULE_VIOLATION', message, { details: [{ field, message }] })

/** Checked input: only the fields that were sent; `cssUrl` null clears it. */
export interface DeliveryEdit {
  launchAuth?: {
    type: LaunchAuthType
    ipAddress?: boolean
    fingerprint?: boolean
    expiry?: number
    slidingExpiry?: number
  }
  instanced?: boolean
  hashUserInfo?: boolean
  cssUrl?: string | null
}

function seconds(value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || value < 0 || value > LAUNCH_AUTH_EXPIRY_MAX) throw invalid(M.badExpiry, field)
  return value
}

/** A style sheet the launched player loads: an absolute http(s) URL, or nothing. */
export function parseCssUrl(raw: string | null): string | null {
  const value = raw?.trim() ?? ''
  if (value === '') return null
  if (value.length > CSS_URL_MAX) throw invalid(M.cssTooLong, 'cssUrl')
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalid(M.badCssUrl, 'cssUrl')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(M.badCssUrl, 'cssUrl')
  return url.href
}

/** Every value is checked before anything is sent to SCORM Cloud. */
export function parseDeliveryEdit(body: UpdateCompanyDeliveryBody | UpdateDispatchDeliveryBody): DeliveryEdit {
  const edit: DeliveryEdit = {}
  if ('launchAuth' in body && body.launchAuth !== undefined) {
    const { type, ipAddress, fingerprint, expiry, slidingExpiry } = body.launchAuth
    if (!(LAUNCH_AUTH_TYPES as readonly string[]).includes(type)) throw invalid(M.unknownAuthType, 'launchAuth.type')
    const auth: DeliveryEdit['launchAuth'] = { type: type as LaunchAuthType }
    if (ipAddress !== undefined) auth.ipAddress = ipAddress
    if (fingerprint !== undefined) auth.fingerprint = fingerprint
    const e = seconds(expiry, 'launchAuth.expiry')
    if (e !== undefined) auth.expiry = e
    const s = seconds(slidingExpiry, 'launchAuth.slidingExpiry')
    if (s !== undefined) auth.slidingExpiry = s
    edit.launchAuth = auth
  }
  if (body.instanced !== undefined) edit.instanced = body.instanced
  if (body.hashUserInfo !== undefined) edit.hashUserInfo = body.hashUserInfo
  if (body.cssUrl !== undefined) edit.cssUrl = parseCssUrl(body.cssUrl)
  if (Object.keys(edit).length === 0) throw new AppError('RULE_VIOLATION', M.nothingToUpdate)
  return edit
}

/** The full launchAuth sent upstream: the edit over what the mirror holds, defaults for the rest. */
export function mergeLaunchAuth(edit: NonNullable<DeliveryEdit['launchAuth']>, current: LaunchAuth | null): LaunchAuth {
  return {
    type: edit.type,
    ipAddress: edit.ipAddress ?? current?.ipAddress ?? false,
    fingerprint: edit.fingerprint ?? current?.fingerprint ?? false,
    expiry: edit.expiry ?? current?.expiry ?? 0,
    slidingExpiry: edit.slidingExpiry ?? current?.slidingExpiry ?? 0,
  }
}
