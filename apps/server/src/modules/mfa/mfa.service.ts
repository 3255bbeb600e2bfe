import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'
import {
  ENROL_STEP_SECONDS,
  MFA_MESSAGES as M,
  MFA_STAFF_ROLES,
  RECOVERY_CODE_COUNT,
  SECOND_STEP_SECONDS,
  mfaRequiredFor,
  type EnrolComplete,
  type EndedSessions,
  type FactorAdded,
  type MfaFactor,
  type MfaMethod,
  type MfaRoleRules,
  type MfaRoleRulesBody,
  type MfaStatus,
  type RecoveryCodes,
  type Role,
  type SecondStepResponse,
  type SessionInfo,
  type SessionResponse,
  type TotpEnrolment,
  type UserMfa,
} from '@portal/shared'
import type { Db, DbOrTx, Tx } from '../../db/client'
import type { Actor } from '../../lib/actor'
import { AppError } from '../../lib/app-error'
import type { SecretBox } from '../../lib/secret-box'
import type { ActivityEntry } from '../activity-logs/activity.repository'
import type { AuthService, ClientInfo } from '../auth/auth.service'
import type { LoginThrottle } from '../auth/login-throttle'
import type { UsersRepository } from '../users/users.repository'
import { describeAgent, type SecurityNotices } from './mfa.notices'
import type { MfaFactorRow, MfaRepository } from './mfa.repository'

const ISSUER = 'Dispatch Portal'
/** One 30-second step either side of the server's clock. */
const TOTP_TOLERANCE_SECONDS = 30
/** Recovery codes: 12 characters of a 32-letter alphabet without look-alikes (60 bits). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url')
const secretContext = (factorId: string) => `mfa_factor:${factorId}:totp_secret`

/** Typed codes keep only their digits when they are digits and spaces ("123 456"). */
export function normaliseTotp(code: string): string | null {
  const compact = code.replace(/[\s-]/g, '')
  return /^\d{6}$/.test(compact) ? compact : null
}

/** A recovery code as typed, compared without case, spaces or dashes. */
export const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '')
const recoveryHash = (userId: string, code: string) =>
  createHash('sha256')
    .update(`${userId}:${normaliseRecovery(code)}`)
    .digest('base64url')

