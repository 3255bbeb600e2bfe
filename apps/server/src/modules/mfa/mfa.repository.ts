import { and, asc, count, desc, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { firstRow } from '../../db/first-row'
import { deleteWhere, stampOnce } from '../../db/row-writes'
import {
  appUser,
  authSession,
  mfaChallenge,
  mfaCompanyRule,
  mfaFactor,
  mfaRecoveryCode,
  mfaRoleRule,
} from '../../db/schema'

export type MfaFactorRow = typeof mfaFactor.$inferSelect
export type MfaChallengeRow = typeof mfaChallenge.$inferSelect

/** Second factors, recovery codes, second-step tokens, rules and the sessions list (SQL only). */
export function createMfaRepository(db: DbOrTx) {
  /** The company's rule and whether its single sign-on provider's second factor counts. */
  async function companySettings(companyId: string, tx: DbOrTx = db) {
    const [row] = await tx
      .select({ required: mfaCompanyRule.required, trustProviderFactor: mfaCompanyRule.trustProviderFactor })
      .from(mfaCompanyRule)
      .where(eq(mfaCompanyRule.companyId, companyId))
    return { required: row?.required ?? false, trustProviderFactor: row?.trustProviderFactor ?? false }
  }

  return {
    // ---- factors ----
    async factors(userId: string, tx: DbOrTx = db): Promise<MfaFactorRow[]> {
      return tx
        .select()
        .from(mfaFactor)
        .where(and(eq(mfaFactor.userId, userId), isNotNull(mfaFactor.confirmedAt)))
        .orderBy(asc(mfaFactor.createdAt), asc(mfaFactor.id))
    },
    /** A factor of this user, confirmed or not (another user's id finds nothing). */
    async findFactor(userId: string, id: string, tx: DbOrTx = db): Promise<MfaFactorRow | null> {
      return firstRow(
        tx
          .select()
          .from(mfaFactor)
          .where(and(eq(mfaFactor.id, id), eq(mfaFactor.userId, userId))),
      )
    },
    async findByCredentialId(credentialId: string, tx: DbOrTx = db): Promise<MfaFactorRow | null> {
      return firstRow(
        tx
          .select()
          .from(mfaFactor)
          .where(and(eq(mfaFactor.credentialId, credentialId), isNotNull(mfaFactor.confirmedAt))),
      )
    },
    async insertFactor(values: typeof mfaFactor.$inferInsert, tx: DbOrTx = db): Promise<MfaFactorRow> {
      const [row] = await tx.insert(mfaFactor).values(values).returning()
      return row!
    },
    async setTotpSecret(id: string, sealed: string, tx: DbOrTx = db) {
      await tx.update(mfaFactor).set({ totpSecret: sealed }).where(eq(mfaFactor.id, id))
    },
    /** Unconfirmed enrolments of a user are replaced by a new one (one pending key at a time). */
    async deletePending(userId: string, kind: string, tx: DbOrTx = db) {
      await tx
        .delete(mfaFactor)
        .where(and(eq(mfaFactor.userId, userId), eq(mfaFactor.kind, kind), isNull(mfaFactor.confirmedAt)))
    },
    async confirmFactor(id: string, values: { name: string; totpLastStep?: number }, tx: DbOrTx = db) {
      await tx
        .update(mfaFactor)
        .set({ confirmedAt: new Date(), lastUsedAt: new Date(), ...values })
        .where(eq(mfaFactor.id, id))
    },
    /**
     * Accepts a TOTP step only if it is later than the last one accepted, in one statement, so
     * two requests with the same code cannot both pass.
     */
    async advanceTotpStep(id: string, step: number, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(mfaFactor)
        .set({ totpLastStep: step, lastUsedAt: new Date() })
        .where(
          and(eq(mfaFactor.id, id), sql`(${mfaFactor.totpLastStep} is null or ${mfaFactor.totpLastStep} < ${step})`),
        )
        .returning({ id: mfaFactor.id })
      return rows.length === 1
    },
    /**
     * A passkey's counter only moves forward (a cloned authenticator shows an older one); an
     * authenticator that keeps no counter answers 0 every time, and 0 stays accepted for it.
     */
    async advanceSignCount(id: string, signCount: number, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(mfaFactor)
        .set({ signCount, lastUsedAt: new Date() })
        .where(
          and(
            eq(mfaFactor.id, id),
            sql`((${signCount} = 0 and ${mfaFactor.signCount} = 0) or ${mfaFactor.signCount} < ${signCount})`,
          ),
        )
        .returning({ id: mfaFactor.id })
      return rows.length === 1
    },
    async renameFactor(id: string, name: string, tx: DbOrTx = db) {
      await tx.update(mfaFactor).set({ name }).where(eq(mfaFactor.id, id))
    },
    async deleteFactor(userId: string, id: string, tx: DbOrTx = db): Promise<boolean> {
      return deleteWhere(tx, mfaFactor, and(eq(mfaFactor.id, id), eq(mfaFactor.userId, userId)))
    },
    async deleteAllFactors(userId: string, tx: DbOrTx = db): Promise<number> {
      const rows = await tx.delete(mfaFactor).where(eq(mfaFactor.userId, userId)).returning({ id: mfaFactor.id })
      await tx.delete(mfaRecoveryCode).where(eq(mfaRecoveryCode.userId, userId))
      return rows.length
    },

    // ---- recovery codes ----
    async replaceRecoveryCodes(userId: string, hashes: string[], tx: DbOrTx = db) {
      await tx.delete(mfaRecoveryCode).where(eq(mfaRecoveryCode.userId, userId))
      if (hashes.length > 0) await tx.insert(mfaRecoveryCode).values(hashes.map((codeHash) => ({ userId, codeHash })))
    },
    async recoveryCodesLeft(userId: string, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(mfaRecoveryCode)
        .where(and(eq(mfaRecoveryCode.userId, userId), isNull(mfaRecoveryCode.usedAt)))
      return Number(row?.n ?? 0)
    },
    /** Spends an unused code of this user; false when there is none (wrong or used). */
    async spendRecoveryCode(userId: string, codeHash: string, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(mfaRecoveryCode)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(mfaRecoveryCode.codeHash, codeHash),
            eq(mfaRecoveryCode.userId, userId),
            isNull(mfaRecoveryCode.usedAt),
          ),
        )
        .returning({ id: mfaRecoveryCode.id })
      return rows.length === 1
    },

    // ---- second-step tokens ----
    async insertChallenge(values: typeof mfaChallenge.$inferInsert, tx: DbOrTx = db) {
      await tx.insert(mfaChallenge).values(values)
    },
    /** A live (unspent, unexpired) token of the purpose, or null. */
    async findChallenge(tokenHash: string, purpose: string, now = new Date(), tx: DbOrTx = db) {
      return firstRow(
        tx
          .select()
          .from(mfaChallenge)
          .where(
            and(
              eq(mfaChallenge.tokenHash, tokenHash),
              eq(mfaChallenge.purpose, purpose),
              isNull(mfaChallenge.usedAt),
              gt(mfaChallenge.expiresAt, now),
            ),
          ),
      )
    },
    /** Spends the token once: false when another request spent it first. */
    async spendChallenge(id: string, tx: DbOrTx = db): Promise<boolean> {
      return stampOnce(tx, mfaChallenge, 'usedAt', id)
    },
    async setWebauthnChallenge(id: string, challenge: string, tx: DbOrTx = db) {
      await tx.update(mfaChallenge).set({ webauthnChallenge: challenge }).where(eq(mfaChallenge.id, id))
    },
    /** Clears a passkey challenge if it is still the one read: false when another request took it. */
    async takeWebauthnChallenge(id: string, challenge: string, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(mfaChallenge)
        .set({ webauthnChallenge: null })
        .where(and(eq(mfaChallenge.id, id), eq(mfaChallenge.webauthnChallenge, challenge)))
        .returning({ id: mfaChallenge.id })
      return rows.length === 1
    },
    async deleteExpiredChallenges(before: Date, tx: DbOrTx = db) {
      await tx.delete(mfaChallenge).where(lt(mfaChallenge.expiresAt, before))
    },

    // ---- rules ----
    async roleRules(tx: DbOrTx = db) {
      return tx.select({ role: mfaRoleRule.role, required: mfaRoleRule.required }).from(mfaRoleRule)
    },
    async setRoleRule(role: string, required: boolean, tx: DbOrTx = db) {
      await tx
        .insert(mfaRoleRule)
        .values({ role, required })
        .onConflictDoUpdate({ target: mfaRoleRule.role, set: { required, updatedAt: new Date() } })
    },
    async companyRule(companyId: string, tx: DbOrTx = db): Promise<boolean> {
      return (await companySettings(companyId, tx)).required
    },
    companySettings,
    async trustsProviderFactor(companyId: string, tx: DbOrTx = db): Promise<boolean> {
      return (await companySettings(companyId, tx)).trustProviderFactor
    },
    async setCompanyRule(
      companyId: string,
      values: { required: boolean; trustProviderFactor: boolean },
      tx: DbOrTx = db,
    ) {
      await tx
        .insert(mfaCompanyRule)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: mfaCompanyRule.companyId, set: { ...values, updatedAt: new Date() } })
    },

    // ---- sessions ----
    /** The user's live sessions, most recently used first. */
    async sessions(userId: string, now = new Date(), tx: DbOrTx = db) {
      return tx
        .select({
          id: authSession.id,
          createdAt: authSession.createdAt,
          lastUsedAt: authSession.lastUsedAt,
          ipAddress: authSession.ipAddress,
          userAgent: authSession.userAgent,
        })
        .from(authSession)
        .where(and(eq(authSession.userId, userId), isNull(authSession.revokedAt), gt(authSession.expiresAt, now)))
        .orderBy(desc(sql`coalesce(${authSession.lastUsedAt}, ${authSession.createdAt})`), desc(authSession.id))
    },
    /** The user agents of a user's earlier sessions, for "a sign-in from a new browser". */
    async earlierUserAgents(userId: string, exceptSessionId: string, tx: DbOrTx = db): Promise<(string | null)[]> {
      const rows = await tx
        .selectDistinct({ userAgent: authSession.userAgent })
        .from(authSession)
        .where(and(eq(authSession.userId, userId), ne(authSession.id, exceptSessionId)))
        .limit(500)
      return rows.map((r) => r.userAgent)
    },
    /** Ends one live session of this user; false when it is not theirs or already over. */
    async endSession(userId: string, sessionId: string, reason: string, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(authSession)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(authSession.id, sessionId), eq(authSession.userId, userId), isNull(authSession.revokedAt)))
        .returning({ id: authSession.id })
      return rows.length === 1
    },
    /** Ends every live session of the user but `keep` (null: all of them). */
    async endSessions(userId: string, keep: string | null, reason: string, tx: DbOrTx = db): Promise<number> {
      const conditions = [eq(authSession.userId, userId), isNull(authSession.revokedAt)]
      if (keep) conditions.push(ne(authSession.id, keep))
      const rows = await tx
        .update(authSession)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(...conditions))
        .returning({ id: authSession.id })
      return rows.length
    },
    /** What a sign-in needs of a user (issueSession's fields, status, role and company). */
    async signInUser(userId: string, tx: DbOrTx = db) {
      return firstRow(
        tx
          .select({
            id: appUser.id,
            name: appUser.name,
            username: appUser.username,
            email: appUser.email,
            tokenVersion: appUser.tokenVersion,
            status: appUser.status,
            role: appUser.role,
            companyId: appUser.companyId,
          })
          .from(appUser)
          .where(eq(appUser.id, userId)),
      )
    },
  }
}
export type MfaRepository = ReturnType<typeof createMfaRepository>
