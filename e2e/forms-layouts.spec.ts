import { expect, test, type Locator } from '@playwright/test'
import {
  PHONE,
  COMPANY,
  COMPANY_ID,
  DAY,
  DAY_TIME,
  pageAs,
  apiGet,
  apiPost,
  box,
  expectInsideWindow,
  linesOf,
  uncovered,
  freeCourse,
  type Detail,
} from './layout-support'

/*
 * What a demanding user noticed in the forms, checked at the width where it was seen: the New
 * Dispatch form, fulfilling a request, one date format and export names, focus after Escape.
 */
test('New Dispatch marks the company’s courses, clears fixed errors, shows long names, then the client sees every card', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const admin = await pageAs(browser, 'admin')
  const course = await freeCourse(admin)
  const detail = await apiGet<Detail>(admin, `/api/admin/companies/${COMPANY_ID}`)
  const owned = detail.dispatches[0]!

  await admin.getByRole('button', { name: 'New Dispatch' }).first().click()
  const dialog = admin.getByRole('dialog', { name: 'New Dispatch' })
  await expect(dialog).toBeVisible()
  // The form is wider than the old 512 px box: the lists have room for long names.
  expect((await box(dialog)).width).toBeGreaterThan(600)

  // Submitting empty shows the messages; each goes once its field is right.
  await dialog.getByRole('button', { name: 'Create Dispatch' }).click()
  await expect(dialog.getByText('Choose a company.')).toBeVisible()
  await expect(dialog.getByText('Choose a course.')).toBeVisible()
  const companies = dialog.getByRole('listbox', { name: 'Company' })
  await expect(companies.locator('option', { hasText: COMPANY })).toHaveCount(1)
  await companies.selectOption(COMPANY_ID)
  await expect(dialog.getByText('Choose a company.')).toHaveCount(0)
  await expect(dialog.getByText('Choose a course.')).toBeVisible()

  // The company's courses are marked and cannot be chosen: no 409 to meet.
  const courses = dialog.getByRole('listbox', { name: 'Course' })
  await expect(
    dialog.getByText(`${COMPANY} has ${detail.dispatches.length} courses already, marked "already dispatched"`, {
      exact: false,
    }),
  ).toBeVisible()
  const ownedOption = courses.locator(`option[value="${owned.courseId}"]`)
  await expect(ownedOption).toBeDisabled()
  await expect(ownedOption).toHaveText(`${owned.courseTitle} (already dispatched)`)
  expect(await courses.locator('option:disabled').count()).toBe(detail.dispatches.length)

  // A long name: whole in the option's tooltip and written out in full once chosen.
  const option = courses.locator(`option[value="${course.id}"]`)
  await expect(option).toBeEnabled()
  await expect(option).toHaveAttribute('title', course.title)
  await courses.selectOption(course.id)
  await expect(dialog.getByText('Choose a course.')).toHaveCount(0)
  const chosen = dialog.locator('p', { hasText: 'Selected:' }).locator('span', { hasText: course.title })
  await expect(chosen).toBeVisible()
  expect(await chosen.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
  const chosenBox = await box(chosen)
  const dialogBox = await box(dialog)
  expect(chosenBox.x + chosenBox.width).toBeLessThanOrEqual(dialogBox.x + dialogBox.width)

  // The expiry field reads and takes yyyy-MM-dd, as every date field.
  const expiry = dialog.getByRole('textbox', { name: 'SCORM Expiry Date' })
  await expect(expiry).toHaveAttribute('placeholder', 'YYYY-MM-DD')
  await expiry.fill('2031-03-31')
  // Escape closes the calendar only, not the form around it.
  await expiry.press('Escape')
  await expect(dialog).toBeVisible()
  await expect(expiry).toHaveValue('2031-03-31')

  await dialog.getByRole('button', { name: 'Create Dispatch' }).click()
  await expect(admin.getByText('Dispatch created.')).toBeVisible()
  const created = await apiGet<Detail>(admin, `/api/admin/companies/${COMPANY_ID}`)
  expect(created.dispatches.map((d) => d.courseId)).toContain(course.id)

  // Opened again, the course just dispatched is marked too.
  await admin.getByRole('button', { name: 'New Dispatch' }).first().click()
  await admin
    .getByRole('dialog', { name: 'New Dispatch' })
    .getByRole('listbox', { name: 'Company' })
    .selectOption(COMPANY_ID)
  await expect(
    admin.getByRole('dialog', { name: 'New Dispatch' }).locator(`option[value="${course.id}"]`),
  ).toBeDisabled()
  await admin.context().close()

  // The client's dashboard at 390 px: as many cards as the total says, each with its View
  // Details link in sight and clickable, and Items per page usable.
  const client = await pageAs(browser, 'client', PHONE)
  const total = Number(await client.getByRole('region', { name: 'Total Dispatches' }).locator('p').innerText())
  expect(total).toBe(created.dispatches.length)
  const cards = client.getByRole('list', { name: 'Dispatches' }).getByRole('listitem')
  await expect(cards).toHaveCount(total)
  const links = client.getByRole('link', { name: /^View Details/ })
  await expect(links).toHaveCount(total)
  for (let i = 0; i < total; i += 1) {
    const link = cards.nth(i).getByRole('link', { name: /^View Details/ })
    // Scrolled to and checked again until the page has settled: the charts above the list
    // render after it and may push a card down between the scroll and the check.
    await expect(async () => {
      await link.scrollIntoViewIfNeeded()
      await expectInsideWindow(client, link, true)
      expect(await uncovered(link), `View Details of card ${i + 1} is not covered`).toBe(true)
    }).toPass()
  }
  const perPage = client.getByLabel('Items per page')
  await perPage.scrollIntoViewIfNeeded()
  expect(await uncovered(perPage)).toBe(true)
  await perPage.selectOption('10')
  await expect(cards).toHaveCount(10)
  await expect(client.getByRole('link', { name: /^View Details/ })).toHaveCount(10)
  await expect(client.getByText(`Showing 1 to 10 of ${total} dispatches`, { exact: false })).toBeVisible()
  await client.context().close()
})

