import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ACCOUNTS, DEMO_PASSWORD, signInAndWait } from './support'

/*
 * What a demanding user noticed, in the browser: alert texts name the usage and the threshold,
 * "Near cap" means near the cap, empty thresholds need a confirmation and a company can go back
 * to the global ones, the outbox shows no next attempt without a mail server, an out-of-range
 * licence count is refused with its limits, and limited text is counted rather than cut.
 *
 * Initech Financial (demo seed) has three capped dispatches, all below 90 % of their cap
 * (45/100, 41/50, 38/50); Brightwater Foods has one at 92/100. No other spec changes them.
 */
const COMPANY = { id: 'initech-financial', name: 'Initech Financial' }
const NEAR_CAP_COMPANY = { id: 'brightwater-foods', name: 'Brightwater Foods' }
/** Courses other specs use; the licence check takes another. */
const USED_ELSEWHERE = ['cloud-computing-certification-prep', 'budgeting-fundamentals', 'supply-chain-refresher']

async function adminHeaders(request: APIRequestContext) {
  const res = await request.post('/api/auth/login', { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } })
  expect(res.ok()).toBe(true)
  return { 'x-auth-token': ((await res.json()) as { accessToken: string }).accessToken }
}

/** The company's dispatch ids, as the dashboard lists them. */
async function dispatchIdsOf(request: APIRequestContext, companyId: string): Promise<string[]> {
  const headers = await adminHeaders(request)
  const list = (await (await request.get('/api/dispatches?pageSize=200', { headers })).json()) as {
    dispatches: { id: string; destinationId: string }[]
  }
  return list.dispatches.filter((d) => d.destinationId === companyId).map((d) => d.id)
}

/** The dashboard's table narrowed to one company, once the badges of its rows have been read. */
async function dashboardFor(page: Page, company: string, ids: string[]) {
  await page.goto('/dashboard')
  await expect(page.getByRole('table', { name: 'Dispatches' })).toBeVisible()
  const flags = page.waitForResponse(
    (r) =>
      r.url().includes('/api/notifications/dispatch-flags') &&
      ids.every((id) => r.url().includes(`ids=${encodeURIComponent(id)}`)),
  )
  await page.getByRole('searchbox', { name: 'Search dispatches' }).fill(company)
  await flags
  const rows = page.getByRole('table', { name: 'Dispatches' }).getByRole('row').filter({ hasText: company })
  await expect(rows).toHaveCount(ids.length)
  return rows
}

test.describe.configure({ mode: 'serial', timeout: 90_000 })

