import type { WebhookDelivery, WebhookList, WebhookSubscription } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const EVENTS = ['dispatch.created', 'registration.completed']
const hook: WebhookSubscription = {
  id: '22222222-2222-4222-8222-222222222222',
  url: 'https://hooks.acme.example/portal',
  description: 'LMS sync',
  events: ['registration.completed'],
  companyId: 'company-a',
  companyName: 'Acme Learning',
  status: 'paused',
  pausedReason: 'Paused after 5 deliveries in a row failed.',
  createdBy: 'client@example.test',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
}
const delivery: WebhookDelivery = {
  id: 7,
  eventId: '33333333-3333-4333-8333-333333333333',
  eventType: 'registration.completed',
  status: 'failed',
  attempts: 8,
  createdAt: '2026-01-02T10:00:00.000Z',
  lastAttemptAt: '2026-01-03T12:00:00.000Z',
  nextAttemptAt: null,
  statusCode: 302,
  durationMs: 41,
  responseExcerpt: 'moved',
  error: 'Redirects are not followed (answered 302 to https://elsewhere.example/).',
}
const SECRET = `whsec_${'A'.repeat(43)}=`

function listing(list: Partial<WebhookList>) {
  server.use(
    http.get('/api/integrations/webhooks', () =>
      HttpResponse.json({ allowed: true, eventTypes: EVENTS, maxSubscriptions: 10, subscriptions: [], ...list }),
    ),
  )
}

beforeEach(() => {
  // Outside demo mode the built-in receiver does not exist.
  server.use(
    http.get('/api/demo/webhook-catcher', () =>
      HttpResponse.json({ code: 'NOT_FOUND', message: 'Not found.' }, { status: 404 }),
    ),
  )
})

describe('Webhooks screen', () => {
  it('a client whose company is not allowed sees why, and no add button', async () => {
    signInAs('client')
    listing({ allowed: false })
    renderApp('/integrations/webhooks')
    expect(await screen.findByText(/Integrations are not enabled for your company/)).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'No webhooks' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add webhook' })).toBeNull()
  })

  it('adds a webhook and shows its signing secret', async () => {
    signInAs('client')
    listing({})
    const log = recordRequests()
    server.use(
      http.post('/api/integrations/webhooks', () =>
        HttpResponse.json(
          { subscription: { ...hook, status: 'active', pausedReason: null }, secret: SECRET },
          { status: 201 },
        ),
      ),
      http.get(`/api/integrations/webhooks/${hook.id}/deliveries`, () => HttpResponse.json({ deliveries: [] })),
    )
    const { user } = renderApp('/integrations/webhooks')
    await user.click(await screen.findByRole('button', { name: 'Add webhook' }))
    const dialog = screen.getByRole('dialog', { name: 'Add webhook' })
    await user.type(within(dialog).getByLabelText('Endpoint URL'), hook.url)
    await user.click(within(dialog).getByRole('checkbox', { name: 'registration.completed' }))
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }))
    const shown = await screen.findByRole('dialog', { name: 'Signing secret' })
    expect(within(shown).getByLabelText('Signing secret')).toHaveTextContent(SECRET)
    const sent = log.find((r) => r.method === 'POST' && r.path === '/api/integrations/webhooks')
    expect(sent!.body).toEqual({ url: hook.url, description: '', events: ['registration.completed'] })
  })

  it('shows a paused subscription with its reason, resumes it, and sends a delivery again from its log', async () => {
    signInAs('admin')
    listing({ subscriptions: [hook] })
    const log = recordRequests()
    server.use(
      http.get(`/api/integrations/webhooks/${hook.id}/deliveries`, () => HttpResponse.json({ deliveries: [delivery] })),
      http.patch(`/api/integrations/webhooks/${hook.id}`, () => HttpResponse.json({ ...hook, status: 'active' })),
      http.post(`/api/integrations/webhooks/${hook.id}/deliveries/7/resend`, () =>
        HttpResponse.json({ deliveryId: 8 }, { status: 202 }),
      ),
    )
    const { user } = renderApp('/integrations/webhooks')
    const item = within(await screen.findByRole('list', { name: 'Webhooks' })).getByRole('listitem')
    expect(item).toHaveTextContent('Paused')
    expect(item).toHaveTextContent('Paused after 5 deliveries in a row failed.')
    await user.click(within(item).getByRole('button', { name: 'Resume' }))
    await waitFor(() => expect(log.find((r) => r.method === 'PATCH')?.body).toEqual({ status: 'active' }))
    await user.click(within(item).getByRole('button', { name: 'Deliveries' }))
    const table = await screen.findByRole('table', { name: `Deliveries of ${hook.url}` })
    const row = within(table).getAllByRole('row')[1]!
    expect(row).toHaveTextContent('registration.completed')
    expect(row).toHaveTextContent('Failed')
    expect(row).toHaveTextContent('302')
    expect(row).toHaveTextContent('Redirects are not followed')
    expect(row).toHaveTextContent('41 ms')
    await user.click(within(row).getByRole('button', { name: /^Send again/ }))
    await waitFor(() =>
      expect(log.some((r) => r.method === 'POST' && r.path.endsWith('/deliveries/7/resend'))).toBe(true),
    )
  })
})
