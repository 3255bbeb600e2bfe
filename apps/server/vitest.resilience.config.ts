import { defineProject } from 'vitest/config'

// The reliability suite's long parts: real server processes, PostgreSQL outages and
// SIGTERM. Run by `npm run test:resilience` (scripts/test-resilience.mjs), one file at a time.
export default defineProject({
  test: {
    name: 'resilience',
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/test/reliability/processes/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 150_000,
  },
})
