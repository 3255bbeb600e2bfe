import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent } from 'undici'
import { WEBHOOK_URL_MAX } from '@portal/shared'

/**
 * The guard against requests to the portal's own network (server-side request forgery): a
 * webhook URL must be https and reach a public address only, unless the deployment allows
 * private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS, on in demo mode and tests). The address is
 * checked twice: when the URL is saved (a clear 400), and on every connection, in the socket's
 * own DNS look-up, so a name that resolves to a public address when saved and to a private one
 * later (DNS rebinding) is refused before any byte is sent.
 */

export const URL_GUARD_MESSAGES = {
  invalid: 'The URL must be an absolute https:// URL.',
  tooLong: `The URL must be at most ${WEBHOOK_URL_MAX} characters.`,
  notHttps: 'The URL must use https://.',
  credentials: 'The URL must not contain a user name or password.',
  privateTarget: (address: string) =>
    `The URL points to a private, loopback, link-local or otherwise reserved address (${address}); only public addresses may receive webhooks.`,
  unresolved: (host: string) => `The host name ${host} could not be resolved.`,
} as const

/** Only ordinary public unicast addresses (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  }
  return parsed.range() === 'unicast'
}

/** The URL's host without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/** A 400's message for a URL that can never be sent to; null when its form is fine. */
export function urlFormProblem(text: string, allowPrivate: boolean): string | null {
  if (text.length > WEBHOOK_URL_MAX) return URL_GUARD_MESSAGES.tooLong
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return URL_GUARD_MESSAGES.invalid
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return url.protocol === 'http:' ? URL_GUARD_MESSAGES.notHttps : URL_GUARD_MESSAGES.invalid
  }
  if (url.username || url.password) return URL_GUARD_MESSAGES.credentials
  const host = hostOf(url)
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) return URL_GUARD_MESSAGES.privateTarget(host)
  return null
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  )

/** The form check, then (private targets refused) every address the name resolves to now. */
export async function urlProblem(text: string, allowPrivate: boolean): Promise<string | null> {
  const form = urlFormProblem(text, allowPrivate)
  if (form || allowPrivate) return form
  const host = hostOf(new URL(text))
  if (isIP(host)) return null
  const addresses = await resolveAll(host).catch(() => null)
  if (!addresses || addresses.length === 0) return URL_GUARD_MESSAGES.unresolved(host)
  const blocked = addresses.find((a) => !isPublicAddress(a.address))
  return blocked ? URL_GUARD_MESSAGES.privateTarget(blocked.address) : null
}

export class BlockedTargetError extends Error {}

/**
 * The socket's look-up: resolves as usual, then refuses the connection when any address is not
 * public. Node's sockets call it with `all` (several addresses, for happy eyeballs) or without.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0)
    const blocked = addresses.find((a) => !isPublicAddress(a.address))
    if (blocked || addresses.length === 0) {
      const error = new BlockedTargetError(URL_GUARD_MESSAGES.privateTarget(blocked?.address ?? hostname))
      return callback(error as NodeJS.ErrnoException, '', 0)
    }
    if ((options as { all?: boolean }).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses)
    return callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

/** The dispatcher every delivery goes through: the connect-time guard unless private targets are allowed. */
export function deliveryAgent(allowPrivate: boolean, timeoutMs: number): Agent {
  return new Agent({
    connect: { timeout: timeoutMs, ...(allowPrivate ? {} : { lookup: guardedLookup }) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // One delivery at a time per receiver is all the portal sends; idle sockets close soon.
    keepAliveTimeout: 4_000,
  })
}
