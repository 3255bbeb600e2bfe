import { readFile } from 'node:fs/promises'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { inspectPackage } from '@portal/scorm-cloud-sim/package-inspect'
import { signInAndWait, type DemoRole } from './support'

/*
 * In the browser: from a course request to a delivered package. The demo client
 * belongs to Beacon Pharmaceuticals (seed 42). It requests a course its company has no dispatch
 * of (one the other spec files leave alone), the admin fulfils the request with "Create
 * dispatch", and the client downloads the package and gets a SCORM 1.2 zip.
 */
const OTHER_SPECS = ['Cloud Computing Certification Prep', 'Budgeting Fundamentals', 'Supply Chain Refresher']
const COMPANY = 'Beacon Pharmaceuticals'

async function pageAs(browser: Browser, role: DemoRole): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true })
  const page = await context.newPage()
  await signInAndWait(page, role)
  return page
}

test('a client request becomes a dispatch whose package the client downloads', async ({ browser }, testInfo) => {
  test.setTimeout(90_000)

  // 1. The client requests 25 licenses of a course it can request.
  const client = await pageAs(browser, 'client')
  await client.goto('/courses')
  await expect(client.getByRole('heading', { name: 'Courses', exact: true })).toBeVisible()
  const requestLinks = client.getByRole('link', { name: /^Request: / })
  await expect(requestLinks.first()).toBeVisible()
  const names = await requestLinks.evaluateAll((links) => links.map((l) => l.getAttribute('aria-label') ?? ''))
  const title = names.map((n) => n.replace(/^Request: /, '')).find((t) => t && !OTHER_SPECS.includes(t))
  expect(title, 'a requestable course').toBeTruthy()
  await client.getByRole('link', { name: `Request: ${title}` }).click()
  await client.getByLabel('Number of Licenses').fill('25')
  await client.getByRole('button', { name: 'Submit Request' }).click()
  await expect(client.getByText('Course request submitted successfully!')).toBeVisible()

  // 2. The admin fulfils it in one step.
  const admin = await pageAs(browser, 'admin')
  await admin.goto('/admin/course-requests')
  await admin.getByLabel('Search', { exact: true }).fill(title!)
  const row = admin.getByRole('table', { name: 'Course requests' }).getByRole('row').filter({ hasText: title! })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Pending')
  await row.getByRole('button', { name: `Edit: ${title}` }).click()
  const dialog = admin.getByRole('dialog', { name: 'Update Request Status' })
  await expect(dialog).toContainText(`For ${COMPANY}, with 25 licenses.`)
  await dialog.getByRole('button', { name: 'Create dispatch' }).click()
  await expect(admin.getByRole('status').filter({ hasText: 'Request updated successfully.' })).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(row).toContainText('Processed')
  await admin.context().close()

  // 3. The client's request links to the dispatch, and the dashboard lists it.
  await client.goto('/course-requests')
  const mine = client.getByRole('table', { name: 'My course requests' }).getByRole('row').filter({ hasText: title! })
  await expect(mine).toContainText('Processed')
  await expect(mine.getByRole('link', { name: `View dispatch of ${title}` })).toHaveAttribute('href', /^\/dispatches\//)

  await client.goto('/dashboard')
  await client.getByPlaceholder('Search dispatches...').fill(title!)
  const dispatchRow = client.getByRole('table', { name: 'Dispatches' }).getByRole('row').filter({ hasText: title! })
  await expect(dispatchRow).toHaveCount(1)
  await expect(dispatchRow).toContainText('0 / 25')

  // 4. The package arrives as a download and is a SCORM 1.2 zip with one organization and one SCO.
  const downloading = client.waitForEvent('download')
  await dispatchRow.getByRole('button', { name: `Download package of ${title} for ${COMPANY}` }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^Beacon Pharmaceuticals - .+\.zip$/)
  const path = testInfo.outputPath(download.suggestedFilename())
  await download.saveAs(path)
  const pkg = inspectPackage(await readFile(path))
  expect(pkg.manifest).toMatchObject({ schemaVersion: '1.2', organizations: 1, scos: 1, launchHref: 'launch.html' })
  expect(pkg.launchPage).toContain('/dispatch/launch/')
  await client.context().close()
})
