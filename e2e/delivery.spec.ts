import { expect, test, type Page } from '@playwright/test'
import { apiGet } from './layout-support'
import { signInAndWait } from './support'

/*
 * Delivery settings and LTI in the browser, on the demo's Beacon Pharmaceuticals (the demo
 * client's company): the admin turns registration instancing off for the company and a dispatch
 * screen shows it; the client copies its LTI launch URL.
 */
const COMPANY = 'beacon-pharmaceuticals'

async function beaconDispatchId(page: Page): Promise<string> {
  const detail = await apiGet<{ dispatches: { id: string }[] }>(page, `/api/admin/companies/${COMPANY}`)
  expect(detail.dispatches.length).toBeGreaterThan(0)
  return detail.dispatches[0]!.id
}

test.use({ viewport: { width: 1280, height: 900 } })

test('an admin turns instancing off for a company and the dispatch screen shows it', async ({ page }) => {
  await signInAndWait(page, 'admin')
  await page.goto(`/admin/companies/${COMPANY}`)
  const settings = page.getByRole('region', { name: 'Delivery settings' })
  const instancing = settings.getByRole('switch', { name: 'Registration instancing' })
  await expect(instancing).toBeVisible()
  await expect(settings).toContainText('counts as another licence')
  const save = settings.getByRole('button', { name: 'Save delivery settings' })
  if ((await instancing.getAttribute('aria-checked')) === 'false') {
    // Off already (generated data): on first, so turning it off is a change.
    await instancing.click()
    await save.click()
    await expect(settings.getByText('Delivery settings saved in SCORM Cloud.')).toBeVisible()
  }
  await instancing.click()
  await expect(instancing).toHaveAttribute('aria-checked', 'false')
  await save.click()
  await expect(settings.getByText('Delivery settings saved in SCORM Cloud.')).toBeVisible()
  await expect(instancing).toHaveAttribute('aria-checked', 'false')

  await page.goto(`/dispatches/${await beaconDispatchId(page)}`)
  const dispatchSettings = page.getByRole('region', { name: 'Delivery settings' })
  const row = dispatchSettings
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: /^Registration instancing$/ }) })
  await expect(row.locator('dd')).toHaveText('Off')
  await expect(
    dispatchSettings.getByRole('switch', { name: 'Registration instancing for this dispatch' }),
  ).toHaveAttribute('aria-checked', 'false')
})

test('a client copies the LTI launch data of its dispatch', async ({ browser }) => {
  const admin = await browser.newPage()
  await signInAndWait(admin, 'admin')
  const id = await beaconDispatchId(admin)
  await admin.close()

  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  const page = await context.newPage()
  await signInAndWait(page, 'client')
  await page.goto(`/dispatches/${id}`)
  const lti = page.getByRole('region', { name: 'LTI delivery' })
  const launchUrl = lti.getByText('Launch URL', { exact: true }).locator('..').locator('code')
  await expect(launchUrl).toHaveText(/^https?:\/\/.+\/lti\/launch\//)
  const copy = lti.getByRole('button', { name: 'Copy Launch URL' })
  await copy.click()
  await expect(copy).toContainText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await launchUrl.innerText())

  // The secret stays hidden until asked for; the client may reveal its own.
  await expect(lti.getByText('••••••••')).toBeVisible()
  await lti.getByRole('button', { name: 'Reveal' }).click()
  await expect(lti.getByRole('button', { name: 'Copy Shared secret' })).toBeVisible()
  // Settings are read-only for a client.
  await expect(page.getByRole('region', { name: 'Delivery settings' }).getByRole('switch')).toHaveCount(0)
  await context.close()
})
