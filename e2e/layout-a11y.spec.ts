import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ACCOUNTS, STORAGE, signInAndWait, type DemoRole } from './support'

/**
 * Every screen, for every role that may open it, at 1280 and 390 px: the page never
 * scrolls sideways and axe finds nothing above "minor". One sign-in per role and one page that
 * visits each screen and is resized in place, so the whole spec stays quick.
 */
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const
const REPORTED = new Set(['moderate', 'serious', 'critical'])
const ALL: DemoRole[] = ['admin', 'internal', 'sales', 'client']

/** Ids the detail screens need, read from the API as the signed-in user. */
type Ids = { dispatch: string; user?: string }

type Screen = {
  name: string
  roles: DemoRole[]
  path: (ids: Ids) => string
  /** What shows once the screen's data has loaded. */
  ready: (page: Page) => Promise<void>
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

/** The screens, in one list: a screen added to the portal gets a line here. */
const SCREENS: Screen[] = [
  { name: 'dashboard', roles: ALL, path: () => '/dashboard', ready: heading(/Dispatches/) },
  { name: 'dispatch', roles: ALL, path: (ids) => `/dispatches/${ids.dispatch}`, ready: heading(/.+/) },
  { name: 'courses', roles: ALL, path: () => '/courses', ready: heading('Courses') },
  { name: 'course', roles: ALL, path: () => '/courses/budgeting-fundamentals', ready: heading(/Budgeting/) },
  { name: 'course requests', roles: ['client'], path: () => '/course-requests', ready: heading(/Course Requests/) },
  {
    name: 'admin course requests',
    roles: ['admin', 'sales'],
    path: () => '/admin/course-requests',
    ready: heading(/Course Requests/),
  },
  { name: 'companies', roles: ['admin', 'sales'], path: () => '/admin/companies', ready: heading('Companies') },
  {
    name: 'company',
    roles: ['admin', 'sales'],
    path: () => '/admin/companies/beacon-pharmaceuticals',
    ready: heading('Beacon Pharmaceuticals'),
  },
  { name: 'learners', roles: ['client'], path: () => '/learners', ready: heading('Learners') },
  { name: 'webhooks', roles: ['admin', 'client'], path: () => '/integrations/webhooks', ready: heading('Webhooks') },
  {
    name: 'learners of a company',
    roles: ['admin'],
    path: () => '/learners?companyId=beacon-pharmaceuticals',
    ready: heading('Learners'),
  },
  {
    name: 'statements',
    roles: ['client'],
    path: () => '/statements',
    ready: async (page) => {
      await expect(page.getByRole('table', { name: /^Usage statement / })).toBeVisible()
    },
  },
  {
    name: 'statements of a company',
    roles: ['admin'],
    path: () => '/statements?companyId=beacon-pharmaceuticals&year=true',
    ready: async (page) => {
      await expect(page.getByRole('table', { name: /^Usage statement / })).toBeVisible()
    },
  },
  { name: 'settings', roles: ['admin'], path: () => '/settings', ready: heading('Settings') },
  { name: 'user', roles: ['admin'], path: (ids) => `/admin/users/${ids.user}`, ready: heading(/.+/) },
  { name: 'logs', roles: ['admin'], path: () => '/logs', ready: heading('Activity Logs') },
  { name: 'outbox', roles: ['admin'], path: () => '/admin/outbox', ready: heading('Mail Outbox') },
  { name: 'profile', roles: ALL, path: () => '/profile', ready: heading(/Profile/) },
  { name: 'not found', roles: ['client'], path: () => '/no/such/page', ready: heading(/.+/) },
]

async function readIds(page: Page, role: DemoRole): Promise<Ids> {
  const token = await page.evaluate((key) => localStorage.getItem(key), STORAGE.accessToken)
  const headers = { 'x-auth-token': token ?? '' }
  const list = (await (await page.request.get('/api/dispatches', { headers })).json()) as {
    dispatches: { id: string }[]
  }
  const ids: Ids = { dispatch: list.dispatches[0]!.id }
  if (role === 'admin') {
    const users = (await (await page.request.get('/api/users', { headers })).json()) as { id: string; email: string }[]
    ids.user = users.find((u) => u.email === ACCOUNTS.client)!.id
  }
  return ids
}

/** Waits for loading indicators to go, so axe and the width check see the finished screen. */
async function settle(page: Page) {
  await expect(page.locator('[aria-busy="true"], [data-loading="true"]')).toHaveCount(0)
}

async function check(page: Page, width: number, label: string, problems: string[]) {
  const overflow = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }))
  if (overflow.scroll > overflow.inner) {
    problems.push(`${label}: page is ${overflow.scroll}px wide in a ${overflow.inner}px window`)
  }
  // Colours do not change with the width: the contrast rule (axe's slowest) runs at 1280 px only.
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] })
  if (width !== WIDTHS[0].width) axe.disableRules(['color-contrast'])
  const result = await axe.analyze()
  for (const violation of result.violations) {
    if (!REPORTED.has(violation.impact ?? '')) continue
    const where = violation.nodes
      .slice(0, 3)
      .map((node) => node.target.join(' '))
      .join(' | ')
    problems.push(`${label}: ${violation.impact} ${violation.id} (${violation.nodes.length}) at ${where}`)
  }
}

async function checkBothWidths(page: Page, label: string, problems: string[], ready: () => Promise<void>) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await ready()
    await settle(page)
    await check(page, size.width, `${label} @${size.width}`, problems)
  }
}

test('the sign-in page fits both widths and passes axe', async ({ page }) => {
  const problems: string[] = []
  await page.goto('/login')
  await checkBothWidths(page, 'login', problems, heading(/.+/).bind(null, page))
  expect(problems).toEqual([])
})

for (const role of ALL) {
  test(`every screen fits 1280 and 390 px and passes axe as ${role}`, async ({ page }) => {
    // Up to 12 screens, each twice; seconds each on CI, far more on a machine busy with other work.
    test.setTimeout(240_000)
    const problems: string[] = []
    await signInAndWait(page, role)
    const ids = await readIds(page, role)
    for (const screen of SCREENS.filter((s) => s.roles.includes(role))) {
      await page.setViewportSize(WIDTHS[0])
      await page.goto(screen.path(ids))
      await checkBothWidths(page, screen.name, problems, () => screen.ready(page))
    }
    expect(problems).toEqual([])
  })
}
