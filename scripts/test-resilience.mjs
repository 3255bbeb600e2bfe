#!/usr/bin/env node
// `npm run test:resilience`: the reliability suite's long parts (docs/reliability.md),
// real server processes under SIGTERM, PostgreSQL outages, two processes on one database, killed
// connections under a sync and postbacks, start-up with a DATA_DIR to create, and the outbox
// under SIGKILL,
// then one closing line `N passed, N failed` like scripts/test-all.mjs. The parts that need
// PostgreSQL run only with TEST_DATABASE_URL; without it they are skipped with a message and
// not counted as passed.
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { vitestTotals } from './vitest-totals.mjs'

const root = path.resolve(import.meta.dirname, '..')
const reports = path.join(root, 'test-results', 'resilience')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const files = [
  'src/test/reliability/processes/sigterm.test.ts',
  'src/test/reliability/processes/startup-data-dir.test.ts',
  'src/test/reliability/processes/mirrored-application.test.ts',
  'src/test/reliability/processes/outbox-crash.test.ts',
  // Its web and worker nodes need PostgreSQL (skipped without it); PGlite's refusal runs always.
  'src/test/reliability/processes/roles.test.ts',
]
const postgresFiles = [
  'src/test/reliability/processes/postgres-outage.test.ts',
  'src/test/reliability/processes/two-processes.test.ts',
  'src/test/reliability/processes/connection-loss.test.ts',
  'src/test/reliability/processes/outbox-crash-postgres.test.ts',
  'src/test/reliability/processes/bulk-crash.test.ts',
]
if (process.env.TEST_DATABASE_URL) files.push(...postgresFiles)
else {
  console.log(
    '\nSKIPPED, not counted as passed: reliability parts 3 (PostgreSQL outage), 6 (two processes on one ' +
      'PostgreSQL), 7 (connections killed under a sync and postbacks) and 12 on PostgreSQL (the outbox under ' +
      'SIGKILL) need TEST_DATABASE_URL, which is not set.',
  )
}

const json = path.join(reports, 'vitest.json')
console.log(`\n=== reliability suite, long parts: ${files.join(' ')}`)
const result = spawnSync(
  'npx',
  [
    '--no-install',
    'vitest',
    'run',
    '--config',
    'apps/server/vitest.resilience.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
)

// A file that failed outside its tests counts once.
const totals = vitestTotals(json)
const { passed } = totals
const failed = totals.failed + totals.brokenFiles

console.log(`\n${passed} passed, ${failed} failed`)
process.exit(result.status !== 0 || failed ? 1 : 0)
