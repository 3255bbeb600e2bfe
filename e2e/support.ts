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

export const STORAGE = { accessToken: 'portal.accessToken', refreshToken: 'portal.refreshToken' }

export async function signIn(page: Page, role: DemoRole, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(ACCOUNTS[role])
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

export async function signInAndWait(page: Page, role: DemoRole) {
  await signIn(page, role)
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
