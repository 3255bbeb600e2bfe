import { Type, type Static } from 'typebox'
import { can, PERMISSIONS, type Permission } from '../permissions'
import type { Role } from '../roles'
import { CreatorFields, Nullable, OneOf, OwnerCompanyFields, UuidSchema } from './common'

/**
 * API key scopes, derived from the permission table (permissions.ts): one per permission group
 * and kind, `<group>:read` (its read, list and download permissions) and `<group>:write` (the
 * rest). Adding a permission to the table adds it to its group's scope; nothing else to edit.
 */
const READ_ACTION = /^(read|list|download)/

/**
 * Groups a key never holds: signing in and out, the browser's own activity rows, the person's
 * profile, user accounts, single sign-on, keys themselves (a key making keys would outlive
 * every revocation) and webhook subscriptions (their secrets are a person's to hold).
 */
const NOT_FOR_KEYS = new Set(['session', 'activity', 'profile', 'user', 'sso', 'apiKey', 'webhook'])

function scopeOf(permission: Permission): string | null {
  const [group, action] = permission.split('.') as [string, string]
  if (NOT_FOR_KEYS.has(group)) return null
  return `${group}:${READ_ACTION.test(action) ? 'read' : 'write'}`
}

/** Every scope with the permissions it grants, in the table's order. */
export const API_KEY_SCOPE_PERMISSIONS: Readonly<Record<string, readonly Permission[]>> = (() => {
  const scopes: Record<string, Permission[]> = {}
  for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
    const scope = scopeOf(permission)
    if (scope) (scopes[scope] ??= []).push(permission)
  }
  return scopes
})()

export const API_KEY_SCOPES = Object.keys(API_KEY_SCOPE_PERMISSIONS)

/** The scope a route's permission belongs to; null when no key may call it. */
export const apiKeyScopeOf = (permission: Permission): string | null => scopeOf(permission)

/** Whether a role holds at least one permission of the scope: a creator may grant only those. */
export const canGrantScope = (role: Role, scope: string): boolean =>
  (API_KEY_SCOPE_PERMISSIONS[scope] ?? []).some((permission) => can(role, permission))

/** `dispatch:read` -> `Read dispatch`, `courseRequest:write` -> `Write course request`. */
export function apiKeyScopeLabel(scope: string): string {
  const [group = '', kind = ''] = scope.split(':')
  const noun = group.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)
  return `${kind === 'read' ? 'Read' : 'Write'} ${noun}`
}

/** The visible start of every key; the rest of the key is the secret. */
export const API_KEY_PREFIX = 'dp_live_'
export const API_KEY_NAME_MAX = 100

export const ApiKeySchema = Type.Object({
  id: UuidSchema,
  name: Type.String(),
  /** `dp_live_` and the key's lookup id: enough to recognise a key, never enough to use it. */
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  /** null: the vendor's key (an admin's); otherwise the company the key acts within. */
  ...OwnerCompanyFields,
  ...CreatorFields,
  expiresAt: Nullable(Type.String()),
  rotatedAt: Nullable(Type.String()),
  revokedAt: Nullable(Type.String()),
  lastUsedAt: Nullable(Type.String()),
  lastUsedIp: Nullable(Type.String()),
})
export type ApiKey = Static<typeof ApiKeySchema>

export const ApiKeyListSchema = Type.Object({
  /** Whether the caller may create keys (an admin always; a client when its company allows it). */
  allowed: Type.Boolean(),
  /** The scopes the caller may grant. */
  grantable: Type.Array(Type.String()),
  keys: Type.Array(ApiKeySchema),
})
export type ApiKeyList = Static<typeof ApiKeyListSchema>

export const ApiKeyCreateSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX }),
    scopes: Type.Array(OneOf(API_KEY_SCOPES), { minItems: 1, maxItems: 64, uniqueItems: true }),
    /** ISO date-time in the future, or null for a key that does not expire. */
    expiresAt: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  },
  { additionalProperties: false },
)
export type ApiKeyCreate = Static<typeof ApiKeyCreateSchema>

/** A new or rotated key: the secret appears here once and is never readable again. */
export const ApiKeySecretSchema = Type.Object({ key: ApiKeySchema, secret: Type.String() })
export type ApiKeySecret = Static<typeof ApiKeySecretSchema>

export const ApiKeysAllowedSchema = Type.Object({ allowed: Type.Boolean() }, { additionalProperties: false })
