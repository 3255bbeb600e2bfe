import { expect, type Browser, type Locator, type Page } from '@playwright/test'
import { STORAGE, signInAndWait, type DemoRole } from './support'
/*
 * Helpers of the layout specs (forms-layouts and layouts): pages signed in at a width, the demo
 * API, and measures of what the user sees (boxes inside the window, lines of text, nothing covering).
 */
export const WIDE = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }
export const COMPANY = 'Beacon Pharmaceuticals' // the demo client's company (seed 42)
export const COMPANY_ID = 'beacon-pharmaceuticals'
/** Courses other spec files request or dispatch for the demo client: left alone here. */
export const OTHER_SPECS = ['Cloud Computing Certification Prep', 'Budgeting Fundamentals', 'Supply Chain Refresher']
export const DAY = /^\d{4}-\d{2}-\d{2}$/
export const DAY_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/

export type Box = { x: number; y: number; width: number; height: number }

export async function pageAs(browser: Browser, role: DemoRole, viewport = WIDE): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: WIDE })
  const page = await context.newPage()
  await signInAndWait(page, role)
  await page.setViewportSize(viewport)
  return page
}

export async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key), STORAGE.accessToken)
  const res = await page.request.get(path, { headers: { 'x-auth-token': token ?? '' } })
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true)
  return (await res.json()) as T
}

export async function apiPost<T>(page: Page, path: string, data: unknown): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key), STORAGE.accessToken)
  const res = await page.request.post(path, { headers: { 'x-auth-token': token ?? '' }, data })
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true)
  return (await res.json()) as T
}

export async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox()
  expect(b, 'the element has a box on screen').not.toBeNull()
  return b!
}

/** The whole box lies within the window, horizontally (and vertically when asked). */
export async function expectInsideWindow(page: Page, locator: Locator, vertical = false) {
  const b = await box(locator)
  const { width, height } = page.viewportSize()!
  expect(b.x, 'left edge inside the window').toBeGreaterThanOrEqual(0)
  expect(b.x + b.width, 'right edge inside the window').toBeLessThanOrEqual(width + 0.5)
  if (vertical) {
    expect(b.y).toBeGreaterThanOrEqual(0)
    expect(b.y + b.height).toBeLessThanOrEqual(height + 0.5)
  }
}

/** The number of lines an element's text is laid out on (the distinct tops of its text boxes). */
export const linesOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const tops = new Set(
      Array.from(range.getClientRects())
        .filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)),
    )
    return tops.size
  })

/** The element the pointer would hit at the centre of `locator` is it (or inside it): nothing covers it. */
export const uncovered = (locator: Locator) =>
  locator.evaluate((el) => {
    const b = el.getBoundingClientRect()
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2)
    return hit !== null && (hit === el || el.contains(hit))
  })

export type Course = { id: string; title: string }
export type Detail = { dispatches: { id: string; courseId: string; courseTitle: string }[] }

/** A course the demo client's company has no dispatch of, with the longest title (left to this spec). */
export async function freeCourse(admin: Page, skip: string[] = []): Promise<Course> {
  const listed = await apiGet<{ courses: Course[] } | Course[]>(admin, '/api/dispatches/courses')
  const courses = Array.isArray(listed) ? listed : listed.courses
  const detail = await apiGet<Detail>(admin, `/api/admin/companies/${COMPANY_ID}`)
  const taken = new Set(detail.dispatches.map((d) => d.courseId))
  const free = courses
    .filter((c) => !taken.has(c.id) && !OTHER_SPECS.includes(c.title) && !skip.includes(c.id))
    .sort((a, b) => b.title.length - a.title.length || a.id.localeCompare(b.id))
  expect(free.length, 'a course the company has not been dispatched').toBeGreaterThan(0)
  return free[0]!
}
