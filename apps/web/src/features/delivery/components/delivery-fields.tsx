import type { LaunchAuth } from '@portal/shared'

const seconds = (n: number) => (n === 0 ? 'provider default' : `${n} s`)

/** Launch authentication in words (read-only views). */
export function launchAuthText(auth: LaunchAuth | null): string {
  if (!auth) return 'Cookies (SCORM Cloud default)'
  if (auth.type !== 'vault') return 'Cookies'
  const checks = [auth.ipAddress && 'IP address', auth.fingerprint && 'browser fingerprint'].filter(Boolean)
  return `Vault${checks.length ? `, checks ${checks.join(' and ')}` : ''}; expiry ${seconds(auth.expiry)}, sliding expiry ${
    auth.slidingExpiry === 0 ? 'none' : `${auth.slidingExpiry} s`
  }`
}

export const onOff = (value: boolean | null, unknown = 'Not read yet') =>
  value === null ? unknown : value ? 'On' : 'Off'

export const COOKIES_NOTE =
  'Cookies can be blocked inside an LMS frame (Safari, third-party cookie blocking); the vault keeps the launch working there.'
