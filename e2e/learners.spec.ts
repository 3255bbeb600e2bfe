import { expect, test } from '@playwright/test'
import ExcelJS from 'exceljs'
import { LEARNER_EXPORT_COLUMNS } from '@portal/shared'
import { signInAndWait } from './support'

/** A client's learners across its company's courses, one learner's registrations, the .xlsx export. */
test.use({ viewport: { width: 1280, height: 900 } })

test('a client opens Learners, filters, opens a learner and exports .xlsx', async ({ page }) => {
  await signInAndWait(page, 'client')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Learners' }).click()
  await expect(page).toHaveURL(/\/learners$/)
  await expect(page.getByRole('heading', { name: 'Learners', level: 1 })).toBeVisible()
  const showing = page.getByText(/^Showing \d+ to \d+ of \d+\+? learners?$/)
  await expect(showing).toBeVisible()

  // Filter by status: the URL keeps it, and the rows are learners with a completed course
  // (the first column is the learner, name and e-mail; the third is Completed).
  await page.getByLabel('Status').selectOption('completed')
  await expect(page).toHaveURL(/status=completed/)
  await expect(showing).toBeVisible()
  const rows = page.locator('table tbody tr')
  await expect(rows.first()).toBeVisible()
  const completed = await rows.locator('td:nth-child(3)').allInnerTexts()
  for (const n of completed) expect(Number(n)).toBeGreaterThan(0)
  const total = Number((await showing.innerText()).match(/of (\d+)/)![1])

  // Open the first learner: their registrations, each a link to its dispatch.
  await rows.first().getByRole('button').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('link').first()).toHaveAttribute('href', /^\/dispatches\//)
  await dialog.getByRole('button', { name: /close/i }).click()
  await expect(dialog).toBeHidden()

  // Export the filtered list as .xlsx and read it back.
  await page.getByRole('button', { name: 'Export' }).click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Excel (.xlsx)' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('Beacon Pharmaceuticals - learners.xlsx')
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.readFile((await download.path())!)
  const sheet = workbook.worksheets[0]!
  expect(sheet.getRow(1).values).toEqual([undefined, ...LEARNER_EXPORT_COLUMNS])
  expect(sheet.rowCount - 1).toBe(total)
  for (let i = 2; i <= sheet.rowCount; i += 1) expect(Number(sheet.getRow(i).getCell(5).value)).toBeGreaterThan(0)
})
