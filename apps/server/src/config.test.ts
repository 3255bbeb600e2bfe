import { describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ConfigError, loadConfig } from './config'

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'portal-config-'))

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

  it.each([
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
