import { expect, test } from '@playwright/test'
import { signInAndWait } from './support'

/**
 * An admin lowers a company's threshold, the next sync raises the alert, the bell
 * shows it to the admin and to that company's client user, and the outbox lists the mail (the
 * demo has no SMTP_URL, so mails stay there).
 */
const COMPANY = 'beacon-pharmaceuticals' // the demo client's company
// The text names the usage and the threshold crossed ("31% of licenses used (threshold 30%): …").
const ALERT = /\d+% of licenses used \(threshold 30%\): .+ \(Beacon Pharmaceuticals\)/

test("a lowered company threshold raises an alert in both roles' bells and a mail in the outbox", async ({
  browser,
}) => {
  // Two signed-in users, a threshold change, both bells and the mail outbox: longer than the
  // default limit when the whole suite shares a loaded machine.
  test.setTimeout(60_000)
  const admin = await browser.newPage()
  await signInAndWait(admin, 'admin')
  await admin.goto(`/admin/companies/${COMPANY}`)
  const thresholds = admin.getByRole('region', { name: 'Alert thresholds' })
  await expect(thresholds.getByText('This company uses the global thresholds.')).toBeVisible()
  await thresholds.getByLabel('License usage thresholds (% of cap)').fill('30')
  await thresholds.getByRole('button', { name: 'Apply company thresholds' }).click()
  await expect(thresholds.getByText('Thresholds saved.')).toBeVisible()
  await expect(thresholds.getByText('This company has its own thresholds.')).toBeVisible()

  // The next sync (the companies screen's button) evaluates the alerts again.
  await admin.goto('/admin/companies')
  await admin.getByRole('button', { name: 'Sync Companies' }).click()
  await expect(admin.getByRole('button', { name: 'Sync complete!' })).toBeVisible({ timeout: 30_000 })

  // The sync's alert evaluation runs in the background once the sync is done, and the bell
  // polls every minute: a reload reads it now, again until the evaluation has written the alert.
  const bell = admin.getByRole('button', { name: /^Notifications, \d+\+? unread$/ })
  const panel = admin.getByRole('region', { name: 'Notifications' })
  await expect(async () => {
    await admin.reload()
    await bell.click({ timeout: 2_000 })
    await expect(panel.getByRole('listitem').filter({ hasText: ALERT }).first()).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
  await expect(bell).toHaveAttribute('aria-expanded', 'true')
  await admin.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  await expect(bell).toBeFocused()

  // "Near cap" means 90 % of the cap whatever the thresholds: e2e/input-rules.spec.ts.

  // The client user of that company sees the same alert.
  const clientContext = await browser.newContext()
  const client = await clientContext.newPage()
  await signInAndWait(client, 'client')
  const clientBell = client.getByRole('button', { name: /^Notifications, \d+\+? unread$/ })
  await clientBell.click()
  const clientPanel = client.getByRole('region', { name: 'Notifications' })
  await expect(clientPanel.getByRole('listitem').filter({ hasText: ALERT }).first()).toBeVisible()
  // …and only its own company's.
  const texts = await clientPanel.getByRole('listitem').allTextContents()
  expect(texts.every((t) => t.includes('(Beacon Pharmaceuticals)'))).toBe(true)
  await clientContext.close()

  // The outbox lists the admin's mail.
  await admin.goto('/admin/outbox')
  await expect(
    admin.getByText('No SMTP server is configured (SMTP_URL), so mails stay here and nothing is sent.'),
  ).toBeVisible()
  const mail = admin
    .getByRole('list', { name: 'Mails' })
    .getByRole('listitem')
    .filter({ hasText: /\[Dispatch Portal\] \d+% of licenses used \(threshold 30%\): .+ \(Beacon Pharmaceuticals\)/ })
    .filter({ hasText: 'admin@demo.local' })
    .first()
  await expect(mail).toBeVisible()
  await expect(mail.getByText('pending')).toBeVisible()
  await mail.getByText('Show body').click()
  await expect(mail.locator('pre')).toContainText('/dispatches/')

  // Restore the defaults for the other specs.
  await admin.goto(`/admin/companies/${COMPANY}`)
  const restore = admin.getByRole('region', { name: 'Alert thresholds' })
  await restore.getByLabel('License usage thresholds (% of cap)').fill('80, 90, 100')
  await restore.getByRole('button', { name: 'Apply company thresholds' }).click()
  await expect(restore.getByText('Thresholds saved.')).toBeVisible()
})

test("the Profile page saves a user's mail preferences", async ({ page }) => {
  await signInAndWait(page, 'client')
  await page.getByRole('banner').getByRole('link', { name: 'Profile' }).click()
  await expect(page).toHaveURL(/\/profile$/)
  const alerts = page.getByRole('switch', { name: 'Alert mails' })
  await expect(alerts).toHaveAttribute('aria-checked', 'false')
  await alerts.click()
  await page.getByLabel('Scheduled report').selectOption('weekly')
  await page.getByRole('button', { name: 'Save preferences' }).click()
  await expect(page.getByText('Preferences saved.')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('switch', { name: 'Alert mails' })).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByLabel('Scheduled report')).toHaveValue('weekly')
})
