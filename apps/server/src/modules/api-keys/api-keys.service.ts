import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import {
  API_KEY_PREFIX,
  API_KEY_SCOPE_PERMISSIONS,
  API_KEY_SCOPES,
  apiKeyScopeOf,
  can,
  canGrantScope,
  ownCompanyOnly,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyList,
  type ApiKeySecret,
  type Permission,
  type Role,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError, notFound } from '../../lib/app-error'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository'
import { keyActor, type KeyCall } from '../../lib/api-key-call'
import { integrationsAllowedBy, ownerScopeOf, type IntegrationManager } from './integration-access'

export const API_KEY_MESSAGES = {
  malformed: 'The Authorization header must be "Bearer " followed by an API key (dp_live_…).',
  invalid: 'This API key is not valid: it is unknown, revoked, expired or rotated.',
  notAllowed: 'API keys are not enabled for your company. Ask an administrator to allow them.',
  unknownScope: (scope: string) => `Unknown scope "${scope}".`,
  cannotGrant: (scope: string) => `You cannot grant the scope "${scope}": your role does not include it.`,
  expiryPast: 'The expiry must be a date in the future.',
  expiryInvalid: 'The expiry must be an ISO date and time.',
  notFound: 'That API key was not found.',
  revoked: 'That API key is already revoked.',
  beyondCreator: "This API key's creator may not do this, so neither may the key.",
  outOfScope: (scope: string | null) =>
    scope ? `This API key does not have the scope "${scope}" this route needs.` : 'API keys cannot call this route.',
} as const

/** The key's id part: 12 hex characters, unique (a collision is refused by the index). */
const KEY_PATTERN = /^dp_live_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/

/** A 400 naming the field, as the schema's own refusals do. */
const refused = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { details: [{ field, message }] })

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** A fresh key: 32 random bytes of secret (256 bits, so one SHA-256 is enough to store it). */
function newKey(): { prefix: string; secret: string; secretHash: string } {
  const prefix = `${API_KEY_PREFIX}${randomBytes(6).toString('hex')}`
  const secret = `${prefix}_${randomBytes(32).toString('base64url')}`
  return { prefix, secret, secretHash: sha256(secret) }
}

/** Whether a key may make a call needing this permission: in its scopes and still its creator's. */
export function keyMay(scopes: readonly string[], role: Role, permission: Permission): boolean {
  return (
    scopes.some((scope) => API_KEY_SCOPE_PERMISSIONS[scope]?.includes(permission) === true) && can(role, permission)
  )
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)
function toApi(row: ApiKeyRow): ApiKey {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    expiresAt: iso(row.expiresAt),
    rotatedAt: iso(row.rotatedAt),
    revokedAt: iso(row.revokedAt),
    lastUsedAt: iso(row.lastUsedAt),
  }
}

