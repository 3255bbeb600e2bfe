import { JOB_STATES, type JobFailure, type JobQueue, type JobsOverview, type JobState } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { SCHEMA_TABLE, type JobEngine } from './job-engine'

const FAILURES_SHOWN = 50

/** pg-boss's command answers carry how many jobs they changed (untyped in its declarations). */
const affected = (result: object) => Number((result as { affected?: number }).affected ?? 0)

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString())

/** The reason a failed job's output records: the message of its error or of its refusal. */
function reasonOf(output: unknown): { error: string; rejected: boolean } {
  if (output && typeof output === 'object') {
    const o = output as { message?: unknown; rejected?: unknown }
    if (typeof o.message === 'string') return { error: o.message, rejected: o.rejected === true }
  }
  return {
    error: output === null || output === undefined ? 'No error was recorded.' : JSON.stringify(output),
    rejected: false,
  }
}

/**
 * The admin Jobs screen's reads and actions, on the engine's own tables (pg-boss's job table is
 * its documented store): counts by state per queue, the last failures with their reason, and a
 * retry or cancel of one job.
 */
export function createJobsService(jobs: Pick<JobEngine, 'boss' | 'names' | 'status'>) {
  const sqlOf = () => jobs.boss().getDb()

  /** The queue of one of the portal's jobs; 404 for an id no queue of the portal holds. */
  async function queueOf(id: string): Promise<string> {
    const { rows } = await sqlOf().executeSql(
      `select name from ${SCHEMA_TABLE} where id = $1::uuid and name = any($2::text[])`,
      [id, jobs.names()],
    )
    const name = (rows[0] as { name?: string } | undefined)?.name
    if (!name) throw new AppError('NOT_FOUND', 'No such job: it never existed or was removed after its retention.')
    return name
  }

  /** A pg-boss action on one job (its queue); none affected: a 409 saying which jobs it applies to. */
  async function act(id: string, action: (queue: string) => Promise<object>, refusal: string): Promise<string> {
    const queue = await queueOf(id)
    if (affected(await action(queue)) === 0) throw new AppError('CONFLICT', refusal)
    return queue
  }

  return {
    async overview(): Promise<JobsOverview> {
      const status = jobs.status()
      if (status.state !== 'running') {
        throw new AppError('NOT_READY', `The job engine is ${status.state}${status.error ? `: ${status.error}` : ''}.`)
      }
      const names = jobs.names()
      const db = sqlOf()
      const counted = await db.executeSql(
        `select name, state, count(*)::int as n from ${SCHEMA_TABLE} where name = any($1::text[]) group by name, state`,
        [names],
      )
      const schedules = await jobs.boss().getSchedules()
      const queues: JobQueue[] = names.map((name) => ({
        name,
        counts: Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>,
        schedules: schedules.filter((s) => s.name === name).map((s) => s.cron),
      }))
      for (const row of counted.rows as { name: string; state: JobState; n: number }[]) {
        const queue = queues.find((q) => q.name === row.name)
        if (queue && row.state in queue.counts) queue.counts[row.state] = Number(row.n)
      }
      const failed = await db.executeSql(
        `select id::text, name, output, data, retry_count, created_on, completed_on from ${SCHEMA_TABLE}
         where name = any($1::text[]) and state = 'failed' order by completed_on desc nulls last limit ${FAILURES_SHOWN}`,
        [names],
      )
      const failures: JobFailure[] = (failed.rows as Record<string, unknown>[]).map((r) => ({
        id: String(r.id),
        queue: String(r.name),
        ...reasonOf(r.output),
        attempts: Number(r.retry_count) + 1,
        data: r.data ?? null,
        createdAt: iso(r.created_on)!,
        failedAt: iso(r.completed_on),
      }))
      return { engine: { state: status.state, working: status.working }, queues, failures }
    },

    /** A failed (or cancelled) job runs again. */
    async retry(id: string): Promise<{ message: string }> {
      const queue = await act(
        id,
        (queue) => jobs.boss().retry(queue, id),
        'Only a failed or cancelled job can be retried; this one is not (or no longer exists).',
      )
      // pg-boss puts a retried job after its backoff; an admin's retry means now.
      await jobs.boss().update(queue, undefined, { id, startAfter: new Date() })
      return { message: 'The job will run again.' }
    },

    /** A job that has not finished will not run (again). */
    async cancel(id: string): Promise<{ message: string }> {
      await act(
        id,
        (queue) => jobs.boss().cancel(queue, id),
        'Only a waiting, retrying or running job can be cancelled; this one is not (or no longer exists).',
      )
      return { message: 'The job is cancelled.' }
    },
  }
}
export type JobsService = ReturnType<typeof createJobsService>
