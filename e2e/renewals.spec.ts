import { expect, test } from '@playwright/test'
import { signInAndWait } from './support'

/*
 * Scheduled renewals and bulk actions in the browser, on the demo's Beacon Pharmaceuticals: an
 * admin schedules a renewal for all the company's dispatches, sees it listed on the company
 * screen and cancels it; then disables two dispatches selected in the list and follows the run.
 */
const COMPANY = 'beacon-pharmaceuticals'
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

test.use({ viewport: { width: 1280, height: 900 } })

test('an admin schedules a renewal for a company, sees it listed, and cancels it', async ({ page }) => {
  const day = inDays(30)
  await signInAndWait(page, 'admin')
  await page.goto(`/admin/companies/${COMPANY}`)
  const section = page.getByRole('region', { name: 'Upcoming renewals' })
  await expect(section).toBeVisible()
  await section.getByRole('button', { name: 'Schedule renewal' }).click()

  const dialog = page.getByRole('dialog', { name: 'Schedule renewal' })
  const date = dialog.getByRole('textbox', { name: 'Renewal date' })
  await date.fill(day)
  await date.press('Escape')
  await dialog.getByLabel('New cap').fill('5000')
  await dialog.getByLabel('Reset the registration counter').check()
  await dialog.getByRole('button', { name: 'Schedule renewal' }).click()
  await expect(dialog).toBeHidden()

  await expect(section.getByRole('status')).toContainText(/Renewal scheduled for \d+ dispatch/)
  const rows = section.getByRole('row').filter({ hasText: day })
  await expect(rows.first()).toContainText('Cap: 5000, Counter reset')
  await expect(rows.first()).toContainText('scheduled')
  const scheduled = await rows.count()
  expect(scheduled).toBeGreaterThan(0)

  await rows
    .first()
    .getByRole('button', { name: /^Cancel renewal of / })
    .click()
  const confirm = page.getByRole('alertdialog', { name: 'Cancel this renewal?' })
  await confirm.getByRole('button', { name: 'Cancel renewal' }).click()
  await expect(confirm).toBeHidden()
  await expect(section.getByRole('row').filter({ hasText: day }).filter({ hasText: 'cancelled' })).toHaveCount(1)
  await page.reload()
  await expect(
    page.getByRole('region', { name: 'Upcoming renewals' }).getByRole('row').filter({ hasText: 'cancelled' }),
  ).toHaveCount(1)
})

test('an admin disables two selected dispatches and follows the run to its outcome', async ({ page }) => {
  await signInAndWait(page, 'admin')
  await page.getByLabel('Status').selectOption('enabled')
  await expect(page).toHaveURL(/status=enabled/)
  // Rows are ticked once the filtered list is on screen, not the previous one kept while it loads.
  const table = page.locator('[aria-busy="false"]').getByRole('table', { name: 'Dispatches' })
  await expect(table.getByRole('row')).not.toHaveCount(1)
  const boxes = table.getByRole('checkbox', { name: /^Select (?!all)/ })
  await boxes.nth(0).check()
  await boxes.nth(1).check()

  const selection = page.getByRole('region', { name: 'Selection' })
  await expect(selection).toContainText('2 selected')
  await selection.getByLabel('Bulk action').selectOption('disable')
  await selection.getByRole('button', { name: 'Apply to 2 dispatches' }).click()

  const progress = page.getByRole('dialog', { name: 'Bulk action progress' })
  await expect(progress.getByRole('status')).toHaveText('Finished: 2 of 2 done, 0 failed', { timeout: 20_000 })
  const outcomes = progress.getByRole('list', { name: 'Outcome per dispatch' }).getByRole('listitem')
  await expect(outcomes).toHaveCount(2)
  await expect(outcomes.filter({ hasText: 'done' })).toHaveCount(2)
  await progress.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(progress).toBeHidden()
  // The run is over: the selection is cleared.
  await expect(page.getByRole('region', { name: 'Selection' })).toBeHidden()
})