test('fulfilling comes first with its cap editable; the status buttons are secondary', async ({ browser }) => {
  test.setTimeout(90_000)
  const admin = await pageAs(browser, 'admin')
  const course = await freeCourse(admin)
  const client = await pageAs(browser, 'client')
  await apiPost(client, '/api/course-requests', { courseId: course.id, licenses: 12 })
  await client.context().close()

  await admin.goto('/admin/course-requests')
  await admin.getByLabel('Search', { exact: true }).fill(course.title)
  const row = admin.getByRole('table', { name: 'Course requests' }).getByRole('row').filter({ hasText: course.title })
  await expect(row).toHaveCount(1)
  // The course name keeps a readable width: two lines at most.
  expect(await linesOf(row.getByRole('cell').first())).toBeLessThanOrEqual(2)
  await row.getByRole('button', { name: `Edit: ${course.title}` }).click()

  const dialog = admin.getByRole('dialog', { name: 'Update Request Status' })
  const fulfil = dialog.getByRole('region', { name: 'Fulfil request' })
  const create = fulfil.getByRole('button', { name: 'Create dispatch' })
  // First in the modal, in sight without scrolling, above the request's details; focus starts there.
  await expect(create).toBeInViewport()
  expect((await box(fulfil)).y).toBeLessThan((await box(dialog.getByText('Requestor', { exact: true }))).y)
  const cap = fulfil.getByLabel('License cap')
  await expect(cap).toBeFocused()
  await expect(cap).toHaveValue('12')

  // One main action: the fulfil button is filled, the status buttons are outlined.
  const background = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor)
  const primary = await background(create)
  for (const name of ['Mark as Processed', 'Mark as Completed']) {
    const other = await background(dialog.getByRole('button', { name }))
    expect(other, `${name} is not styled as the main action`).not.toBe(primary)
    expect(other).toBe('rgb(255, 255, 255)')
  }

  await cap.fill('7')
  await create.click()
  await expect(admin.getByRole('status').filter({ hasText: 'Request updated successfully.' })).toBeVisible()
  await expect(row).toContainText('Processed')
  const detail = await apiGet<Detail>(admin, `/api/admin/companies/${COMPANY_ID}`)
  const made = detail.dispatches.find((d) => d.courseId === course.id)!
  const dispatch = await apiGet<{ registrationCap: number }>(admin, `/api/dispatches/${made.id}`)
  expect(dispatch.registrationCap).toBe(7)

  // At 390 px the request is a card whose course name takes two lines at most.
  await admin.setViewportSize(PHONE)
  const card = admin.getByRole('list', { name: 'Course requests' }).getByRole('heading', { name: course.title })
  await expect(card).toBeVisible()
  expect(await linesOf(card)).toBeLessThanOrEqual(2)
  await expectInsideWindow(admin, card)
  await admin.context().close()
})

