import type { SerializedError } from '@vitest/utils'
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node'

import { writeFileSync } from 'node:fs'

/** What one run adds up to: counts, and one line per thing that went wrong. */
export interface RunSummary {
  passed: number
  failed: number
  skipped: number
  /** `file > test: first line of the error`, for failed tests, failed hooks and errors outside any test. */
  problems: string[]
}

/**
 * Ends the run with one plain line, `Tests: N passed, N failed[, N skipped]`,
 * that any CI log reader understands, followed by one line per problem. A hook
 * that fails (its tests are then skipped, not failed), a file that does not load
 * and an error outside any test each count as one failure, so the line never says
 * `0 failed` of a run that exits non-zero. With TEST_SUMMARY_FILE set
 * (scripts/test-engines.sh, which runs two vitest runs side by side) the summary
 * goes to that file as JSON instead, and the script prints it for both.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason) {
    const summary = summarize(testModules, unhandledErrors, reason)
    if (process.env.TEST_SUMMARY_FILE) {
      writeFileSync(process.env.TEST_SUMMARY_FILE, JSON.stringify(summary))
      return
    }
    process.stdout.write(`\n${summaryLines(summary).join('\n')}\n`)
  }
}

export function summarize(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): RunSummary {
  const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, problems: [] }
  const problem = (where: string, errors: ReadonlyArray<SerializedError>) => {
    summary.failed++
    summary.problems.push(`${where}: ${firstLine(errors[0])}`)
  }
  for (const module of testModules) {
    const file = `${module.project.name} ${module.relativeModuleId}`
    for (const test of module.children.allTests()) {
      const result = test.result()
      if (result.state === 'passed') summary.passed++
      else if (result.state === 'failed') problem(`${file} > ${test.fullName}`, result.errors ?? [])
      else summary.skipped++
    }
    // Errors of a file or a suite are those of its beforeAll and afterAll hooks, or of loading it.
    if (module.errors().length) problem(file, module.errors())
    for (const suite of module.children.allSuites()) {
      if (suite.errors().length) problem(`${file} > ${suite.fullName}`, suite.errors())
    }
  }
  for (const error of unhandledErrors) problem('outside any test', [error])
  if (reason === 'interrupted') problem('the run', [{ message: 'interrupted before its end' }])
  return summary
}

export function summaryLines(summary: RunSummary): string[] {
  const skipped = summary.skipped ? `, ${summary.skipped} skipped` : ''
  const shown = summary.problems.slice(0, 20).map(line => `  failed: ${line}`)
  if (summary.problems.length > shown.length) shown.push(`  and ${summary.problems.length - shown.length} more`)
  return [`Tests: ${summary.passed} passed, ${summary.failed} failed${skipped}`, ...shown]
}

function firstLine(error: SerializedError | undefined): string {
  const text = error ? `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message ?? ''}` : 'no error recorded'
  return text.split('\n')[0]!.slice(0, 300)
}
