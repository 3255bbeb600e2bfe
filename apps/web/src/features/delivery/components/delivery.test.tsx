import type { CompanyDelivery, UpdateCompanyDeliveryBody } from '@portal/shared'
import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

describe('LTI delivery on the dispatch screen', () => {
  it('shows the launch data with copy buttons and reveals the secret only on demand', async () => {
    signInAs('client', { companyId: 'company-1' })
    let reveals = 0
    server.use(
      http.get('*/api/dispatches/:id/lti', ({ params }) =>
        HttpResponse.json({
          dispatchId: params.id,
          lti11: { launchUrl: 'https://cloud.example/lti/d-1', consumerKey: 'key-d-1', canRevealSecret: true },
          lti13: {
            targetLinkUri: 'https://cloud.example/lti13/d-1',
            oidcLoginInitiationsUrl: 'https://cloud.example/login',
            redirectUri: 'https://cloud.example/launch',
            jsonWebKeySetUrl: 'https://cloud.example/jwks',
            publicKey: 'KEY',
          },
        }),
      ),
      http.post('*/api/dispatches/:id/lti/secret', () => {
        reveals += 1
        return HttpResponse.json({ sharedSecret: 's3cret-value' })
      }),
    )
    const { user } = renderApp('/dispatches/d-1')
    const lti = await screen.findByRole('region', { name: 'LTI delivery' })
    expect(await within(lti).findByText('https://cloud.example/lti/d-1')).toBeInTheDocument()
    expect(within(lti).getByRole('button', { name: 'Copy Launch URL' })).toBeEnabled()
    expect(within(lti).queryByText('s3cret-value')).not.toBeInTheDocument()
    expect(reveals).toBe(0)
    await user.click(within(lti).getByRole('button', { name: 'Reveal' }))
    expect(await within(lti).findByText('s3cret-value')).toBeInTheDocument()
    expect(reveals).toBe(1)
    expect(within(lti).getByText('How to add this in your LMS')).toBeInTheDocument()
  })

  it('offers no Reveal to a role that may not see the secret', async () => {
    signInAs('sales')
    renderApp('/dispatches/d-1')
    const lti = await screen.findByRole('region', { name: 'LTI delivery' })
    expect(await within(lti).findByText(/Ask your account manager/)).toBeInTheDocument()
    expect(within(lti).queryByRole('button', { name: 'Reveal' })).not.toBeInTheDocument()
  })
})

describe('delivery settings on the company screen', () => {
  it('lets the admin turn instancing off and sends only that change', async () => {
    signInAs('admin')
    let sent: UpdateCompanyDeliveryBody | null = null
    server.use(
      http.put('*/api/companies/:id/delivery', async ({ request, params }) => {
        sent = (await request.json()) as UpdateCompanyDeliveryBody
        return HttpResponse.json<CompanyDelivery>({
          companyId: String(params.id),
          launchAuth: null,
          instancing: 'off',
          instancedDispatches: 0,
          dispatches: 1,
          hashUserInfo: false,
          cssUrl: null,
          instancingExplanation: 'explained',
        })
      }),
    )
    const { user } = renderApp('/admin/companies/company-1')
    const settings = await screen.findByRole('region', { name: 'Delivery settings' })
    const instancing = await within(settings).findByRole('switch', { name: 'Registration instancing' })
    expect(instancing).toHaveAttribute('aria-checked', 'true')
    await user.click(instancing)
    await user.click(within(settings).getByRole('button', { name: 'Save delivery settings' }))
    expect(await screen.findByText('Delivery settings saved in SCORM Cloud.')).toBeInTheDocument()
    expect(sent).toEqual({ instanced: false })
  })

  it('shows the settings read-only to sales', async () => {
    signInAs('sales')
    renderApp('/admin/companies/company-1')
    const settings = await screen.findByRole('region', { name: 'Delivery settings' })
    expect(await within(settings).findByText('Cookies (SCORM Cloud default)')).toBeInTheDocument()
    expect(within(settings).queryByRole('switch')).not.toBeInTheDocument()
  })
})

describe('licence count on the learners screen', () => {
  it("shows a client its company's registrations against learners and the over-count", async () => {
    signInAs('client', { companyId: 'company-1' })
    renderApp('/learners')
    const note = await screen.findByRole('note', { name: 'Licence count' })
    expect(note).toHaveTextContent('12 registrations for 10 learners')
    expect(note).toHaveTextContent('2 extra from 2 learners registered more than once on a dispatch.')
  })
})
