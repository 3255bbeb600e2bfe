import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3100)
// Per port, so two runs on one machine (E2E_PORT=3200 ...) never share a data folder.
const DATA_DIR = `test-results/e2e-data-${PORT}`
export const E2E_JWT_SECRET = 'e2e-secret-that-is-long-enough-for-hs256-signing'

// The browser suite drives the real built app on the real server (embedded PGlite, demo data)
// in Debian's Chromium; Playwright's own browser download does not work here.
export default defineConfig({
  testDir: 'e2e',
  outputDir: `test-results/playwright-${PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['./e2e/failure-context-reporter.ts']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // The compiled server, as in production; its build takes about a second.
    command: `node apps/server/build.mjs && rm -rf ${DATA_DIR} && node --enable-source-maps apps/server/dist/server.js`,
    url: `http://127.0.0.1:${PORT}/api/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    // At LOG_LEVEL warn the server writes only its start-up lines, warnings and errors: beside a
    // failed test they say whether the server refused or failed a request.
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      JWT_SECRET: E2E_JWT_SECRET,
      LOG_LEVEL: 'warn',
      SYNC_INTERVAL_MINUTES: '0',
    },
  },
})
