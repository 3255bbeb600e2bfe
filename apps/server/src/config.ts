import { randomBytes } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Type, type StaticDecode } from 'typebox'
import { Value } from 'typebox/value'
import { MFA_STAFF_ROLES, type Role } from '@portal/shared'

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
  /**
   * Staff roles that must have a second factor while an admin has set no rule for them; null:
   * admins outside demo mode, none in demo mode (docs/decisions.md "Second factors").
   */
  mfaDefaultRoles: Role[] | null
  supportEmail: string
  logLevel: string
  corsOrigins: string[]
  trustProxy: boolean
  /** Absolute session limit: a sign-in never lasts longer, however often it is refreshed. */
  sessionMaxHours: number
  webDistDir: string | null
  /** PostgreSQL connections per server process. */
  databasePoolSize: number
  /**
   * Requests that may wait for a PostgreSQL connection before new ones are refused with 503
   * (a fast, clean answer past capacity instead of a 5 s pool time-out).
   */
  databaseQueueLimit: number
  /** Cache list and report pages per data version (on by default; the bench measures both ways). */
  readCache: boolean
  /** The smtp(s):// URL of the mail server; null keeps mails in the outbox (/admin/outbox). */
  smtpUrl: string | null
  /** The From of every mail, an address or `Name <address>`. */
  mailFrom: string
  /** The portal's address as users reach it, for the links in mails (no trailing slash). */
  publicUrl: string
  /**
   * The key that encrypts single sign-on secrets at rest (SSO_SECRET_KEY); null: made once in
   * DATA_DIR when first needed (generatedSsoKey), so a server that never stores one writes nothing.
   */
  ssoSecretKey: string | null
  /** Demo mode's built-in OIDC provider's loopback port (0: any free port). */
  demoOidcPort: number
  /**
   * What this node does (PORTAL_ROLE): `all` serves HTTP and runs the background jobs, `web`
   * serves HTTP only, `worker` runs the jobs and serves only its health. PGlite allows `all` only.
   */
  role: PortalRole
  /**
   * Outgoing webhooks may go to private, loopback and link-local addresses and over plain http
   * (WEBHOOK_ALLOW_PRIVATE_TARGETS; on by default in demo mode only). Undefined: off.
   */
  webhookAllowPrivateTargets?: boolean
}

export const PORTAL_ROLES = ['all', 'web', 'worker'] as const
export type PortalRole = (typeof PORTAL_ROLES)[number]

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
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

// Every variable is checked by one schema (TypeBox, as the routes are): each rule
// carries the message that names what is wrong, and decoding turns the text into its value.
// A variable set to an empty (or blank) value counts as unset.
const text = Type.String()
const wholeNumber = (min: number, max: number) =>
  Type.Decode(
    Type.Refine(
      Type.Refine(
        text,
        (v) => /^\d+$/.test(v),
        (v) => `must be a whole number, got "${v}"`,
      ),
      (v) => Number(v) >= min && Number(v) <= max,
      () => `must be between ${min} and ${max}`,
    ),
    (v) => Number(v),
  )
const flag = Type.Decode(
  Type.Refine(
    text,
    (v) => /^(true|1|on|false|0|off)$/i.test(v),
    (v) => `must be true or false, got "${v.toLowerCase()}"`,
  ),
  (v) => /^(true|1|on)$/i.test(v),
)
const urlWith = (...protocols: string[]) =>
  Type.Refine(
    Type.Refine(
      text,
      (v) => URL.canParse(v),
      () => 'must be a valid URL',
    ),
    // Every rule runs: this one passes a text the one before refused.
    (v) => !URL.canParse(v) || protocols.includes(new URL(v).protocol),
    () => `must use ${protocols.join(' or ')}`,
  )
const emailAddress = Type.Refine(
  text,
  (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  () => 'must be an email address',
)
/** `address` or `Display Name <address>`, one line. */
const mailbox = Type.Refine(
  text,
  (v) => /^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v),
  () => 'must be an email address or "Name <address>"',
)
const list = Type.Decode(text, (v) =>
  v
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
)

