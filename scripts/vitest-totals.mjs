// The figures of a vitest JSON report, as scripts/test-all.mjs and scripts/test-resilience.mjs
// count them in their closing line.
import { existsSync, readFileSync } from 'node:fs'

/** A report that was never written counts as one failure: the run broke before it could report. */
export function vitestTotals(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, brokenFiles: 0 }
  const v = JSON.parse(readFileSync(file, 'utf8'))
  return {
    passed: v.numPassedTests,
    failed: v.numFailedTests,
    skipped: v.numPendingTests + v.numTodoTests,
    // A file that failed outside its tests (import, beforeAll) left its tests skipped.
    brokenFiles: v.testResults.filter(
      (f) => f.status === 'failed' && !f.assertionResults.some((test) => test.status === 'failed'),
    ).length,
  }
}
