import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ACCOUNTS, DEMO_PASSWORD } from './support'

/**
 * Passkeys in the browser, answered by Chromium's virtual authenticator (the WebAuthn domain of
 * the DevTools protocol): a platform authenticator that keeps discoverable credentials and
 * verifies its user. Browsers refuse an IP address as a relying party, so these pages open on
 * `localhost`: the server's PUBLIC_URL is the loopback address, which passkeys take as
 * localhost (docs/decisions.md "Passkeys").
 */
const PORT = Number(process.env.E2E_PORT ?? 3100)
test.use({ baseURL: `http://localhost:${PORT}` })

const PASSWORD = 'e2e-Strong-passphrase-41'
let unique = 0

async function newUser(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } })
  const headers = { 'x-auth-token': (await login.json()).accessToken as string }
  unique += 1
  const email = `passkey-${Date.now()}-${unique}@example.test`
  const res = await request.post('/api/users', { headers, data: { email, password: PASSWORD, role: 'sales' } })
  expect(res.status()).toBe(201)
  return email
}

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

async function passwordStep(page: Page, email: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** Signs in with the password, adds a passkey named `name` on Profile, and signs out. */
async function addPasskeyOnProfile(page: Page, email: string, name: string) {
  await passwordStep(page, email)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByLabel('Passkey name').fill(name)
  await page.getByRole('button', { name: 'Create passkey' }).click()
  // The first factor of the account: ten recovery codes, shown once.
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10)
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText(name)
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText('passkey')
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/login/)
}

test('a passkey added on Profile signs in alone, with no password and no second step', async ({ page, request }) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page)
  const email = await newUser(request)
  await addPasskeyOnProfile(page, email, 'Work laptop')
  // The authenticator holds one discoverable credential for this portal.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })

  // The sign-in screen keeps its form; the passkey is offered beside it.
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
  await expect(page.getByLabel('Password')).toBeVisible()
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
})

test('a passkey is the second step after the password', async ({ page, request }) => {
  await virtualAuthenticator(page)
  const email = await newUser(request)
  await addPasskeyOnProfile(page, email, 'Phone')

  await passwordStep(page, email)
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible()
  // No session before the factor.
  expect(await page.evaluate(() => localStorage.getItem('portal.accessToken'))).toBeNull()
  await page.getByRole('button', { name: 'Use passkey' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
})
