import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { server } from './mocks/server'

// findBy*/waitFor wait longer than the 1 s default: the suite shares 2 cores with the server suites.
configure({ asyncUtilTimeout: 5_000 })

// bulletproof-react `src/testing/setup-tests.ts`: a request no handler answers fails the test.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  cleanup()
  server.resetHandlers()
  window.localStorage.clear()
  vi.useRealTimers()
})
afterAll(() => server.close())
