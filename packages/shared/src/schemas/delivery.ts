import { Type, type Static } from 'typebox'
import { Nullable, OneOf } from './common'

/** SCORM Cloud's launch authentication types (docs/scorm-cloud-api.md §5 `launchAuth`). */
export const LAUNCH_AUTH_TYPES = ['cookies', 'vault'] as const
export type LaunchAuthType = (typeof LAUNCH_AUTH_TYPES)[number]
/** Expiries are seconds; a year is the most the portal sends (anything longer is a typo). */
export const LAUNCH_AUTH_EXPIRY_MAX = 31_536_000
export const CSS_URL_MAX = 2_000

export const DELIVERY_MESSAGES = {
  nothingToUpdate: 'Nothing to update.',
  unknownAuthType: 'Launch authentication must be "cookies" or "vault".',
  badExpiry: `Expiry must be a whole number of seconds from 0 to ${LAUNCH_AUTH_EXPIRY_MAX} (one year).`,
  badCssUrl: 'The style sheet URL must be an http:// or https:// address.',
  cssTooLong: `The style sheet URL must be at most ${CSS_URL_MAX} characters.`,
  notConfigured: 'SCORM Cloud is not configured.',
  secretForbidden: 'Your role may not see LTI secrets.',
} as const

/**
 * What instancing does to licence counts, shown next to the switch (docs/scorm-cloud-api.md §6.2
 * `instanced`): on, a learner relaunching from an LMS that sends no launch data gets a new
 * registration, which uses another licence; off, one registration per LMS learner.
 */
export const INSTANCING_EXPLANATION =
  'On: when a learner relaunches the course from an LMS that does not send its launch data, SCORM Cloud starts a new registration, which counts as another licence. Off: one registration per learner of the LMS, so relaunches use no extra licence (course versions are then not kept per launch).'

export const LaunchAuthSchema = Type.Object({
  type: Type.String({ description: 'cookies or vault' }),
  ipAddress: Type.Boolean({ description: 'Vault: the launch must come from the same IP address' }),
  fingerprint: Type.Boolean({ description: 'Vault: the launch must come from the same browser fingerprint' }),
  expiry: Type.Integer({ description: 'Seconds a launch stays valid (0 = the provider default)' }),
  slidingExpiry: Type.Integer({ description: 'Seconds of inactivity after which it ends (0 = none)' }),
})
export type LaunchAuth = Static<typeof LaunchAuthSchema>

/** A company's delivery settings as the mirror holds them. */
export const CompanyDeliverySchema = Type.Object({
  companyId: Type.String(),
  /** null: SCORM Cloud sent none, its default (cookies) applies. */
  launchAuth: Nullable(LaunchAuthSchema),
  /** Across the company's live dispatches: all on, all off, some of each, or none to count. */
  instancing: Type.Union([Type.Literal('on'), Type.Literal('off'), Type.Literal('mixed'), Type.Literal('none')]),
  instancedDispatches: Type.Integer(),
  dispatches: Type.Integer(),
  /** null: not read from SCORM Cloud yet. */
  hashUserInfo: Nullable(Type.Boolean()),
  cssUrl: Nullable(Type.String()),
  instancingExplanation: Type.String(),
})
export type CompanyDelivery = Static<typeof CompanyDeliverySchema>

/** What a company's and a dispatch's delivery updates both may change; "" or null clears the style sheet. */
const DeliveryChangeFields = {
  instanced: Type.Optional(Type.Boolean()),
  hashUserInfo: Type.Optional(Type.Boolean()),
  cssUrl: Type.Optional(Nullable(Type.String({ maxLength: CSS_URL_MAX + 100 }))),
}

export const UpdateCompanyDeliveryBodySchema = Type.Object(
  {
    launchAuth: Type.Optional(
      Type.Object({
        type: OneOf(LAUNCH_AUTH_TYPES),
        ipAddress: Type.Optional(Type.Boolean()),
        fingerprint: Type.Optional(Type.Boolean()),
        // The range is the schema's; a fraction is refused by the service with the product's message.
        expiry: Type.Optional(Type.Number({ minimum: 0, maximum: LAUNCH_AUTH_EXPIRY_MAX })),
        slidingExpiry: Type.Optional(Type.Number({ minimum: 0, maximum: LAUNCH_AUTH_EXPIRY_MAX })),
      }),
    ),
    ...DeliveryChangeFields,
  },
  { additionalProperties: false },
)
export type UpdateCompanyDeliveryBody = Static<typeof UpdateCompanyDeliveryBodySchema>

/** A dispatch's own settings and what it inherits from its company. */
export const DispatchDeliverySchema = Type.Object({
  dispatchId: Type.String(),
  companyId: Type.String(),
  instanced: Type.Boolean(),
  hashUserInfo: Nullable(Type.Boolean()),
  /** The dispatch's own style sheet; null = the company's. */
  cssUrl: Nullable(Type.String()),
  /** The style sheet its packages are fetched with. */
  effectiveCssUrl: Nullable(Type.String()),
  companyLaunchAuth: Nullable(LaunchAuthSchema),
  instancingExplanation: Type.String(),
})
export type DispatchDelivery = Static<typeof DispatchDeliverySchema>

export const UpdateDispatchDeliveryBodySchema = Type.Object(DeliveryChangeFields, { additionalProperties: false })
export type UpdateDispatchDeliveryBody = Static<typeof UpdateDispatchDeliveryBodySchema>

/** A dispatch's LTI data from SCORM Cloud; the shared secret only through the reveal route. */
export const DispatchLtiSchema = Type.Object({
  dispatchId: Type.String(),
  lti11: Type.Object({
    launchUrl: Type.String(),
    consumerKey: Type.String(),
    /** Whether this user may reveal the shared secret. */
    canRevealSecret: Type.Boolean(),
  }),
  lti13: Type.Object({
    targetLinkUri: Type.String(),
    oidcLoginInitiationsUrl: Type.String(),
    redirectUri: Type.String(),
    jsonWebKeySetUrl: Type.String(),
    publicKey: Type.String(),
  }),
})
export type DispatchLti = Static<typeof DispatchLtiSchema>

export const LtiSecretSchema = Type.Object({ sharedSecret: Type.String() })
export type LtiSecret = Static<typeof LtiSecretSchema>

const LicenceCountFields = {
  registrations: Type.Integer(),
  learners: Type.Integer(),
  /** Learners holding more than one registration (a dispatch's answer lists the first of them). */
  repeatLearners: Type.Integer(),
  /** Registrations beyond one per learner: what a relaunch over-count costs in licences. */
  extraRegistrations: Type.Integer(),
}

/** Licence counting on a dispatch: the over-count instancing or relaunches cause. */
export const LicenceCountSchema = Type.Object({
  dispatchId: Type.String(),
  ...LicenceCountFields,
  learnersShown: Type.Array(
    Type.Object({
      learnerId: Type.String(),
      name: Type.String(),
      email: Type.String(),
      registrations: Type.Integer(),
    }),
  ),
})
export type LicenceCount = Static<typeof LicenceCountSchema>

/** A company's licence count: its dispatches' figures summed (a learner once per dispatch). */
export const CompanyLicenceCountSchema = Type.Object({
  companyId: Type.String(),
  ...LicenceCountFields,
})
export type CompanyLicenceCount = Static<typeof CompanyLicenceCountSchema>
