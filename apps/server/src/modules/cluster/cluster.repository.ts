import { eq, inArray, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { appUser, course, rateLimitCounter, secretFingerprint } from '../../db/schema'
import { rowsOf } from '../../db/statement'

/** State that every server node on one database shares: rate-limit counters, secret fingerprints. */
export function createClusterRepository(db: DbOrTx) {
  /** The fingerprint recorded for a secret's name, or null while none is. */
  async function fingerprintOf(name: string): Promise<string | null> {
    const [row] = await db
      .select({ fingerprint: secretFingerprint.fingerprint })
      .from(secretFingerprint)
      .where(eq(secretFingerprint.name, name))
    return row?.fingerprint ?? null
  }

  return {
    /**
     * Counts one hit of `key` in its window (a new window when the last one has ended): the
     * hits so far and the milliseconds left. One statement, so hits on every node all count.
     */
    async rateLimitHit(key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
      const result = await db.execute(sql`
        insert into rate_limit_counter as c (key, hits, window_ends_at)
        values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}::float8))
        on conflict (key) do update set
          hits = case when c.window_ends_at <= now() then 1 else c.hits + 1 end,
          window_ends_at = case when c.window_ends_at <= now() then excluded.window_ends_at else c.window_ends_at end
        returning hits, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl_ms
      `)
      const row = rowsOf<{ hits: number; ttl_ms: number }>(result)[0]!
      return { hits: Number(row.hits), ttlMs: Number(row.ttl_ms) }
    },
    /**
     * Removes counters whose window ended more than `ageMs` ago, by the database's clock: the
     * windows are set by that clock, so a node whose own clock runs ahead does not remove
     * counters still counting.
     */
    async pruneRateLimits(ageMs: number): Promise<void> {
      await db
        .delete(rateLimitCounter)
        .where(lt(rateLimitCounter.windowEndsAt, sql`now() - make_interval(secs => ${ageMs / 1000}::float8)`))
    },
    /**
     * The fingerprint recorded for a secret's name: `fingerprint` when none was yet (it is
     * recorded then), else the one the first node recorded.
     */
    async recordFingerprint(name: string, fingerprint: string): Promise<string> {
      await db.insert(secretFingerprint).values({ name, fingerprint }).onConflictDoNothing()
      return (await fingerprintOf(name))!
    },
    fingerprintOf,
    /**
     * What a database shows of its use before it recorded an application: whether it holds any
     * account or catalogue, and whether one of `demoEmails` is among the accounts.
     */
    async pastUse(demoEmails: string[]): Promise<{ used: boolean; demo: boolean }> {
      const [row] = await db
        .select({
          used: sql<boolean>`exists (select 1 from ${appUser}) or exists (select 1 from ${course})`,
          demo: sql<boolean>`exists (select 1 from ${appUser} where ${inArray(sql`lower(${appUser.email})`, demoEmails)})`,
        })
        .from(sql`(select 1) as "one"`)
      return { used: Boolean(row!.used), demo: Boolean(row!.demo) }
    },
  }
}
export type ClusterRepository = ReturnType<typeof createClusterRepository>
