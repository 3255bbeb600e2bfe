import { expect, test, type Page } from '@playwright/test'
import { signInAndWait } from './support'

const showing = (page: Page) => page.getByText(/^Showing \d+ to \d+ of \d+ dispatch(es)?$/)
const bodyRows = (page: Page) => page.locator('table tbody tr')

/**
 * Sorts the list by Registrations, most first, and waits for the sorted rows: the list keeps the
 * previous rows on screen (marked aria-busy) while the new page loads, so on a busy machine a
 * click right after the header's second click could still land on the unsorted list.
 */
async function sortByRegistrationsDescending(page: Page) {
  const header = page.getByRole('columnheader', { name: /Registrations/ })
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

test.describe('dashboard as admin (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('cards, table, search, status, page size, sorting and pagination', async ({ page }) => {
    await signInAndWait(page, 'admin')
    await expect(page.getByRole('heading', { name: 'All Dispatches' })).toBeVisible()
    for (const card of ['Total Dispatches', 'Active Dispatches', 'Registrations', 'License Usage']) {
      await expect(page.getByText(card, { exact: true }).first()).toBeVisible()
    }
    // Demo data: 150 dispatches, default page size 50, default sort by client.
    await expect(showing(page)).toHaveText('Showing 1 to 50 of 150 dispatches')
    await expect(page.getByRole('columnheader', { name: /Client/ })).toBeVisible()
    await expect(bodyRows(page)).toHaveCount(50)

    await page.getByLabel('Items per page').selectOption('10')
    await expect(showing(page)).toHaveText('Showing 1 to 10 of 150 dispatches')
    await page.getByRole('button', { name: 'Page 2', exact: true }).click()
    await expect(showing(page)).toHaveText('Showing 11 to 20 of 150 dispatches')

    // Changing a filter goes back to page 1.
    await page.getByLabel('Status').selectOption('disabled')
    await expect(showing(page)).toHaveText(/^Showing 1 to \d+ of \d+ dispatch/)
    const statuses = await bodyRows(page)
      .locator('td')
      .filter({ hasText: /^(Enabled|Disabled)$/ })
      .allTextContents()
    expect(statuses.length).toBeGreaterThan(0)
    expect(new Set(statuses)).toEqual(new Set(['Disabled']))
    await page.getByLabel('Status').selectOption('all')

    // Search narrows to one client.
    // The admin's first cell is the row's selection box (bulk actions); the client comes next.
    const firstClient = (await bodyRows(page).first().locator('td').nth(1).innerText()).trim()
    await page.getByLabel('Search dispatches').fill(firstClient)
    await expect(showing(page)).not.toHaveText(/of 150 dispatches/)
    const clients = await bodyRows(page).locator('td:nth-child(2)').allInnerTexts()
    for (const c of clients) expect(c).toContain(firstClient)
    await page.getByLabel('Search dispatches').fill('')
    await expect(showing(page)).toHaveText('Showing 1 to 10 of 150 dispatches')

    // Sorting by registrations, descending on the second click.
    await sortByRegistrationsDescending(page)
    const counts = (
      await bodyRows(page)
        .locator('td')
        .filter({ hasText: /^\d+ \/ (\d+|∞)$/ })
        .allInnerTexts()
    ).map((t) => Number(t.split('/')[0]))
    expect(counts.length).toBe(10)
    expect([...counts].sort((a, b) => b - a)).toEqual(counts)
  })
})

test.describe('dashboard as client', () => {
  test('sees only its company, without the Client column, as cards on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await signInAndWait(page, 'client')
    await expect(page.getByRole('heading', { name: 'Your Dispatches' })).toBeVisible()
    await expect(showing(page)).toBeVisible()
    await expect(page.getByRole('columnheader', { name: /Client/ })).toHaveCount(0)
    await expect(page.getByRole('columnheader', { name: /Course/ })).toBeVisible()
    const total = Number((await showing(page).innerText()).match(/of (\d+)/)![1])
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(150)

    await page.setViewportSize({ width: 390, height: 844 })
    await expect(page.locator('table')).toHaveCount(0)
    await expect(page.getByRole('link', { name: /View Details/ }).first()).toBeVisible()
  })
})

test.describe('dispatch details (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('the completion report filters and pages', async ({ page }) => {
    await signInAndWait(page, 'internal')
    await sortByRegistrationsDescending(page)
    await page
      .getByRole('link', { name: /View Details/ })
      .first()
      .click()
    await expect(page).toHaveURL(/\/dispatches\//)
    await expect(page.getByText('General Information')).toBeVisible()
    await expect(page.getByText('Completion Report')).toBeVisible()
    const records = page.getByText(/^Showing \d+-\d+ of \d+ records?/)
    await expect(records).toBeVisible()

    await page.getByLabel('Status').selectOption('completed')
    await page.getByRole('button', { name: 'Apply Filters' }).click()
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeVisible()
    const completion = page.locator('table tbody tr td:nth-child(2)')
    await expect(completion.first()).toContainText('Completed')
    for (const text of await completion.allInnerTexts()) expect(text).toContain('Completed')

    await page.getByRole('button', { name: 'Clear Filters' }).click()
    await page.getByLabel(/page size|Rows per page|Per page/i).selectOption('10')
    await expect(records).toHaveText(/^Showing 1-10 of \d+ records/)
    await page.getByRole('button', { name: 'Next' }).last().click()
    await expect(records).toHaveText(/^Showing 11-20 of \d+ records/)
  })

  test('an admin disables a dispatch', async ({ page }) => {
    await signInAndWait(page, 'admin')
    await page.getByLabel('Status').selectOption('enabled')
    await page
      .getByRole('link', { name: /View Details/ })
      .first()
      .click()
    await expect(page.getByText('General Information')).toBeVisible()
    await page.getByRole('button', { name: 'Disable Dispatch' }).click()
    const dialog = page.getByRole('alertdialog')
    await expect(dialog).toContainText('Disable this dispatch?')
    await dialog.getByRole('button', { name: 'Disable Dispatch' }).click()
    await expect(page.getByRole('button', { name: 'Enable Dispatch' })).toBeVisible()
    await page.reload()
    await expect(page.getByRole('button', { name: 'Enable Dispatch' })).toBeVisible()
  })
})
