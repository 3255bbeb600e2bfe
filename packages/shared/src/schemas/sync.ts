import { Type, type Static } from 'typebox'
import { INT32_MAX } from '../rules/input-bounds'
import { IntegerFields, Nullable } from './common'

/** What the mirror sync copies from SCORM Cloud (docs/architecture.md "Mirror and sync"). */
export const SyncKindSchema = Type.Union([
  Type.Literal('courses'),
  Type.Literal('destinations'),
  Type.Literal('dispatches'),
  Type.Literal('registrations'),
])
export type SyncKind = Static<typeof SyncKindSchema>
export const SYNC_KINDS = ['courses', 'destinations', 'dispatches', 'registrations'] as const satisfies SyncKind[]

export const SyncTriggerSchema = Type.Union([Type.Literal('startup'), Type.Literal('schedule'), Type.Literal('manual')])
export type SyncTrigger = Static<typeof SyncTriggerSchema>

export const SyncRunStatusSchema = Type.Union([
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
])
export type SyncRunStatus = Static<typeof SyncRunStatusSchema>

/** docs/product-rules.md §3 "Sync results": created, updated, skipped, errors. */
export const SyncCountsSchema = Type.Object(IntegerFields('created', 'updated', 'skipped', 'errors'))
export type SyncCounts = Static<typeof SyncCountsSchema>

/** GET /api/admin/companies/sync (docs/product-rules.md §7). */
export const CompanySyncResponseSchema = SyncCountsSchema
export type CompanySyncResponse = SyncCounts

/** GET /api/dispatches/courses/sync (docs/product-rules.md §7): courseCount = courses in the mirror, visible or not. */
export const CourseSyncResponseSchema = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  courseCount: Type.Integer(),
})
export type CourseSyncResponse = Static<typeof CourseSyncResponseSchema>

export const SyncRunSchema = Type.Object({
  kind: SyncKindSchema,
  trigger: SyncTriggerSchema,
  status: SyncRunStatusSchema,
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  ...SyncCountsSchema.properties,
  message: Nullable(Type.String()),
})
export type SyncRun = Static<typeof SyncRunSchema>

/** GET /api/admin/sync/status: last run per kind and the provider's health as this server sees it. */
export const SyncStatusResponseSchema = Type.Object({
  runs: Type.Object({
    courses: Nullable(SyncRunSchema),
    destinations: Nullable(SyncRunSchema),
    dispatches: Nullable(SyncRunSchema),
    registrations: Nullable(SyncRunSchema),
  }),
  scormCloud: Type.Object({
    reachable: Type.Boolean(),
    circuit: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half-open')]),
    lastError: Nullable(Type.String()),
  }),
  lastSuccessfulSyncAt: Nullable(Type.String()),
})
export type SyncStatusResponse = Static<typeof SyncStatusResponseSchema>

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }))

/**
 * POST /api/webhooks/scorm-cloud/registrations body: SCORM Cloud's RegistrationSchema
 * (docs/scorm-cloud-api.md §8), the fields the mirror keeps. Dates stay strings here and are checked by the
 * server, because the provider's exact date format is unconfirmed (docs/scorm-cloud-api.md §1).
 */
export const PostbackRegistrationSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  // The mirror's column is a PostgreSQL integer (2147483648 overflowed it).
  instance: Type.Optional(Type.Integer({ minimum: 0, maximum: INT32_MAX })),
  dispatchId: Text(200),
  updated: Text(64),
  registrationCompletion: Text(32),
  registrationSuccess: Text(32),
  // Generous bounds (the provider's scaled score is 0..100): a real postback is never refused,
  // an absurd one is a 400 rather than a value no report can show.
  score: Type.Optional(Type.Object({ scaled: Type.Number({ minimum: -1_000_000, maximum: 1_000_000 }) })),
  /** At most about 317 years. */
  totalSecondsTracked: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000_000_000 })),
  firstAccessDate: Text(64),
  lastAccessDate: Text(64),
  completedDate: Text(64),
  createdDate: Text(64),
  course: Type.Optional(
    Type.Object({
      id: Type.String({ maxLength: 200 }),
      title: Text(1000),
      version: Type.Optional(Type.Integer({ minimum: -INT32_MAX - 1, maximum: INT32_MAX })),
    }),
  ),
  learner: Type.Optional(
    Type.Object({
      id: Type.String({ maxLength: 500 }),
      firstName: Text(500),
      lastName: Text(500),
      email: Text(500),
    }),
  ),
})
export type PostbackRegistration = Static<typeof PostbackRegistrationSchema>
