import { randomUUID } from 'node:crypto'
import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'
import {
  MFA_MESSAGES as M,
  type EnrolComplete,
  type FactorAdded,
  type MfaStatus,
  type RecoveryCodes,
  type SessionResponse,
  type TotpEnrolment,
} from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ClientInfo } from '../auth/auth.service'
import {
  createMfaCore,
  factorLabel,
  normaliseRecovery,
  normaliseTotp,
  recoveryHash,
  toFactor,
  type MfaDeps,
  type NamedUser,
} from './mfa.core'
import type { RuleInput } from './mfa.gate'
import type { MfaFactorRow } from './mfa.repository'
import { createMfaRules, createMfaSessions } from './mfa-sessions.service'
import { createPasskeys } from './passkeys.service'

export type { MfaContext } from './mfa.core'
export { normaliseRecovery, normaliseTotp } from './mfa.core'
export { createSecondStepGate, tokenHash, type SecondStepGate } from './mfa.gate'

const ISSUER = 'Dispatch Portal'
/** One 30-second step either side of the server's clock. */
const TOTP_TOLERANCE_SECONDS = 30

const secretContext = (factorId: string) => `mfa_factor:${factorId}:totp_secret`

/**
 * Second factors: the second step of a sign-in (authenticator app, recovery code, passkey), a
 * required enrolment, the caller's own factors on Profile, sessions, and the rules.
 */
export function createMfaService(deps: MfaDeps) {
  const { db, repository: repo, gate, throttle } = deps
  const core = createMfaCore(deps)
  const { recordUser, openStep, checkThrottle, failed, complete, addRecoveryCodes } = core

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
    user: NamedUser,
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
    return core.addFactor(user, client, async (tx) => {
      await repo.confirmFactor(factor.id, { name: label }, tx)
      return { id: factor.id, kind: 'totp', name: label }
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
          await recordUser('MFA_RECOVERY_CODE_USED', user, client, { left }, tx)
          const notice = { kind: 'recovery-code-used' as const, left, ip: client.ip, at: new Date() }
          await deps.notices.notify(tx, user, notice, `mfa:recovery:${challenge.id}`)
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
    startTotp,
    confirmTotp,
    /** A factor's own name (an authenticator app or a passkey); another user's is not found. */
    async renameFactor(user: NamedUser, factorId: string, name: string, client: ClientInfo): Promise<void> {
      const label = name.trim().slice(0, 100)
      if (!label) {
        const message = 'Enter a name.'
        throw new AppError('VALIDATION_FAILED', message, { details: [{ field: 'name', message }] })
      }
      await db.transaction(async (tx) => {
        const factor = await repo.findFactor(user.id, factorId, tx)
        if (!factor?.confirmedAt) throw new AppError('NOT_FOUND', M.factorNotFound)
        await repo.renameFactor(factor.id, label, tx)
        await recordUser(
          'MFA_FACTOR_RENAMED',
          user,
          client,
          { kind: factor.kind, factorId: factor.id, before: factor.name, after: label },
          tx,
        )
      })
    },
    async removeFactor(user: RuleInput & NamedUser, factorId: string, client: ClientInfo): Promise<void> {
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
        await recordUser('MFA_FACTOR_REMOVED', user, client, core.factorDetails(factor), tx)
        await deps.notices.notify(
          tx,
          user,
          { kind: 'factor-removed', factor: factorLabel(factor), byAdmin: false, at: new Date() },
          `mfa:removed:${factor.id}`,
        )
      })
    },
    async regenerateRecoveryCodes(user: NamedUser, client: ClientInfo): Promise<RecoveryCodes> {
      return db.transaction(async (tx) => {
        if ((await repo.factors(user.id, tx)).length === 0) {
          throw new AppError(
            'CONFLICT',
            'Add an authenticator app or a passkey first: recovery codes stand in for one.',
          )
        }
        const recoveryCodes = await addRecoveryCodes(user.id, tx)
        await recordUser('MFA_RECOVERY_CODES_REGENERATED', user, client, { count: recoveryCodes.length }, tx)
        return { recoveryCodes }
      })
    },

    ...createPasskeys(deps, core),
    ...createMfaSessions(deps, core),
    ...createMfaRules(deps, core),
  }
}
export type MfaService = ReturnType<typeof createMfaService>
