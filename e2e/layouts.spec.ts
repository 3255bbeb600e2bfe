import { expect, test } from '@playwright/test'
import {
  PHONE,
  COMPANY,
  COMPANY_ID,
  pageAs,
  apiGet,
  box,
  expectInsideWindow,
  linesOf,
  uncovered,
} from './layout-support'

/*
 * What a demanding user noticed in the layouts: the learners and report screens at 1280 px, and
 * the header, bell, tabs and cards at 390 px. Each test measures what the user sees: boxes inside
 * the viewport, no sideways overflow, nothing covered.
 */
test('learners and their details fit 1280 px; the report’s filters are not squeezed nor covered', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const client = await pageAs(browser, 'client')
  await client.goto('/learners')
  const table = client.getByRole('table', { name: 'Learners' })
  await expect(table.locator('tbody tr').first()).toBeVisible()
  const scroller = table.locator('xpath=..')
  const fits = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
  expect(fits.scroll, 'the learners table needs no sideways scroll').toBeLessThanOrEqual(fits.client)
  const scrollerBox = await box(scroller)
  for (const name of ['Total Time', 'Last Access']) {
    const header = table.getByRole('columnheader', { name })
    const b = await box(header)
    expect(b.x + b.width, `${name} is inside the table's box`).toBeLessThanOrEqual(
      scrollerBox.x + scrollerBox.width + 0.5,
    )
  }
  // Names do not wrap: each learner's name is one line, the e-mail under it two at most.
  const names = table.locator('tbody tr td:first-child button')
  const emails = table.locator('tbody tr td:first-child div')
  for (let i = 0; i < Math.min(await names.count(), 20); i += 1) {
    expect(await linesOf(names.nth(i))).toBe(1)
    expect(await linesOf(emails.nth(i))).toBeLessThanOrEqual(2)
  }

  await names.first().click()
  const details = client.getByRole('dialog')
  const rows = details.locator('table tbody tr')
  await expect(rows.first()).toBeVisible()
  const detailsTable = details.locator('table')
  const wrap = detailsTable.locator('xpath=..')
  const inner = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
  expect(inner.scroll, 'the registrations need no sideways scroll').toBeLessThanOrEqual(inner.client)
  const last = await box(details.getByRole('columnheader', { name: 'Last Access' }))
  const dialogBox = await box(details)
  expect(last.x + last.width).toBeLessThanOrEqual(dialogBox.x + dialogBox.width)
  await expect(rows.first().locator('td').last()).toHaveText(/^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}|Never)$/)
  await client.keyboard.press('Escape')

  // The report's filter row: each date box shows all of YYYY-MM-DD; the open Export menu covers
  // no filter and Apply Filters can still be clicked.
  const list = await apiGet<{ dispatches: { id: string }[] }>(client, '/api/dispatches?pageSize=10')
  await client.goto(`/dispatches/${list.dispatches[0]!.id}`)
  const report = client.getByRole('region', { name: 'Completion Report' })
  for (const label of ['Last Access From', 'Last Access To']) {
    const input = report.getByRole('textbox', { name: label })
    const room = await input.evaluate((el) => {
      const style = getComputedStyle(el)
      const context = document.createElement('canvas').getContext('2d')!
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      return { inner, needed: context.measureText((el as HTMLInputElement).placeholder).width }
    })
    expect(room.inner, `${label} shows its whole placeholder`).toBeGreaterThanOrEqual(room.needed)
  }
  const apply = report.getByRole('button', { name: 'Apply Filters' })
  await report.getByRole('button', { name: 'Export' }).click()
  const menu = report.getByRole('group', { name: 'Export formats' })
  await expect(menu).toBeVisible()
  // Both edges read in one go: cards above the report still loading would move the two apart
  // between two separate reads.
  const menuHandle = (await menu.elementHandle())!
  const formHandle = (await report.getByRole('search', { name: 'Completion report filters' }).elementHandle())!
  const [menuTop, formBottom] = await client.evaluate(
    ([m, f]) => [m.getBoundingClientRect().top, f.getBoundingClientRect().bottom],
    [menuHandle, formHandle] as const,
  )
  expect(menuTop, 'the menu opens below the filters').toBeGreaterThanOrEqual(formBottom)
  expect(await uncovered(apply)).toBe(true)
  await apply.click()
  await expect(menu).toHaveCount(0)
  await client.context().close()
})

test('at 390 px: the bell’s panel, the header date and the company tabs stay on screen', async ({ browser }) => {
  test.setTimeout(60_000)
  const admin = await pageAs(browser, 'admin', PHONE)
  await admin.goto(`/admin/companies/${COMPANY_ID}`)
  await expect(admin.getByRole('heading', { level: 1, name: COMPANY })).toBeVisible()

  // The date: one line, inside the header.
  const date = admin.locator('header > time')
  await expect(date).toBeVisible()
  const shown = date.locator('span[aria-hidden="true"]')
  await expect(shown).toBeVisible()
  await expect(shown).toHaveText(/^\w{3}, \w{3} \d{1,2}$/)
  expect(await linesOf(shown)).toBe(1)
  await expectInsideWindow(admin, date)
  // Screen readers still get the product rules' long form.
  await expect(date).toContainText(/\w+day, \w+ \d{1,2}, \d{4}/)

  // Every tab in sight, none cut, the list not scrolling sideways.
  const tablist = admin.getByRole('tablist')
  const overflow = await tablist.evaluate((el) => el.scrollWidth - el.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  const tabs = admin.getByRole('tab')
  // An admin's company screen: Users, Course Requests, SCORM Dispatches and Sign-in.
  await expect(tabs.filter({ hasText: 'Sign-in' })).toHaveCount(1)
  const tabCount = await tabs.count()
  expect(tabCount).toBe(4)
  for (let i = 0; i < tabCount; i += 1) {
    await expectInsideWindow(admin, tabs.nth(i))
    expect(await tabs.nth(i).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  }
  await tabs.filter({ hasText: 'SCORM Dispatches' }).click()
  await expect(tabs.filter({ hasText: 'SCORM Dispatches' })).toHaveAttribute('aria-selected', 'true')

  // The bell's panel within the screen's edges.
  await admin.getByRole('button', { name: /^Notifications/ }).click()
  const panel = admin.getByRole('region', { name: 'Notifications' })
  await expect(panel).toBeVisible()
  await expectInsideWindow(admin, panel, true)
  await admin.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  await admin.context().close()
})

test('Profile has a place in the sidebar; the Processed card shows a fitting icon', async ({ browser }) => {
  for (const role of ['client', 'admin'] as const) {
    const page = await pageAs(browser, role)
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' })
    await sidebar.getByRole('link', { name: 'Profile' }).click()
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByRole('heading', { level: 1, name: /Profile/ })).toBeVisible()
    // On a phone it is in the menu.
    await page.setViewportSize(PHONE)
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(sidebar.getByRole('link', { name: 'Profile' })).toBeVisible()
    await expectInsideWindow(page, sidebar.getByRole('link', { name: 'Profile' }))
    await page.context().close()
  }
  const client = await pageAs(browser, 'client')
  await client.goto('/course-requests')
  const processed = client.getByRole('region', { name: 'Processed' })
  await expect(processed).toBeVisible()
  const icon = processed.locator('svg')
  await expect(icon).toHaveClass(/lucide-package-check/)
  await expect(icon).not.toHaveClass(/lucide-loader/)
  await client.context().close()
})
