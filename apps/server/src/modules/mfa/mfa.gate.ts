import { createHash, randomBytes } from 'node:crypto'
import {
  ENROL_STEP_SECONDS,
  SECOND_STEP_SECONDS,
  mfaRequiredFor,
  type MfaMethod,
  type Role,
  type SecondStepResponse,
} from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import type { MfaRepository } from './mfa.repository'

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * The `amr` values (RFC 8176) that say the provider itself asked for more than a password: a
 * second factor ("mfa"), a one-time code ("otp"), or a key held in hardware or software.
 */
export const PROVIDER_SECOND_FACTORS = ['mfa', 'otp', 'hwk', 'swk'] as const

/** The provider's `amr` values this portal takes as a second factor (none: an empty list). */
export function providerSecondFactors(amr: unknown): string[] {
  if (!Array.isArray(amr)) return []
  return amr.filter(
    (v): v is string => typeof v === 'string' && (PROVIDER_SECOND_FACTORS as readonly string[]).includes(v),
  )
}

export interface RuleInput {
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

  /**
   * A single sign-on whose provider reports a second factor (`providerAmr`), through the
   * connection of the user's own company, when that company trusts its provider's factor.
   */
  async function providerFactorTrusted(user: RuleInput, details: Record<string, unknown>): Promise<boolean> {
    if (typeof details.ssoConnectionId !== 'string' || !user.companyId) return false
    if (details.companyId !== user.companyId) return false
    if (providerSecondFactors(details.providerAmr).length === 0) return false
    return repository.trustsProviderFactor(user.companyId)
  }

  return {
    required,
    providerFactorTrusted,
    async secondStep(
      user: RuleInput & { id: string },
      details: Record<string, unknown>,
    ): Promise<SecondStepResponse | null> {
      if (await providerFactorTrusted(user, details)) {
        // LOGIN_SUCCESS says which factor counted: the provider's, as it reported it.
        details.factor = `provider (${providerSecondFactors(details.providerAmr).join(', ')})`
        return null
      }
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
