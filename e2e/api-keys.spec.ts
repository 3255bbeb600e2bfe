import { expect, test } from '@playwright/test'
import { signInAndWait } from './support'

test.describe('API keys', () => {
  test('an admin creates a key, sees its secret once, calls the API with it, and revokes it', async ({
    page,
    request,
  }) => {
    await signInAndWait(page, 'admin')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click()
    await expect(page).toHaveURL(/\/integrations\/api-keys$/)
    await page.getByRole('button', { name: 'Create API key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create API key' })
    const name = `e2e key ${Date.now()}`
    await dialog.getByLabel('Name').fill(name)
    await dialog.getByRole('checkbox', { name: /Read dispatch/ }).check()
    await dialog.getByRole('button', { name: 'Create key' }).click()

    const shown = page.getByRole('dialog', { name: `Key "${name}"` })
    const secret = (await shown.getByLabel('API key').textContent())!.trim()
    expect(secret).toMatch(/^dp_live_[0-9a-f]{12}_/)
    await shown.getByRole('button', { name: 'Done' }).click()
    await expect(page.getByText(secret)).toHaveCount(0)

    const call = () => request.get('/api/dispatches', { headers: { authorization: `Bearer ${secret}` } })
    expect((await call()).status()).toBe(200)
    expect((await request.get('/api/logs', { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(403)

    const item = page.getByRole('listitem').filter({ hasText: name })
    await page.reload()
    await expect(item).toContainText('127.0.0.1')
    await item.getByRole('button', { name: 'Revoke' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click()
    await expect(item).toContainText('Revoked')
    expect((await call()).status()).toBe(401)
  })
})
