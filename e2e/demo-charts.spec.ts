import { expect, test, type Locator } from '@playwright/test'
import { signInAndWait } from './support'

/**
 * The demo looks alive: its activity fills the twelve months up to today, so the dashboard's
 * registrations per month and a busy dispatch's completions per week show bars in many months
 * and weeks; and the dashboard's charts sit above the long list, on the first screen.
 */

/** Bars drawn with a height (recharts draws one rectangle per bar). */
const drawnBars = (region: Locator) =>
  region
    .locator('path.recharts-rectangle')
    .evaluateAll((paths) => paths.filter((p) => (p as SVGGraphicsElement).getBBox().height > 0).length)

/** The figures of a chart's "Show as table" alternative: [label, number] per row. */
async function tableFigures(region: Locator, name: string): Promise<[string, number][]> {
  await region.getByRole('button', { name: 'Show as table' }).click()
  const rows = region.getByRole('table', { name }).getByRole('row')
  const texts = (await rows.allInnerTexts()).slice(1)
  await region.getByRole('button', { name: 'Show as chart' }).click()
  return texts.map((text) => {
    const [label, figure] = text.split('\t')
    return [label!.trim(), Number(figure!.replace(/,/g, ''))]
  })
}

test.describe('demo charts (1280 x 900)', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('an admin sees registrations in most of the last 12 months, above the dispatch list', async ({ page }) => {
    await signInAndWait(page, 'admin')
    const months = page.getByRole('region', { name: 'Registrations per month' })
    await expect(months.locator('.recharts-surface')).toBeVisible()

    // Above the list, and seen without scrolling.
    const table = page.getByRole('table')
    await expect(table).toHaveCount(1)
    await expect(table.getByRole('columnheader', { name: /Client/ })).toBeVisible()
    await expect(months).toBeInViewport()
    const chartBox = (await months.boundingBox())!
    const tableBox = (await table.boundingBox())!
    expect(chartBox.y + chartBox.height).toBeLessThanOrEqual(tableBox.y)
    const nearest = page.getByRole('region', { name: 'Nearest their cap' })
    expect((await nearest.boundingBox())!.y).toBeLessThan(tableBox.y)

    expect(await drawnBars(months)).toBeGreaterThanOrEqual(10)
    const figures = await tableFigures(months, 'Registrations per month')
    expect(figures).toHaveLength(12)
    // The month of today ends the chart; at most that one can still be empty (on a month's first day).
    const current = new Date().toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    expect(figures[11]![0]).toBe(current)
    expect(figures.filter(([, n]) => n > 0).length).toBeGreaterThanOrEqual(11)
    expect(new Set(figures.map(([, n]) => n)).size).toBeGreaterThan(6)
  })

  test('the busiest dispatch shows completions in many of the last 26 weeks', async ({ page }) => {
    await signInAndWait(page, 'admin')
    await page.goto('/dashboard?sort=registrations&order=desc')
    await page
      .getByRole('table')
      .getByRole('link', { name: /View Details/ })
      .first()
      .click()
    await expect(page).toHaveURL(/\/dispatches\/[^/]+$/)
    const weeks = page.getByRole('region', { name: 'Completions per week' })
    await expect(weeks.locator('.recharts-surface')).toBeVisible()
    expect(await drawnBars(weeks)).toBeGreaterThanOrEqual(5)
    const figures = await tableFigures(weeks, 'Completions per week')
    expect(figures).toHaveLength(26)
    expect(figures.filter(([, n]) => n > 0).length).toBeGreaterThanOrEqual(5)
    // Recent weeks are among them, not only weeks long past.
    expect(figures.slice(13).filter(([, n]) => n > 0).length).toBeGreaterThanOrEqual(3)
  })

  test('a client sees its own registrations in several months, above its list', async ({ page }) => {
    await signInAndWait(page, 'client')
    const months = page.getByRole('region', { name: 'Registrations per month' })
    await expect(months.locator('.recharts-surface')).toBeVisible()
    await expect(months).toBeInViewport()
    const table = page.getByRole('table')
    await expect(table).toHaveCount(1)
    const trend = page.getByRole('region', { name: 'Usage trend' })
    expect((await trend.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y)
    expect((await months.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y)

    const figures = await tableFigures(months, 'Registrations per month')
    expect(figures.filter(([, n]) => n > 0).length).toBeGreaterThanOrEqual(6)
  })
})
