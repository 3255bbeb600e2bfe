import { Type, type TSchema } from 'typebox'
import { Nullable } from './common'
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from './webhooks'

/**
 * The body of every outgoing webhook, per event: `{ type, timestamp, data }`. These describe
 * what the database triggers of the outbound webhooks (migration 0040) write, and feed the
 * OpenAPI document's `webhooks` section.
 */
const Time = Nullable(Type.String({ format: 'date-time' }))

const DispatchData = Type.Object({
  dispatchId: Type.String(),
  companyId: Type.String(),
  companyName: Type.String(),
  courseId: Type.String(),
  courseTitle: Type.String(),
  enabled: Type.Boolean(),
  allowNewRegistrations: Type.Boolean(),
  /** 0: unlimited. */
  registrationCap: Type.Integer(),
  registrationCount: Type.Integer(),
  expirationDate: Time,
  tags: Type.Array(Type.String()),
  removedAt: Time,
})

const courseRequestFields = {
  requestId: Type.String({ format: 'uuid' }),
  companyId: Nullable(Type.String()),
  courseId: Type.String(),
  courseTitle: Type.String(),
  licenses: Type.Integer(),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('PROCESSED'), Type.Literal('COMPLETED')]),
  requestorName: Type.String(),
  requestorEmail: Type.String(),
}
const CourseRequestData = Type.Object(courseRequestFields)

const LicenceData = {
  dispatchId: Type.String(),
  companyId: Type.String(),
  companyName: Type.String(),
  courseTitle: Type.String(),
}

export const WEBHOOK_EVENT_DATA: Record<
  WebhookEventType | typeof WEBHOOK_TEST_EVENT,
  { summary: string; data: TSchema }
> = {
  'dispatch.created': { summary: 'A dispatch was created (in the portal or found by the sync).', data: DispatchData },
  'dispatch.changed': {
    summary:
      'A dispatch changed: enabled again, its registration cap, expiry, instancing, new registrations, tags, notes or style sheet.',
    data: DispatchData,
  },
  'dispatch.disabled': { summary: 'A dispatch was disabled.', data: DispatchData },
  'dispatch.removed': {
    summary: 'A dispatch was removed (deleted in the portal or gone upstream).',
    data: DispatchData,
  },
  'licence.threshold_crossed': {
    summary: "A dispatch's registrations crossed a usage threshold of its cap (percent).",
    data: Type.Object({
      ...LicenceData,
      thresholdPercent: Type.Integer(),
      registrationCount: Type.Integer(),
      registrationCap: Type.Integer(),
    }),
  },
  'licence.expiry_approaching': {
    summary: "A dispatch's expiry is this many days away (0: it expires today).",
    data: Type.Object({ ...LicenceData, daysLeft: Type.Integer(), expirationDate: Time }),
  },
  'course_request.created': { summary: 'A course request was made.', data: CourseRequestData },
  'course_request.status_changed': {
    summary: "A course request's status changed.",
    data: Type.Object({ ...courseRequestFields, previousStatus: Type.String() }),
  },
  'registration.completed': {
    summary: "A learner's registration became completed (a postback or a sync run).",
    data: Type.Object({
      registrationId: Type.String(),
      dispatchId: Type.String(),
      companyId: Type.String(),
      courseId: Type.String(),
      courseTitle: Type.String(),
      learner: Type.Object({
        id: Type.String(),
        firstName: Type.String(),
        lastName: Type.String(),
        email: Type.String(),
      }),
      completionStatus: Type.Literal('completed'),
      successStatus: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('unknown')]),
      /** 0..100; null when unscored. */
      score: Nullable(Type.Number()),
      totalSecondsTracked: Type.Number(),
      completedAt: Time,
    }),
  },
  [WEBHOOK_TEST_EVENT]: {
    summary: 'Sent by "Send a test event" to one subscription.',
    data: Type.Object({ subscriptionId: Type.String(), message: Type.String(), sentBy: Nullable(Type.String()) }),
  },
}

/** An event's whole body. */
export const webhookBodySchema = (type: string, data: TSchema) =>
  Type.Object({
    type: Type.Literal(type),
    /** When the change happened (the event's time; the same on every retry). */
    timestamp: Type.String({ format: 'date-time' }),
    data,
  })
