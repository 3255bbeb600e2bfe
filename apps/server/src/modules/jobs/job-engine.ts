import { PgBoss, type Job, type JobResult } from 'pg-boss'
import { Type, type Static, type TSchema } from 'typebox'
import { Value } from 'typebox/value'
import type { DbOrTx, JobTarget } from '../../db/client'
import { JOB_SCHEMA, jobConnection, jobTransaction } from '../../db/job-database'

interface Log {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/**
 * Thrown by a job whose payload can never succeed (what it names is gone): the job ends failed
 * with this message as its recorded reason, without the retries meant for passing faults.
 */
export class JobRejected extends Error {}

/** What a job's run returns is stored as the job's output (shown on the admin Jobs screen). */
export type JobOutput = Record<string, unknown>

/**
 * One background task: its queue, its payload's schema, and what a run does. Every job of the
 * portal is one of these (the one way to define a job), on PostgreSQL and on PGlite alike.
 */
export interface JobDefinition<S extends TSchema = TSchema> {
  name: string
  payload: S
  /**
   * `short`: at most one job waiting (per singleton key): for a sweep that covers everything
   * due, a second request while one waits adds nothing. Several may run at once (on several
   * nodes, or while a dead node's job waits for its expiry): each job's own guard (row claims,
   * advisory locks, idempotency keys) keeps them apart. `standard`: every send is a job.
   */
  policy?: 'standard' | 'short'
  /** Attempts after the first, with a doubling delay from retryDelaySeconds (with jitter). */
  retryLimit?: number
  retryDelaySeconds?: number
  /** A job running longer is taken as lost (its node died) and retried. */
  expireInSeconds?: number
  /** Jobs handed to one run together (a batch of postbacks evaluated once). */
  batchSize?: number
  run(payloads: Static<S>[]): Promise<JobOutput | void>
}

export const defineJob = <S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> => definition

/**
 * A sweep: a job without a payload on the `short` policy, whose run covers everything due (so
 * a second request while one waits adds nothing).
 */
export const defineSweep = (
  name: string,
  run: () => Promise<JobOutput>,
  options: Pick<JobDefinition, 'retryLimit'> = {},
) => defineJob({ name, payload: Type.Object({}), policy: 'short', ...options, run })

export interface JobSchedule {
  name: string
  /** A cron expression or an RFC 5545 recurrence rule, in UTC. */
  cron: string
  key?: string
  data?: object
}

export type JobEngineState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed'

export interface JobEngineStatus {
  state: JobEngineState
  /** Whether this node runs jobs (PORTAL_ROLE all or worker) or only sends them (web). */
  working: boolean
  error?: string
}

export interface SendOptions {
  /** The portal transaction that writes what the job acts on: the job commits with it. */
  tx?: DbOrTx
  /** With a `short` queue: one waiting job per key (a postback burst for one dispatch, one job). */
  key?: string
}

export interface JobEngineOptions {
  target: JobTarget
  log: Log
  /** Runs jobs (roles all and worker); false: sends only (role web). */
  working: boolean
  /** Workers poll and the schedules fire by themselves; false in tests, which call runDue. */
  background: boolean
  /** The node's name in pg-boss's instance registry (its role). */
  instanceName: string
}

const DEFAULTS = { retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 15 * 60, batchSize: 1 }
const POLL_SECONDS = 2

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The job engine: pg-boss, on the portal's PostgreSQL (its own schema and pool) or in the
 * process's PGlite through pg-boss's adapter. Jobs are rows: sent in the sender's transaction,
 * claimed with SKIP LOCKED by one worker of one node, retried with backoff, kept with their
 * error when they keep failing (docs/architecture.md, "Background work").
 */
export function createJobEngine(options: JobEngineOptions) {
  const { log, working, background } = options
  const definitions = new Map<string, JobDefinition>()
  const schedules: JobSchedule[] = []
  let boss: PgBoss | null = null
  let state: JobEngineState = 'stopped'
  let error: string | undefined

  function definition(name: string): JobDefinition {
    const found = definitions.get(name)
    if (!found) throw new Error(`No job named ${name} is defined.`)
    return found
  }

  function engine(): PgBoss {
    if (!boss || state !== 'running') throw new Error(`The job engine is ${state}.`)
    return boss
  }

  /** One batch through a definition: a payload that does not match its schema ends at once. */
  async function process(def: JobDefinition, jobs: Job<unknown>[]): Promise<JobResult[]> {
    const results: JobResult[] = []
    const valid: Job<unknown>[] = []
    for (const job of jobs) {
      const [problem] = Value.Errors(def.payload, job.data)
      if (!problem) {
        valid.push(job)
        continue
      }
      const message = `The payload no longer matches the ${def.name} job: ${problem.instancePath || '/'} ${problem.message}.`
      log.warn({ job: def.name, jobId: job.id }, message)
      results.push({ id: job.id, status: 'deadletter', output: { message, rejected: true } })
    }
    if (valid.length === 0) return results
    try {
      const output = (await def.run(valid.map((job) => job.data))) ?? {}
      for (const job of valid) results.push({ id: job.id, status: 'completed', output })
    } catch (err) {
      const message = messageOf(err)
      const rejected = err instanceof JobRejected
      if (rejected) log.warn({ job: def.name, jobIds: valid.map((j) => j.id) }, message)
      else log.error({ err, job: def.name, jobIds: valid.map((j) => j.id) }, 'job failed')
      const status = rejected ? 'deadletter' : 'failed'
      for (const job of valid) results.push({ id: job.id, status, output: { message, rejected } })
    }
    return results
  }

  async function startWorkers(b: PgBoss, pollSeconds: number): Promise<{ name: string; id: string }[]> {
    const ids: { name: string; id: string }[] = []
    for (const def of definitions.values()) {
      ids.push({
        name: def.name,
        id: await b.work(
          def.name,
          {
            batchSize: def.batchSize ?? DEFAULTS.batchSize,
            perJobResults: true,
            pollingIntervalSeconds: pollSeconds,
          },
          (jobs) => process(def, jobs),
        ),
      })
    }
    return ids
  }

  /** Jobs of the portal's queues that could run now or are running. */
  async function pending(b: PgBoss): Promise<number> {
    const { rows } = await b
      .getDb()
      .executeSql(
        `select count(*)::int as n from ${SCHEMA_TABLE} where name = any($1::text[]) and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
        [[...definitions.keys()]],
      )
    return Number((rows[0] as { n: number } | undefined)?.n ?? 0)
  }

  return {
    /** Before start: the jobs this process knows. */
    define(...defs: JobDefinition[]) {
      for (const def of defs) definitions.set(def.name, def)
    },
    /** Before start: a recurring job, kept in the database by the nodes that run jobs. */
    schedule(schedule: JobSchedule) {
      // Checked as send checks: a schedule's payload is sent on every run, so a wrong one would
      // fail every run of the job.
      if (!Value.Check(definition(schedule.name).payload, schedule.data ?? {}))
        throw new Error(`The ${schedule.name} schedule's payload does not match its job's schema.`)
      schedules.push(schedule)
    },
    names: () => [...definitions.keys()],

    async start(): Promise<void> {
      if (state !== 'stopped' && state !== 'failed') return
      state = 'starting'
      error = undefined
      const b = new PgBoss({
        ...jobConnection(options.target),
        instanceName: options.instanceName,
        // Maintenance (expiring jobs of dead nodes, retention) and the cron pass run on the nodes
        // that run jobs.
        supervise: working && background,
        schedule: working && background,
        migrate: true,
      })
      b.on('error', (err) => log.error({ err }, 'job engine error'))
      try {
        await b.start()
        for (const def of definitions.values()) {
          const queue = {
            policy: def.policy ?? 'standard',
            retryLimit: def.retryLimit ?? DEFAULTS.retryLimit,
            retryDelay: def.retryDelaySeconds ?? DEFAULTS.retryDelaySeconds,
            retryBackoff: true,
            expireInSeconds: def.expireInSeconds ?? DEFAULTS.expireInSeconds,
            notify: true,
          }
          if (await b.getQueue(def.name)) {
            const { policy: _policy, ...changeable } = queue
            await b.updateQueue(def.name, changeable)
          } else await b.createQueue(def.name, queue)
        }
        if (working) {
          for (const s of schedules) await b.schedule(s.name, s.cron, s.data ?? {}, { key: s.key ?? '' })
          if (background) await startWorkers(b, POLL_SECONDS)
        }
        boss = b
        state = 'running'
      } catch (err) {
        state = 'failed'
        error = messageOf(err)
        await b.stop({ graceful: false, close: true }).catch(() => undefined)
        throw err
      }
    },

    /** Waits (up to 8 s, inside the server's 10 s shutdown grace) for the jobs running on this node, then closes the engine's connections. */
    async stop(): Promise<void> {
      const b = boss
      if (!b) return
      state = 'stopping'
      boss = null
      await b.stop({ graceful: true, close: true, timeout: 8_000 }).catch((err: unknown) => {
        log.warn({ err }, 'job engine did not stop cleanly')
      })
      state = 'stopped'
    },

    status(): JobEngineStatus {
      return error ? { state, working, error } : { state, working }
    },

    /**
     * Sends a job; with `tx`, inside that transaction (never outside it: on PGlite a statement
     * outside the open transaction would wait for it forever). Null when a `short` queue already
     * has one waiting.
     */
    async send(name: string, data: object, opts: SendOptions = {}): Promise<string | null> {
      const def = definition(name)
      if (!Value.Check(def.payload, data)) throw new Error(`The ${name} job's payload does not match its schema.`)
      return engine().send(name, data, {
        ...(opts.key ? { singletonKey: opts.key } : {}),
        ...(opts.tx ? { db: jobTransaction(opts.tx) } : {}),
      })
    },

    /**
     * Tests and the demo's first sync: runs every job that is due now (and those they send) on
     * this node, through the same path as the background workers, and resolves when none is left.
     */
    async runDue(timeoutMs = 60_000): Promise<void> {
      const b = engine()
      if ((await pending(b)) === 0) return
      const workers = await startWorkers(b, 0.5)
      try {
        const until = Date.now() + timeoutMs
        // A check that fails (the database restarting) is tried again until the timeout.
        const left = () =>
          pending(b).catch(() =>
            Date.now() > until ? Promise.reject(new Error('runDue: the database did not answer')) : 1,
          )
        while ((await left()) > 0) {
          if (Date.now() > until) throw new Error('runDue: jobs still pending after the timeout')
          for (const { id } of workers) b.notifyWorker(id)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      } finally {
        for (const { name, id } of workers) await b.offWork(name, { id, wait: true })
      }
    },

    /** Resolves with the job's final state once it ended (completed, failed or cancelled). */
    async waitFor(name: string, id: string, timeoutMs = 10 * 60_000): Promise<string> {
      const until = Date.now() + timeoutMs
      for (;;) {
        const [job] = await engine().findJobs(name, { id })
        if (!job) return 'deleted'
        if (job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled') return job.state
        if (Date.now() > until) return job.state
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    },

    /** The pg-boss instance, for the admin Jobs service (counts, failures, retry, cancel). */
    boss: engine,
  }
}
export type JobEngine = ReturnType<typeof createJobEngine>

/** pg-boss's job table (all queues), read by the counts above and the admin Jobs screen. */
export const SCHEMA_TABLE = `${JOB_SCHEMA}.job`
