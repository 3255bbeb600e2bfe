import { createHmac, randomBytes } from 'node:crypto'

/** Standard Webhooks secrets: `whsec_` and 32 random bytes in base64. */
export const SECRET_PREFIX = 'whsec_'

export const newSigningSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`

/**
 * The Standard Webhooks signature of one message: HMAC-SHA256 over `id.timestamp.body`, keyed
 * with the secret's base64-decoded bytes, as `v1,<base64>`.
 */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`
}

/** The three headers and the JSON body of one delivery. */
export function signedRequest(
  secret: string,
  event: { id: string; type: string; createdAt: Date; data: Record<string, unknown> },
  now: Date,
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data })
  const timestamp = Math.floor(now.getTime() / 1000)
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'DispatchPortal-Webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(secret, event.id, timestamp, body),
    },
  }
}
