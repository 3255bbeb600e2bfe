import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { DbOrTx } from '../../db/client'

/** How far ahead month partitions of the log exist, and how often that is checked. */
const MONTHS_AHEAD = 2
const CHECK_EVERY_MS = 24 * 60 * 60 * 1000

/**
 * The activity log is partitioned by month (migration 0014): the months from last month to
 * MONTHS_AHEAD ahead get their partition before a row needs it (rows of a month without one go
 * to the default partition, and are moved when it is made). Returns how many were made.
 */
export async function ensureLogPartitions(db: DbOrTx, now = new Date()): Promise<number> {
  const day = (offsetMonths: number) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, 1))
    return d.toISOString().slice(0, 10)
  }
  const result = (await db.execute(
    sql`select activity_log_ensure_months(${day(-1)}::date, ${day(MONTHS_AHEAD)}::date) as made`,
  )) as unknown as { rows: { made: number }[] }
  return Number(result.rows[0]?.made ?? 0)
}

/** At start and then daily; a failure is logged and tried again the next day. */
export function scheduleLogPartitions(db: DbOrTx, log: FastifyBaseLogger): { stop(): void } {
  const run = () =>
    ensureLogPartitions(db).catch((err: unknown) => log.warn({ err }, 'could not create activity log partitions'))
  void run()
  const timer = setInterval(run, CHECK_EVERY_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
