import { defineSweep } from '../jobs/job-engine'
import type { LogsRepository } from './logs.repository'

/** How far ahead month partitions of the log exist (checked daily, see logPartitionsJob). */
const MONTHS_AHEAD = 2

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

export const LOG_PARTITIONS_JOB = 'log-partitions'

/**
 * The partitions' upkeep as a job: sent when a node that runs jobs starts, and daily. Creating
 * a partition that exists is a no-op, so a repeated run changes nothing.
 */
export function logPartitionsJob(logs: Partitions) {
  return {
    job: defineSweep(LOG_PARTITIONS_JOB, async () => ({ created: await ensureLogPartitions(logs) })),
    schedule: { name: LOG_PARTITIONS_JOB, cron: '17 0 * * *' },
  }
}
