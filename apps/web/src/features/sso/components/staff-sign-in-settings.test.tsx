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
})
