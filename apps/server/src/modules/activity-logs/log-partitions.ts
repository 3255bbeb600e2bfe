import type { FastifyBaseLogger } from 'fastify'
import type { LogsRepository } from './logs.repository'

/** How far ahead month partitions of the log exist, and how often that is checked. */
const MONTHS_AHEAD = 2
const CHECK_EVERY_MS = 24 * 60 * 60 * 1000

type Partitions = Pick<LogsRepository, 'ensureMonthPartitions'>

/**
 * The months from last month to MONTHS_AHEAD ahead get their partition before a row needs it.
 * Returns how many were made.
 */
export async function ensureLogPartitions(logs: Partitions, now = new Date()): Promise<number> {
  const day = (offsetMonths: number) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, 1))
    return d.toISOString().slice(0, 10)
  }
  return logs.ensureMonthPartitions(day(-1), day(MONTHS_AHEAD))
}

/** At start and then daily; a failure is logged and tried again the next day. */
export function scheduleLogPartitions(logs: Partitions, log: FastifyBaseLogger): { stop(): void } {
  const run = () =>
    ensureLogPartitions(logs).catch((err: unknown) => log.warn({ err }, 'could not create activity log partitions'))
  void run()
  const timer = setInterval(run, CHECK_EVERY_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
