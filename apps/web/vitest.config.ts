import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineProject } from 'vitest/config'

const here = fileURLToPath(new URL('.', import.meta.url))

export default defineProject({
  root: here,
  plugins: [react()],
  resolve: {
    alias: { '@': `${here}src` },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // jsdom renders share 2 cores with the server suites in `npm test`: room for a loaded machine.
    testTimeout: 20_000,
  },
})