test('dates read yyyy-MM-dd everywhere; exports are named for what they hold; Escape returns focus to Export', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const client = await pageAs(browser, 'client')
  const list = await apiGet<{
    dispatches: { id: string; courseTitle: string; destinationName: string; registrationCount: number }[]
  }>(client, '/api/dispatches?pageSize=100')
  // A dispatch with learners, so the report has rows (earlier tests add dispatches without any).
  const dispatch = [...list.dispatches].sort((a, b) => b.registrationCount - a.registrationCount)[0]!
  await client.goto(`/dispatches/${dispatch.id}`)
  const created = client.locator('dt', { hasText: /^Created$/ }).locator('xpath=following-sibling::dd')
  await expect(created).toHaveText(DAY_TIME)
  const report = client.getByRole('region', { name: 'Completion Report' })
  await expect(report.getByRole('textbox', { name: 'Last Access From' })).toHaveAttribute('placeholder', 'YYYY-MM-DD')
  const lastAccess = report.locator('table tbody tr td:last-child').first()
  await expect(lastAccess).toHaveText(/^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}|Never accessed)$/)

  // Escape closes the Export menu and focus is back on its button, from the button or a choice.
  const exportButton = report.getByRole('button', { name: 'Export' })
  await exportButton.click()
  await expect(report.getByRole('button', { name: 'CSV' })).toBeVisible()
  await client.keyboard.press('Escape')
  await expect(report.getByRole('button', { name: 'CSV' })).toHaveCount(0)
  await expect(exportButton).toBeFocused()
  await exportButton.press('Enter')
  await client.keyboard.press('Tab')
  await expect(report.getByRole('button', { name: 'CSV' })).toBeFocused()
  await client.keyboard.press('Escape')
  await expect(exportButton).toBeFocused()

  // The completion report's export is named after the company and the course.
  await exportButton.click()
  const [csv] = await Promise.all([
    client.waitForEvent('download'),
    report.getByRole('button', { name: 'CSV' }).click(),
  ])
  expect(csv.suggestedFilename()).toBe(`${COMPANY} - ${dispatch.courseTitle} - completion report.csv`)

  // The learners export, after the company (a client does not even see its company's name there).
  await client.goto('/learners')
  await client.getByRole('button', { name: 'Export' }).click()
  const [learners] = await Promise.all([
    client.waitForEvent('download'),
    client.getByRole('button', { name: 'CSV' }).click(),
  ])
  expect(learners.suggestedFilename()).toBe(`${COMPANY} - learners.csv`)
  await client.context().close()

  // Staff screens: the dispatch expiry in the edit form, the catalogue's dates, the users table.
  const admin = await pageAs(browser, 'admin')
  await admin.goto(`/dispatches/${dispatch.id}`)
  await admin.getByRole('button', { name: 'Edit Dispatch' }).click()
  const expiry = admin.getByRole('form', { name: 'Edit dispatch' }).getByRole('textbox', { name: 'SCORM Expiry Date' })
  await expect(expiry).toHaveAttribute('placeholder', 'YYYY-MM-DD')
  await expiry.fill('2030-12-31')
  await expiry.press('Escape')
  await expect(expiry).toHaveValue('2030-12-31')
  await admin.goto(`/admin/companies/${COMPANY_ID}`)
  await admin.getByRole('tab', { name: /SCORM Dispatches/ }).click()
  const createdCell = admin.getByRole('tabpanel').locator('tbody tr td:nth-child(2)').first()
  await expect(createdCell).toHaveText(DAY)
  await admin.context().close()
})
