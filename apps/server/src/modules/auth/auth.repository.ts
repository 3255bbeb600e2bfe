import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import type { ThrottleRule } from './login-throttle'
import { firstRow } from '../../db/first-row'
import { appUser, authSession, loginThrottle, refreshToken } from '../../db/schema'

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
      return firstRow(
        db
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
          .where(eq(refreshToken.tokenHash, tokenHash)),
      )
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

    /**
     * Whole seconds until sign-ins under any of the throttle keys (an account, an IP) are no
     * longer blocked; 0 when none is. One statement for all the keys, by the database's clock,
     * which set the blocks: a node whose own clock runs ahead would otherwise see every block as over.
     */
    async throttleWaitSeconds(keys: string[]): Promise<number> {
      const [row] = await db
        .select({
          wait: sql<number>`coalesce(max(ceil(extract(epoch from ${loginThrottle.blockedUntil} - now()))), 0)::int`,
        })
        .from(loginThrottle)
        .where(and(inArray(loginThrottle.key, keys), sql`${loginThrottle.blockedUntil} > now()`))
      return Number(row?.wait ?? 0)
    },
    /** Counts one failure of the key in its window and blocks it once past the allowed number. */
    async throttleFailure(key: string, rule: ThrottleRule): Promise<void> {
      // One statement, so concurrent failures from several processes all count.
      await db.execute(sql`
        insert into login_throttle as t (key, failures, window_started_at)
        values (${key}, 1, now())
        on conflict (key) do update set
          failures = case
            when t.window_started_at < now() - make_interval(secs => ${rule.windowSeconds})
              and (t.blocked_until is null or t.blocked_until < now())
            then 1 else t.failures + 1 end,
          window_started_at = case
            when t.window_started_at < now() - make_interval(secs => ${rule.windowSeconds})
              and (t.blocked_until is null or t.blocked_until < now())
            then now() else t.window_started_at end
      `)
      await db.execute(sql`
        update login_throttle set blocked_until = now() + make_interval(secs => least(
          ${rule.maxBlockSeconds}::float8,
          ${rule.blockSeconds}::float8 * power(2, failures - ${rule.maxFailures} - 1)))
        where key = ${key} and failures > ${rule.maxFailures}
      `)
    },
    async throttleClear(key: string): Promise<void> {
      await db.delete(loginThrottle).where(eq(loginThrottle.key, key))
    },
  }
}
export type AuthRepository = ReturnType<typeof createAuthRepository>
