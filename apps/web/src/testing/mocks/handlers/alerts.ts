import type { AlertSettings, CompanyAlertSettings, Notification, Preferences } from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { fixtureBuilder } from '../fixture'

/** The bell, badges, thresholds, outbox and preferences. */
export const makeNotification = fixtureBuilder<Notification>(() => ({
  id: 1,
  kind: 'usage',
  level: 90,
  dispatchId: 'dispatch-1',
  companyId: 'company-1',
  companyName: 'Acme Learning',
  courseTitle: 'Fire Safety',
  registrationCount: 9,
  registrationCap: 10,
  expirationDate: null,
  message: '90% of licenses used (threshold 90%): Fire Safety (Acme Learning) uses 9 of 10 licenses',
  createdAt: '2026-11-20T10:00:00.000Z',
  read: false,
}))

export const notificationFixtures: Notification[] = [
  makeNotification(),
  makeNotification({
    id: 2,
    kind: 'expiry',
    level: 7,
    dispatchId: 'dispatch-2',
    message: 'Expires within 7 days: Chemistry (Acme Learning)',
    read: true,
  }),
]

const settings: AlertSettings = { usageThresholds: [80, 90, 100], expiryDays: [0, 7, 30] }
const preferences: Preferences = {
  alertMails: true,
  weeklyDigest: false,
  timeZone: 'UTC',
  reportFrequency: 'off',
  reportHour: 8,
}

export const alertHandlers = [
  http.get('*/api/notifications', () =>
    HttpResponse.json({
      items: notificationFixtures,
      unreadCount: notificationFixtures.filter((n) => !n.read).length,
      nextBefore: null,
    }),
  ),
  http.get('*/api/notifications/dispatch-flags', () => HttpResponse.json({ nearCap: [], expiresSoon: [] })),
  http.post('*/api/notifications/read-all', () => HttpResponse.json({ unreadCount: 0 })),
  http.post('*/api/notifications/:id/read', () => HttpResponse.json({ unreadCount: 0 })),
  http.get('*/api/admin/alert-settings', () => HttpResponse.json(settings)),
  http.put('*/api/admin/alert-settings', async ({ request }) => HttpResponse.json(await request.json())),
  http.get('*/api/admin/companies/:id/alert-settings', () =>
    HttpResponse.json({ ...settings, overridden: false } satisfies CompanyAlertSettings),
  ),
  http.get('*/api/admin/outbox', () =>
    HttpResponse.json({ items: [], totalItems: 0, page: 1, pageSize: 25, totalPages: 0, smtpConfigured: false }),
  ),
  http.get('*/api/profile/preferences', () => HttpResponse.json(preferences)),
  http.put('*/api/profile/preferences', async ({ request }) => HttpResponse.json(await request.json())),
]