function newRecoveryCode(): string {
  const bytes = randomBytes(12)
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % 32]!).join('')
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`
}

const factorLabel = (row: { kind: string; name: string }) =>
  row.kind === 'totp' ? `The authenticator app "${row.name}"` : `The passkey "${row.name}"`

const toFactor = (row: MfaFactorRow): MfaFactor => ({
  id: row.id,
  kind: row.kind as MfaFactor['kind'],
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
})

interface RuleInput {
  role: string
  companyId: string | null
}

/**
 * The rules and the second step as the auth service asks them, built from the repository alone
 * (the auth service is made before this module's service): after a right password, either no
 * second step, or a single-purpose token for the factor, or for a required enrolment.
 */
export function createSecondStepGate(
  repository: MfaRepository,
  config: { demoMode: boolean; defaultRoles?: readonly Role[] | null },
) {
  async function required(user: RuleInput, tx?: DbOrTx): Promise<boolean> {
    const rows = await repository.roleRules(tx)
    const roles = Object.fromEntries(rows.map((r) => [r.role, r.required])) as Partial<Record<Role, boolean>>
    const companyRequired = user.companyId ? await repository.companyRule(user.companyId, tx) : false
    return mfaRequiredFor(
      { role: user.role as Role, companyId: user.companyId },
      { roles, companyRequired, demoMode: config.demoMode, defaultRoles: config.defaultRoles ?? undefined },
    )
  }

  return {
    required,
    async secondStep(
      user: RuleInput & { id: string },
      details: Record<string, unknown>,
    ): Promise<SecondStepResponse | null> {
      const factors = await repository.factors(user.id)
      let kind: 'verify' | 'enrol'
      let methods: MfaMethod[]
      if (factors.length > 0) {
        kind = 'verify'
        methods = [...new Set(factors.map((f) => f.kind as MfaMethod))]
        if ((await repository.recoveryCodesLeft(user.id)) > 0) methods.push('recovery')
      } else if (await required(user)) {
        kind = 'enrol'
        methods = ['totp']
      } else {
        return null
      }
      const token = randomBytes(32).toString('base64url')
      const expiresAt = new Date(Date.now() + (kind === 'verify' ? SECOND_STEP_SECONDS : ENROL_STEP_SECONDS) * 1000)
      await repository.deleteExpiredChallenges(new Date(Date.now() - 3_600_000))
      await repository.insertChallenge({
        tokenHash: tokenHash(token),
        userId: user.id,
        purpose: kind,
        details,
        expiresAt,
      })
      return { secondStep: { token, kind, methods, expiresAt: expiresAt.toISOString() } }
    },
  }
}
export type SecondStepGate = ReturnType<typeof createSecondStepGate>

export interface MfaContext {
  actor: Actor
  ip: string
}

export function createMfaService(deps: {
  db: Db
  repository: MfaRepository
  gate: SecondStepGate
  auth: AuthService
  users: UsersRepository
  throttle: LoginThrottle
  activity: { record(db: DbOrTx, entry: ActivityEntry): Promise<void> }
  notices: SecurityNotices
  /** The secret box, opened when a key is first sealed or read (its key file may be made then). */
  box: () => SecretBox
  /**
   * The sign-in method's own rows for a session that completes after a second step (the
   * single sign-on connection a session came through), rebuilt from the step's details.
   */
  resume?: (details: Record<string, unknown>) => ((sessionId: string, tx: Tx) => Promise<void>) | undefined
}) {
  const { db, repository: repo, gate, auth, throttle, activity } = deps

  const notify = deps.notices.notify

  const actorOf = (u: { id: string; name: string | null; username: string; email: string }): Actor => ({
    id: u.id,
    name: u.name ?? u.username,
    email: u.email,
  })

  /** The live token of a purpose and its active user; anything else is the same refusal. */
  async function openStep(token: string, purpose: 'verify' | 'enrol') {
    const challenge = await repo.findChallenge(tokenHash(token), purpose)
    const user = challenge?.userId ? await repo.signInUser(challenge.userId) : null
    if (!challenge || !user || user.status !== 'active') throw new AppError('UNAUTHENTICATED', M.stepExpired)
    return { challenge, user }
  }

  async function checkThrottle(email: string, client: ClientInfo) {
    const wait = await throttle.retryAfter(email, client.ip)
    if (wait > 0) throw new AppError('TOO_MANY_REQUESTS', M.tooMany, { retryAfterSeconds: wait })
  }

  async function failed(
    user: { id: string; name: string | null; username: string; email: string },
    client: ClientInfo,
    method: string,
    reason: string,
  ) {
    await throttle.recordFailure(user.email, client.ip)
    await activity.record(db, {
      action: 'LOGIN_FAILED',
      actor: actorOf(user),
      details: { email: user.email, method, reason },
      ipAddress: client.ip,
    })
  }

  const malformed = () =>
    new AppError('VALIDATION_FAILED', M.codeMalformed, { details: [{ field: 'code', message: M.codeMalformed }] })

  /**
   * Checks a code against one authenticator key: 'ok' (and the step is now spent), 'used' (a
   * code of a step already accepted), or 'wrong'.
   */
  async function checkTotp(factor: MfaFactorRow, code: string, tx?: DbOrTx): Promise<'ok' | 'used' | 'wrong'> {
    const secret = factor.totpSecret ? deps.box().open(factor.totpSecret, secretContext(factor.id)) : null
    if (!secret) return 'wrong'
    const result = await verify({ secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS })
    if (!result.valid || !('timeStep' in result)) return 'wrong'
    if (factor.totpLastStep !== null && result.timeStep <= factor.totpLastStep) return 'used'
    return (await repo.advanceTotpStep(factor.id, result.timeStep, tx)) ? 'ok' : 'used'
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

  async function startTotp(user: { id: string; email: string }): Promise<TotpEnrolment> {
    const secret = generateSecret()
    const id = randomUUID()
    await db.transaction(async (tx) => {
      await repo.deletePending(user.id, 'totp', tx)
      await repo.insertFactor(
        {
          id,
          userId: user.id,
          kind: 'totp',
          name: 'Authenticator app',
          totpSecret: deps.box().seal(secret, secretContext(id)),
        },
        tx,
      )
    })
    const otpauthUrl = generateURI({ issuer: ISSUER, label: user.email, secret })
    const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 })
    return { factorId: id, secret, otpauthUrl, qrCode }
  }

  /** Confirms a pending key with a first code; the first factor of a user brings recovery codes. */
  async function confirmTotp(
    user: { id: string; name: string | null; username: string; email: string },
    factorId: string,
    typed: string,
    name: string | undefined,
    client: ClientInfo,
  ): Promise<FactorAdded> {
    const code = normaliseTotp(typed)
    if (!code) throw malformed()
    await checkThrottle(user.email, client)
    const factor = await repo.findFactor(user.id, factorId)
    if (!factor || factor.kind !== 'totp' || factor.confirmedAt) throw new AppError('NOT_FOUND', M.factorNotFound)
    const label = name?.trim().slice(0, 100) || 'Authenticator app'
    // A wrong code writes nothing; a right one spends its step on the (still pending) key.
    if ((await checkTotp(factor, code)) !== 'ok') {
      await throttle.recordFailure(user.email, client.ip)
      throw new AppError('VALIDATION_FAILED', M.codeWrong, { details: [{ field: 'code', message: M.codeWrong }] })
    }
    return db.transaction(async (tx) => {
      const first = (await repo.factors(user.id, tx)).length === 0
      await repo.confirmFactor(factor.id, { name: label }, tx)
      const recoveryCodes = first ? await addRecoveryCodes(user.id, tx) : null
      await activity.record(tx, {
        action: 'MFA_FACTOR_ADDED',
        actor: actorOf(user),
        details: { kind: 'totp', factorId: factor.id, name: label },
        ipAddress: client.ip,
      })
      const notice = {
        kind: 'factor-added' as const,
        factor: factorLabel({ kind: 'totp', name: label }),
        at: new Date(),
      }
      await notify(tx, user, notice, `mfa:added:${factor.id}`)
      return { recoveryCodes }
    })
  }

  return {
    /** After a right password (or a provider's answer): a second step, or null to sign in now. */
    secondStep: gate.secondStep,

    // ---- the second step (token from the sign-in answer) ----
    async verifyTotp(token: string, typed: string, client: ClientInfo): Promise<SessionResponse> {
      const { challenge, user } = await openStep(token, 'verify')
      await checkThrottle(user.email, client)
      const code = normaliseTotp(typed)
      if (!code) throw malformed()
      const factors = (await repo.factors(user.id)).filter((f) => f.kind === 'totp')
      let outcome: 'ok' | 'used' | 'wrong' = 'wrong'
      for (const factor of factors) {
        const result = await checkTotp(factor, code)
        if (result === 'ok') {
          outcome = 'ok'
          break
        }
        if (result === 'used') outcome = 'used'
      }
      if (outcome !== 'ok') {
        await failed(user, client, 'totp', outcome === 'used' ? 'code already used' : 'wrong code')
        throw new AppError('UNAUTHENTICATED', outcome === 'used' ? M.codeUsed : M.codeWrong)
      }
      return complete(challenge, user, client, 'totp')
    },

    async verifyRecoveryCode(token: string, typed: string, client: ClientInfo): Promise<SessionResponse> {
      const { challenge, user } = await openStep(token, 'verify')
      await checkThrottle(user.email, client)
      if (normaliseRecovery(typed).length !== 12) {
        throw new AppError('VALIDATION_FAILED', M.recoveryWrong, {
          details: [{ field: 'code', message: M.recoveryWrong }],
        })
      }
      const notSpent = new Error('recovery code not spent')
      const spent = await db
        .transaction(async (tx) => {
          // Throwing rolls the transaction back: nothing is written for a wrong or used code.
          if (!(await repo.spendRecoveryCode(user.id, recoveryHash(user.id, typed), tx))) throw notSpent
          const left = await repo.recoveryCodesLeft(user.id, tx)
          await activity.record(tx, {
            action: 'MFA_RECOVERY_CODE_USED',
            actor: actorOf(user),
            details: { left },
            ipAddress: client.ip,
          })
          const notice = { kind: 'recovery-code-used' as const, left, ip: client.ip, at: new Date() }
          await notify(tx, user, notice, `mfa:recovery:${challenge.id}`)
          return true
        })
        .catch((error: unknown) => {
          if (error === notSpent) return false
          throw error
        })
      if (!spent) {
        await failed(user, client, 'recovery', 'wrong or used recovery code')
        throw new AppError('UNAUTHENTICATED', M.recoveryWrong)
      }
      return complete(challenge, user, client, 'recovery')
    },

    // ---- required enrolment (token from the sign-in answer) ----
    async enrolStart(token: string): Promise<TotpEnrolment> {
      const { user } = await openStep(token, 'enrol')
      return startTotp(user)
    },
    async enrolConfirm(token: string, factorId: string, code: string, client: ClientInfo): Promise<EnrolComplete> {
      const { challenge, user } = await openStep(token, 'enrol')
      const added = await confirmTotp(user, factorId, code, undefined, client)
      const session = await complete(challenge, user, client, 'totp (enrolled)')
      return { ...session, recoveryCodes: added.recoveryCodes }
    },

    // ---- Profile ----
    async status(user: RuleInput & { id: string }): Promise<MfaStatus> {
      return {
        factors: (await repo.factors(user.id)).map(toFactor),
        recoveryCodesLeft: await repo.recoveryCodesLeft(user.id),
        required: await gate.required(user),
      }
    },
    async startTotp(user: { id: string; email: string }): Promise<TotpEnrolment> {
      return startTotp(user)
    },
    async confirmTotp(
      user: { id: string; name: string | null; username: string; email: string },
      factorId: string,
      code: string,
      name: string | undefined,
      client: ClientInfo,
    ): Promise<FactorAdded> {
      return confirmTotp(user, factorId, code, name, client)
    },
    async removeFactor(
      user: RuleInput & { id: string; name: string | null; username: string; email: string },
      factorId: string,
      client: ClientInfo,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const factor = await repo.findFactor(user.id, factorId, tx)
        if (!factor) throw new AppError('NOT_FOUND', M.factorNotFound)
        const others = (await repo.factors(user.id, tx)).filter((f) => f.id !== factor.id)
        if (factor.confirmedAt && others.length === 0 && (await gate.required(user, tx))) {
          throw new AppError('CONFLICT', M.lastFactor)
        }
        await repo.deleteFactor(user.id, factor.id, tx)
        if (!factor.confirmedAt) return
        // Recovery codes stand in for a factor: without any factor they would be a second password.
        if (others.length === 0) await repo.replaceRecoveryCodes(user.id, [], tx)
        await activity.record(tx, {
          action: 'MFA_FACTOR_REMOVED',
          actor: actorOf(user),
          details: { kind: factor.kind, factorId: factor.id, name: factor.name },
          ipAddress: client.ip,
        })
        await notify(
          tx,
          user,
          { kind: 'factor-removed', factor: factorLabel(factor), byAdmin: false, at: new Date() },
          `mfa:removed:${factor.id}`,
        )
      })
    },
    async regenerateRecoveryCodes(
      user: { id: string; name: string | null; username: string; email: string },
      client: ClientInfo,
    ): Promise<RecoveryCodes> {
      return db.transaction(async (tx) => {
        if ((await repo.factors(user.id, tx)).length === 0) {
          throw new AppError(
            'CONFLICT',
            'Add an authenticator app or a passkey first: recovery codes stand in for one.',
          )
        }
        const recoveryCodes = await addRecoveryCodes(user.id, tx)
        await activity.record(tx, {
          action: 'MFA_RECOVERY_CODES_REGENERATED',
          actor: actorOf(user),
          details: { count: recoveryCodes.length },
          ipAddress: client.ip,
        })
        return { recoveryCodes }
      })
    },

    // ---- sessions ----
    async sessions(userId: string, currentSessionId: string | null): Promise<SessionInfo[]> {
      const rows = await repo.sessions(userId)
      return rows.map((row) => ({
        id: row.id,
        ...describeAgent(row.userAgent),
        ipAddress: row.ipAddress,
        startedAt: row.createdAt.toISOString(),
        lastUsedAt: (row.lastUsedAt ?? row.createdAt).toISOString(),
        current: row.id === currentSessionId,
      }))
    },
    /** Ends one of the caller's own sessions; another user's session is not found (404). */
    async endSession(
      user: { id: string; name: string | null; username: string; email: string },
      sessionId: string,
      client: ClientInfo,
    ) {
      await db.transaction(async (tx) => {
        if (!(await repo.endSession(user.id, sessionId, 'ended by the user', tx))) {
          throw new AppError('NOT_FOUND', M.sessionNotFound)
        }
        await activity.record(tx, {
          action: 'SESSION_ENDED',
          actor: actorOf(user),
          details: { userId: user.id, sessionId },
          ipAddress: client.ip,
        })
      })
    },
    async endOtherSessions(
      user: { id: string; name: string | null; username: string; email: string },
      currentSessionId: string,
      client: ClientInfo,
    ): Promise<EndedSessions> {
      return db.transaction(async (tx) => {
        const ended = await repo.endSessions(user.id, currentSessionId, 'ended by the user (everywhere else)', tx)
        await activity.record(tx, {
          action: 'SESSION_ENDED',
          actor: actorOf(user),
          details: { userId: user.id, everywhereElse: true, ended },
          ipAddress: client.ip,
        })
        return {
          message: ended === 1 ? 'Signed out of 1 other session' : `Signed out of ${ended} other sessions`,
          ended,
        }
      })
    },

    // ---- User Management (admins) ----
    async userMfa(userId: string): Promise<UserMfa> {
      const user = await repo.signInUser(userId)
      if (!user) throw new AppError('NOT_FOUND', 'User not found')
      return {
        factors: (await repo.factors(userId)).map(toFactor),
        recoveryCodesLeft: await repo.recoveryCodesLeft(userId),
        required: await gate.required(user),
        activeSessions: (await repo.sessions(userId)).length,
      }
    },
    async endAllSessions(userId: string, ctx: MfaContext): Promise<EndedSessions> {
      return db.transaction(async (tx) => {
        const user = await repo.signInUser(userId, tx)
        if (!user) throw new AppError('NOT_FOUND', 'User not found')
        const ended = await repo.endSessions(userId, null, 'ended by an administrator', tx)
        await activity.record(tx, {
          action: 'SESSION_ENDED',
          actor: ctx.actor,
          details: { userId, email: user.email, all: true, ended },
          ipAddress: ctx.ip,
        })
        return { message: ended === 1 ? 'Ended 1 session' : `Ended ${ended} sessions`, ended }
      })
    },
    /** For a lost phone: every factor and recovery code of the user goes; the user is told. */
    async resetFactors(userId: string, ctx: MfaContext): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await repo.signInUser(userId, tx)
        if (!user) throw new AppError('NOT_FOUND', 'User not found')
        const removed = await repo.deleteAllFactors(userId, tx)
        await activity.record(tx, {
          action: 'MFA_FACTORS_RESET',
          actor: ctx.actor,
          details: { userId, email: user.email, removed },
          ipAddress: ctx.ip,
        })
        const at = new Date()
        await notify(tx, user, { kind: 'factors-reset', at }, `mfa:reset:${userId}:${at.getTime()}`)
      })
    },

    // ---- rules ----
    async roleRules(): Promise<MfaRoleRules> {
      const set = new Map((await repo.roleRules()).map((r) => [r.role, r.required]))
      return {
        rules: await Promise.all(
          MFA_STAFF_ROLES.map(async (role) => ({
            role,
            required: await gate.required({ role, companyId: null }),
            isDefault: !set.has(role),
          })),
        ),
      }
    },
    async setRoleRules(body: MfaRoleRulesBody, ctx: MfaContext): Promise<MfaRoleRules> {
      const bad = body.rules.find((r) => !MFA_STAFF_ROLES.includes(r.role))
      if (bad) {
        const message = "A client user follows its company's rule, set on the company screen."
        throw new AppError('VALIDATION_FAILED', message, { details: [{ field: 'rules', message }] })
      }
      const before = await this.roleRules()
      await db.transaction(async (tx) => {
        for (const rule of body.rules) await repo.setRoleRule(rule.role, rule.required, tx)
        await activity.record(tx, {
          action: 'MFA_RULES_UPDATED',
          actor: ctx.actor,
          details: { scope: 'roles', before: before.rules, after: body.rules },
          ipAddress: ctx.ip,
        })
      })
      return this.roleRules()
    },
    async companyRule(companyId: string) {
      if (!(await deps.users.companyExists(companyId))) throw new AppError('NOT_FOUND', 'Company not found')
      return { required: await repo.companyRule(companyId) }
    },
    async setCompanyRule(companyId: string, required: boolean, ctx: MfaContext) {
      if (!(await deps.users.companyExists(companyId))) throw new AppError('NOT_FOUND', 'Company not found')
      await db.transaction(async (tx) => {
        const before = await repo.companyRule(companyId, tx)
        await repo.setCompanyRule(companyId, required, tx)
        await activity.record(tx, {
          action: 'MFA_RULES_UPDATED',
          actor: ctx.actor,
          details: { scope: 'company', companyId, before, after: required },
          ipAddress: ctx.ip,
        })
      })
      return { required }
    },
  }
}
export type MfaService = ReturnType<typeof createMfaService>
