import { expect, test, type Browser, type Page } from '@playwright/test'
import { signInAndWait, type DemoRole } from './support'

/*
 * In the browser. The demo client belongs to Beacon Pharmaceuticals (seed 42). Each
 * flow uses a course of its own, so the flows (and other spec files) do not disturb each other:
 *   - Cloud Computing Certification Prep: requested by the client (no dispatch to its company);
 *   - Budgeting Fundamentals: its description is edited;
 *   - Supply Chain Refresher: shown, then hidden.
 * Courses in the mirror start hidden (docs/product-rules.md §3 isVisible defaults to false), so a flow that needs
 * the client to see a course first makes it visible as admin, which also works when it already is.
 */
const REQUESTED = { id: 'cloud-computing-certification-prep', title: 'Cloud Computing Certification Prep' }
const EDITED = { id: 'budgeting-fundamentals', title: 'Budgeting Fundamentals' }
const HIDDEN = { id: 'supply-chain-refresher', title: 'Supply Chain Refresher' }

const DEMO_URL = 'https://demo.example.com/cloud-computing'
const REQUEST_NOTES = 'Needed for the spring onboarding cohort.'
const ADMIN_NOTE = 'Demo access is ready; licences follow next week.'

/** A signed-in page in a browser context of its own, so admin and client can take turns. */
async function pageAs(browser: Browser, role: DemoRole): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await signInAndWait(page, role)
  return page
}

/** Flows that sign in as admin and as client take longer than the default on a busy machine. */
const TWO_USER_TIMEOUT_MS = 60_000

const visibilitySwitch = (page: Page) => page.getByRole('switch', { name: 'Course visibility' })

/** Admin on the course page: sets the visibility switch to `visible` if it is not already. */
async function setVisibility(page: Page, id: string, visible: boolean) {
  await page.goto(`/courses/${id}`)
  const toggle = visibilitySwitch(page)
  await expect(toggle).toBeVisible()
  if ((await toggle.getAttribute('aria-checked')) !== String(visible)) {
    await toggle.click()
    await expect(page.getByText(`Course visibility updated to ${visible ? 'visible' : 'hidden'}`)).toBeVisible()
  }
  await expect(toggle).toHaveAttribute('aria-checked', String(visible))
}

/** The client's catalogue narrowed to one title by the search box. */
async function searchCatalogue(page: Page, title: string) {
  await page.goto('/courses')
  await expect(page.getByRole('heading', { name: 'Courses', exact: true })).toBeVisible()
  await page.getByLabel('Search', { exact: true }).fill(title)
}

