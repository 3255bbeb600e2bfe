import { expect, type Page } from '@playwright/test'
import { SignJWT, decodeJwt } from 'jose'
import { E2E_JWT_SECRET } from '../playwright.config'

export const DEMO_PASSWORD = 'demo-portal-pass'
export const ACCOUNTS = {
  admin: 'admin@demo.local',
  internal: 'internal@demo.local',
  sales: 'sales@demo.local',
  client: 'client@demo.local',
} as const
export type DemoRole = keyof typeof ACCOUNTS

export const STORAGE = {
  accessToken: 'portal.accessToken',
  refreshToken: 'portal.refreshToken',
  user: 'portal.user',
}

export async function signIn(page: Page, role: DemoRole, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(ACCOUNTS[role])
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** Signs in through the sign-in form and waits for the signed-in dashboard. */
export async function signInWithFormAndWait(page: Page, role: DemoRole) {
  await signIn(page, role)
  await expectDashboard(page)
}

/**
 * Signs in through the API and opens the dashboard with that session stored as the sign-in form
 * stores it (token-storage.ts in the web app), for tests about what a signed-in user does: they
 * skip loading and filling the sign-in page, which auth.spec.ts and the second-factor, passkey
 * and single sign-on specs test through the real form.
 */
export async function signInAndWait(page: Page, role: DemoRole) {
  const res = await page.request.post('/api/auth/login', { data: { email: ACCOUNTS[role], password: DEMO_PASSWORD } })
  expect(res.ok(), `sign-in of ${role}: ${res.status()}`).toBe(true)
  const session = (await res.json()) as { accessToken?: string; refreshToken?: string; user?: unknown }
  // An account with a second step gets no tokens here; its specs sign in through the form.
  expect(typeof session.accessToken, `a session for ${role}, not a second step`).toBe('string')
  // localStorage belongs to the app's origin: a small answer of the server opens it.
  await page.goto('/api/ready')
  const stored: Record<string, string> = {
    [STORAGE.accessToken]: session.accessToken!,
    [STORAGE.refreshToken]: session.refreshToken!,
    [STORAGE.user]: JSON.stringify(session.user),
  }
  await page.evaluate((items) => {
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value)
  }, stored)
  await page.goto('/dashboard')
  await expectDashboard(page)
}

async function expectDashboard(page: Page) {
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
}

export const readStorage = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key)

/** A correctly signed access token for the same session that expired a minute ago. */
export async function expiredCopyOf(accessToken: string): Promise<string> {
  const claims = decodeJwt(accessToken)
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ sub: claims.sub, sid: claims.sid, ver: claims.ver, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('dispatch-portal')
    .setIssuedAt(now - 16 * 60)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(E2E_JWT_SECRET))
}
