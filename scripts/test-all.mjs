#!/usr/bin/env node
// `npm test`: every check and every suite, then one closing line `N passed, N failed, N skipped`
// that sums the unit/route suites (vitest, on PGlite and, with TEST_DATABASE_URL, PostgreSQL)
// and the browser suite (Playwright in headless Chromium). Without TEST_DATABASE_URL the
// PostgreSQL-only tests (`*.pg.test.ts`) count as skipped, never as passed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { vitestTotals } from './vitest-totals.mjs'

const root = path.resolve(import.meta.dirname, '..')
const reports = path.join(root, 'test-results', 'summary')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const failures = []
/** Each step's wall time, printed at the end (CI's time budget: where it goes). */
const durations = []
function step(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  durations.push([name, (Date.now() - started) / 1000])
  if (result.status !== 0) failures.push(name)
  return result.status === 0
}

const npx = (args) => ['npx', ['--no-install', ...args]]

step('format', ...npx(['prettier', '--check', '.']))
step('lint', ...npx(['eslint', '.', '--max-warnings', '0']))
for (const project of ['packages/shared', 'packages/scorm-cloud-sim', 'apps/server', 'apps/web', '.']) {
  step(`typecheck ${project}`, ...npx(['tsc', '-p', project]))
}

const vitestJson = path.join(reports, 'vitest.json')
step(
  'unit and route tests',
  ...npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]),
)

if (!existsSync('/usr/bin/chromium')) step('install chromium', 'bash', ['scripts/install-chromium.sh'])
step('build web app and server', 'npm', ['run', 'build'])
step('bundle budget', 'node', ['scripts/check-bundle-budget.mjs'])
const playwrightJson = path.join(reports, 'playwright.json')
step('browser tests', ...npx(['playwright', 'test', '--reporter=list,json']), {
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
})

let { passed, failed, skipped } = vitestTotals(vitestJson)
if (existsSync(playwrightJson)) {
  const p = JSON.parse(readFileSync(playwrightJson, 'utf8'))
  passed += p.stats.expected + p.stats.flaky
  failed += p.stats.unexpected
  skipped += p.stats.skipped
} else failed += 1

console.log('\nSteps (wall time):')
for (const [name, seconds] of durations) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`)
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`)
if (!process.env.TEST_DATABASE_URL) {
  console.log(
    '\nSKIPPED, not counted as passed: TEST_DATABASE_URL is not set, so the PostgreSQL-only tests ' +
      '(*.pg.test.ts) did not run and the server suite ran on PGlite only.',
  )
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failures.length || failed ? 1 : 0)