test.describe('course request workflow', () => {
  test.describe.configure({ mode: 'serial', timeout: TWO_USER_TIMEOUT_MS })

  test('a client requests a course from the catalogue and finds it in My Course Requests', async ({ browser }) => {
    // Setup as admin: the course is visible and has a demo link (set through the edit form).
    const admin = await pageAs(browser, 'admin')
    await setVisibility(admin, REQUESTED.id, true)
    await admin.getByRole('button', { name: 'Edit Course' }).click()
    await admin.getByLabel('Demo URL').fill(DEMO_URL)
    await admin.getByRole('button', { name: 'Save Changes' }).click()
    await expect(admin.getByText('Course details updated successfully!')).toBeVisible()
    await expect(admin.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', DEMO_URL)
    await admin.context().close()

    const client = await pageAs(browser, 'client')
    await searchCatalogue(client, REQUESTED.title)
    await expect(client.getByText('Showing 1 to 1 of 1 course')).toBeVisible()
    const card = client.getByRole('article', { name: REQUESTED.title })
    await card.getByRole('link', { name: `Request: ${REQUESTED.title}` }).click()
    await expect(client).toHaveURL(new RegExp(`/courses/${REQUESTED.id}\\?request=true$`))

    // Before any request is processed, the client gets no demo link.
    await expect(client.getByRole('heading', { name: REQUESTED.title, level: 1 })).toBeVisible()
    await expect(client.getByRole('link', { name: 'View Demo' })).toHaveCount(0)

    // ?request=true opens the form at once.
    await expect(client.getByPlaceholder('Any specific requirements or questions?')).toBeVisible()
    await client.getByLabel('Number of Licenses').fill('5')
    await client.getByLabel('Notes').fill(REQUEST_NOTES)
    await client.getByRole('button', { name: 'Submit Request' }).click()
    await expect(client.getByText('Course request submitted successfully!')).toBeVisible()

    await client.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Course Requests' }).click()
    await expect(client).toHaveURL(/\/course-requests$/)
    await expect(client.getByRole('heading', { name: 'My Course Requests' })).toBeVisible()
    await expect(client.getByRole('region', { name: 'Pending' })).toHaveText(/^Pending\s*[1-9]\d*$/)
    const row = client.getByRole('table', { name: 'My course requests' }).getByRole('row', { name: /Cloud Computing/ })
    await expect(row).toHaveCount(1)
    const cells = row.getByRole('cell')
    await expect(cells.nth(0)).toContainText(REQUESTED.title)
    await expect(cells.nth(0)).toContainText('Pending')
    await expect(cells.nth(1)).toHaveText('5')
    await expect(cells.nth(3)).toHaveText('No demo available')
    await client.context().close()
  })

  test('an admin marks it Processed with a note; the client then sees the demo link and the note', async ({
    browser,
  }) => {
    const admin = await pageAs(browser, 'admin')
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Course Requests' }).click()
    await expect(admin).toHaveURL(/\/admin\/course-requests$/)
    await admin.getByLabel('Search', { exact: true }).fill(REQUESTED.title)
    const table = admin.getByRole('table', { name: 'Course requests' })
    const row = table.getByRole('row').filter({ hasText: REQUESTED.title })
    await expect(row).toHaveCount(1)
    await expect(row).toContainText('Chris Client')
    await expect(row).toContainText('Beacon Pharmaceuticals')
    await expect(row).toContainText('Pending')
    await row.getByRole('button', { name: `Edit: ${REQUESTED.title}` }).click()

    const dialog = admin.getByRole('dialog', { name: 'Update Request Status' })
    await expect(dialog).toContainText(REQUEST_NOTES)
    // The demo URL is the one in the course details, read-only.
    await expect(dialog.getByLabel('Demo URL')).toHaveValue(DEMO_URL)
    await expect(dialog.getByRole('button', { name: 'Set as Pending' })).toHaveCount(0)
    await dialog.getByLabel('Admin Notes').fill(ADMIN_NOTE)
    await dialog.getByRole('button', { name: 'Mark as Processed' }).click()
    await expect(admin.getByRole('status').filter({ hasText: 'Request updated successfully.' })).toBeVisible()
    await expect(dialog).toHaveCount(0)
    await expect(row).toContainText('Processed')
    await admin.context().close()

    const client = await pageAs(browser, 'client')
    await client.goto('/course-requests')
    const mine = client.getByRole('table', { name: 'My course requests' }).getByRole('row', { name: /Cloud Computing/ })
    await expect(mine).toContainText('Processed')
    await expect(mine).toContainText(`Admin notes: ${ADMIN_NOTE}`)
    await expect(mine.getByRole('link', { name: `View Demo: ${REQUESTED.title}` })).toHaveAttribute('href', DEMO_URL)

    // The course page shows the demo link to this client now too.
    await client.goto(`/courses/${REQUESTED.id}`)
    await expect(client.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', DEMO_URL)
    await client.context().close()
  })
})

test('an admin writes a description with bold text and a link, and the course page shows it', async ({ page }) => {
  const LINK = 'https://example.com/budget-guide'
  await signInAndWait(page, 'admin')
  await page.goto(`/courses/${EDITED.id}`)
  await expect(page.getByRole('heading', { name: EDITED.title, level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Edit Course' }).click()

  // The Quill editor with the product-rules toolbar.
  const editor = page.getByRole('textbox', { name: 'Description' })
  await expect(editor).toBeVisible()
  for (const button of ['bold', 'italic', 'underline', 'strike', 'blockquote', 'code-block', 'link', 'clean']) {
    await expect(page.getByRole('button', { name: button, exact: true })).toBeVisible()
  }
  await editor.click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.type('Plan the year with ')
  await page.getByRole('button', { name: 'bold', exact: true }).click()
  await page.keyboard.type('clear budgets')
  await page.getByRole('button', { name: 'bold', exact: true }).click()
  await page.keyboard.type(' and read the guide')
  for (let i = 0; i < 'guide'.length; i++) await page.keyboard.press('Shift+ArrowLeft')
  await page.getByRole('button', { name: 'link', exact: true }).click()
  const linkInput = page.locator('.ql-tooltip input[data-link]')
  await expect(linkInput).toBeVisible()
  await linkInput.fill(LINK)
  await linkInput.press('Enter')

  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Course details updated successfully!')).toBeVisible()

  const expectDescription = async () => {
    const overview = page.getByRole('region', { name: EDITED.title })
    await expect(overview.getByText('Plan the year with')).toBeVisible()
    await expect(overview.locator('strong', { hasText: 'clear budgets' })).toBeVisible()
    const link = overview.getByRole('link', { name: 'guide', exact: true })
    await expect(link).toHaveAttribute('href', LINK)
    await expect(link).toHaveAttribute('target', '_blank')
  }
  await expectDescription()
  // Saved on the server, not only in the page.
  await page.reload()
  await expectDescription()
})

test('an admin hides a course and the client no longer sees it', async ({ browser }) => {
  test.setTimeout(TWO_USER_TIMEOUT_MS)
  const admin = await pageAs(browser, 'admin')
  const client = await pageAs(browser, 'client')

  await setVisibility(admin, HIDDEN.id, true)
  await searchCatalogue(client, HIDDEN.title)
  await expect(client.getByRole('article', { name: HIDDEN.title })).toBeVisible()

  await setVisibility(admin, HIDDEN.id, false)
  await expect(admin.getByText('Visibility: Hidden')).toBeVisible()

  await searchCatalogue(client, HIDDEN.title)
  await expect(client.getByText('No courses found')).toBeVisible()
  await expect(client.getByText('Try adjusting your search or filter criteria.')).toBeVisible()
  await expect(client.getByRole('article')).toHaveCount(0)

  await client.goto(`/courses/${HIDDEN.id}`)
  await expect(client.getByText('Course not found or data is incomplete.')).toBeVisible()
  await expect(client.getByRole('heading', { name: HIDDEN.title })).toHaveCount(0)

  // The admin still has it, marked Hidden, under Hidden Only.
  await admin.goto('/courses?visibility=hidden')
  await admin.getByLabel('Search', { exact: true }).fill(HIDDEN.title)
  await expect(admin.getByRole('article', { name: HIDDEN.title })).toContainText('Hidden')

  await admin.context().close()
  await client.context().close()
})
