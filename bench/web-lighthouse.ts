/**
 * `npm run bench:web`: Lighthouse, mobile defaults (simulated throttling), on the
 * production build served by the real server with the benchmark data: /login, /dashboard and a
 * course page, the last two signed in (the session is put into localStorage before the audit,
 * under the keys of apps/web/src/lib/token-storage.ts, and Lighthouse is told not to clear it).
 * Prints score, LCP, TBT and CLS against the targets.
 *
 * Lighthouse 12 (the last line for Node 20, with puppeteer-core) is installed on demand without
 * touching the lockfile; it drives Debian's Chromium and downloads no browser.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { getJson, signIn, type ApiSession } from './api-session'
import { killChildren } from './child-process'
import { ADMIN_EMAIL, BENCH_PASSWORD, ROOT, benchDatabaseUrl } from './config'
import { startServer, type RunningServer } from './run-server'
import { startBenchSimulator, type RunningSimulator } from './simulator'

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'
const LIGHTHOUSE = 'lighthouse@12.8.2'
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']
const TOKEN_KEYS = { accessToken: 'portal.accessToken', refreshToken: 'portal.refreshToken', user: 'portal.user' }
const DEMO = { email: 'admin@demo.local', password: 'demo-portal-pass' }

/** BENCH_WEB_REPORTS=<folder>: each page's whole Lighthouse result is written there as JSON. */
const REPORT_DIR = process.env.BENCH_WEB_REPORTS ? path.resolve(process.env.BENCH_WEB_REPORTS) : null
if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true })

const TARGETS = { score: 0.9, lcpMs: 2500, tbtMs: 200, cls: 0.1 }

// Lighthouse and puppeteer-core are optional: typed here by the little the script uses.
interface Audit {
  numericValue?: number
}
interface LighthouseResult {
  lhr: {
    categories: { performance: { score: number | null } }
    audits: Record<string, Audit>
    runtimeError?: { message: string }
  }
}
type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
  config: undefined,
  page: unknown,
) => Promise<LighthouseResult | undefined>
interface Page {
  goto(url: string, options?: Record<string, unknown>): Promise<unknown>
  evaluate<A>(fn: (arg: A) => void, arg: A): Promise<void>
  close(): Promise<void>
}
interface Browser {
  newPage(): Promise<Page>
  close(): Promise<void>
}
interface Puppeteer {
  launch(options: Record<string, unknown>): Promise<Browser>
}

/**
 * Whether the package is in the checkout's node_modules. Not require.resolve: Lighthouse is
 * ESM only and its exports have no "require" condition, so that fails even when installed.
 */
function installed(name: string): boolean {
  return existsSync(path.join(ROOT, 'node_modules', name, 'package.json'))
}

/** Packages named by a variable, so TypeScript does not look for their (absent) types. */
async function load<T>(name: string, pick: (module: Record<string, unknown>) => unknown): Promise<T> {
  const specifier = name
  return pick((await import(specifier)) as Record<string, unknown>) as T
}