/** The environment the server reads; README.md "Configuration" documents each variable. */
export const EnvSchema = Type.Object({
  PORT: Type.Optional(wholeNumber(0, 65535)),
  HOST: Type.Optional(text),
  DATABASE_URL: Type.Optional(urlWith('postgres:', 'postgresql:')),
  DATABASE_POOL_SIZE: Type.Optional(wholeNumber(1, 1000)),
  DATABASE_QUEUE_LIMIT: Type.Optional(wholeNumber(0, 100_000)),
  READ_CACHE: Type.Optional(flag),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Optional(flag),
  DATA_DIR: Type.Optional(text),
  JWT_SECRET: Type.Optional(
    Type.Refine(
      text,
      (v) => v.length >= 32,
      () => 'must be at least 32 characters long',
    ),
  ),
  SESSION_MAX_HOURS: Type.Optional(wholeNumber(1, 24 * 30)),
  SCORM_CLOUD_APP_ID: Type.Optional(text),
  SCORM_CLOUD_SECRET_KEY: Type.Optional(text),
  SCORM_CLOUD_BASE_URL: Type.Optional(urlWith('https:', 'http:')),
  POSTBACK_USER: Type.Optional(text),
  POSTBACK_PASSWORD: Type.Optional(text),
  SYNC_INTERVAL_MINUTES: Type.Optional(wholeNumber(0, 24 * 60)),
  ADMIN_EMAIL: Type.Optional(emailAddress),
  ADMIN_PASSWORD: Type.Optional(text),
  SUPPORT_EMAIL: Type.Optional(emailAddress),
  MFA_DEFAULT_ROLES: Type.Optional(
    Type.Refine(
      text,
      (v) => v === 'none' || v.split(',').every((role) => MFA_STAFF_ROLES.includes(role.trim() as Role)),
      () => `must be none or a comma-separated list of ${MFA_STAFF_ROLES.join(', ')}`,
    ),
  ),
  LOG_LEVEL: Type.Optional(
    Type.Refine(
      text,
      (v) => LOG_LEVELS.includes(v),
      () => `must be one of ${LOG_LEVELS.join(', ')}`,
    ),
  ),
  CORS_ORIGINS: Type.Optional(list),
  TRUST_PROXY: Type.Optional(flag),
  WEB_DIST_DIR: Type.Optional(text),
  SMTP_URL: Type.Optional(urlWith('smtp:', 'smtps:')),
  MAIL_FROM: Type.Optional(mailbox),
  PUBLIC_URL: Type.Optional(urlWith('https:', 'http:')),
  SSO_SECRET_KEY: Type.Optional(
    Type.Refine(
      text,
      (v) => v.length >= 32,
      () => 'must be at least 32 characters long',
    ),
  ),
  DEMO_OIDC_PORT: Type.Optional(wholeNumber(0, 65535)),
  PORTAL_ROLE: Type.Optional(
    Type.Refine(
      text,
      (v) => (PORTAL_ROLES as readonly string[]).includes(v),
      () => `must be one of ${PORTAL_ROLES.join(', ')}`,
    ),
  ),
})

/** Variables kept as written: a password may start or end with a space. */
const UNTRIMMED = new Set(['ADMIN_PASSWORD'])

/** The schema's variables, blank ones left out, checked and decoded; the first problem throws. */
function readEnv(env: Env): StaticDecode<typeof EnvSchema> {
  const raw: Record<string, string> = {}
  for (const name of Object.keys(EnvSchema.properties)) {
    const value = UNTRIMMED.has(name) ? env[name] : env[name]?.trim()
    if (value?.trim()) raw[name] = value
  }
  const [problem] = Value.Errors(EnvSchema, raw)
  if (problem) throw new ConfigError(problem.instancePath.slice(1), problem.message)
  return Value.Decode(EnvSchema, raw)
}

/**
 * A folder under DATA_DIR, created (with DATA_DIR) when missing. PGlite creates only
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

/**
 * The single sign-on secrets' key when SSO_SECRET_KEY is not set: made once and kept in its own
 * file in DATA_DIR, so restarts can still read the stored client secrets. Losing it means
 * entering each connection's client secret again, nothing worse.
 */
