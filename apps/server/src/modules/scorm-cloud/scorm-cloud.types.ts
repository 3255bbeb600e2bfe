/**
 * JSON shapes of the SCORM Cloud REST API v2 (docs/reference: docs/scorm-cloud-api.md,
 * sections 3-9). They belong to the client that speaks the API; the simulator
 * (packages/scorm-cloud-sim) serves the same shapes and imports them, types only, through
 * `@portal/server/scorm-cloud-types` (docs/decisions.md).
 * Every field the spec marks optional stays optional here, so a client typed against these
 * shapes also copes with the real provider leaving fields out.
 */

/** ISO 8601 date string in UTC, e.g. `2024-03-05T14:07:11.000Z`. */
export type IsoDate = string

export interface PingSchema {
  apiMessage: string
  currentTime: IsoDate
}

export interface AboutSchema {
  version: string
  distribution: string
}

/** 400 / 404 body (docs/scorm-cloud-api.md §1.2). */
export interface MessageSchema {
  message: string
}

/** 401 body: documented with the key `error`, not `message` (docs/scorm-cloud-api.md §1.2). */
export interface AuthErrorSchema {
  error: string
}

export type CourseLearningStandard =
  | 'UNKNOWN'
  | 'SCORM11'
  | 'SCORM12'
  | 'SCORM20042NDEDITION'
  | 'SCORM20043RDEDITION'
  | 'SCORM20044THEDITION'
  | 'AICC'
  | 'XAPI'
  | 'CMI5'
  | 'LTI13'

/** Flat course object (docs/scorm-cloud-api.md §4). */
export interface CourseSchema {
  id?: string
  title?: string
  xapiActivityId?: string
  created?: IsoDate
  updated?: IsoDate
  version?: number
  /** Only with `includeRegistrationCount=true`. */
  registrationCount?: number
  activityId?: string
  courseLearningStandard?: CourseLearningStandard
  tags?: string[]
  dispatched?: boolean
}

export interface CourseListSchema {
  courses: CourseSchema[]
  more?: string
}

export interface LaunchAuthSchema {
  type?: 'cookies' | 'vault'
  options?: { ipAddress?: boolean; fingerprint?: boolean; expiry?: number; slidingExpiry?: number }
}

/** Destination = client company (docs/scorm-cloud-api.md §5). `name` is required when creating. */
export interface DestinationSchema {
  name?: string
  created?: IsoDate
  updated?: IsoDate
  tags?: string[]
  email?: string
  notes?: string
  launchAuth?: LaunchAuthSchema
  /** The LTI 1.3 platform (the client's LMS) as registered with SCORM Cloud. */
  lti13Data?: Lti13PlatformConfigurationSchema
}

/** GET /dispatch/dispatches/{dispatchId}/lti: what an LMS needs to launch the dispatch over LTI 1.1. */
export interface DispatchLtiInfoSchema {
  url?: string
  consumerKey?: string
  sharedSecret?: string
}

/** GET /dispatch/dispatches/{dispatchId}/lti13: the resource link an LTI 1.3 platform imports. */
export interface DispatchLti13InfoSchema {
  targetLinkUri?: string
}

/** GET /dispatch/destinations/{destinationId}/lti13: the tool as an LTI 1.3 platform registers it. */
export interface Lti13ToolConfigurationSchema {
  publicKey?: string
  oidcLoginInitiationsUrl?: string
  redirectUri?: string
  jsonWebKeySetUrl?: string
}

export interface Lti13PlatformConfigurationSchema {
  clientId?: string
  platformIssuerIdentifier?: string
  deploymentId?: string
  oidcAuthorizationEndpoint?: string
  jsonWebKeySetUrl?: string
  accessTokenUrl?: string
}

/** Read shape; `dispatchCount` only with `includeDispatchCount=true`. */
export interface DestinationInfoSchema extends DestinationSchema {
  dispatchCount?: number
}

export interface DestinationIdSchema {
  id: string
  data: DestinationInfoSchema
}

export interface DestinationInfoListSchema {
  destinations: DestinationIdSchema[]
  more?: string
}

