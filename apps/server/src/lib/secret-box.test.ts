import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { createSecretBox } from './secret-box'

describe('the single sign-on secret box (AES-256-GCM)', () => {
  const box = createSecretBox('a-key-text-that-is-at-least-32-characters-long')

  it('opens what it sealed, and each sealing differs (a fresh IV)', () => {
    const a = box.seal('client-secret', 'row-1')
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(a).not.toContain('client-secret')
    expect(box.seal('client-secret', 'row-1')).not.toBe(a)
    expect(box.open(a, 'row-1')).toBe('client-secret')
  })

  it('refuses an altered value, another row’s value and another key', () => {
    const sealed = box.seal('client-secret', 'row-1')
    const parts = sealed.split('.')
    parts[3] = Buffer.from('tampered').toString('base64url')
    expect(box.open(parts.join('.'), 'row-1')).toBeNull()
    expect(box.open(sealed, 'row-2')).toBeNull()
    expect(createSecretBox('another-key-text-that-is-32-characters-or-more').open(sealed, 'row-1')).toBeNull()
    expect(box.open('not sealed', 'row-1')).toBeNull()
  })

  it('takes SSO_SECRET_KEY of 32 characters or more from the environment', () => {
    expect(() =>
      loadConfig({
        DATA_DIR: '/tmp/unused-sso',
        JWT_SECRET: 'x'.repeat(40),
        POSTBACK_PASSWORD: 'p',
        SSO_SECRET_KEY: 'short',
      }),
    ).toThrow('Invalid configuration: SSO_SECRET_KEY must be at least 32 characters long')
    const config = loadConfig({
      DATA_DIR: '/tmp/unused-sso',
      JWT_SECRET: 'x'.repeat(40),
      POSTBACK_PASSWORD: 'p',
      SSO_SECRET_KEY: 'k'.repeat(40),
    })
    expect(config.ssoSecretKey).toBe('k'.repeat(40))
  })
})
