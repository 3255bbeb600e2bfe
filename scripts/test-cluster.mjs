#!/usr/bin/env node
// `npm run test:cluster`: three nodes of the built server on one PostgreSQL database behind HAProxy
// (deploy/haproxy/haproxy.cfg) under a mixed load, one node killed with SIGKILL midway
// (apps/server/src/test/cluster/cluster.ts). Runs two clusters, two `web` nodes and one `worker`,
// then three `all` (CLUSTER_SCENARIOS overrides: roles comma-separated, clusters `;`-separated),
// and ends with one line `N passed, N failed` like scripts/test-all.mjs. Needs TEST_DATABASE_URL
// (skipped, not counted as passed, without it) and HAProxy (scripts/install-haproxy.sh).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
if (!process.env.TEST_DATABASE_URL) {
  console.log('\nSKIPPED, not counted as passed: the cluster test needs TEST_DATABASE_URL, which is not set.')
  process.exit(0)
}
if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status !== 0) {
  console.error('The cluster test needs HAProxy: run `bash scripts/install-haproxy.sh` first.')
  process.exit(1)
}

// Roles arrive with the job engine (PORTAL_ROLE); until the server knows them every node runs everything.
const knowsRoles = readFileSync(path.join(root, 'apps/server/src/config.ts'), 'utf8').includes('PORTAL_ROLE')
const scenarios = (process.env.CLUSTER_SCENARIOS ?? (knowsRoles ? 'web,web,worker;all,all,all' : 'all,all,all'))
  .split(';')
  .filter(Boolean)
if (!knowsRoles && !process.env.CLUSTER_SCENARIOS) {
  console.log('The server has no PORTAL_ROLE yet: the web/web/worker cluster is not run.')
}

// The built server, as `npm start` runs it (a fresh bundle: a stale one would test old code).
const build = spawnSync('npm', ['run', 'build', '-w', '@portal/server'], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) process.exit(1)

let passed = 0
let failed = 0
for (const [i, roles] of scenarios.entries()) {
  console.log(`\n=== cluster test: nodes ${roles}`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/test/cluster/cluster.ts'], {
    cwd: path.join(root, 'apps/server'),
    stdio: 'inherit',
    // The refusal of a node with another JWT_SECRET is checked once; the later clusters load for
    // less than the first one's minute, to keep the test's wall time in bounds.
    env: {
      CLUSTER_SECRET_CHECK: i === 0 ? '1' : '0',
      CLUSTER_LOAD_SECONDS: i === 0 ? '60' : '45',
      ...process.env,
      CLUSTER_ROLES: roles,
    },
    timeout: 5 * 60_000,
  })
  if (result.status === 0) passed++
  else failed++
}
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
