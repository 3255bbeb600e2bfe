import { existsSync, readFileSync } from 'node:fs'
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

/** Enough of a page's snapshot to read what it showed (an error banner, a spinner, a form). */
const MAX_CHARS = 6_000

/**
 * Prints, under a failed test, what its page showed when it failed: Playwright's error context
 * (the page's accessibility snapshot, from the error context Playwright writes), which otherwise stays in test-results/ on the machine that
 * ran the suite. A failure seen only in a CI log can then be read from that log.
 */
export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === test.expectedStatus) return
    for (const attachment of result.attachments) {
      if (attachment.name !== 'error-context' || !attachment.path || !existsSync(attachment.path)) continue
      // The file also holds the error and the test's source, which the list reporter prints already.
      const snapshot = /```yaml\n([\s\S]*?)\n```/.exec(readFileSync(attachment.path, 'utf8'))
      if (!snapshot) continue
      const text = snapshot[1]!
      const shown = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (${text.length} characters)` : text
      console.log(`\nWhat the page showed when "${test.title}" failed:\n${shown}\n`)
    }
  }

  printsToStdio() {
    return true
  }
}
