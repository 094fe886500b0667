import type { Reporter, TestModule } from 'vitest/node'

import { writeFileSync } from 'node:fs'

/**
 * Ends the run with one plain line, `Tests: N passed, N failed[, N skipped]`,
 * that any CI log reader understands. With TEST_SUMMARY_FILE set
 * (scripts/test-engines.sh, which runs two vitest runs side by side) the counts
 * go to that file as JSON instead, and the script prints one line for both.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else counts.skipped++
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++
    }
    if (process.env.TEST_SUMMARY_FILE) {
      writeFileSync(process.env.TEST_SUMMARY_FILE, JSON.stringify(counts))
      return
    }
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : ''
    process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed${skipped}\n`)
  }
}
