import { expect, test } from '@playwright/test'
import { decodeJwt } from 'jose'
import { ACCOUNTS, STORAGE, expiredCopyOf, readStorage, signIn, signInWithFormAndWait, type DemoRole } from './support'

const NAV: Record<DemoRole, string[]> = {
  admin: [
    'Dashboard',
    'Courses',
    'Course Requests',
    'Learners',
    'Statements',
    'Companies',
    'Logs',
    'API keys',
    'Webhooks',
    'Settings',
    'Jobs',
  ],
  internal: ['Dashboard', 'Courses', 'Learners', 'Statements'],
  sales: ['Dashboard', 'Courses', 'Course Requests', 'Learners', 'Statements', 'Companies'],
  client: ['Dashboard', 'Courses', 'Course Requests', 'Learners', 'Statements', 'API keys', 'Webhooks'],
}

test.describe('sign-in screen', () => {
  test('shows the product-rules texts and the demo accounts note', async ({ page }) => {
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
    await expect(page.getByText('Sign in to your account to continue.')).toBeVisible()
    await expect(page.getByPlaceholder('Enter your email')).toHaveAttribute('type', 'email')
    await expect(page.getByPlaceholder('Enter your password')).toHaveAttribute('type', 'password')
    await expect(page.getByText('Demo accounts')).toBeVisible()
    await expect(page.getByText(ACCOUNTS.client)).toBeVisible()
  })

  test('a wrong password shows the server message in a red banner', async ({ page }) => {
    await signIn(page, 'admin', 'not-the-right-password')
    await expect(page.getByRole('alert')).toContainText('Invalid email or password.')
    await expect(page).toHaveURL(/\/login$/)
  })
})

for (const role of Object.keys(NAV) as DemoRole[]) {
  test(`${role} signs in and sees exactly the ${role} navigation`, async ({ page }) => {
    await signInWithFormAndWait(page, role)
    const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link')
    await expect(links).toHaveText(NAV[role])
    await expect(page.getByText(ACCOUNTS[role]).first()).toBeVisible()
    await expect(
      page.getByRole('heading', { name: role === 'client' ? 'Your Dispatches' : 'All Dispatches' }),
    ).toBeVisible()
  })
}

test('the shell shows the product title, today’s long date and the copyright year', async ({ page }) => {
  await signInWithFormAndWait(page, 'sales')
  const today = new Date().toLocaleDateString('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  })
  await expect(page.getByRole('banner')).toContainText(today)
  await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()))
  await expect(page.getByRole('link', { name: /Need help\?/ })).toHaveAttribute('href', /^mailto:/)
})

test('an expired access token is refreshed without the user noticing', async ({ page }) => {
  await signInWithFormAndWait(page, 'admin')
  const original = (await readStorage(page, STORAGE.accessToken))!
  const expired = await expiredCopyOf(original)
  await page.evaluate(([k, v]) => localStorage.setItem(k!, v!), [STORAGE.accessToken, expired])
  await page.goto('/courses')
  await expect(page.getByRole('heading', { name: 'Courses', exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/courses$/)
  const renewed = (await readStorage(page, STORAGE.accessToken))!
  expect(renewed).not.toBe(expired)
  // A fresh token of the same session: unexpired, and the server accepts it.
  expect(decodeJwt(renewed).exp! * 1000).toBeGreaterThan(Date.now())
  expect(decodeJwt(renewed).sid).toBe(decodeJwt(original).sid)
  const me = await page.request.get('/api/auth/me', { headers: { 'x-auth-token': renewed } })
  expect(me.status()).toBe(200)
})

test('a rejected access token triggers one refresh and the call is retried', async ({ page }) => {
  await signInWithFormAndWait(page, 'internal')
  await page.evaluate((k) => localStorage.setItem(k, 'not-a-valid-token'), STORAGE.accessToken)
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { name: 'All Dispatches' })).toBeVisible()
  expect(await readStorage(page, STORAGE.accessToken)).not.toBe('not-a-valid-token')
})

test('a failed refresh lands on /login', async ({ page }) => {
  await signInWithFormAndWait(page, 'client')
  await page.evaluate(
    ([a, r]) => {
      localStorage.setItem(a!, 'not-a-valid-token')
      localStorage.setItem(r!, 'not-a-valid-refresh-token')
    },
    [STORAGE.accessToken, STORAGE.refreshToken],
  )
  await page.goto('/courses')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
})

test('sign out ends the session', async ({ page }) => {
  await signInWithFormAndWait(page, 'sales')
  const refreshToken = await readStorage(page, STORAGE.refreshToken)
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await readStorage(page, STORAGE.refreshToken)).toBeNull()
  // The server revoked it: the old refresh token no longer works.
  const res = await page.request.post('/api/auth/refresh-token', { data: { refreshToken } })
  expect(res.status()).toBe(401)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login$/)
})

test('a signed-in user opening /login is sent to /dashboard', async ({ page }) => {
  await signInWithFormAndWait(page, 'admin')
  await page.goto('/login')
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  await signInWithFormAndWait(page, 'client')
  await page.goto('/no/such/page')
  await expect(page.getByText('Page not found')).toBeVisible()
  await page.getByRole('link', { name: 'Go back to home' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('admin-only screens send other roles away or deny them', async ({ page }) => {
  await signInWithFormAndWait(page, 'internal')
  await page.goto('/settings')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/admin/companies')
  await expect(page.getByText('Access Denied')).toBeVisible()
  await expect(page.getByText("You don't have permission to view this page.")).toBeVisible()
})

test('the sidebar collapses on a phone and opens from the menu button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page, 'admin')
  await expect(page).toHaveURL(/\/dashboard$/)
  const menu = page.getByRole('button', { name: /menu/i })
  await expect(menu).toHaveAttribute('aria-expanded', 'false')
  await menu.click()
  await expect(menu).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' })).toBeVisible()
})
