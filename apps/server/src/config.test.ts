import { afterAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ConfigError, dataFolder, loadConfig } from './config'

// Each test's own data folder, removed after the file's tests (the secrets written into them included).
const dataDirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-config-'))
  dataDirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

describe('loadConfig', () => {
  it('uses the embedded defaults and generates secrets once', () => {
    const dir = dataDir()
    const a = loadConfig({ DATA_DIR: dir })
    const b = loadConfig({ DATA_DIR: dir })
    expect(a).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      demoMode: true,
      scormCloud: null,
      syncIntervalMinutes: 10,
    })
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32)
    expect(b.jwtSecret).toBe(a.jwtSecret)
  })

  it('runs every role with PostgreSQL, all by default', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/portal'
    expect(loadConfig({ DATA_DIR: dataDir() }).role).toBe('all')
    for (const role of ['all', 'web', 'worker'] as const) {
      expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: url, PORTAL_ROLE: role }).role).toBe(role)
    }
  })

  it.each(['web', 'worker'])('refuses PORTAL_ROLE=%s on the embedded PGlite, which one process opens', (role) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORTAL_ROLE: role })).toThrow(
      /Invalid configuration: PORTAL_ROLE must be all with the embedded PGlite database, which only one process can open: set DATABASE_URL/,
    )
    expect(loadConfig({ DATA_DIR: dataDir(), PORTAL_ROLE: 'all' }).role).toBe('all')
  })

  it.each([
    [{ PORTAL_ROLE: 'api' }, 'PORTAL_ROLE'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SCORM_CLOUD_APP_ID: 'app' }, 'SCORM_CLOUD_SECRET_KEY'],
    [{ SCORM_CLOUD_APP_ID: 'a', SCORM_CLOUD_SECRET_KEY: 'b', SCORM_CLOUD_BASE_URL: 'ftp://x' }, 'SCORM_CLOUD_BASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ ADMIN_EMAIL: 'admin@example.com' }, 'ADMIN_PASSWORD'],
    [{ SYNC_INTERVAL_MINUTES: '-1' }, 'SYNC_INTERVAL_MINUTES'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('stops on %j naming %s', (env, variable) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError)
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(variable)
  })

  it('leaves demo mode when SCORM Cloud credentials are given', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), SCORM_CLOUD_APP_ID: 'app', SCORM_CLOUD_SECRET_KEY: 'key' })
    expect(c.demoMode).toBe(false)
    expect(c.scormCloud).toEqual({ appId: 'app', secretKey: 'key', baseUrl: 'https://cloud.scorm.com/api/v2' })
  })
})

// the start-up crash with a DATA_DIR that did not exist yet.
describe('DATA_DIR', () => {
  const secrets = { JWT_SECRET: 'x'.repeat(40), POSTBACK_PASSWORD: 'postback-secret' }

  it('creates a DATA_DIR that does not exist, with its PGlite folder, when both secrets are set', () => {
    const missing = path.join(dataDir(), 'not', 'there', 'yet')
    const config = loadConfig({ DATA_DIR: missing, ...secrets })
    // Nothing to generate: loadConfig itself writes nothing.
    expect(existsSync(missing)).toBe(false)
    const folder = dataFolder(config.dataDir, 'pglite')
    expect(folder).toBe(path.join(missing, 'pglite'))
    expect(statSync(folder).isDirectory()).toBe(true)
  })

  it('creates it for the generated secrets too', () => {
    const missing = path.join(dataDir(), 'fresh')
    expect(loadConfig({ DATA_DIR: missing }).jwtSecret.length).toBeGreaterThanOrEqual(32)
    expect(existsSync(path.join(missing, 'secrets.json'))).toBe(true)
  })

  // Tests run as root, which may write anywhere: a DATA_DIR under a regular file fails for root too.
  it('stops with a message naming DATA_DIR when the folder cannot be made', () => {
    const file = path.join(dataDir(), 'a-file')
    writeFileSync(file, 'not a folder')
    const bad = path.join(file, 'data')
    expect(() => dataFolder(bad, 'pglite')).toThrow(ConfigError)
    expect(() => dataFolder(bad, 'pglite')).toThrow(
      new RegExp(`^Invalid configuration: DATA_DIR must be a folder the server can create and write to: "${bad}"`),
    )
    expect(() => loadConfig({ DATA_DIR: bad })).toThrow(/^Invalid configuration: DATA_DIR .*ENOTDIR/)
  })
})

describe('mail settings', () => {
  const base = () => ({ DATA_DIR: dataDir() })

  it('keeps mails in the outbox without SMTP_URL and links to the server itself', () => {
    const config = loadConfig({ ...base(), PORT: '4100' })
    expect(config.smtpUrl).toBeNull()
    expect(config.publicUrl).toBe('http://127.0.0.1:4100')
  })

  it('reads SMTP_URL, MAIL_FROM and PUBLIC_URL', () => {
    const config = loadConfig({
      ...base(),
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Dispatch Portal <portal@example.com>',
      PUBLIC_URL: 'https://portal.example.com/',
    })
    expect(config).toMatchObject({
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      mailFrom: 'Dispatch Portal <portal@example.com>',
      publicUrl: 'https://portal.example.com',
    })
  })

  it('stops with a message naming the variable, without echoing a password', () => {
    const fail = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base(), ...env })
      } catch (error) {
        return (error as ConfigError).message
      }
      return 'no error'
    }
    expect(fail({ SMTP_URL: 'http://user:secret@mail.example.com' })).toBe(
      'Invalid configuration: SMTP_URL must use smtp: or smtps:',
    )
    expect(fail({ SMTP_URL: 'smtp://mail.example.com' })).toBe(
      'Invalid configuration: MAIL_FROM must be set when SMTP_URL is set',
    )
    expect(fail({ MAIL_FROM: 'not an address' })).toMatch(/^Invalid configuration: MAIL_FROM /)
    expect(fail({ PUBLIC_URL: 'ftp://portal' })).toBe('Invalid configuration: PUBLIC_URL must use https: or http:')
  })
})
