import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { signInAndWait } from './support'

/** Standard Webhooks verification, written here from the specification. */
function verified(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id'] ?? '')
  const timestamp = String(headers['webhook-timestamp'] ?? '')
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const given = Buffer.from(s.replace(/^v1,/, ''), 'base64')
      return s.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected)
    })
}

test.describe('Webhooks', () => {
  test('a client user adds a webhook, sends a test event that arrives signed, and pulls completions with an API key', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000)
    const received: { headers: IncomingHttpHeaders; body: string }[] = []
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
    try {
      await signInAndWait(page, 'client')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click()
      await expect(page).toHaveURL(/\/integrations\/webhooks$/)
      await page.getByRole('button', { name: 'Add webhook' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add webhook' })
      await dialog.getByLabel('Endpoint URL').fill(url)
      await dialog.getByRole('checkbox', { name: 'registration.completed' }).check()
      await dialog.getByRole('button', { name: 'Add webhook' }).click()

      const shown = page.getByRole('dialog', { name: 'Signing secret' })
      const secret = (await shown.getByLabel('Signing secret').textContent())!.trim()
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/)
      await shown.getByRole('button', { name: 'Done' }).click()

      const log = page.getByRole('region', { name: `Deliveries of ${url}` })
      await log.getByRole('button', { name: 'Send a test event' }).click()
      const row = log.getByRole('row').filter({ hasText: 'webhook.test' })
      await expect(row).toContainText('Delivered', { timeout: 20_000 })
      await expect(row).toContainText('200')
      // The demo's live learners complete registrations meanwhile, and the subscription takes
      // registration.completed: the test events are told apart from those by their type.
      const tests = () => received.filter((r) => (JSON.parse(r.body) as { type?: string }).type === 'webhook.test')
      expect(tests()).toHaveLength(1)
      expect(verified(secret, tests()[0]!.headers, tests()[0]!.body)).toBe(true)

      // "Send again": the same event (same webhook-id) arrives a second time.
      await row
        .first()
        .getByRole('button', { name: /^Send again/ })
        .click()
      await expect.poll(() => tests().length, { timeout: 20_000 }).toBe(2)
      expect(tests()[1]!.headers['webhook-id']).toBe(tests()[0]!.headers['webhook-id'])

      // An API key of the company, and its completions pulled with it.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click()
      await page.getByRole('button', { name: 'Create API key' }).click()
      const keyDialog = page.getByRole('dialog', { name: 'Create API key' })
      const name = `e2e completions ${Date.now()}`
      await keyDialog.getByLabel('Name').fill(name)
      await keyDialog.getByRole('checkbox', { name: /Read dispatch/ }).check()
      await keyDialog.getByRole('checkbox', { name: /Read report/ }).check()
      await keyDialog.getByRole('button', { name: 'Create key' }).click()
      const key = (await page
        .getByRole('dialog', { name: `Key "${name}"` })
        .getByLabel('API key')
        .textContent())!.trim()
      const bearer = { authorization: `Bearer ${key}` }
      const dispatches = await request.get('/api/dispatches', { headers: bearer })
      expect(dispatches.status()).toBe(200)
      const [first] = (await dispatches.json()).dispatches as { id: string }[]
      const report = await request.get(`/api/reports/dispatch/${encodeURIComponent(first!.id)}`, { headers: bearer })
      expect(report.status()).toBe(200)
      expect(await report.json()).toHaveProperty('registrations')
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  test("the demo's subscription and built-in receiver: a live learner's completion arrives signed", async ({
    page,
  }) => {
    test.setTimeout(150_000)
    await signInAndWait(page, 'client')
    await page.goto('/integrations/webhooks')
    await expect(page.getByRole('listitem').filter({ hasText: '/api/demo/webhook-catcher' })).toContainText('Active')
    const caught = page.getByRole('list', { name: 'Caught deliveries' }).getByRole('listitem')
    await expect(caught.filter({ hasText: 'registration.completed' }).first()).toContainText('Signature verified', {
      timeout: 140_000,
    })
  })
})
