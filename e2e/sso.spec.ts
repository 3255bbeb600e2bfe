import { expect, test, type APIRequestContext } from '@playwright/test'
import { SSO_MESSAGES } from '@portal/shared'
import { ACCOUNTS, DEMO_PASSWORD } from './support'

/** Demo mode's built-in OIDC provider (oidc-provider's own pages) and the single sign-on rules. */

async function adminHeaders(request: APIRequestContext) {
  const res = await request.post('/api/auth/login', { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } })
  return { 'x-auth-token': (await res.json()).accessToken as string }
}

async function demoCompany(request: APIRequestContext) {
  const demo = await (await request.get('/api/auth/sso/demo')).json()
  expect(demo.companyId).toBeTruthy()
  return demo as { companyId: string; companyName: string; accounts: { email: string }[] }
}

test('a client user signs in through the demo provider’s own page, lands on the dashboard, and signs out of both', async ({
  page,
  request,
}) => {
  const demo = await demoCompany(request)
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Single sign-on demo', exact: false })).toBeVisible()
  await page.getByLabel('Email').fill('dana@sso-demo.local')
  await page.getByRole('link', { name: `Continue with ${demo.companyName} sign-in` }).click()
  // The provider's development sign-in page, then its consent page.
  await page.locator('input[name="login"]').fill('dana@sso-demo.local')
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  // The one-time code never stays in the address.
  expect(page.url()).not.toContain('sso_code')
  // Signing out ends the provider's session too: its end-session page, then back to sign-in.
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/session\/end/)
  await page.getByRole('button', { name: 'Yes, sign me out' }).click()
  await expect(page).toHaveURL(/\/login$/)
})

test('an SSO-required company’s user is refused a password sign-in, told how to sign in; a named contractor is not', async ({
  page,
  request,
}) => {
  const headers = await adminHeaders(request)
  const demo = await demoCompany(request)
  const base = `/api/admin/companies/${encodeURIComponent(demo.companyId)}/sso`
  const { connection } = await (await request.get(base, { headers })).json()
  const save = (ssoRequired: boolean) =>
    request.put(base, {
      headers,
      data: {
        protocol: 'oidc',
        issuer: connection.oidc.issuer,
        clientId: connection.oidc.clientId,
        ssoRequired,
        createUsers: connection.createUsers,
      },
    })
  const email = `pat-${Date.now()}@contractor.test`
  const created = await request.post('/api/users', {
    headers,
    data: { email, password: 'Correct-Horse-Battery-9', role: 'client', companyId: demo.companyId, name: 'Pat' },
  })
  expect(created.status()).toBe(201)
  const contractor = `cody-${Date.now()}@contractor.test`
  const kept = await request.post('/api/users', {
    headers,
    data: {
      email: contractor,
      password: 'Correct-Horse-Battery-9',
      role: 'client',
      companyId: demo.companyId,
      name: 'Cody',
    },
  })
  expect(kept.status()).toBe(201)
  const allowed = await request.put(`${base}/password-users`, { headers, data: { userIds: [(await kept.json()).id] } })
  expect(allowed.status()).toBe(200)
  expect((await save(true)).status()).toBe(200)
  try {
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('Correct-Horse-Battery-9')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText(SSO_MESSAGES.ssoRequired(demo.companyName))
    await expect(page).toHaveURL(/\/login/)
    // The contractor the admin named keeps the password.
    await page.getByLabel('Email').fill(contractor)
    await page.getByLabel('Password').fill('Correct-Horse-Battery-9')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
  } finally {
    await save(false)
  }
})
