#!/usr/bin/env bash
# The first step of `npm test`: lint and typecheck side by side (each keeps one core
# busy), after one `nuxt prepare` that writes the generated types and ESLint config both
# read, so neither runs while the other rewrites .nuxt. The same checks as `npm run lint`
# and `npm run typecheck` (which is `nuxt prepare` and then `vue-tsc -b --noEmit`). Each
# one's output is printed whole once both have ended; fails when either failed.
set -uo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

npx nuxt prepare >"$work/prepare.log" 2>&1 || { cat "$work/prepare.log"; exit 1; }
npx eslint . >"$work/lint.log" 2>&1 &
lint=$!
npx vue-tsc -b --noEmit >"$work/typecheck.log" 2>&1 &
typecheck=$!
wait "$lint"
lint_status=$?
wait "$typecheck"
typecheck_status=$?

echo "──────── lint (eslint .): $([ "$lint_status" -eq 0 ] && echo passed || echo FAILED) ────────"
cat "$work/lint.log"
echo "──────── typecheck (vue-tsc -b --noEmit): $([ "$typecheck_status" -eq 0 ] && echo passed || echo FAILED) ────────"
cat "$work/typecheck.log"

[ "$lint_status" -eq 0 ] && [ "$typecheck_status" -eq 0 ]
