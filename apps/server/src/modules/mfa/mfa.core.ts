import { createHash, randomBytes } from 'node:crypto'
import {
  MFA_MESSAGES as M,
  RECOVERY_CODE_COUNT,
  type ActivityAction,
  type FactorAdded,
  type MfaFactor,
  type SessionResponse,
} from '@portal/shared'
import type { Db, DbOrTx, Tx } from '../../db/client'
import type { Actor } from '../../lib/actor'
import { AppError } from '../../lib/app-error'
import type { SecretBox } from '../../lib/secret-box'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { AuthService, ClientInfo } from '../auth/auth.service'
import type { LoginThrottle } from '../auth/login-throttle'
import type { UsersRepository } from '../users/users.repository'
import { tokenHash, type SecondStepGate } from './mfa.gate'
import type { SecurityNotices } from './mfa.notices'
import type { MfaFactorRow, MfaRepository } from './mfa.repository'

/** Recovery codes: 12 characters of a 32-letter alphabet without look-alikes (60 bits). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** Typed codes keep only their digits when they are digits and spaces ("123 456"). */
export function normaliseTotp(code: string): string | null {
  const compact = code.replace(/[\s-]/g, '')
  return /^\d{6}$/.test(compact) ? compact : null
}

/** A recovery code as typed, compared without case, spaces or dashes. */
export const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '')
export const recoveryHash = (userId: string, code: string) =>
  createHash('sha256')
    .update(`${userId}:${normaliseRecovery(code)}`)
    .digest('base64url')

function newRecoveryCode(): string {
  const bytes = randomBytes(12)
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % 32]!).join('')
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`
}

export const factorLabel = (row: { kind: string; name: string }) =>
  row.kind === 'totp' ? `The authenticator app "${row.name}"` : `The passkey "${row.name}"`

export const toFactor = (row: MfaFactorRow): MfaFactor => ({
  id: row.id,
  kind: row.kind as MfaFactor['kind'],
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
})

export interface MfaContext {
  actor: Actor
  ip: string
}

/** A user as the security mails and the audit log name them. */
export interface NamedUser {
  id: string
  name: string | null
  username: string
  email: string
}

/** A factor as the audit log and the notice name it. */
export interface AddedFactor {
  id: string
  kind: 'totp' | 'passkey'
  name: string
}

export interface MfaDeps {
  db: Db
  repository: MfaRepository
  gate: SecondStepGate
  auth: AuthService
  users: UsersRepository
  throttle: LoginThrottle
  activity: ActivityRepository
  notices: SecurityNotices
  /** The secret box, opened when a key is first sealed or read (its key file may be made then). */
  box: () => SecretBox
  /**
   * The sign-in method's own rows for a session that completes after a second step (the
   * single sign-on connection a session came through), rebuilt from the step's details.
   */
  resume?: (details: Record<string, unknown>) => ((sessionId: string, tx: Tx) => Promise<void>) | undefined
  /** Passkeys: the relying party (this portal's host name) and the page origin browsers report. */
  webauthn: { rpId: string; origin: string; rpName: string }
  /**
   * A reason a user may not sign in with this portal's own credentials (a company that
   * requires single sign-on), or null; a passkey alone is refused for the same users.
   */
  signInRule?: (user: { id: string; role: string; companyId: string | null }) => Promise<string | null>
}

/** What every part of the second-factor service shares: tokens, throttling, audit, sessions. */
export function createMfaCore(deps: MfaDeps) {
  const { repository: repo, auth, throttle, activity } = deps

  const actorOf = (u: NamedUser): Actor => ({ id: u.id, name: u.name ?? u.username, email: u.email })

  /** The live token of a purpose and its active user; anything else is the same refusal. */
  async function openStep(token: string, purpose: 'verify' | 'enrol') {
    const challenge = await repo.findChallenge(tokenHash(token), purpose)
    const user = challenge?.userId ? await repo.signInUser(challenge.userId) : null
    if (!challenge || !user || user.status !== 'active') throw new AppError('UNAUTHENTICATED', M.stepExpired)
    return { challenge, user }
  }

  /** What a user did to their own account, in the activity log (in the change's transaction). */
  function recordUser(action: ActivityAction, user: NamedUser, client: ClientInfo, details: unknown, tx?: DbOrTx) {
    return activity.record({ action, actor: actorOf(user), details, ipAddress: client.ip }, tx)
  }

  /** An admin's change to someone else's second factor or the rules, in the activity log. */
  function recordAdmin(action: ActivityAction, admin: MfaContext, details: unknown, tx: DbOrTx) {
    return activity.record({ action, actor: admin.actor, details, ipAddress: admin.ip }, tx)
  }

  async function checkThrottle(email: string, client: ClientInfo) {
    const wait = await throttle.retryAfter(email, client.ip)
    if (wait > 0) throw new AppError('TOO_MANY_REQUESTS', M.tooMany, { retryAfterSeconds: wait })
  }

  async function failed(user: NamedUser, client: ClientInfo, method: string, reason: string) {
    await throttle.recordFailure(user.email, client.ip)
    await recordUser('LOGIN_FAILED', user, client, { email: user.email, method, reason })
  }

  /** Spends the step's token and issues the session (with the sign-in method's own rows). */
  async function complete(
    challenge: { id: string; details: Record<string, unknown> },
    user: Parameters<AuthService['issueSession']>[0],
    client: ClientInfo,
    factor: string,
  ): Promise<SessionResponse> {
    if (!(await repo.spendChallenge(challenge.id))) throw new AppError('UNAUTHENTICATED', M.stepExpired)
    await throttle.recordSuccess(user.email)
    return auth.issueSession(user, client, { ...challenge.details, factor }, deps.resume?.(challenge.details))
  }

  async function addRecoveryCodes(userId: string, tx: DbOrTx): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
    await repo.replaceRecoveryCodes(
      userId,
      codes.map((c) => recoveryHash(userId, c)),
      tx,
    )
    return codes
  }

  /** What the audit log says of a factor. */
  const factorDetails = (factor: Pick<MfaFactorRow, 'id' | 'kind' | 'name'>) => ({
    kind: factor.kind,
    factorId: factor.id,
    name: factor.name,
  })

  /**
   * A factor confirmed: `save` writes it in one transaction with its audit entry and mail; the
   * first factor of a user brings recovery codes.
   */
  async function addFactor(
    user: NamedUser,
    client: ClientInfo,
    save: (tx: Tx) => Promise<AddedFactor>,
  ): Promise<FactorAdded> {
    return deps.db.transaction(async (tx) => {
      const first = (await repo.factors(user.id, tx)).length === 0
      const factor = await save(tx)
      const recoveryCodes = first ? await addRecoveryCodes(user.id, tx) : null
      await recordUser('MFA_FACTOR_ADDED', user, client, factorDetails(factor), tx)
      const notice = { kind: 'factor-added' as const, factor: factorLabel(factor), at: new Date() }
      await deps.notices.notify(tx, user, notice, `mfa:added:${factor.id}`)
      return { recoveryCodes }
    })
  }

  return {
    actorOf,
    recordUser,
    recordAdmin,
    openStep,
    checkThrottle,
    failed,
    complete,
    addRecoveryCodes,
    factorDetails,
    addFactor,
  }
}
export type MfaCore = ReturnType<typeof createMfaCore>
