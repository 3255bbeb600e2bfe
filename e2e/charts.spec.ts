import { expect, test, type Page } from '@playwright/test'
import { signIn, signInAndWait } from './support'

/** The charts of the dispatch details and the dashboard, and their table alternative. */

const chartChunks = (page: Page) => {
  const loaded: string[] = []
  page.on('request', (request) => {
    if (/\/assets\/chart-view-[^/]+\.js$/.test(request.url())) loaded.push(request.url())
  })
  return loaded
}

test.describe('charts as admin (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('an admin sees the charts on a dispatch and their table alternative', async ({ page }) => {
    const loaded = chartChunks(page)
    // The charting library is not part of the sign-in page (checked once that page has loaded
    // everything it asks for: the dashboard behind it may fetch the chart chunk at once).
    await page.goto('/login')
    await page.waitForLoadState('networkidle')
    expect(loaded).toEqual([])
    await signIn(page, 'admin')
    await expect(page).toHaveURL(/\/dashboard$/)

    // The dashboard: registrations per month, and the ten dispatches nearest their cap.
    const months = page.getByRole('region', { name: 'Registrations per month' })
    await expect(months).toBeVisible()
    await expect(
      months.getByRole('img', { name: /Registrations per month: chart/ }).or(months.getByText(/^No registrations/)),
    ).toBeVisible()
    const nearest = page.getByRole('region', { name: 'Nearest their cap' })
    const links = nearest.getByRole('link')
    await expect(links.first()).toBeVisible()
    expect(await links.count()).toBeLessThanOrEqual(10)
    await expect(nearest.getByRole('progressbar').first()).toBeVisible()

    const toggle = months.getByRole('button', { name: 'Show as table' })
    if (await toggle.isVisible()) {
      await expect(months.locator('.recharts-surface')).toBeVisible()
      expect(loaded.length).toBeGreaterThan(0)
      await toggle.click()
      const table = months.getByRole('table', { name: 'Registrations per month' })
      await expect(table.getByRole('row')).toHaveCount(13)
      await expect(table.getByRole('columnheader', { name: 'Month' })).toBeVisible()
      await months.getByRole('button', { name: 'Show as chart' }).click()
      await expect(months.locator('.recharts-surface')).toBeVisible()
    }

    // The dispatch nearest its cap: its details show the two charts.
    await links.first().click()
    await expect(page).toHaveURL(/\/dispatches\/[^/]+$/)
    const weeks = page.getByRole('region', { name: 'Completions per week' })
    await expect(
      weeks.getByRole('img', { name: /Completions per week: chart/ }).or(weeks.getByText(/^No completions/)),
    ).toBeVisible()
    const status = page.getByRole('region', { name: 'Progress and results' })
    await expect(status.getByRole('img', { name: /Progress and results: chart/ })).toBeVisible()
    await expect(status.locator('.recharts-surface')).toBeVisible()
    // Category names are on the axis, not in colour alone.
    for (const name of ['Completed', 'Incomplete', 'Not started', 'Passed', 'Failed']) {
      await expect(status.locator('svg text').getByText(name, { exact: true })).toBeVisible()
    }

    const showTable = status.getByRole('button', { name: 'Show as table' })
    await expect(showTable).toHaveAttribute('aria-pressed', 'false')
    await showTable.click()
    await expect(status.getByRole('button', { name: 'Show as chart' })).toHaveAttribute('aria-pressed', 'true')
    const rows = status.getByRole('table', { name: 'Progress and results' }).getByRole('row')
    await expect(rows).toHaveCount(6)
    const texts = await rows.allInnerTexts()
    expect(texts.slice(1).map((t) => t.split('\t')[0])).toEqual([
      'Completed',
      'Incomplete',
      'Not started',
      'Passed',
      'Failed',
    ])
    for (const text of texts.slice(1)) expect(text).toMatch(/\t[\d,]+$/)
    // The keyboard reaches the toggle and turns the chart back on.
    await status.getByRole('button', { name: 'Show as chart' }).focus()
    await page.keyboard.press('Enter')
    await expect(status.locator('.recharts-surface')).toBeVisible()
  })

  test('a client sees its registrations per month and its usage trend, not the staff list', async ({ page }) => {
    await signInAndWait(page, 'client')
    await expect(page.getByRole('region', { name: 'Registrations per month' })).toBeVisible()
    const trend = page.getByRole('region', { name: 'Usage trend' })
    await expect(trend).toBeVisible()
    await expect(
      trend.getByRole('img', { name: /Usage trend: chart/ }).or(trend.getByText(/^No registrations yet/)),
    ).toBeVisible()
    await expect(page.getByRole('region', { name: 'Nearest their cap' })).toHaveCount(0)
  })
})