async function benchDatabaseExists(): Promise<boolean> {
  const client = new pg.Client({ connectionString: benchDatabaseUrl(), connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from dispatch')
    return (rows[0]?.n ?? 0) > 0
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

interface PageResult {
  page: string
  score: number | null
  lcpMs: number | null
  tbtMs: number | null
  cls: number | null
  error?: string
}

async function audit(
  lighthouse: Lighthouse,
  puppeteer: Puppeteer,
  origin: string,
  pagePath: string,
  session: ApiSession | null,
): Promise<PageResult> {
  const browser = await puppeteer.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_FLAGS })
  try {
    const page = await browser.newPage()
    if (session) {
      // Any page of the origin gives access to its localStorage; /login is the lightest.
      await page.goto(`${origin}/login`, { waitUntil: 'load' })
      await page.evaluate(
        (s: { keys: typeof TOKEN_KEYS; session: ApiSession }) => {
          localStorage.setItem(s.keys.accessToken, s.session.accessToken)
          localStorage.setItem(s.keys.refreshToken, s.session.refreshToken)
          localStorage.setItem(s.keys.user, JSON.stringify(s.session.user))
        },
        { keys: TOKEN_KEYS, session },
      )
    }
    const result = await lighthouse(
      `${origin}${pagePath}`,
      { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
      undefined,
      page,
    )
    const lhr = result?.lhr
    if (lhr && REPORT_DIR) {
      const file = path.join(
        REPORT_DIR,
        `${pagePath.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root'}.json`,
      )
      writeFileSync(file, JSON.stringify(lhr))
      console.log(`  full report: ${file}`)
    }
    if (!lhr) return { page: pagePath, score: null, lcpMs: null, tbtMs: null, cls: null, error: 'no result' }
    const value = (id: string) => lhr.audits[id]?.numericValue ?? null
    return {
      page: pagePath,
      score: lhr.categories.performance.score,
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      ...(lhr.runtimeError ? { error: lhr.runtimeError.message } : {}),
    }
  } finally {
    await browser.close()
  }
}

function print(results: PageResult[]): boolean {
  const ok = (met: boolean | null) => (met === null ? '  -  ' : met ? ' met ' : ' MISS')
  console.log(
    `\n${'page'.padEnd(28)}${'score'.padStart(7)}      ${'LCP ms'.padStart(8)}      ${'TBT ms'.padStart(8)}      ${'CLS'.padStart(7)}`,
  )
  console.log(
    `${'target'.padEnd(28)}${`>= ${TARGETS.score}`.padStart(7)}      ${`<= ${TARGETS.lcpMs}`.padStart(8)}      ${`<= ${TARGETS.tbtMs}`.padStart(8)}      ${`<= ${TARGETS.cls}`.padStart(7)}`,
  )
  let allMet = true
  for (const r of results) {
    const checks = [
      r.score === null ? null : r.score >= TARGETS.score,
      r.lcpMs === null ? null : r.lcpMs <= TARGETS.lcpMs,
      r.tbtMs === null ? null : r.tbtMs <= TARGETS.tbtMs,
      r.cls === null ? null : r.cls <= TARGETS.cls,
    ]
    if (checks.some((c) => c !== true)) allMet = false
    const n = (v: number | null, digits: number) => (v === null ? '-' : v.toFixed(digits))
    console.log(
      `${r.page.slice(0, 27).padEnd(28)}${n(r.score, 2).padStart(7)}${ok(checks[0]!)}${n(r.lcpMs, 0).padStart(8)}${ok(checks[1]!)}${n(r.tbtMs, 0).padStart(8)}${ok(checks[2]!)}${n(r.cls, 3).padStart(7)}${ok(checks[3]!)}${r.error ? `  (${r.error})` : ''}`,
    )
  }
  return allMet
}

async function main(): Promise<number> {
  if (!installed('lighthouse') || !installed('puppeteer-core')) {
    // Not in the lockfile: a dependency of Lighthouse's peers is pinned to "latest", which breaks
    // `npm ci` whenever that package publishes. Installed on demand instead, lockfile untouched.
    console.log(`bench:web: installing ${LIGHTHOUSE} for this run (npm install --no-save)...`)
    const install = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', LIGHTHOUSE], {
      cwd: ROOT,
      stdio: 'inherit',
    })
    if (install.status !== 0 || !installed('lighthouse')) {
      console.error('bench:web: could not install Lighthouse, so nothing was measured.')
      return 1
    }
  }
  const lighthouse = await load<Lighthouse>('lighthouse', (m) => m.default)
  const puppeteer = await load<Puppeteer>('puppeteer-core', (m) => m.default ?? m)

  console.log('building the web app (npm run build)...')
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('the web build failed')

  let sim: RunningSimulator | null = null
  let server: RunningServer
  let credentials = { email: ADMIN_EMAIL, password: BENCH_PASSWORD }
  let scratch: string | null = null
  if (await benchDatabaseExists()) {
    console.log('serving the benchmark data (database portal_bench from npm run bench)')
    sim = await startBenchSimulator()
    server = await startServer({ databaseUrl: benchDatabaseUrl() }, sim)
  } else {
    // Without the benchmark database: the demo data, which is what `npm start` shows.
    console.log('no benchmark database (run npm run bench first for its data): using the demo data instead')
    scratch = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-web-'))
    server = await startServer({ dataDir: scratch }, null)
    credentials = DEMO
  }
  try {
    const session = await signIn(server.baseUrl, credentials.email, credentials.password)
    const courses = await getJson<{ courses: { id: string }[] }>(
      server.baseUrl,
      '/api/dispatches/courses',
      session.accessToken,
    )
    const courseId = courses.body?.courses[0]?.id
    const pages: [string, ApiSession | null][] = [
      ['/login', null],
      ['/dashboard', session],
    ]
    if (courseId) pages.push([`/courses/${encodeURIComponent(courseId)}`, session])
    const results: PageResult[] = []
    for (const [pagePath, signedIn] of pages) {
      console.log(`lighthouse ${pagePath}${signedIn ? ' (signed in)' : ''}...`)
      results.push(await audit(lighthouse, puppeteer, server.baseUrl, pagePath, signedIn))
    }
    const allMet = print(results)
    console.log(allMet ? '\nAll Lighthouse targets met.' : '\nSome Lighthouse targets are not met (see above).')
    return 0
  } finally {
    await server.stop()
    await sim?.process.stop()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
    killChildren()
    process.exit(1)
  },
)
