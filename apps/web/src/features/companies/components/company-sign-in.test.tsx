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
          passwordUsers: [],
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

const oidcSettings = (passwordUsers: { id: string; email: string; name: string | null }[] = []) => ({
  connection: {
    protocol: 'oidc',
    enabled: true,
    ssoRequired: true,
    createUsers: false,
    oidc: {
      issuer: 'https://login.acme.test',
      clientId: 'portal',
      clientSecretSet: true,
      scopes: 'openid email profile',
      emailClaim: 'email',
      nameClaim: 'name',
    },
    saml: null,
    updatedAt: '2026-11-27T10:00:00.000Z',
  },
  domains: ['acme.test'],
  passwordUsers,
  redirectUri: 'http://portal.test/api/auth/sso/callback',
  saml: { entityId: SP, acsUrl: `${SP}/acs`, metadataUrl: `${SP}/metadata` },
})

describe('company Sign-in tab: users who keep a password', () => {
  it('lets the admin tick a contractor who may still sign in with a password', async () => {
    signInAs('admin')
    const sent: unknown[] = []
    server.use(
      http.get('/api/admin/companies/:id/sso', () => HttpResponse.json(oidcSettings())),
      http.put('/api/admin/companies/:id/sso/password-users', async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(oidcSettings([{ id: 'user-c2', email: 'carl@acme.test', name: 'Carl Client' }]))
      }),
    )
    const { user } = renderApp('/admin/companies/company-1')
    await user.click(await screen.findByRole('tab', { name: 'Sign-in' }))
    expect(await screen.findByText(/Single sign-on is required: only the users ticked here/)).toBeInTheDocument()
    const carl = screen.getByRole('checkbox', { name: /Carl Client/ })
    expect(carl).not.toBeChecked()
    await user.click(carl)
    await user.click(screen.getByRole('button', { name: 'Save password users' }))
    await waitFor(() => expect(sent).toEqual([{ userIds: ['user-c2'] }]))
    expect(await screen.findByText('Password users saved.')).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: /Carl Client/ })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: /Cleo Client/ })).not.toBeChecked()
  })
})

describe('company Sign-in tab: test sign-in', () => {
  it('shows what the provider sent when the test comes back', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/admin/companies/:id/sso', () => HttpResponse.json(oidcSettings())),
      http.get('/api/admin/companies/:id/sso/test/:flowId', () =>
        HttpResponse.json({
          ok: true,
          message: 'The provider signed you in and sent what is shown below. Nobody was signed in to the portal.',
          protocol: 'oidc',
          claims: { iss: 'https://login.acme.test', email: 'tess@acme.test', groups: ['staff', 'hr'] },
          email: 'tess@acme.test',
          name: 'Tess Tester',
          testedAt: '2026-11-28T10:00:00.000Z',
        }),
      ),
    )
    renderApp('/admin/companies/company-1?sso_test=6f1c2a9e-8d53-4c61-9a7e-0c2b4d5e6f70')
    expect(await screen.findByRole('heading', { name: 'Test sign-in (OpenID Connect)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Sign-in' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('status')).toHaveTextContent('Nobody was signed in to the portal.')
    expect(screen.getByText('https://login.acme.test', { selector: 'dd' })).toBeInTheDocument()
    expect(screen.getByText('["staff","hr"]')).toBeInTheDocument()
  })

  it('says why a test sign-in could not start', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/admin/companies/:id/sso', () => HttpResponse.json(oidcSettings())),
      http.post('/api/admin/companies/:id/sso/test/start', () =>
        HttpResponse.json(
          { code: 'UPSTREAM_FAILED', message: 'The provider could not be reached: OAUTH_RESPONSE_IS_NOT_CONFORM.' },
          { status: 502 },
        ),
      ),
    )
    const { user } = renderApp('/admin/companies/company-1')
    await user.click(await screen.findByRole('tab', { name: 'Sign-in' }))
    await user.click(await screen.findByRole('button', { name: 'Test sign-in' }))
    expect(
      await screen.findByText('The provider could not be reached: OAUTH_RESPONSE_IS_NOT_CONFORM.'),
    ).toBeInTheDocument()
  })
})
