/** Page and detail views the screens report (part of docs/product-rules.md §3's list, and of UI_ACTIONS). */
const VIEW_ACTIONS = [
  'PAGE_VIEWED',
  'DASHBOARD_VIEWED',
  'COURSE_OVERVIEW_VIEWED',
  'COURSE_DETAILS_LOADED',
  'DISPATCH_DETAILS_LOADED',
  'SETTINGS_VIEWED',
  'LOGS_PAGE_VIEWED',
] as const

/** Paging, search and filter changes of the lists (likewise). */
const LIST_ACTIONS = [
  'DISPATCH_PAGINATION_CHANGED',
  'DISPATCH_SEARCH_PERFORMED',
  'DISPATCH_STATUS_FILTER_CHANGED',
  'DISPATCH_ITEMS_PER_PAGE_CHANGED',
  'COURSE_SEARCH_PERFORMED',
] as const

/** docs/product-rules.md §3: the log action enumeration, in the spec's order. */
export const SPEC_ACTIONS = [
  'LOGIN_SUCCESS',
  'LOGIN_FAILED',
  'LOGOUT',
  ...VIEW_ACTIONS,
  'NAVIGATION_LOGGED',
  'ADMIN_USER_CREATED',
  'ADMIN_USER_DELETED',
  'ADMIN_USER_SUSPENDED',
  'ADMIN_USER_ACTIVATED',
  'ADMIN_USER_UPDATED',
  'ADMIN_USER_CREATE_FAILED',
  'ADMIN_USER_UPDATE_FAILED',
  'HELP_BUTTON_CLICKED',
  ...LIST_ACTIONS,
  'COURSE_DETAIL_EDIT_SAVED',
  'COURSE_DETAIL_EDIT_FAILED',
  'COURSES_SYNCED',
  'COURSES_SYNC_FAILED',
] as const

/** docs/product-decisions.md D14: server-written events that extend the list. */
export const SERVER_ACTIONS = [
  'COURSE_VIEWED',
  'COURSE_REQUEST_SUBMITTED',
  'COURSE_REQUEST_STATUS_UPDATED',
  'COURSE_VISIBILITY_CHANGED',
  'COMPANY_UPDATED',
  'COMPANIES_SYNCED',
  'COMPANIES_SYNC_FAILED',
  'DISPATCH_UPDATED',
  // Dispatch creation, package downloads, registration counter resets.
  'DISPATCH_CREATED',
  'DISPATCH_PACKAGE_DOWNLOADED',
  'DISPATCH_COUNT_RESET',
  'LOGS_EXPORTED',
  // A completion report or learner list exported (format, filters, rows).
  'REPORT_EXPORTED',
  // Alert thresholds changed: global, a company's override, or the override removed.
  'ALERT_SETTINGS_UPDATED',
  'TOKEN_REUSE_DETECTED',
  // A company's single sign-on connection saved or removed, its e-mail domains changed.
  'SSO_CONNECTION_SAVED',
  'SSO_CONNECTION_REMOVED',
  'SSO_DOMAINS_UPDATED',
  // The company's users allowed a password although it requires single sign-on.
  'SSO_PASSWORD_USERS_UPDATED',
  // Second factors added, removed or reset by an admin; recovery codes used or regenerated; the
  // rules that require a factor; sessions a user or an admin ended.
  'MFA_FACTOR_ADDED',
  'MFA_FACTOR_REMOVED',
  'MFA_FACTOR_RENAMED',
  'MFA_FACTORS_RESET',
  'MFA_RECOVERY_CODE_USED',
  'MFA_RECOVERY_CODES_REGENERATED',
  'MFA_RULES_UPDATED',
  'SESSION_ENDED',
  'SSO_STAFF_ROLES_UPDATED',
  'SSO_STAFF_ROLE_CHANGED',
  // A company's or a dispatch's delivery settings written through to SCORM Cloud; an LTI secret shown.
  'DELIVERY_SETTINGS_UPDATED',
  'LTI_SECRET_REVEALED',
  // API keys created, rotated or revoked; a company allowed its users keys; and every call a
  // key made (the key named in the row).
  'API_KEY_CREATED',
  'API_KEY_ROTATED',
  'API_KEY_REVOKED',
  'API_KEYS_ALLOWED_UPDATED',
  'API_KEY_CALL',
  // Outgoing webhook subscriptions created, edited, paused or resumed, deleted, their secret
  // revealed; and a subscription paused by the delivery after repeated failures.
  'WEBHOOK_CREATED',
  'WEBHOOK_UPDATED',
  'WEBHOOK_DELETED',
  'WEBHOOK_SECRET_REVEALED',
  'WEBHOOK_PAUSED',
] as const

export const ACTIVITY_ACTIONS = [...SPEC_ACTIONS, ...SERVER_ACTIONS] as const
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number]

/**
 * docs/product-decisions.md D14: POST /api/logs/action accepts only UI events (page views, filter changes,
 * help clicks). Everything security-relevant is written by the server when it happens.
 */
export const UI_ACTIONS = [
  ...VIEW_ACTIONS,
  'HELP_BUTTON_CLICKED',
  ...LIST_ACTIONS,
] as const satisfies readonly ActivityAction[]
export type UiAction = (typeof UI_ACTIONS)[number]
