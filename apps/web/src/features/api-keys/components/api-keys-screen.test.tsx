import type { ApiKey, ApiKeyList } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const key: ApiKey = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'HR sync',
  prefix: 'dp_live_ab12cd34ef56',
  scopes: ['dispatch:read', 'report:read'],
  companyId: 'company-a',
  companyName: 'Acme Learning',
  createdBy: 'client@example.test',
  createdAt: '2026-01-01T10:00:00.000Z',
  expiresAt: null,
  rotatedAt: null,
  revokedAt: null,
  lastUsedAt: '2026-01-02T10:00:00.000Z',
  lastUsedIp: '203.0.113.7',
}
const SECRET = 'dp_live_ab12cd34ef56_' + 'S'.repeat(43)

function listing(list: ApiKeyList) {
  server.use(http.get('/api/api-keys', () => HttpResponse.json(list)))
}

describe('API keys screen', () => {
  it('a client whose company is not allowed sees why, and no create button', async () => {
    signInAs('client')
    listing({ allowed: false, grantable: [], keys: [] })
    renderApp('/integrations/api-keys')
    expect(await screen.findByText(/not enabled for your company/)).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'No API keys' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull()
  })

  it('shows a load failure with a way to retry', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/api-keys', () =>
        HttpResponse.json({ code: 'INTERNAL', message: 'Something went wrong.' }, { status: 500 }),
      ),
    )
    renderApp('/integrations/api-keys')
    expect(await screen.findByRole('alert')).toHaveTextContent('Error:')
    expect(screen.getByRole('button', { name: /Refresh Data/ })).toBeInTheDocument()
  })

  it('creates a key and shows its secret once, with a copy button', async () => {
    signInAs('client')
    listing({ allowed: true, grantable: ['dispatch:read', 'report:read'], keys: [] })
    const log = recordRequests()
    server.use(http.post('/api/api-keys', () => HttpResponse.json({ key, secret: SECRET }, { status: 201 })))
    const { user } = renderApp('/integrations/api-keys')
    await user.click(await screen.findByRole('button', { name: 'Create API key' }))
    const dialog = screen.getByRole('dialog', { name: 'Create API key' })
    await user.type(within(dialog).getByLabelText('Name'), 'HR sync')
    await user.click(within(dialog).getByRole('checkbox', { name: /Read dispatch/ }))
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }))
    const shown = await screen.findByRole('dialog', { name: 'Key "HR sync"' })
    expect(within(shown).getByLabelText('API key')).toHaveTextContent(SECRET)
    expect(within(shown).getByText(/shown only this once/)).toBeInTheDocument()
    expect(within(shown).getByRole('button', { name: 'Copy key' })).toBeInTheDocument()
    await waitFor(() => expect(log.some((r) => r.method === 'POST')).toBe(true))
    const sent = log.find((r) => r.method === 'POST' && r.path === '/api/api-keys')
    expect(sent!.body).toEqual({ name: 'HR sync', scopes: ['dispatch:read'], expiresAt: null })
    await user.click(within(shown).getByRole('button', { name: 'Done' }))
    expect(screen.queryByText(SECRET)).toBeNull()
  })

  it('lists a key with its last use, and revokes it only after confirmation', async () => {
    signInAs('admin')
    listing({ allowed: true, grantable: ['dispatch:read'], keys: [key] })
    const log = recordRequests()
    server.use(
      http.delete(`/api/api-keys/${key.id}`, () => HttpResponse.json({ ...key, revokedAt: '2026-01-03T00:00:00Z' })),
    )
    const { user } = renderApp('/integrations/api-keys')
    const item = within(await screen.findByRole('list', { name: 'API keys' })).getByRole('listitem')
    expect(item).toHaveTextContent('HR sync')
    expect(item).toHaveTextContent('dp_live_ab12cd34ef56…')
    expect(item).toHaveTextContent('203.0.113.7')
    expect(item).toHaveTextContent('Read dispatch, Read report')
    await user.click(within(item).getByRole('button', { name: 'Revoke' }))
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke "HR sync"?' })
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(log.some((r) => r.method === 'DELETE')).toBe(false)
    await user.click(within(item).getByRole('button', { name: 'Revoke' }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke' }))
    await waitFor(() =>
      expect(log.some((r) => r.method === 'DELETE' && r.path === `/api/api-keys/${key.id}`)).toBe(true),
    )
  })
})
