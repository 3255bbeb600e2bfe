import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { XSS_MARKER, XSS_PAYLOADS } from '../apps/server/src/test/security/xss-payloads'
import { ACCOUNTS, DEMO_PASSWORD, signInAndWait, type DemoRole } from './support'

/*
 * stored XSS in the browser: every payload of xss-payloads.ts is saved as one course
 * description through the API as admin, then the course page is opened in Chromium as admin and
 * as the client. Nothing may run: no dialog, no console marker, no injected global. The server
 * half (what is stored) is apps/server/src/test/security/stored-xss.test.ts.
 */
const USED_ELSEWHERE = ['cloud-computing-certification-prep', 'budgeting-fundamentals', 'supply-chain-refresher']
const START = 'XSS-START-OF-DESCRIPTION'
const END = 'XSS-END-OF-DESCRIPTION'

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email: ACCOUNTS.admin, password: DEMO_PASSWORD } })
  expect(res.ok()).toBe(true)
  return ((await res.json()) as { accessToken: string }).accessToken
}

/** Records anything a payload could do once the page runs it. */
function watch(page: Page) {
  const seen: string[] = []
  page.on('dialog', (dialog) => {
    seen.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  page.on('console', (msg) => {
    if (msg.text().includes(XSS_MARKER)) seen.push(`console: ${msg.text()}`)
  })
  page.on('pageerror', (error) => {
    if (error.message.includes(XSS_MARKER)) seen.push(`error: ${error.message}`)
  })
  return seen
}

test('no stored payload runs on the course page, for admin or client', async ({ request, browser }) => {
  const token = await adminToken(request)
  const headers = { 'x-auth-token': token }
  const list = (await (await request.get('/api/dispatches/courses', { headers })).json()) as {
    courses: { id: string }[]
  }
  const course = list.courses.map((c) => c.id).find((id) => !USED_ELSEWHERE.includes(id))!
  const description = `<p>${START}</p>${XSS_PAYLOADS.join('\n')}<p>${END}</p>`
  const saved = await request.put(`/api/courses/${course}/details`, { headers, data: { description } })
  expect(saved.status()).toBe(200)
  expect(
    (await request.put(`/api/courses/${course}/visibility`, { headers, data: { isVisible: true } })).status(),
  ).toBe(200)

  for (const role of ['admin', 'client'] as DemoRole[]) {
    const context = await browser.newContext()
    const page = await context.newPage()
    const seen = watch(page)
    await signInAndWait(page, role)
    await page.goto(`/courses/${course}`)
    // The description is on the page, so the payloads were rendered, not skipped.
    await expect(page.getByText(START)).toBeVisible()
    await expect(page.getByText(END)).toBeVisible()
    // Give event handlers (onload, onerror, ontoggle, animations) time to fire if they exist.
    await page.mouse.move(200, 300)
    await page.waitForTimeout(1500)
    for (const link of await page.locator('a[href^="javascript"], a[href^="vbscript"], a[href^="data:"]').all()) {
      seen.push(`dangerous link rendered: ${await link.getAttribute('href')}`)
    }
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
    expect(seen, role).toEqual([])
    await context.close()
  }
})
