import { defineProject } from 'vitest/config'

/** Long parts of the reliability suite: `npm run test:resilience` (vitest.resilience.config.ts). */
const PROCESSES = 'src/test/reliability/processes/**'
/**
 * Tests that need PostgreSQL are the files named `*.pg.test.ts`. Only the server-pg
 * project (root vitest.config.ts) collects them: without TEST_DATABASE_URL it still does, and
 * their `describe.runIf(usingPostgres())` reports them skipped rather than leaving them out.
 */
export const POSTGRES_ONLY = 'src/**/*.pg.test.ts'

/** What the server's projects share (server on PGlite here, server-pg in the root config). */
export const serverTest = {
  root: import.meta.dirname,
  environment: 'node',
  // Test files of a worker share one module graph, so the migrated PGlite template of
  // test/test-database.ts is made once per worker rather than once per file (CI time on 2
  // cores). The suite keeps no module state a file depends on, and mocks no modules.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const

// Route and service tests on in-memory PGlite; the root config runs them again on
// PostgreSQL (project server-pg) when TEST_DATABASE_URL is set.
export default defineProject({
  test: {
    ...serverTest,
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: [PROCESSES, POSTGRES_ONLY],
    env: { TEST_DB_KIND: 'pglite' },
  },
})

/** The server suite on PostgreSQL, or (no database) its PostgreSQL-only files, reported skipped. */
export function serverPostgresProject(databaseUrl: string | undefined) {
  return defineProject({
    test: databaseUrl
      ? {
          ...serverTest,
          name: 'server-pg',
          include: ['src/**/*.test.ts'],
          exclude: [PROCESSES],
          env: { TEST_DB_KIND: 'postgres' },
          globalSetup: ['src/test/global-setup-pg.ts'],
        }
      : { ...serverTest, name: 'server-pg', include: [POSTGRES_ONLY], env: { TEST_DB_KIND: 'none' } },
  })
}