/** Dispatch read shape (docs/scorm-cloud-api.md §6.2). `expirationDate` absent = never expires. */
export interface DispatchSchema {
  destinationId?: string
  destinationName?: string
  courseId?: string
  courseTitle?: string
  created?: IsoDate
  updated?: IsoDate
  allowNewRegistrations?: boolean
  enabled?: boolean
  instanced?: boolean
  /** 0 = unlimited. */
  registrationCap?: number
  registrationCount?: number
  expirationDate?: IsoDate
  tags?: string[]
  email?: string
  notes?: string
  /** [v5] last registration counter reset. */
  registrationResetDate?: IsoDate
}

export interface DispatchIdSchema {
  id: string
  data: DispatchSchema
}

export interface DispatchListSchema {
  dispatches: DispatchIdSchema[]
  more?: string
}

export type PostBackAuthType = 'UNDEFINED' | 'FORM' | 'HTTPBASIC' | 'form' | 'httpbasic'
export type PostBackResultsFormat = 'UNDEFINED' | 'COURSE' | 'ACTIVITY' | 'FULL' | 'course' | 'activity' | 'full'

/** Postback settings (docs/scorm-cloud-api.md §9). */
export interface PostBackSchema {
  url?: string
  authType?: PostBackAuthType
  userName?: string
  password?: string
  resultsFormat?: PostBackResultsFormat
  legacy?: boolean
}

/**
 * PUT /dispatch/dispatches/{id} body: only non-null fields change. `expirationDate` `""` or
 * `"none"` clears the expiry (how to clear is unconfirmed upstream; the simulator accepts both).
 */
export interface UpdateDispatchSchema {
  allowNewRegistrations?: boolean | null
  instanced?: boolean | null
  registrationCap?: number | null
  registrationCount?: number | null
  expirationDate?: IsoDate | null
  enabled?: boolean | null
  email?: string | null
  notes?: string | null
  postBack?: PostBackSchema | null
}

/** POST /dispatch/dispatches item data (docs/scorm-cloud-api.md §6.2 CreateDispatchSchema). */
export interface CreateDispatchSchema {
  destinationId: string
  courseId: string
  allowNewRegistrations?: boolean
  instanced?: boolean
  /** 0 = unlimited (the default). */
  registrationCap?: number
  expirationDate?: IsoDate
  enabled?: boolean
  tags?: string[]
  email?: string
  notes?: string
  postBack?: PostBackSchema
}

/** POST /dispatch/dispatches body: without an id, an existing course+destination pair is modified. */
export interface CreateDispatchesSchema {
  dispatches: { id?: string; data: CreateDispatchSchema }[]
}

export interface EnabledSchema {
  enabled: boolean
}

export interface TagListSchema {
  tags: string[]
}

export interface DispatchRegistrationCountSchema {
  registrationCount: number
  lastResetDate?: IsoDate
}

export type RegistrationCompletion = 'COMPLETED' | 'INCOMPLETE' | 'UNKNOWN'
export type RegistrationSuccess = 'PASSED' | 'FAILED' | 'UNKNOWN'

export interface LearnerSchema {
  id: string
  firstName?: string
  lastName?: string
  email?: string
}

/** Registration progress (docs/scorm-cloud-api.md §8). `score.scaled` is a percentage 0..100. */
export interface RegistrationSchema {
  id: string
  instance?: number
  xapiRegistrationId?: string
  dispatchId?: string
  updated?: IsoDate
  registrationCompletion?: RegistrationCompletion
  registrationCompletionAmount?: number
  registrationSuccess?: RegistrationSuccess
  /** Absent when unscored. */
  score?: { scaled: number }
  totalSecondsTracked?: number
  /** Absent if never launched. */
  firstAccessDate?: IsoDate
  lastAccessDate?: IsoDate
  completedDate?: IsoDate
  createdDate?: IsoDate
  course?: { id: string; title?: string; version?: number }
  learner?: LearnerSchema
  tags?: string[]
}

export interface RegistrationListSchema {
  registrations: RegistrationSchema[]
  more?: string
}

/** GET/POST /appManagement/configuration (docs/scorm-cloud-api.md §3), used here for postback settings. */
export interface SettingItem {
  id: string
  effectiveValue: string
  effectiveValueSource: string
  explicitValue?: string
}

export interface SettingListSchema {
  settingItems: SettingItem[]
}

export interface SettingsPostSchema {
  settings: Array<{ settingId: string; value: string; explicit?: boolean }>
}
