import { Type, type Static } from 'typebox'
import { Nullable, OkResponseSchema, UuidParamsSchema } from './common'

/** The states of a background job, in the order a job goes through them. */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const
export type JobState = (typeof JOB_STATES)[number]

const Counts = Type.Object(
  Object.fromEntries(JOB_STATES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<
    JobState,
    ReturnType<typeof Type.Integer>
  >,
)

export const JobQueueSchema = Type.Object({
  name: Type.String(),
  /** Jobs kept in each state (ended jobs are kept for a week). */
  counts: Counts,
  /** Its recurring schedules (cron expressions or recurrence rules, UTC). */
  schedules: Type.Array(Type.String()),
})
export type JobQueue = Static<typeof JobQueueSchema>

export const JobFailureSchema = Type.Object({
  id: Type.String(),
  queue: Type.String(),
  /** The recorded reason: the error of its last attempt, or why its payload was refused. */
  error: Type.String(),
  /** Its payload could never succeed (what it names is gone): it was not retried. */
  rejected: Type.Boolean(),
  attempts: Type.Integer({ minimum: 1 }),
  data: Type.Unknown(),
  createdAt: Type.String({ format: 'date-time' }),
  failedAt: Nullable(Type.String({ format: 'date-time' })),
})
export type JobFailure = Static<typeof JobFailureSchema>

export const JobsOverviewSchema = Type.Object({
  engine: Type.Object({
    state: Type.String(),
    working: Type.Boolean(),
  }),
  queues: Type.Array(JobQueueSchema),
  /** The last failed jobs, newest first (at most 50). */
  failures: Type.Array(JobFailureSchema),
})
export type JobsOverview = Static<typeof JobsOverviewSchema>

export const JobParamsSchema = UuidParamsSchema
export type JobParams = Static<typeof JobParamsSchema>

export const JobActionResultSchema = OkResponseSchema
export type JobActionResult = Static<typeof JobActionResultSchema>
