import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const SP = 'http://portal.test/api/auth/sso/saml/company-1'

describe('company Sign-in tab: SAML', () => {
  it('shows the SP entity id, ACS URL and metadata download, and saves the pasted IdP metadata', async () => {
    signInAs('admin')
    const sent: unknown[] = []
    server.use(
      http.put('/api/admin/companies/:id/sso', async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({
          connection: {
            protocol: 'saml',
            enabled: true,
            ssoRequired: false,
            createUsers: false,
            oidc: null,
            saml: {
              metadataUrl: null,
              idpEntityId: 'https://idp.example.com',
              ssoUrl: 'https://idp.example.com/sso',
              certificates: [{ subject: 'CN=IdP', notAfter: '2030-01-31T00:00:00.000Z' }],
              allowUnsolicited: false,
              emailAttribute: 'email',
              nameAttribute: 'name',
            },
            updatedAt: '2026-11-27T10:00:00.000Z',
          },
          domains: [],
          redirectUri: 'http://portal.test/api/auth/sso/callback',
          saml: { entityId: SP, acsUrl: `${SP}/acs`, metadataUrl: `${SP}/metadata` },
        })
      }),
    )
    const { user } = renderApp('/admin/companies/company-1')
    await user.click(await screen.findByRole('tab', { name: 'Sign-in' }))
    await user.selectOptions(await screen.findByLabelText('Protocol'), 'saml')
    expect(screen.getByText(SP)).toBeInTheDocument()
    expect(screen.getByText(`${SP}/acs`)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download SP metadata' })).toHaveAttribute('href', `${SP}/metadata`)
    await user.click(screen.getByLabelText('IdP metadata XML'))
    await user.paste('<md:EntityDescriptor entityID="https://idp.example.com"/>')
    await user.click(screen.getByRole('button', { name: 'Save connection' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({
      protocol: 'saml',
      metadataXml: '<md:EntityDescriptor entityID="https://idp.example.com"/>',
      allowUnsolicited: false,
    })
    expect(await screen.findByText('Connection saved.')).toBeInTheDocument()
    expect(screen.getByText(/Signing certificate CN=IdP, expires 2030-01-31/)).toBeInTheDocument()
  })
})
