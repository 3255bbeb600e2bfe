import { expect, test } from '@playwright/test'

/** The production build served by the compiled server gives no source maps away. */
test('the served scripts name no source map, and asking for one is a 404', async ({ request }) => {
  const page = await request.get('/login')
  expect(page.status()).toBe(200)
  const scripts = [...(await page.text()).matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
  expect(scripts.length).toBeGreaterThan(0)
  for (const script of scripts) {
    const js = await request.get(script)
    expect(js.status()).toBe(200)
    expect(await js.text()).not.toContain('sourceMappingURL')
    const map = await request.get(`${script}.map`)
    expect(map.status()).toBe(404)
    expect(await map.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found.' })
  }
})
