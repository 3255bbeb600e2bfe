export * from './roles'
export * from './permissions'
export * from './activity-actions'
export * from './errors'
export * from './schemas/common'
export * from './schemas/users'
export * from './schemas/auth'
export * from './schemas/activity'
export * from './rules/password'
export * from './rules/input-bounds'
export * from './rules/user-form'
export * from './schemas/dispatches'
export * from './schemas/reports'
export * from './rules/license-usage'
export * from './schemas/sync'
export * from './rules/format'
export * from './rules/pagination'
export * from './rules/csv'
export * from './rules/text-limit'
export * from './rules/activity-log'
export * from './rules/company'
export * from './schemas/companies'
export * from './schemas/activity-logs'
// ---- Courses and course requests ----
export * from './schemas/courses'
export * from './schemas/course-requests'
export * from './rules/course-requestable'
export * from './rules/rich-text'
// ---- Dispatch creation, request fulfilment, packages, counter reset ----
export * from './schemas/dispatch-actions'
export * from './rules/package-file-name'
// ---- Alerts, notifications, outbox, preferences ----
export * from './schemas/alerts'
export * from './schemas/jobs'
export * from './rules/alerts'
// ---- Charts ----
export * from './schemas/charts'
// ---- Exports and learners ----
export * from './schemas/learners'
// ---- Single sign-on per company ----
export * from './schemas/sso'
// ---- Second factors, recovery codes, rules, sessions ----
export * from './schemas/mfa'
export * from './schemas/delivery'
// ---- API keys ----
export * from './schemas/api-keys'
// ---- Scheduled renewals and bulk actions ----
export * from './schemas/renewals'
