import { expect, test } from '@playwright/test'
import { signInAndWait } from './support'

/**
 * The admin's Jobs screen on the demo (one process, PGlite): the start-up sync ran as a job
 * before the server reported ready, and its alert evaluation after it.
 */
test('an admin opens Jobs from the sidebar and sees the background work by queue and state', async ({ page }) => {
  await signInAndWait(page, 'admin')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click()
  await expect(page).toHaveURL(/\/admin\/jobs$/)
  await expect(page.getByRole('heading', { name: 'Jobs', exact: true })).toBeVisible()
  const table = page.getByRole('table', { name: 'Jobs by queue and state' })
  const sync = table.getByRole('row', { name: /SCORM Cloud sync/ })
  await expect(sync).toBeVisible()
  // Queue, then Waiting, Retrying, Running, Completed, Cancelled, Failed, Schedule.
  await expect(sync.getByRole('cell').nth(3)).not.toHaveText('0')
  // The e2e server runs with SYNC_INTERVAL_MINUTES=0: no schedule, syncs on demand only.
  await expect(sync.getByRole('cell').nth(6)).toHaveText('On demand')
  await expect(
    table
      .getByRole('row', { name: /Mail sending/ })
      .getByRole('cell')
      .nth(6),
  ).toHaveText('* * * * *')
  await expect(page.getByText('No failed jobs')).toBeVisible()
})

test('other roles get no Jobs link and are sent to the dashboard', async ({ page }) => {
  await signInAndWait(page, 'sales')
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' })).toHaveCount(0)
  await page.goto('/admin/jobs')
  await expect(page).toHaveURL(/\/dashboard$/)
})
