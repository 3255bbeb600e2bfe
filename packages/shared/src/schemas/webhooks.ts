import { Type, type Static } from 'typebox'
import { CreatorFields, Nullable, OwnerCompanyFields, UuidSchema } from './common'

/**
 * Outgoing webhook events (docs/api.md, "Webhooks"). A company's subscription receives only
 * events about its own company's data; the vendor's (an admin's) receives every company's.
 */
export const WEBHOOK_EVENT_TYPES = [
  'dispatch.created',
  'dispatch.changed',
  'dispatch.disabled',
  'dispatch.removed',
  'licence.threshold_crossed',
  'licence.expiry_approaching',
  'course_request.created',
  'course_request.status_changed',
  'registration.completed',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** The event "Send a test event" sends to one subscription only (never subscribed to). */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

export const WEBHOOK_URL_MAX = 2048
export const WEBHOOK_DESCRIPTION_MAX = 200
/** Subscriptions one company (or the vendor) may have. */
export const WEBHOOK_MAX_PER_OWNER = 10
/** The answer kept per delivery, in bytes. */
export const WEBHOOK_EXCERPT_BYTES = 1024

export const WebhookSubscriptionSchema = Type.Object({
  id: UuidSchema,
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  /** null: the vendor's (every company's events). */
  ...OwnerCompanyFields,
  status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
  /** Why it was paused: by a person, or after repeated failures. */
  pausedReason: Nullable(Type.String()),
  ...CreatorFields,
  updatedAt: Type.String(),
})
export type WebhookSubscription = Static<typeof WebhookSubscriptionSchema>

export const WebhookListSchema = Type.Object({
  /** Whether the caller may create subscriptions (an admin always; a client when its company allows integrations). */
  allowed: Type.Boolean(),
  eventTypes: Type.Array(Type.String()),
  maxSubscriptions: Type.Integer(),
  subscriptions: Type.Array(WebhookSubscriptionSchema),
})
export type WebhookList = Static<typeof WebhookListSchema>

const events = Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 32, uniqueItems: true })

export const WebhookCreateSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 4096 }),
    events,
    description: Type.Optional(Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX })),
  },
  { additionalProperties: false },
)
export type WebhookCreate = Static<typeof WebhookCreateSchema>

export const WebhookUpdateSchema = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    events: Type.Optional(events),
    description: Type.Optional(Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX })),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
  },
  { additionalProperties: false },
)
export type WebhookUpdate = Static<typeof WebhookUpdateSchema>

/** A subscription with its signing secret (`whsec_` and base64): on create and on reveal. */
export const WebhookSecretSchema = Type.Object({ subscription: WebhookSubscriptionSchema, secret: Type.String() })
export type WebhookSecret = Static<typeof WebhookSecretSchema>

export const WebhookDeliverySchema = Type.Object({
  id: Type.Integer(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('sending'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
  ]),
  attempts: Type.Integer(),
  createdAt: Type.String(),
  lastAttemptAt: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
  statusCode: Nullable(Type.Integer()),
  durationMs: Nullable(Type.Integer()),
  /** The first kilobyte of the receiver's answer. */
  responseExcerpt: Nullable(Type.String()),
  error: Nullable(Type.String()),
})
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>

export const WebhookDeliveryListSchema = Type.Object({ deliveries: Type.Array(WebhookDeliverySchema) })
export type WebhookDeliveryList = Static<typeof WebhookDeliveryListSchema>

export const WebhookDeliveryParamsSchema = Type.Object({
  id: UuidSchema,
  deliveryId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
})

/** Demo mode's built-in receiver: what it caught, newest first. */
export const WebhookCatcherSchema = Type.Object({
  url: Type.String(),
  caught: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      receivedAt: Type.String(),
      /** Whether the signature matched the demo subscription's secret. */
      verified: Type.Boolean(),
      body: Type.String(),
    }),
  ),
})
export type WebhookCatcher = Static<typeof WebhookCatcherSchema>
