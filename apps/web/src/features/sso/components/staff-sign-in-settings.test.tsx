import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

describe('Settings: staff sign-in', () => {
  it('lets an admin map a group claim value to a role and saves the whole mapping', async () => {
    signInAs('admin')
    const sent: unknown[] = []
    server.use(
      http.put('/api/admin/sso/staff/roles', async ({ request }) => {
        const body = (await request.json()) as { roles: unknown[] }
        sent.push(body)
        return HttpResponse.json({ connection: null, domains: [], roles: body.roles, redirectUri: 'x' })
      }),
    )
    const { user } = renderApp('/settings')
    expect(await screen.findByRole('heading', { name: 'Staff sign-in' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Add mapping' }))
    await user.type(screen.getByLabelText('Claim value 1'), 'portal-sales')
    await user.selectOptions(screen.getByLabelText('Role 1'), 'sales')
    await user.click(screen.getByRole('button', { name: 'Save role mapping' }))
    await waitFor(() => expect(sent).toEqual([{ roles: [{ claimValue: 'portal-sales', role: 'sales' }] }]))
    expect(await screen.findByDisplayValue('portal-sales')).toBeInTheDocument()
  })

  it('shows what the staff provider sent when a test sign-in comes back, the group claim among it', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/admin/sso/staff/test/:flowId', () =>
        HttpResponse.json({
          ok: true,
          message: 'The provider signed you in and sent what is shown below. Nobody was signed in to the portal.',
          protocol: 'oidc',
          claims: { email: 'nora@vendor.test', groups: ['marketing'] },
          email: 'nora@vendor.test',
          name: 'Nora None',
          testedAt: '2026-11-28T10:00:00.000Z',
        }),
      ),
    )
    renderApp('/settings?sso_test=6f1c2a9e-8d53-4c61-9a7e-0c2b4d5e6f70')
    expect(await screen.findByRole('heading', { name: 'Test sign-in (OpenID Connect)' })).toBeInTheDocument()
    expect(screen.getByText('["marketing"]')).toBeInTheDocument()
    expect(screen.getByText(/Nobody was signed in to the portal/)).toBeInTheDocument()
  })
})