export function createApiKeysService(deps: { db: Db; keys: ApiKeysRepository; activity: ActivityRepository }) {
  const { db, keys, activity } = deps

  // A client's keys are its company's; staff other than admins have no key screen.
  const scopeOf = ownerScopeOf
  const allowed = integrationsAllowedBy((companyId) => keys.companyAllows(companyId))

  async function visible(who: IntegrationManager, id: string): Promise<ApiKeyRow> {
    const row = await keys.find(id, scopeOf(who))
    if (!row) throw notFound(API_KEY_MESSAGES.notFound)
    return row
  }

  function checkScopes(role: Role, scopes: string[]): void {
    for (const scope of scopes) {
      const message = !API_KEY_SCOPES.includes(scope)
        ? API_KEY_MESSAGES.unknownScope(scope)
        : !canGrantScope(role, scope)
          ? API_KEY_MESSAGES.cannotGrant(scope)
          : null
      if (message) throw refused('scopes', message)
    }
  }

  // An empty expiry is none (a form's cleared date field, or JSON null, which the schema's
  // string-or-null coerces to "").
  function expiryOf(text: string | null | undefined): Date | null {
    if (text == null || text === '') return null
    const at = new Date(text)
    if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(at.getTime())) {
      throw refused('expiresAt', API_KEY_MESSAGES.expiryInvalid)
    }
    if (at.getTime() <= Date.now()) throw refused('expiresAt', API_KEY_MESSAGES.expiryPast)
    return at
  }

  return {
    /** Whether the caller may have integrations (keys and webhook subscriptions). */
    integrationsAllowed: allowed,

    async list(who: IntegrationManager): Promise<ApiKeyList> {
      const may = await allowed(who)
      const rows = await keys.list(scopeOf(who))
      return {
        allowed: may,
        grantable: may ? API_KEY_SCOPES.filter((s) => canGrantScope(who.role, s)) : [],
        keys: rows.map(toApi),
      }
    },

    async create(who: IntegrationManager, input: ApiKeyCreate): Promise<ApiKeySecret> {
      if (!(await allowed(who))) throw new AppError('FORBIDDEN', API_KEY_MESSAGES.notAllowed)
      checkScopes(who.role, input.scopes)
      const expiresAt = expiryOf(input.expiresAt)
      const name = input.name.trim()
      if (!name) throw refused('name', 'Give the key a name.')
      const fresh = newKey()
      const companyId = ownCompanyOnly(who.role) ? who.companyId : null
      const id = await db.transaction(async (tx) => {
        const keyId = await keys.insert(
          {
            companyId,
            createdBy: who.id,
            name,
            prefix: fresh.prefix,
            secretHash: fresh.secretHash,
            scopes: input.scopes,
            expiresAt,
          },
          tx,
        )
        await activity.record(
          {
            action: 'API_KEY_CREATED',
            actor: who.actor,
            ipAddress: who.ip,
            details: { apiKeyId: keyId, name, prefix: fresh.prefix, scopes: input.scopes, companyId },
          },
          tx,
        )
        return keyId
      })
      return { key: toApi((await keys.find(id, {}))!), secret: fresh.secret }
    },

    async rotate(who: IntegrationManager, id: string): Promise<ApiKeySecret> {
      const row = await visible(who, id)
      if (row.revokedAt) throw new AppError('CONFLICT', API_KEY_MESSAGES.revoked)
      const fresh = newKey()
      await db.transaction(async (tx) => {
        if (!(await keys.rotate(id, { prefix: fresh.prefix, secretHash: fresh.secretHash }, tx))) {
          throw new AppError('CONFLICT', API_KEY_MESSAGES.revoked)
        }
        await activity.record(
          {
            action: 'API_KEY_ROTATED',
            actor: who.actor,
            ipAddress: who.ip,
            details: { apiKeyId: id, name: row.name, oldPrefix: row.prefix, prefix: fresh.prefix },
          },
          tx,
        )
      })
      return { key: toApi((await keys.find(id, {}))!), secret: fresh.secret }
    },

    async revoke(who: IntegrationManager, id: string): Promise<ApiKey> {
      const row = await visible(who, id)
      if (row.revokedAt) throw new AppError('CONFLICT', API_KEY_MESSAGES.revoked)
      await db.transaction(async (tx) => {
        if (!(await keys.revoke(id, tx))) throw new AppError('CONFLICT', API_KEY_MESSAGES.revoked)
        await activity.record(
          {
            action: 'API_KEY_REVOKED',
            actor: who.actor,
            ipAddress: who.ip,
            details: { apiKeyId: id, name: row.name, prefix: row.prefix },
          },
          tx,
        )
      })
      return toApi((await keys.find(id, {}))!)
    },

    async setCompanyAllows(
      who: IntegrationManager,
      companyId: string,
      allowedNow: boolean,
    ): Promise<{ allowed: boolean }> {
      await db.transaction(async (tx) => {
        if (!(await keys.setCompanyAllows(companyId, allowedNow, tx))) throw notFound('Company not found.')
        await activity.record(
          {
            action: 'API_KEYS_ALLOWED_UPDATED',
            actor: who.actor,
            ipAddress: who.ip,
            details: { companyId, allowed: allowedNow },
          },
          tx,
        )
      })
      return { allowed: allowedNow }
    },

    async companyAllows(companyId: string): Promise<{ allowed: boolean }> {
      const allowedNow = await keys.companyAllows(companyId)
      if (allowedNow === null) throw notFound('Company not found.')
      return { allowed: allowedNow }
    },

    /**
     * The bearer check of a call (plugins/app/auth.ts): one look-up by prefix, the hash
     * compared in constant time. Unknown, revoked, expired, rotated, a creator no longer active
     * and a company that no longer allows keys all answer the same 401.
     */
    async authenticate(header: string): Promise<KeyCall> {
      const match = /^Bearer (\S+)$/.exec(header)
      const parts = match ? KEY_PATTERN.exec(match[1]!) : null
      if (!match || !parts) throw new AppError('UNAUTHENTICATED', API_KEY_MESSAGES.malformed)
      const presented = match[1]!
      const row = await keys.keyForCall(`${API_KEY_PREFIX}${parts[1]}`)
      const same =
        row !== null && timingSafeEqual(Buffer.from(sha256(presented), 'hex'), Buffer.from(row.secretHash, 'hex'))
      if (
        !row ||
        !same ||
        row.revokedAt ||
        (row.expiresAt && row.expiresAt.getTime() <= Date.now()) ||
        (row.keyCompanyId !== null && row.companyAllows !== true)
      ) {
        throw new AppError('UNAUTHENTICATED', API_KEY_MESSAGES.invalid)
      }
      const role = row.role as Role
      return {
        key: { id: row.id, name: row.name, prefix: row.prefix, scopes: row.scopes },
        user: {
          id: row.userId,
          email: row.email,
          name: row.userName,
          username: row.username,
          role,
          // A company key acts within its company only; the vendor's within what its admin sees.
          companyId: row.keyCompanyId ?? row.companyId,
          companyName: row.companyName,
          status: row.status,
          createdAt: row.createdAt,
          lastLogin: row.lastLogin,
        },
      }
    },

    /** Refuses a call outside the key's scopes (or no longer its creator's). */
    authorize(call: KeyCall, permission: Permission | undefined): void {
      if (!permission || !keyMay(call.key.scopes, call.user.role, permission)) {
        const scope = permission ? apiKeyScopeOf(permission) : null
        const inScopes = scope !== null && call.key.scopes.includes(scope)
        throw new AppError('FORBIDDEN', inScopes ? API_KEY_MESSAGES.beyondCreator : API_KEY_MESSAGES.outOfScope(scope))
      }
    },

    /** Every call a key made, audited under the key, and its last use (time and address). */
    async called(call: KeyCall, request: { method: string; route: string; ip: string; status: number }) {
      await keys.touch(call.key.id, request.ip)
      await activity.record({
        action: 'API_KEY_CALL',
        actor: keyActor(call),
        ipAddress: request.ip,
        details: {
          apiKeyId: call.key.id,
          apiKeyName: call.key.name,
          prefix: call.key.prefix,
          method: request.method,
          route: request.route,
          status: request.status,
        },
      })
    },
  }
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>
