import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AlertSettingsSchema,
  CompanyAlertSettingsSchema,
  DispatchAlertFlagsQuerySchema,
  DispatchAlertFlagsSchema,
  IdParamsSchema,
  NotificationIdParamsSchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  UnreadCountSchema,
} from '@portal/shared'
import { moduleRoute } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { AlertSettingsService, NotificationsService } from './notifications.service'

const notificationRoute = moduleRoute('notifications')
const alertRoute = moduleRoute('alerts')

/** The bell's notifications (under /api/notifications). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/',
    notificationRoute('notification.read', NotificationListSchema, { querystring: NotificationListQuerySchema }),
    async (request) => notifications.list(requireUser(request), request.query),
  )

  app.post(
    '/:id/read',
    notificationRoute('notification.read', UnreadCountSchema, { params: NotificationIdParamsSchema }),
    async (request) => notifications.markRead(requireUser(request), request.params.id),
  )

  app.post('/read-all', notificationRoute('notification.read', UnreadCountSchema), async (request) =>
    notifications.markAllRead(requireUser(request)),
  )

  app.get(
    '/dispatch-flags',
    notificationRoute('dispatch.read', DispatchAlertFlagsSchema, { querystring: DispatchAlertFlagsQuerySchema }),
    async (request) => notifications.flags(requireUser(request), request.query.ids),
  )
}

/** Thresholds (under /api/admin), admin only. A change is evaluated at once. */
export const alertSettingsRoutes: FastifyPluginAsyncTypebox<{ settings: AlertSettingsService }> = async (
  app,
  { settings },
) => {
  app.get('/alert-settings', alertRoute('alertSettings.manage', AlertSettingsSchema), async () => settings.global())

  app.put(
    '/alert-settings',
    alertRoute('alertSettings.manage', AlertSettingsSchema, { body: AlertSettingsSchema }),
    async (request) => settings.setGlobal(request.body, { actor: actorOf(request), ip: request.ip }),
  )

  app.get(
    '/companies/:id/alert-settings',
    alertRoute('alertSettings.manage', CompanyAlertSettingsSchema, { params: IdParamsSchema }),
    async (request) => settings.forCompany(request.params.id),
  )

  app.put(
    '/companies/:id/alert-settings',
    alertRoute('alertSettings.manage', CompanyAlertSettingsSchema, {
      params: IdParamsSchema,
      body: AlertSettingsSchema,
    }),
    async (request) =>
      settings.setCompany(request.params.id, request.body, { actor: actorOf(request), ip: request.ip }),
  )

  // "Use the global thresholds": removes the company's override.
  app.delete(
    '/companies/:id/alert-settings',
    alertRoute('alertSettings.manage', CompanyAlertSettingsSchema, { params: IdParamsSchema }),
    async (request) => settings.useGlobal(request.params.id, { actor: actorOf(request), ip: request.ip }),
  )
}
