import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { generate } from 'otplib'
import { ACCOUNTS, DEMO_PASSWORD } from './support'

/** Second factors in the browser: required enrolment, TOTP set-up and sign-in, sessions ended elsewhere. */

const PASSWORD = 'e2e-Strong-passphrase-41'
let unique = 0

async function adminHeaders(request: APIRequestContext) {
  const res = await request.post('/api/auth/login', { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } })
  return { 'x-auth-token': (await res.json()).accessToken as string }
}

async function newUser(request: APIRequestContext, role: 'admin' | 'sales') {
  unique += 1
  const email = `mfa-${role}-${Date.now()}-${unique}@example.test`
  const res = await request.post('/api/users', {
    headers: await adminHeaders(request),
    data: { email, password: PASSWORD, role },
  })
  expect(res.status()).toBe(201)
  return email
}

async function passwordStep(page: Page, email: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** The code the app would show `steps` periods from now. */
const codeFor = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 })

test('an admin required to have a factor is led to enrolment and reaches nothing else until done', async ({
  page,
  request,
}) => {
  const headers = await adminHeaders(request)
  const email = await newUser(request, 'admin')
  await request.put('/api/admin/mfa/rules', { headers, data: { rules: [{ role: 'admin', required: true }] } })
  try {
    await passwordStep(page, email)
    await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible()
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim()

    // Nothing else opens: no tokens are stored, and the dashboard sends back to sign-in.
    expect(await page.evaluate(() => localStorage.getItem('portal.accessToken'))).toBeNull()
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/login/)
    await passwordStep(page, email)
    await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible()
    const fresh = (await page.getByTestId('totp-secret').textContent())!.trim()
    expect(fresh).not.toBe(secret)

    await page.getByLabel('Code from the app').fill(await codeFor(fresh))
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10)
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  } finally {
    // With the rule on, the demo admin too would need a factor: its token from before turns it off.
    await request.put('/api/admin/mfa/rules', { headers, data: { rules: [{ role: 'admin', required: false }] } })
  }
})

test('a user sets up an authenticator app on Profile and signs in with its code', async ({ page, request }) => {
  const email = await newUser(request, 'sales')
  await passwordStep(page, email)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  await page.getByRole('button', { name: 'Set up authenticator app' }).click()
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  await page.getByLabel('Code from the app').fill(await codeFor(secret))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10)
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText('Authenticator app')

  await page.evaluate(() => localStorage.clear())
  await passwordStep(page, email)
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible()
  await page.getByLabel('Authentication code').fill('000000')
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('alert')).toContainText('That code is not right')
  // The code of the step the set-up used is spent; the next step's is accepted (one step ahead).
  await page.getByLabel('Authentication code').fill(await codeFor(secret, 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('a session ended from another browser signs that browser out at its next call', async ({ browser, request }) => {
  const email = await newUser(request, 'sales')
  const first = await browser.newContext()
  const second = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  })
  const a = await first.newPage()
  const b = await second.newPage()
  await passwordStep(a, email)
  await expect(a).toHaveURL(/\/dashboard$/)
  await passwordStep(b, email)
  await expect(b).toHaveURL(/\/dashboard$/)

  await a.goto('/profile')
  const sessions = a.getByRole('list', { name: 'Your sessions' })
  await expect(sessions.getByRole('listitem')).toHaveCount(2)
  await expect(sessions).toContainText('This browser')
  await a.getByRole('button', { name: /Sign out Firefox/ }).click()
  await expect(sessions.getByRole('listitem')).toHaveCount(1)

  await b.goto('/profile')
  await expect(b).toHaveURL(/\/login/)
  await first.close()
  await second.close()
})
