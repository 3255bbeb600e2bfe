import { randomBytes } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export interface ScormCloudConfig {
  appId: string
  secretKey: string
  baseUrl: string
}

export interface AppConfig {
  port: number
  host: string
  databaseUrl: string | null
  dataDir: string
  jwtSecret: string
  scormCloud: ScormCloudConfig | null
  postbackUser: string
  postbackPassword: string
  syncIntervalMinutes: number
  adminEmail: string | null
  adminPassword: string | null
  /** No SCORM Cloud credentials: the built-in simulator and the demo accounts. */
  demoMode: boolean
  supportEmail: string
  logLevel: string
  corsOrigins: string[]
  trustProxy: boolean
  /** Absolute session limit: a sign-in never lasts longer, however often it is refreshed. */
  sessionMaxHours: number
  webDistDir: string | null
  /** PostgreSQL connections per server process (issue #13). */
  databasePoolSize: number
  /**
   * Requests that may wait for a PostgreSQL connection before new ones are refused with 503
   * (issue #13: a fast, clean answer past capacity instead of a 5 s pool time-out).
   */
  databaseQueueLimit: number
  /** Cache list and report pages per data version (on by default; the bench measures both ways). */
  readCache: boolean
  /** Issue #17: smtp(s):// URL of the mail server; null keeps mails in the outbox (/admin/outbox). */
  smtpUrl: string | null
  /** Issue #17: the From of every mail, an address or `Name <address>`. */
  mailFrom: string
  /** Issue #17: the portal's address as users reach it, for the links in mails (no trailing slash). */
  publicUrl: string
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`)
  }
}

type Env = Record<string, string | undefined>

const DEFAULT_SCORM_CLOUD_URL = 'https://cloud.scorm.com/api/v2'

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`)
  return value
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (!raw) return fallback
  if (raw === 'true' || raw === '1' || raw === 'on') return true
  if (raw === 'false' || raw === '0' || raw === 'off') return false
  throw new ConfigError(name, `must be true or false, got "${raw}"`)
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(name, 'must be a valid URL')
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`)
  }
  return raw
}

/** `address` or `Display Name <address>`, one line. */
function mailbox(env: Env, name: string): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  if (!/^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(raw)) {
    throw new ConfigError(name, 'must be an email address or "Name <address>"')
  }
  return raw
}

function email(env: Env, name: string): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  if (!/^[^\s@]+@[^\s@]+$/.test(raw)) throw new ConfigError(name, 'must be an email address')
  return raw
}

/**
 * Issue #14: a folder under DATA_DIR, created (with DATA_DIR) when missing. PGlite creates only
 * the last level of its folder, so a DATA_DIR that did not exist yet ended start-up with a bare
 * "ENOENT mkdir …/pglite"; a DATA_DIR that cannot be used now stops start-up with a message
 * that names it.
 */
export function dataFolder(dataDir: string, sub = ''): string {
  const folder = path.join(dataDir, sub)
  try {
    mkdirSync(folder, { recursive: true })
    accessSync(folder, constants.R_OK | constants.W_OK | constants.X_OK)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ConfigError(
      'DATA_DIR',
      `must be a folder the server can create and write to: "${dataDir}" cannot be used (${reason})`,
    )
  }
  return folder
}

/** Secrets the embedded setup generates once and keeps in DATA_DIR, so restarts keep sessions. */
function generatedSecrets(dataDir: string): { jwtSecret: string; postbackPassword: string } {
  const file = path.join(dataDir, 'secrets.json')
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret: string; postbackPassword: string }
  }
  dataFolder(dataDir)
  const secrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    postbackPassword: randomBytes(24).toString('base64url'),
  }
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 })
  return secrets
}

export function loadConfig(env: Env = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data')
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'])
  const appId = env.SCORM_CLOUD_APP_ID?.trim() || ''
  const secretKey = env.SCORM_CLOUD_SECRET_KEY?.trim() || ''
  if (Boolean(appId) !== Boolean(secretKey)) {
    throw new ConfigError(
      appId ? 'SCORM_CLOUD_SECRET_KEY' : 'SCORM_CLOUD_APP_ID',
      'must be set together with the other SCORM Cloud credential',
    )
  }
  const baseUrl = url(env, 'SCORM_CLOUD_BASE_URL', ['https:', 'http:']) ?? DEFAULT_SCORM_CLOUD_URL
  const jwtSecretEnv = env.JWT_SECRET?.trim()
  if (jwtSecretEnv && jwtSecretEnv.length < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long')
  }
  const needGenerated = !jwtSecretEnv || !env.POSTBACK_PASSWORD?.trim()
  const generated = needGenerated ? generatedSecrets(dataDir) : null
  const adminEmail = email(env, 'ADMIN_EMAIL')
  const adminPassword = env.ADMIN_PASSWORD || null
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    throw new ConfigError(adminEmail ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL', 'must be set together')
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info'
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent')
  }
  const webDist = env.WEB_DIST_DIR?.trim()
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST?.trim() || '127.0.0.1'
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:'])
  const mailFrom = mailbox(env, 'MAIL_FROM')
  if (smtpUrl && !mailFrom) throw new ConfigError('MAIL_FROM', 'must be set when SMTP_URL is set')
  const publicUrl = url(env, 'PUBLIC_URL', ['https:', 'http:'])
  return {
    port,
    host,
    databaseUrl,
    dataDir,
    jwtSecret: jwtSecretEnv || generated!.jwtSecret,
    scormCloud: appId ? { appId, secretKey, baseUrl } : null,
    postbackUser: env.POSTBACK_USER?.trim() || 'scorm-cloud',
    postbackPassword: env.POSTBACK_PASSWORD?.trim() || generated!.postbackPassword,
    syncIntervalMinutes: int(env, 'SYNC_INTERVAL_MINUTES', 10, 0, 24 * 60),
    adminEmail,
    adminPassword,
    demoMode: !appId,
    supportEmail: email(env, 'SUPPORT_EMAIL') ?? 'support@example.com',
    logLevel,
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: env.TRUST_PROXY === 'true',
    sessionMaxHours: int(env, 'SESSION_MAX_HOURS', 12, 1, 24 * 30),
    webDistDir: webDist ? path.resolve(webDist) : null,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseQueueLimit: int(env, 'DATABASE_QUEUE_LIMIT', 64, 0, 100_000),
    readCache: bool(env, 'READ_CACHE', true),
    smtpUrl,
    mailFrom: mailFrom ?? 'Dispatch Portal <no-reply@localhost>',
    publicUrl: (publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`).replace(
      /\/+$/,
      '',
    ),
  }
}
