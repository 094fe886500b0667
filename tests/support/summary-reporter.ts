import type { Reporter, TestModule } from 'vitest/node'

/**
 * Ends the run with one plain line, `Tests: N passed, N failed[, N skipped]`,
 * that any CI log reader understands.
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
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : ''
    process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed${skipped}\n`)
  }
}
