#!/usr/bin/env bash
# The test projects of `npm test`, as two vitest runs side by side: the SQLite side (unit*,
# e2e, browser) and the PostgreSQL side (e2e-pg, browser-pg). Each run takes one file at a
# time, vitest's default on two cores (one worker per run, so one shared server per project:
# tests/support/shared-server.ts). The two sides share nothing but the machine (their own
# servers, data dirs, databases and Redis prefixes), and most of a test's time is spent
# waiting on its servers, so on two cores the pair ends well before one run of all five.
#
# The SQLite side prints as it goes; the PostgreSQL side's output follows when both have
# ended, then one `Tests: N passed, N failed[, N skipped]` line for the whole run and a line
# per failure of either side (tests/support/summary-reporter.ts), so the end of the log names
# what failed even when the failing side printed first. Exits non-zero when either side
# failed. Needs TEST_DATABASE_URL and TEST_REDIS_URL (scripts/engines.sh). Arguments go to
# both runs (e.g. a file filter).
set -uo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

TEST_SUMMARY_FILE="$work/pg.json" npx vitest run --project e2e-pg --project browser-pg "$@" >"$work/pg.log" 2>&1 &
pg=$!
TEST_SUMMARY_FILE="$work/sqlite.json" npx vitest run --project unit --project unit-isolated --project e2e --project browser "$@"
sqlite_status=$?
wait "$pg"
pg_status=$?

echo
echo "──────── PostgreSQL side (e2e-pg, browser-pg) ────────"
cat "$work/pg.log"

node -e '
  const { readFileSync, existsSync } = require("node:fs")
  const total = { passed: 0, failed: 0, skipped: 0, problems: [] }
  const sides = [["SQLite", process.argv[1], process.argv[2]], ["PostgreSQL", process.argv[3], process.argv[4]]]
  for (const [side, file, status] of sides) {
    // A side that crashed before its reporter ran counts as one failure.
    const summary = existsSync(file)
      ? JSON.parse(readFileSync(file, "utf8"))
      : { failed: 1, problems: ["its vitest run ended before its reporter wrote a summary"] }
    for (const key of ["passed", "failed", "skipped"]) total[key] += summary[key] ?? 0
    for (const line of summary.problems ?? []) total.problems.push(`${side} side: ${line}`)
    if (status !== "0" && !summary.failed) {
      total.failed++
      total.problems.push(`${side} side: vitest exited ${status} with no failure in its summary (see its log above)`)
    }
  }
  const skipped = total.skipped ? `, ${total.skipped} skipped` : ""
  console.log(`\nTests: ${total.passed} passed, ${total.failed} failed${skipped}`)
  for (const line of total.problems.slice(0, 20)) console.log(`  failed: ${line}`)
  if (total.problems.length > 20) console.log(`  and ${total.problems.length - 20} more`)
' "$work/sqlite.json" "$sqlite_status" "$work/pg.json" "$pg_status"

[ "$sqlite_status" -eq 0 ] && [ "$pg_status" -eq 0 ]
