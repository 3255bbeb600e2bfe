import type { LaunchAuth } from '@portal/shared'
import type { DestinationInfoSchema } from '../scorm-cloud/scorm-cloud.types'

/** A company's launchAuth columns (migration 0030); all null when SCORM Cloud sends none. */
export interface LaunchAuthColumns {
  launchAuthType: string | null
  launchAuthIpAddress: boolean | null
  launchAuthFingerprint: boolean | null
  launchAuthExpiry: number | null
  launchAuthSlidingExpiry: number | null
}

export function launchAuthOf(row: LaunchAuthColumns): LaunchAuth | null {
  if (row.launchAuthType === null) return null
  return {
    type: row.launchAuthType,
    ipAddress: row.launchAuthIpAddress ?? false,
    fingerprint: row.launchAuthFingerprint ?? false,
    expiry: row.launchAuthExpiry ?? 0,
    slidingExpiry: row.launchAuthSlidingExpiry ?? 0,
  }
}

/** The destination's launchAuth as mirror columns (docs/scorm-cloud-api.md §5); the sync maps it the same way. */
export function launchAuthColumns(data: Pick<DestinationInfoSchema, 'launchAuth'>): LaunchAuthColumns {
  const auth = data.launchAuth
  const whole = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null)
  const flag = (b: unknown) => (typeof b === 'boolean' ? b : null)
  return {
    launchAuthType: typeof auth?.type === 'string' ? auth.type : null,
    launchAuthIpAddress: flag(auth?.options?.ipAddress),
    launchAuthFingerprint: flag(auth?.options?.fingerprint),
    launchAuthExpiry: whole(auth?.options?.expiry),
    launchAuthSlidingExpiry: whole(auth?.options?.slidingExpiry),
  }
}
