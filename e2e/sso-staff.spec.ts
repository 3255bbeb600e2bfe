import { expect, test } from '@playwright/test'

/** Demo mode's staff connection: the vendor's staff sign in through the built-in provider. */

test('the demo staff account signs in through the provider’s own page and lands as internal', async ({
  page,
  request,
}) => {
  const demo = await (await request.get('/api/auth/sso/demo')).json()
  expect(demo.staff).toMatchObject({
    name: 'Demo Vendor',
    accounts: [{ email: 'sam@staff-demo.local', role: 'internal' }],
  })
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Staff sign-in (Demo Vendor)' })).toBeVisible()
  await expect(page.getByText('sam@staff-demo.local')).toBeVisible()
  await page.getByLabel('Email').fill('sam@staff-demo.local')
  await page.getByRole('link', { name: 'Continue with Demo Vendor sign-in' }).click()
  // The provider's development sign-in page, then its consent page.
  await page.locator('input[name="login"]').fill('sam@staff-demo.local')
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  const exchanged = page.waitForResponse('**/api/auth/sso/exchange')
  await page.getByRole('button', { name: 'Continue' }).click()
  const session = await (await exchanged).json()
  expect(session.user).toMatchObject({ email: 'sam@staff-demo.local', role: 'internal', companyId: null })
  await expect(page).toHaveURL(/\/dashboard$/)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav).toBeVisible()
  // Internal staff's navigation: courses and learners, no admin screens (Companies, Settings).
  await expect(nav.getByRole('link', { name: 'Learners' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Companies' })).toHaveCount(0)
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveCount(0)
})
