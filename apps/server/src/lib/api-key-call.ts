import type { Permission } from '@portal/shared'
import type { SessionUser } from '../db/session-user'
import type { Actor } from './actor'

/** What a bearer call is made as: the key, and its creator's user as the rest of the API reads it. */
export interface KeyCall {
  key: { id: string; name: string; prefix: string; scopes: string[] }
  user: SessionUser
}

/** The bearer path the auth plugin runs (modules/api-keys builds it). */
export interface ApiKeyGate {
  /** The key behind an `Authorization` header, or a 401. */
  authenticate(header: string): Promise<KeyCall>
  /** A 403 unless the key's scopes, and its creator's role, allow the permission. */
  authorize(call: KeyCall, permission: Permission | undefined): void
  /** Audits the call under the key and notes its last use. */
  called(call: KeyCall, request: { method: string; route: string; ip: string; status: number }): Promise<void>
}

/** The activity log's actor of a key's call: its creator, named through the key. */
export function keyActor(call: KeyCall): Actor {
  const who = call.user.name ?? call.user.username
  return { id: call.user.id, name: `API key "${call.key.name}" (${call.key.prefix}) of ${who}`, email: call.user.email }
}
