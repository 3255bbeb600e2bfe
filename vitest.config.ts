import { defineConfig, type TestProjectConfiguration } from 'vitest/config'

const projects: TestProjectConfiguration[] = [
  { test: { name: 'shared', root: 'packages/shared', environment: 'node' } },
  { test: { name: 'sim', root: 'packages/scorm-cloud-sim', environment: 'node', testTimeout: 30_000 } },
  'apps/server/vitest.config.ts',
  'apps/web/vitest.config.ts',
]

// The server suite runs a second time on PostgreSQL when one is reachable (issue #2).
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    extends: 'apps/server/vitest.config.ts',
    test: {
      name: 'server-pg',
      env: { TEST_DB_KIND: 'postgres' },
      globalSetup: ['src/test/global-setup-pg.ts'],
    },
  })
}

// One runner for every workspace (STYLE.md §7). Each project keeps its own environment.
export default defineConfig({ test: { projects } })
