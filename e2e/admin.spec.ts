import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { signInAndWait } from './support'

/** docs/product-rules.md §7: the export's columns, in order. */
const CSV_COLUMNS = ['Timestamp', 'User Name', 'User Email', 'Action', 'Details', 'IP Address']

/** A strict RFC 4180 reader: CRLF records, quoted fields may hold commas, CR, LF and doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  while (i < text.length) {
    let field = ''
    if (text[i] === '"') {
      i += 1
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field')
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"'
          i += 2
        } else if (text[i] === '"') {
          i += 1
          break
        } else {
          field += text[i]
          i += 1
        }
      }
    } else {
      while (i < text.length && !',\r\n'.includes(text[i]!)) {
        if (text[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`)
        field += text[i]
        i += 1
      }
    }
    record.push(field)
    if (text[i] === ',') {
      i += 1
    } else if (text.startsWith('\r\n', i)) {
      records.push(record)
      record = []
      i += 2
    } else if (i < text.length) {
      throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`)
    }
  }
  if (record.length > 0) throw new Error('the last record lacks its CRLF')
  return records
}

/** A UTC calendar day as YYYY-MM-DD, `offset` days from today (the server filters UTC days). */
const utcDay = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

const userRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email })

test.describe('admin', () => {
  test('creates a client user who signs in, then suspends it and the user is signed out', async ({ page, browser }) => {
    test.slow() // two accounts, four sign-ins or reloads and a clean-up: more than 30 s on a busy machine
    const email = `e2e-client-${Date.now()}@example.test`
    const password = 'plum-kettle-orbit-7429'

    await signInAndWait(page, 'admin')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible()

    await page.getByRole('button', { name: 'Add User' }).click()
    const form = page.getByRole('form', { name: 'Create New User' })
    await expect(form).toBeVisible()
    // docs/product-rules.md §5: the form checks before it sends.
    await form.getByRole('button', { name: 'Create User' }).click()
    await expect(form.getByRole('alert')).toHaveText('Email and password are required for new users.')

    await form.getByLabel('Email').fill(email)
    await form.getByLabel('Password').fill(password)
    // docs/product-rules.md §9: client is the default role, and a client needs a company.
    await expect(form.getByLabel('Role')).toHaveValue('client')
    await form.getByRole('button', { name: 'Create User' }).click()
    await expect(form.getByRole('alert')).toHaveText('Client role requires a selected client (destination).')

    const client = form.getByLabel('Client')
    await expect(form.getByText(/^\d+ clients available$/)).toBeVisible()
    const options = client.locator('option')
    expect(await options.count()).toBeGreaterThan(1)
    // The last company of the list: the demo client's own company is left alone.
    const companyName = (await options.last().textContent())!.trim()
    await client.selectOption({ label: companyName })
    await form.getByRole('button', { name: 'Create User' }).click()
    await expect(form).toBeHidden()

    const row = userRow(page, email)
    await expect(row).toHaveCount(1)
    await expect(row.getByRole('cell').nth(1)).toHaveText('Client')
    await expect(row.getByRole('cell').nth(2)).toHaveText('Active')
    await expect(row.getByRole('cell').nth(3)).toHaveText(companyName)
    await expect(row.getByRole('cell').nth(4)).toHaveText(utcDay())
    await expect(row.getByRole('cell').nth(5)).toHaveText('-')

    // The new user, in a browser context of its own.
    const context = await browser.newContext()
    try {
      const userPage = await context.newPage()
      await userPage.goto('/login')
      await userPage.getByLabel('Email').fill(email)
      await userPage.getByLabel('Password').fill(password)
      await userPage.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(userPage).toHaveURL(/\/dashboard$/)
      await expect(userPage.getByRole('heading', { name: 'Your Dispatches' })).toBeVisible()

      await page.reload()
      await expect(row.getByRole('cell').nth(5)).not.toHaveText('-')
      await row.getByRole('button', { name: `Suspend ${email}` }).click()
      await expect(row.getByRole('cell').nth(2)).toHaveText('Suspended')
      await expect(row.getByRole('button', { name: `Activate ${email}` })).toBeVisible()
      // The list reloads from the server after the toggle: the suspension was stored.
      await page.reload()
      await expect(userRow(page, email).getByRole('cell').nth(2)).toHaveText('Suspended')

      // Its next call that fetches data is refused, and the refresh too: back to the sign-in screen.
      await userPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click()
      await expect(userPage).toHaveURL(/\/login$/)
      await expect(userPage.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
    } finally {
      await context.close()
    }

    // Clean up: Delete asks first.
    await userRow(page, email)
      .getByRole('button', { name: `Delete ${email}` })
      .click()
    const dialog = page.getByRole('alertdialog')
    await expect(dialog).toContainText(email)
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await expect(userRow(page, email)).toHaveCount(0)
  })

  test('renames a company on its detail page and back inline in the list', async ({ page }) => {
    await signInAndWait(page, 'admin')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Companies' }).click()
    await expect(page.getByRole('heading', { name: 'Companies', exact: true })).toBeVisible()
    await expect(page.getByText(/^Showing (\d+) of \1 companies$/)).toBeVisible()

    // The last company of the list, which no other spec looks for.
    const rows = page.getByRole('table', { name: 'Companies' }).getByRole('row')
    const lastRow = rows.last()
    const original = (await lastRow.getByRole('cell').first().textContent())!.trim()
    const renamed = `${original} (E2E renamed)`

    await lastRow.getByRole('link', { name: `View ${original}` }).click()
    await expect(page.getByRole('heading', { level: 1, name: original })).toBeVisible()
    await expect(page.getByText(/^ID: /)).toBeVisible()
    await page.getByRole('button', { name: 'Edit name' }).click()
    const name = page.getByLabel('Company name')
    await name.fill('   ')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('Company name cannot be empty')).toBeVisible()
    await name.fill(renamed)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible()
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible()

    await page.getByRole('link', { name: 'Back to Companies' }).click()
    const search = page.getByRole('searchbox', { name: 'Search companies' })
    await search.fill('(E2E renamed)')
    await expect(page.getByText(/^Showing 1 of \d+ companies$/)).toBeVisible()
    const row = rows.filter({ hasText: renamed })
    await expect(row).toHaveCount(1)

    // Back to the original name, inline in the list.
    await row.getByRole('button', { name: `Edit ${renamed}` }).click()
    const editing = rows.filter({ has: page.getByLabel('Company name') })
    await expect(editing.getByLabel('Account manager')).toBeVisible()
    await editing.getByLabel('Company name').fill(original)
    await editing.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(/^Showing 0 of \d+ companies$/)).toBeVisible()
    await search.fill(original)
    await expect(rows.filter({ hasText: original }).first()).toBeVisible()
    await expect(page.getByText(renamed)).toHaveCount(0)
  })

  test('filters the activity logs by action and dates, and downloads the filtered CSV', async ({ page }) => {
    await signInAndWait(page, 'admin')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs' }).click()
    await expect(page.getByRole('heading', { name: 'Activity Logs' })).toBeVisible()
    const total = page.getByText(/^Total Logs: /)
    await expect(total).toBeVisible()
    const table = page.getByRole('table', { name: 'Activity logs' })
    const actionCells = table.locator('tbody tr td:nth-child(3)')

    await page.getByLabel('Action', { exact: true }).selectOption('LOGIN_SUCCESS')
    await expect(page.getByText(/^Page 1 of \d+ \(Total: \d+ logs\)$/)).toBeVisible()
    await expect(actionCells.first()).toHaveText('LOGIN_SUCCESS')
    const shown = await actionCells.allTextContents()
    expect(shown.length).toBeGreaterThan(0)
    expect(new Set(shown)).toEqual(new Set(['LOGIN_SUCCESS']))

    // docs/product-rules.md §2: the date filters take and show yyyy-MM-dd, typed key by key into the picker.
    const typeDay = async (label: string, day: string) => {
      const box = page.getByRole('textbox', { name: label, exact: true })
      await box.clear()
      await box.pressSequentially(day)
      await box.press('Escape') // closes the calendar: the box now shows the picked day
      await expect(box).toHaveValue(day)
    }
    // A range in the past holds none of them.
    await typeDay('Start Date', '2020-01-01')
    await typeDay('End Date', '2020-01-31')
    await expect(page.getByText('No logs found matching your criteria.')).toBeVisible()
    await expect(total).toHaveText('Total Logs: 0')

    // Yesterday to today (UTC) holds this run's sign-ins.
    await typeDay('End Date', utcDay())
    await typeDay('Start Date', utcDay(-1))
    await expect(actionCells.first()).toHaveText('LOGIN_SUCCESS')
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
    const inRange = await actionCells.allTextContents()
    expect(new Set(inRange)).toEqual(new Set(['LOGIN_SUCCESS']))
    const count = Number((await total.textContent())!.replace(/\D/g, ''))
    expect(count).toBeGreaterThan(0)
    if (count <= 50) expect(inRange).toHaveLength(count)
    await expect(page.getByText(`(Total: ${count} logs)`)).toBeVisible()

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('activity_logs_filtered.csv')
    const records = parseCsv(await readFile((await download.path())!, 'utf8'))
    expect(records[0]).toEqual(CSV_COLUMNS)
    const data = records.slice(1)
    expect(data).toHaveLength(count)
    for (const record of data) {
      expect(record).toHaveLength(CSV_COLUMNS.length)
      expect(record[3]).toBe('LOGIN_SUCCESS')
      expect([utcDay(-1), utcDay()]).toContain(record[0]!.slice(0, 10))
    }
    expect(data.map((record) => record[2])).toContain('admin@demo.local')
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeEnabled()
  })
})
