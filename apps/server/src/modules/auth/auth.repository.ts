import { and, eq, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { appUser, authSession, refreshToken } from '../../db/schema'

export function createAuthRepository(db: DbOrTx) {
  return {
    async createSession(
      values: { userId: string; expiresAt: Date; ipAddress: string; userAgent: string | null },
      tx: DbOrTx = db,
    ): Promise<string> {
      const [row] = await tx
        .insert(authSession)
        .values({ ...values, lastUsedAt: new Date() })
        .returning({ id: authSession.id })
      return row!.id
    },
    async insertRefreshToken(
      values: { sessionId: string; tokenHash: string; expiresAt: Date },
      tx: DbOrTx = db,
    ): Promise<string> {
      const [row] = await tx.insert(refreshToken).values(values).returning({ id: refreshToken.id })
      return row!.id
    },
    /** The stored token with its session and user, for a refresh or a logout. */
    async findRefreshToken(tokenHash: string) {
      const [row] = await db
        .select({
          tokenId: refreshToken.id,
          usedAt: refreshToken.usedAt,
          tokenExpiresAt: refreshToken.expiresAt,
          sessionId: authSession.id,
          sessionExpiresAt: authSession.expiresAt,
          sessionRevokedAt: authSession.revokedAt,
          userId: appUser.id,
          userStatus: appUser.status,
          userEmail: appUser.email,
          userName: appUser.name,
          userUsername: appUser.username,
          tokenVersion: appUser.tokenVersion,
        })
        .from(refreshToken)
        .innerJoin(authSession, eq(authSession.id, refreshToken.sessionId))
        .innerJoin(appUser, eq(appUser.id, authSession.userId))
        .where(eq(refreshToken.tokenHash, tokenHash))
        .limit(1)
      return row ?? null
    },
    /** Marks a token spent; false when another request spent it first (a reuse). */
    async spendRefreshToken(tokenId: string, replacedBy: string | null, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(refreshToken)
        .set({ usedAt: new Date(), replacedBy })
        .where(and(eq(refreshToken.id, tokenId), isNull(refreshToken.usedAt)))
        .returning({ id: refreshToken.id })
      return rows.length === 1
    },
    async revokeSession(sessionId: string, reason: string, tx: DbOrTx = db) {
      await tx
        .update(authSession)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(authSession.id, sessionId), isNull(authSession.revokedAt)))
    },
    /** "Last used" of the sessions list: a refresh is the session in use (every 15 minutes or so). */
    async touchSession(sessionId: string, tx: DbOrTx = db) {
      await tx.update(authSession).set({ lastUsedAt: new Date() }).where(eq(authSession.id, sessionId))
    },
    async touchLastLogin(userId: string, tx: DbOrTx = db) {
      await tx
        .update(appUser)
        .set({ lastLogin: sql`now()` })
        .where(eq(appUser.id, userId))
    },
  }
}
export type AuthRepository = ReturnType<typeof createAuthRepository>