test('an alert names the usage and the threshold; "Near cap" only marks dispatches near their cap', async ({
  page,
  request,
}) => {
  await signInAndWait(page, 'admin')
  await page.goto(`/admin/companies/${COMPANY.id}`)
  const thresholds = page.getByRole('region', { name: 'Alert thresholds' })
  await expect(thresholds.getByText('This company uses the global thresholds.')).toBeVisible()
  await expect(thresholds.getByRole('button', { name: 'Use the global thresholds' })).toHaveCount(0)
  await thresholds.getByLabel('License usage thresholds (% of cap)').fill('2')
  await thresholds.getByRole('button', { name: 'Apply company thresholds' }).click()
  await expect(thresholds.getByText('Thresholds saved.')).toBeVisible()
  await expect(thresholds.getByText('This company has its own thresholds.')).toBeVisible()

  // A settings change is evaluated at once; the bell polls, so reload until the alert is there.
  const alert =
    /^(?:Unread: )?(\d+)% of licenses used \(threshold 2%\): .+ \(Initech Financial\) uses (\d+) of (\d+) licenses/
  const bell = page.getByRole('button', { name: /^Notifications, \d+\+? unread$/ })
  const panel = page.getByRole('region', { name: 'Notifications' })
  const items = panel.getByRole('listitem').filter({ hasText: /\(threshold 2%\): .+ \(Initech Financial\)/ })
  await expect(async () => {
    await page.reload()
    await bell.click({ timeout: 2_000 })
    await expect(items.first()).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
  const texts = await items.allTextContents()
  expect(texts.length).toBeGreaterThanOrEqual(1)
  for (const text of texts) {
    // The percent shown is the usage (e.g. 45 % for 45 of 100), not the 2 % threshold.
    const [, percent, count, cap] = alert.exec(text.trim()) ?? []
    expect(percent, `the alert text names its usage: ${text}`).toMatch(/^\d+$/)
    expect(Number(percent)).toBe(Math.floor((Number(count) * 100) / Number(cap)))
    expect(Number(percent)).toBeGreaterThan(2)
  }
  await page.keyboard.press('Escape')

  // The dispatches that raised it are far from their cap: no "Near cap".
  const initech = await dashboardFor(page, COMPANY.name, await dispatchIdsOf(request, COMPANY.id))
  await expect(initech.filter({ hasText: '45 / 100' })).toHaveCount(1)
  await expect(page.getByText('Near cap')).toHaveCount(0)
  // A dispatch at 92 of 100 is; one at 18 of 25 is not.
  const brightwater = await dashboardFor(page, NEAR_CAP_COMPANY.name, await dispatchIdsOf(request, NEAR_CAP_COMPANY.id))
  await expect(brightwater.filter({ hasText: '92 / 100' }).getByText('Near cap')).toBeVisible()
  await expect(brightwater.filter({ hasText: '18 / 25' }).getByText('Near cap')).toHaveCount(0)

  // The mails of that alert wait in the outbox: no next attempt is promised without a mail server.
  await page.goto('/admin/outbox')
  const mail = page
    .getByRole('list', { name: 'Mails' })
    .getByRole('listitem')
    .filter({ hasText: /% of licenses used \(threshold 2%\): .+ \(Initech Financial\)/ })
    .first()
  await expect(mail).toBeVisible()
  await expect(mail.getByText('pending')).toBeVisible()
  await expect(mail.getByText('None: no mail server is configured')).toBeVisible()
  await expect(mail).not.toContainText(/Next attempt:\s*\d{4}-/)
})

test('empty thresholds need a confirmation, and a company goes back to the global thresholds', async ({ page }) => {
  await signInAndWait(page, 'admin')
  await page.goto(`/admin/companies/${COMPANY.id}`)
  const thresholds = page.getByRole('region', { name: 'Alert thresholds' })
  await expect(thresholds.getByText('This company has its own thresholds.')).toBeVisible()
  const usage = thresholds.getByLabel('License usage thresholds (% of cap)')
  await expect(usage).toHaveValue('2')

  await usage.fill('')
  await thresholds.getByRole('button', { name: 'Apply company thresholds' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Turn these alerts off?' })
  await expect(dialog).toContainText('No usage alerts will be raised.')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(thresholds.getByText('Thresholds saved.')).toHaveCount(0)
  await page.reload()
  await expect(thresholds.getByLabel('License usage thresholds (% of cap)')).toHaveValue('2')

  // Confirmed, the empty list is saved and the form says what it means.
  await thresholds.getByLabel('License usage thresholds (% of cap)').fill('')
  await thresholds.getByRole('button', { name: 'Apply company thresholds' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Save without these alerts' }).click()
  await expect(thresholds.getByText('Thresholds saved.')).toBeVisible()
  await expect(thresholds.getByText('No usage alerts will be raised.')).toBeVisible()

  await thresholds.getByRole('button', { name: 'Use the global thresholds' }).click()
  await expect(thresholds.getByText('This company uses the global thresholds.')).toBeVisible()
  await expect(thresholds.getByRole('button', { name: 'Use the global thresholds' })).toHaveCount(0)
  await expect(thresholds.getByLabel('License usage thresholds (% of cap)')).toHaveValue('80, 90, 100')
  await expect(thresholds.getByText('No usage alerts will be raised.')).toHaveCount(0)

  // Audited like other changes: the override set, emptied and removed in these two tests.
  await page.goto('/logs')
  await page.getByLabel('Action').selectOption('ALERT_SETTINGS_UPDATED')
  await expect
    .poll(async () => page.getByRole('cell', { name: 'ALERT_SETTINGS_UPDATED', exact: true }).count())
    .toBeGreaterThanOrEqual(3)
})

test('a licence count out of range is refused with its limits, and nothing is requested', async ({
  browser,
  request,
}) => {
  // A visible course the demo client's company has no dispatch of.
  const headers = await adminHeaders(request)
  const courses = (await (await request.get('/api/dispatches/courses', { headers })).json()) as {
    courses: { id: string }[]
  }
  const own = (await (await request.get('/api/dispatches?pageSize=200', { headers })).json()) as {
    dispatches: { courseId: string; destinationId: string }[]
  }
  const taken = new Set(
    own.dispatches.filter((d) => d.destinationId === 'beacon-pharmaceuticals').map((d) => d.courseId),
  )
  const course = courses.courses
    .map((c) => c.id)
    .reverse()
    .find((id) => !USED_ELSEWHERE.includes(id) && !taken.has(id))!
  expect(
    (await request.put(`/api/courses/${course}/visibility`, { headers, data: { isVisible: true } })).status(),
  ).toBe(200)

  const context = await browser.newContext()
  const client = await context.newPage()
  await signInAndWait(client, 'client')
  const posted: string[] = []
  client.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/course-requests')) posted.push(r.postData() ?? '')
  })
  await client.goto(`/courses/${course}?request=true`)
  const licenses = client.getByLabel('Number of Licenses')
  await licenses.fill('99999999999')
  await client.getByRole('button', { name: 'Submit Request' }).click()
  await expect(client.getByText('Licenses must be a whole number from 1 to 1,000,000.')).toBeVisible()
  await expect(licenses).toHaveAttribute('aria-invalid', 'true')
  await expect(client.getByText('Course request submitted successfully!')).toHaveCount(0)

  // Notes past their limit are counted and refused, not cut.
  await licenses.fill('3')
  const notes = client.getByLabel('Notes')
  await notes.fill('n'.repeat(2_400))
  await expect(client.getByText('2,400 / 2,000')).toBeVisible()
  await expect(client.getByText('Notes can be at most 2,000 characters (2,400 entered).')).toBeVisible()
  expect((await notes.inputValue()).length).toBe(2_400)
  await client.getByRole('button', { name: 'Submit Request' }).click()
  await expect(client.getByText('Course request submitted successfully!')).toHaveCount(0)
  expect(posted).toEqual([])

  // The API says the same.
  const clientToken = await client.evaluate(() => localStorage.getItem('portal.accessToken'))
  const refused = await request.post('/api/course-requests', {
    headers: { 'x-auth-token': clientToken! },
    data: { courseId: course, licenses: 99_999_999_999 },
  })
  expect(refused.status()).toBe(400)
  expect((await refused.json()).message).toBe('Licenses must be a whole number from 1 to 1,000,000.')
  await context.close()
})

test('the new dispatch form counts its notes and refuses past 5,000 characters instead of cutting them', async ({
  page,
}) => {
  await signInAndWait(page, 'admin')
  const posted: string[] = []
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/dispatches')) posted.push(r.url())
  })
  await page.getByRole('button', { name: 'New Dispatch' }).click()
  const dialog = page.getByRole('dialog', { name: 'New Dispatch' })
  const notes = dialog.getByLabel('Notes')
  await expect(dialog.getByText('0 / 5,000')).toBeVisible()
  await notes.fill('n'.repeat(4_980))
  await expect(dialog.getByText('4,980 / 5,000')).toBeVisible()
  await expect(notes).not.toHaveAttribute('aria-invalid', 'true')
  await notes.fill('n'.repeat(12_000))
  await expect(dialog.getByText('12,000 / 5,000')).toBeVisible()
  await expect(dialog.getByText('Notes can be at most 5,000 characters (12,000 entered).')).toBeVisible()
  await expect(notes).toHaveAttribute('aria-invalid', 'true')
  expect((await notes.inputValue()).length).toBe(12_000)
  await dialog.getByRole('button', { name: 'Create Dispatch' }).click()
  await expect(dialog).toBeVisible()
  expect(posted).toEqual([])
})
