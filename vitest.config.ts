import { defineConfig, type TestProjectConfiguration } from 'vitest/config'
import { serverPostgresProject } from './apps/server/vitest.config'

const projects: TestProjectConfiguration[] = [
  { test: { name: 'shared', root: 'packages/shared', environment: 'node' } },
  { test: { name: 'sim', root: 'packages/scorm-cloud-sim', environment: 'node', testTimeout: 30_000 } },
  'apps/server/vitest.config.ts',
  'apps/web/vitest.config.ts',
  // The server suite runs a second time on PostgreSQL when one is reachable (issue #2); without
  // TEST_DATABASE_URL the PostgreSQL-only tests are reported skipped (issue #18).
  serverPostgresProject(process.env.TEST_DATABASE_URL),
]

// One runner for every workspace (STYLE.md §7). Each project keeps its own environment.
export default defineConfig({ test: { projects } })
