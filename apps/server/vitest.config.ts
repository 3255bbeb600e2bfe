import { defineProject } from 'vitest/config'

// Route and service tests on in-memory PGlite; the root config runs them again on
// PostgreSQL (project server-pg) when TEST_DATABASE_URL is set.
export default defineProject({
  test: {
    name: 'server',
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Long parts of the reliability suite: `npm run test:resilience` (vitest.resilience.config.ts).
    exclude: ['src/test/reliability/processes/**'],
    // Test files of a worker share one module graph, so the migrated PGlite template of
    // test/test-database.ts is made once per worker rather than once per file (CI time on 2
    // cores). The suite keeps no module state a file depends on, and mocks no modules.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { TEST_DB_KIND: 'pglite' },
  },
})
