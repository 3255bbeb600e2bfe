#!/usr/bin/env node
// `npm test`: every check and every suite, then one closing line `N passed, N failed, N skipped`
// that sums the unit/route suites (vitest, on PGlite and, with TEST_DATABASE_URL, PostgreSQL)
// and the browser suite (Playwright in headless Chromium). Without TEST_DATABASE_URL the
// PostgreSQL-only tests (`*.pg.test.ts`) count as skipped, never as passed.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { vitestTotals } from './vitest-totals.mjs'

const root = path.resolve(import.meta.dirname, '..')
const reports = path.join(root, 'test-results', 'summary')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const failures = []
/**
 * Each step's wall time, printed at the end (CI's time budget: where it goes). The checks and the
 * build run side by side (concurrently below), so their times overlap; a line of their own says
 * how long they took together.
 */
const durations = []
function step(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  durations.push([name, (Date.now() - started) / 1000])
  if (result.status !== 0) failures.push(name)
  return result.status === 0
}

/**
 * Runs chains of steps side by side, as many at once as there are cores, each step's output
 * held back and printed whole when it ends (so two steps' lines never interleave). For the
 * checks and the build, which each keep about one core busy (prettier, eslint, one tsc per
 * project, vite): on CI's two cores they end in about half the time they take one after
 * another. A chain's steps run in order: the bundle budget reads what the build wrote.
 */
async function concurrently(chains) {
  const queue = [...chains]
  const runOne = ({ name, command, args }) =>
    new Promise((resolve) => {
      console.log(`\n=== started ${name}: ${command} ${args.join(' ')}`)
      const started = Date.now()
      const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
      const output = []
      child.stdout.on('data', (chunk) => output.push(chunk))
      child.stderr.on('data', (chunk) => output.push(chunk))
      let finished = false
      // A command that cannot start reports 'error' and then 'close': counted once.
      const finish = (status) => {
        if (finished) return
        finished = true
        durations.push([name, (Date.now() - started) / 1000])
        if (status !== 0) failures.push(name)
        console.log(`\n=== ${name}: ${command} ${args.join(' ')}${status === 0 ? '' : ` (failed, status ${status})`}`)
        process.stdout.write(Buffer.concat(output))
        resolve(status === 0)
      }
      child.on('error', (error) => {
        output.push(Buffer.from(`${error.message}\n`))
        finish(1)
      })
      child.on('close', (code) => finish(code ?? 1))
    })
  const worker = async () => {
    for (let chain = queue.shift(); chain; chain = queue.shift()) {
      for (const item of chain) if (!(await runOne(item))) break
    }
  }
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), chains.length) }, worker))
}

const npx = (args) => ['npx', ['--no-install', ...args]]
const job = (name, command, args) => ({ name, command, args })
const typecheck = (project) => job(`typecheck ${project}`, ...npx(['tsc', '-p', project]))

// The longest first, so the last to start are short ones.
const checksStarted = Date.now()
await concurrently([
  [job('lint', ...npx(['eslint', '.', '--max-warnings', '0']))],
  [typecheck('apps/server')],
  [typecheck('apps/web')],
  [
    job('build web app and server', 'npm', ['run', 'build']),
    job('bundle budget', 'node', ['scripts/check-bundle-budget.mjs']),
  ],
  [job('format', ...npx(['prettier', '--check', '.']))],
  [typecheck('.')],
  [typecheck('packages/shared')],
  [typecheck('packages/scorm-cloud-sim')],
])
durations.push(['the steps above, side by side', (Date.now() - checksStarted) / 1000])

const vitestJson = path.join(reports, 'vitest.json')
step(
  'unit and route tests',
  ...npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]),
)

if (!existsSync('/usr/bin/chromium')) step('install chromium', 'bash', ['scripts/install-chromium.sh'])
const playwrightJson = path.join(reports, 'playwright.json')
// The third reporter prints a failed test's page snapshot into this output (e2e/failure-context-reporter.ts).
step('browser tests', ...npx(['playwright', 'test', '--reporter=list,json,./e2e/failure-context-reporter.ts']), {
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