export function generatedSsoKey(dataDir: string): string {
  const file = path.join(dataDir, 'sso-secret.key')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  dataFolder(dataDir)
  const key = randomBytes(32).toString('base64url')
  writeFileSync(file, key, { mode: 0o600 })
  return key
}

/** Rules between variables, after each one passed the schema. */
function together(env: StaticDecode<typeof EnvSchema>): void {
  if (Boolean(env.SCORM_CLOUD_APP_ID) !== Boolean(env.SCORM_CLOUD_SECRET_KEY)) {
    throw new ConfigError(
      env.SCORM_CLOUD_APP_ID ? 'SCORM_CLOUD_SECRET_KEY' : 'SCORM_CLOUD_APP_ID',
      'must be set together with the other SCORM Cloud credential',
    )
  }
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError(env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL', 'must be set together')
  }
  if (env.SMTP_URL && !env.MAIL_FROM) throw new ConfigError('MAIL_FROM', 'must be set when SMTP_URL is set')
  if (env.PORTAL_ROLE && env.PORTAL_ROLE !== 'all' && !env.DATABASE_URL) {
    throw new ConfigError(
      'PORTAL_ROLE',
      `must be all with the embedded PGlite database, which only one process can open: set DATABASE_URL to a PostgreSQL database to run ${env.PORTAL_ROLE} nodes`,
    )
  }
}

export function loadConfig(processEnv: Env = process.env): AppConfig {
  const env = readEnv(processEnv)
  together(env)
  const dataDir = path.resolve(env.DATA_DIR ?? './data')
  const generated = env.JWT_SECRET && env.POSTBACK_PASSWORD ? null : generatedSecrets(dataDir)
  const port = env.PORT ?? 3000
  const host = env.HOST ?? '127.0.0.1'
  const appId = env.SCORM_CLOUD_APP_ID
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL ?? null,
    dataDir,
    jwtSecret: env.JWT_SECRET ?? generated!.jwtSecret,
    scormCloud: appId
      ? { appId, secretKey: env.SCORM_CLOUD_SECRET_KEY!, baseUrl: env.SCORM_CLOUD_BASE_URL ?? DEFAULT_SCORM_CLOUD_URL }
      : null,
    postbackUser: env.POSTBACK_USER ?? 'scorm-cloud',
    postbackPassword: env.POSTBACK_PASSWORD ?? generated!.postbackPassword,
    syncIntervalMinutes: env.SYNC_INTERVAL_MINUTES ?? 10,
    adminEmail: env.ADMIN_EMAIL ?? null,
    adminPassword: env.ADMIN_PASSWORD ?? null,
    demoMode: !appId,
    mfaDefaultRoles:
      env.MFA_DEFAULT_ROLES === undefined
        ? null
        : env.MFA_DEFAULT_ROLES === 'none'
          ? []
          : env.MFA_DEFAULT_ROLES.split(',').map((role) => role.trim() as Role),
    supportEmail: env.SUPPORT_EMAIL ?? 'support@example.com',
    logLevel: env.LOG_LEVEL ?? 'info',
    corsOrigins: env.CORS_ORIGINS ?? [],
    trustProxy: env.TRUST_PROXY ?? false,
    sessionMaxHours: env.SESSION_MAX_HOURS ?? 12,
    webDistDir: env.WEB_DIST_DIR ? path.resolve(env.WEB_DIST_DIR) : null,
    databasePoolSize: env.DATABASE_POOL_SIZE ?? 10,
    databaseQueueLimit: env.DATABASE_QUEUE_LIMIT ?? 64,
    readCache: env.READ_CACHE ?? true,
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? 'Dispatch Portal <no-reply@localhost>',
    publicUrl: (env.PUBLIC_URL ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`).replace(
      /\/+$/,
      '',
    ),
    ssoSecretKey: env.SSO_SECRET_KEY ?? null,
    demoOidcPort: env.DEMO_OIDC_PORT ?? 0,
    role: (env.PORTAL_ROLE as PortalRole | undefined) ?? 'all',
    webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? !appId,
  }
}
