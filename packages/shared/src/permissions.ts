import type { Role } from './roles'

/**
 * docs/product-rules.md §6 as one table. The server's auth hook and the web's navigation both read it;
 * when the spec's permission table changes, only this file changes.
 */
export const PERMISSIONS = {
  'session.read': ['admin', 'internal', 'sales', 'client'],
  'activity.write': ['admin', 'internal', 'sales', 'client'],
  /**
   * docs/product-rules.md §6: staff read every company's data; a client only its own company's, which every query
   * enforces (ownCompanyOnly below). The one place that says which roles are company-scoped.
   */
  'company.readAll': ['admin', 'internal', 'sales'],
  /** A sales user's scheduled licence report covers the companies it manages. */
  'company.readManagedOnly': ['sales'],
  /** docs/product-rules.md §2: the Account Manager column of Companies is the admin's. */
  'company.readAccountManager': ['admin'],
  'dispatch.read': ['admin', 'internal', 'sales', 'client'], // client: own company, enforced in the service
  'dispatch.readNotes': ['admin', 'internal'],
  'dispatch.update': ['admin'],
  // Create a dispatch, reset its registration counter, download packages (a client
  // its own company's enabled, unexpired dispatches: enforced in the service).
  'dispatch.create': ['admin'],
  'dispatch.resetCount': ['admin'],
  'dispatch.download': ['admin', 'internal', 'sales', 'client'],
  /** A dispatch's licence history (a client: its own company's dispatches, enforced in the query). */
  'dispatch.readHistory': ['admin', 'internal', 'sales', 'client'],
  /** Monthly usage statements per company (a client: its own company's, enforced in the query). */
  'statement.read': ['admin', 'internal', 'sales', 'client'],
  'destination.read': ['admin', 'internal', 'sales'],
  'report.readCount': ['admin', 'internal', 'sales'],
  'report.read': ['admin', 'internal', 'sales', 'client'], // client: own company, enforced in the service
  // The company-wide learner view (a client: its own company, enforced in the query).
  'learner.read': ['admin', 'internal', 'sales', 'client'],
  'course.read': ['admin', 'internal', 'sales', 'client'],
  'course.readStats': ['admin', 'internal', 'sales'],
  'course.edit': ['admin'],
  /** docs/product-rules.md §2: hidden courses, and the visibility and requestable badges, are the admin's. */
  'course.readHidden': ['admin'],
  /** docs/product-rules.md §6: the hosting app (a course's or a dispatch's appSource) is the admin's. */
  'course.readAppSource': ['admin'],
  'course.sync': ['admin'],
  'courseRequest.create': ['client'],
  'courseRequest.readOwn': ['client'],
  'courseRequest.readAll': ['admin', 'sales'],
  'courseRequest.updateStatus': ['admin'],
  'courseRequest.fulfil': ['admin'],
  'company.read': ['admin', 'sales'],
  'company.update': ['admin'],
  'company.sync': ['admin'],
  'user.list': ['admin'], // the log screen's user filter (GET /api/auth/users)
  'user.manage': ['admin'],
  'log.read': ['admin'],
  'sync.read': ['admin'],
  // A client's notifications are its company's alerts (enforced in the SQL)
  'notification.read': ['admin', 'internal', 'sales', 'client'],
  'alertSettings.manage': ['admin'],
  'outbox.read': ['admin'],
  /** The background jobs: queues, counts, failures; retry and cancel. */
  'jobs.manage': ['admin'],
  'profile.manage': ['admin', 'internal', 'sales', 'client'],
  /**
   * Delivery settings (launch authentication, instancing, learner data hashing, style sheet):
   * everyone reads them (a client its own company's, for its LMS administrator); the admin edits.
   */
  'delivery.read': ['admin', 'internal', 'sales', 'client'],
  'delivery.update': ['admin'],
  /** A dispatch's LTI data (a client: its own company's dispatches, enforced in the service). */
  'lti.read': ['admin', 'internal', 'sales', 'client'],
  /** The LTI 1.1 shared secret, shown on demand and logged: the client needs it for its own LMS. */
  'lti.revealSecret': ['admin', 'internal', 'client'],
  /** A company's single sign-on connection, its e-mail domains and rules. */
  'sso.manage': ['admin'],
  /**
   * API keys: an admin's for the vendor, a client's for its own company when an admin allows it
   * (the company's setting, enforced in the service). A key never holds this one (api-keys.ts).
   */
  'apiKey.manage': ['admin', 'client'],
  /**
   * Outgoing webhooks: as API keys, an admin's for the vendor, a client's for its own company when
   * an admin allows integrations for it. A key never holds this one either.
   */
  'webhook.manage': ['admin', 'client'],
} as const satisfies Record<string, readonly Role[]>

export type Permission = keyof typeof PERMISSIONS

export const can = (role: Role | undefined | null, permission: Permission): boolean =>
  role != null && (PERMISSIONS[permission] as readonly Role[]).includes(role)

/**
 * docs/product-rules.md §6: whether a role's reads are limited to its own company (a client's). Lint forbids
 * comparing roles to literals outside packages/shared, so scoping asks this, not `role === 'client'`.
 */
export const ownCompanyOnly = (role: Role | undefined | null): boolean => !can(role, 'company.readAll')
