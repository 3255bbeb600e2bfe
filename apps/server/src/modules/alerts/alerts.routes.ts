import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AlertSettingsSchema,
  CompanyAlertSettingsSchema,
  DispatchAlertFlagsQuerySchema,
  DispatchAlertFlagsSchema,
  ErrorResponseSchema,
  IdParamsSchema,
  NotificationIdParamsSchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  UnreadCountSchema,
} from '@portal/shared'
import { notFound } from '../../lib/app-error'
import { requireUser } from '../../plugins/app/auth'
import { alertSettingsRepository as settings } from './alert-settings.repository'
import type { AlertsService } from './alerts.service'
import { notificationsRepository as notifications } from './notifications.repository'

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
}
const NO_ALERT = 'Notification not found.'
const NO_COMPANY = 'Company not found'

/** Issue #17: the bell's notifications (under /api/notifications). */
export const notificationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      config: { permission: 'notification.read' },
      schema: {
        tags: ['notifications'],
        querystring: NotificationListQuerySchema,
        response: { 200: NotificationListSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = requireUser(request)
      const page = await notifications.list(app.db, viewer, request.query)
      return { ...page, unreadCount: await notifications.unreadCount(app.db, viewer) }
    },
  )

  app.post(
    '/:id/read',
    {
      config: { permission: 'notification.read' },
      schema: {
        tags: ['notifications'],
        params: NotificationIdParamsSchema,
        response: { 200: UnreadCountSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = requireUser(request)
      // Another company's alert is answered exactly as a missing one.
      if (!(await notifications.markRead(app.db, viewer, request.params.id))) throw notFound(NO_ALERT)
      return { unreadCount: await notifications.unreadCount(app.db, viewer) }
    },
  )

  app.post(
    '/read-all',
    {
      config: { permission: 'notification.read' },
      schema: { tags: ['notifications'], response: { 200: UnreadCountSchema, ...errors } },
    },
    async (request) => {
      const viewer = requireUser(request)
      await notifications.markAllRead(app.db, viewer)
      return { unreadCount: await notifications.unreadCount(app.db, viewer) }
    },
  )

  app.get(
    '/dispatch-flags',
    {
      config: { permission: 'dispatch.read' },
      schema: {
        tags: ['notifications'],
        querystring: DispatchAlertFlagsQuerySchema,
        response: { 200: DispatchAlertFlagsSchema, ...errors },
      },
    },
    async (request) => notifications.flags(app.db, requireUser(request), request.query.ids),
  )
}

/** Issue #17: thresholds (under /api/admin), admin only. A change is evaluated at once. */
export const alertSettingsRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertsService }> = async (app, { alerts }) => {
  app.get(
    '/alert-settings',
    {
      config: { permission: 'alertSettings.manage' },
      schema: { tags: ['alerts'], response: { 200: AlertSettingsSchema, ...errors } },
    },
    async () => settings.global(app.db),
  )

  app.put(
    '/alert-settings',
    {
      config: { permission: 'alertSettings.manage' },
      schema: { tags: ['alerts'], body: AlertSettingsSchema, response: { 200: AlertSettingsSchema, ...errors } },
    },
    async (request) => {
      const saved = await settings.setGlobal(app.db, request.body)
      alerts.requestAll()
      return saved
    },
  )

  app.get(
    '/companies/:id/alert-settings',
    {
      config: { permission: 'alertSettings.manage' },
      schema: { tags: ['alerts'], params: IdParamsSchema, response: { 200: CompanyAlertSettingsSchema, ...errors } },
    },
    async (request) => (await settings.forCompany(app.db, request.params.id)) ?? Promise.reject(notFound(NO_COMPANY)),
  )

  app.put(
    '/companies/:id/alert-settings',
    {
      config: { permission: 'alertSettings.manage' },
      schema: {
        tags: ['alerts'],
        params: IdParamsSchema,
        body: AlertSettingsSchema,
        response: { 200: CompanyAlertSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const saved = await settings.setCompany(app.db, request.params.id, request.body)
      if (!saved) throw notFound(NO_COMPANY)
      alerts.requestAll()
      return saved
    },
  )
}
