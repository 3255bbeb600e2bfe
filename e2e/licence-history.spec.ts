import { expect, test } from '@playwright/test'
import { signInAndWait } from './support'

/** The month before today (UTC) as yyyy-MM: the statement a client opens by default. */
const lastMonth = () => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
}

test.use({ viewport: { width: 1280, height: 900 } })

test('an admin changes a cap and sees it in the licence history', async ({ page }) => {
  await signInAndWait(page, 'admin')
  await page
    .getByRole('link', { name: /View Details/ })
    .first()
    .click()
  await expect(page).toHaveURL(/\/dispatches\//)
  const history = page.getByRole('region', { name: 'Licence history' })
  await expect(history.getByRole('list', { name: 'Licence changes, newest first' })).toBeVisible()

  await page.getByRole('button', { name: 'Edit Dispatch' }).click()
  const cap = page.getByLabel('Registration cap')
  const before = await cap.inputValue()
  const next = String((Number(before) || 0) + 7)
  await cap.fill(next)
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Dispatch updated successfully.')).toBeVisible()

  const newest = history.getByRole('listitem').first()
  await expect(newest).toContainText(`Licence cap changed: ${before === '0' ? 'Unlimited' : before} → ${next}`)
  await expect(newest).toContainText('By Ada Admin (admin@demo.local)')
})

test("a client opens last month's usage statement", async ({ page }) => {
  await signInAndWait(page, 'client')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statements' }).click()
  await expect(page).toHaveURL(/\/statements/)
  await expect(page.getByLabel('Month (yyyy-MM)')).toHaveValue(lastMonth())
  const table = page.getByRole('table', { name: new RegExp(`^Usage statement ${lastMonth()} of `) })
  await expect(table).toBeVisible()
  // The demo's activity runs up to today: last month has new registrations.
  const total = table.getByRole('row', { name: /^Total/ })
  const added = Number(await total.getByRole('cell').first().innerText())
  expect(added).toBeGreaterThan(0)
  await expect(page.getByRole('button', { name: /Export statement/ })).toBeVisible()
})
