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
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { AlertSettingsService, NotificationsService } from './notifications.service'

const errors = errorResponses(400, 401, 403, 404)

/** The bell's notifications (under /api/notifications). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/',
    route('notification.read', {
      tags: ['notifications'],
      querystring: NotificationListQuerySchema,
      response: { 200: NotificationListSchema, ...errors },
    }),
    async (request) => notifications.list(requireUser(request), request.query),
  )

  app.post(
    '/:id/read',
    route('notification.read', {
      tags: ['notifications'],
      params: NotificationIdParamsSchema,
      response: { 200: UnreadCountSchema, ...errors },
    }),
    async (request) => notifications.markRead(requireUser(request), request.params.id),
  )

  app.post(
    '/read-all',
    route('notification.read', { tags: ['notifications'], response: { 200: UnreadCountSchema, ...errors } }),
    async (request) => notifications.markAllRead(requireUser(request)),
  )

  app.get(
    '/dispatch-flags',
    route('dispatch.read', {
      tags: ['notifications'],
      querystring: DispatchAlertFlagsQuerySchema,
      response: { 200: DispatchAlertFlagsSchema, ...errors },
    }),
    async (request) => notifications.flags(requireUser(request), request.query.ids),
  )
}

/** Thresholds (under /api/admin), admin only. A change is evaluated at once. */
export const alertSettingsRoutes: FastifyPluginAsyncTypebox<{ settings: AlertSettingsService }> = async (
  app,
  { settings },
) => {
  app.get(
    '/alert-settings',
    route('alertSettings.manage', { tags: ['alerts'], response: { 200: AlertSettingsSchema, ...errors } }),
    async () => settings.global(),
  )

  app.put(
    '/alert-settings',
    route('alertSettings.manage', {
      tags: ['alerts'],
      body: AlertSettingsSchema,
      response: { 200: AlertSettingsSchema, ...errors },
    }),
    async (request) => settings.setGlobal(request.body, { actor: actorOf(request), ip: request.ip }),
  )

  app.get(
    '/companies/:id/alert-settings',
    route('alertSettings.manage', {
      tags: ['alerts'],
      params: IdParamsSchema,
      response: { 200: CompanyAlertSettingsSchema, ...errors },
    }),
    async (request) => settings.forCompany(request.params.id),
  )

  app.put(
    '/companies/:id/alert-settings',
    route('alertSettings.manage', {
      tags: ['alerts'],
      params: IdParamsSchema,
      body: AlertSettingsSchema,
      response: { 200: CompanyAlertSettingsSchema, ...errors },
    }),
    async (request) =>
      settings.setCompany(request.params.id, request.body, { actor: actorOf(request), ip: request.ip }),
  )

  // "Use the global thresholds": removes the company's override.
  app.delete(
    '/companies/:id/alert-settings',
    route('alertSettings.manage', {
      tags: ['alerts'],
      params: IdParamsSchema,
      response: { 200: CompanyAlertSettingsSchema, ...errors },
    }),
    async (request) => settings.useGlobal(request.params.id, { actor: actorOf(request), ip: request.ip }),
  )
}
