import {
  MFA_MESSAGES as M,
  MFA_STAFF_ROLES,
  type EndedSessions,
  type MfaCompanyRule,
  type MfaCompanyRuleBody,
  type MfaRoleRules,
  type MfaRoleRulesBody,
  type SessionInfo,
  type UserMfa,
} from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { ClientInfo } from '../auth/auth.service'
import { toFactor, type MfaContext, type MfaCore, type MfaDeps, type NamedUser } from './mfa.core'
import { describeAgent } from './mfa.notices'

/** Sessions a user sees and ends, and User Management's view of a user's factors and sessions. */
export function createMfaSessions(deps: MfaDeps, core: MfaCore) {
  const { db, repository: repo, gate } = deps
  return {
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
    async endSession(user: NamedUser, sessionId: string, client: ClientInfo) {
      await db.transaction(async (tx) => {
        if (!(await repo.endSession(user.id, sessionId, 'ended by the user', tx))) {
          throw new AppError('NOT_FOUND', M.sessionNotFound)
        }
        await core.recordUser('SESSION_ENDED', user, client, { userId: user.id, sessionId }, tx)
      })
    },
    async endOtherSessions(user: NamedUser, currentSessionId: string, client: ClientInfo): Promise<EndedSessions> {
      return db.transaction(async (tx) => {
        const ended = await repo.endSessions(user.id, currentSessionId, 'ended by the user (everywhere else)', tx)
        await core.recordUser('SESSION_ENDED', user, client, { userId: user.id, everywhereElse: true, ended }, tx)
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
        await core.recordAdmin('SESSION_ENDED', ctx, { userId, email: user.email, all: true, ended }, tx)
        return { message: ended === 1 ? 'Ended 1 session' : `Ended ${ended} sessions`, ended }
      })
    },
    /** For a lost phone: every factor and recovery code of the user goes; the user is told. */
    async resetFactors(userId: string, ctx: MfaContext): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await repo.signInUser(userId, tx)
        if (!user) throw new AppError('NOT_FOUND', 'User not found')
        const removed = await repo.deleteAllFactors(userId, tx)
        await core.recordAdmin('MFA_FACTORS_RESET', ctx, { userId, email: user.email, removed }, tx)
        const at = new Date()
        await deps.notices.notify(tx, user, { kind: 'factors-reset', at }, `mfa:reset:${userId}:${at.getTime()}`)
      })
    },
  }
}

/** The rules: per staff role, and per company for its client users (and its provider's factor). */
export function createMfaRules(deps: MfaDeps, core: MfaCore) {
  const { db, repository: repo, gate } = deps
  async function roleRules(): Promise<MfaRoleRules> {
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
  }
  async function companyExists(companyId: string) {
    if (!(await deps.users.companyExists(companyId))) throw new AppError('NOT_FOUND', 'Company not found')
  }
  return {
    roleRules,
    async setRoleRules(body: MfaRoleRulesBody, ctx: MfaContext): Promise<MfaRoleRules> {
      const bad = body.rules.find((r) => !MFA_STAFF_ROLES.includes(r.role))
      if (bad) {
        const message = "A client user follows its company's rule, set on the company screen."
        throw new AppError('VALIDATION_FAILED', message, { details: [{ field: 'rules', message }] })
      }
      const before = await roleRules()
      await db.transaction(async (tx) => {
        for (const rule of body.rules) await repo.setRoleRule(rule.role, rule.required, tx)
        await core.recordAdmin(
          'MFA_RULES_UPDATED',
          ctx,
          { scope: 'roles', before: before.rules, after: body.rules },
          tx,
        )
      })
      return roleRules()
    },
    async companyRule(companyId: string): Promise<MfaCompanyRule> {
      await companyExists(companyId)
      return repo.companySettings(companyId)
    },
    async setCompanyRule(companyId: string, body: MfaCompanyRuleBody, ctx: MfaContext): Promise<MfaCompanyRule> {
      await companyExists(companyId)
      return db.transaction(async (tx) => {
        const before = await repo.companySettings(companyId, tx)
        const after = {
          required: body.required,
          trustProviderFactor: body.trustProviderFactor ?? before.trustProviderFactor,
        }
        await repo.setCompanyRule(companyId, after, tx)
        await core.recordAdmin('MFA_RULES_UPDATED', ctx, { scope: 'company', companyId, before, after }, tx)
        return after
      })
    },
  }
}
