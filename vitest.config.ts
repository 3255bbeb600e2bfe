import { availableParallelism } from 'node:os'
import { defineConfig, type TestProjectConfiguration } from 'vitest/config'
import { serverPostgresProject } from './apps/server/vitest.config'

const projects: TestProjectConfiguration[] = [
  { test: { name: 'shared', root: 'packages/shared', environment: 'node' } },
  { test: { name: 'sim', root: 'packages/scorm-cloud-sim', environment: 'node', testTimeout: 30_000 } },
  'apps/server/vitest.config.ts',
  'apps/web/vitest.config.ts',
  // The server suite runs a second time on PostgreSQL when one is reachable; without
  // TEST_DATABASE_URL the PostgreSQL-only tests are reported skipped.
  serverPostgresProject(process.env.TEST_DATABASE_URL),
]

// One runner for every workspace (docs/architecture.md §7). Each project keeps its own environment.
// A worker per core: vitest's default leaves one core to its own main process, which on CI's two
// cores halves the suite's pace, while that process mostly waits for the workers' reports.
export default defineConfig({ test: { projects, maxWorkers: availableParallelism() } })
