#!/usr/bin/env bash
# npm test: every tier, in order, continuing past a failure so one run shows everything.
# Ends with one line "N passed, M failed" summing every tier.
# With CI=true nothing may be skipped: a missing PostgreSQL or Chromium is a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
results=test-results
rm -rf "$results" && mkdir -p "$results"
: > "$results/checks.txt"

check() { # name, command...: a gate that counts as one check
  local name=$1; shift
  echo "::: $name"
  if "$@"; then echo "$name passed" >> "$results/checks.txt"; else echo "$name failed" >> "$results/checks.txt"; fi
}

audit_check() { # the audit: exit 3 from scripts/audit.sh means it could not ask (skipped, never passed)
  echo "::: audit"
  bash scripts/audit.sh
  case $? in
    0) echo "audit passed" >> "$results/checks.txt" ;;
    3) echo "audit skipped" >> "$results/checks.txt" ;;
    *) echo "audit failed" >> "$results/checks.txt" ;;
  esac
}

check typecheck npx tsc -b
check lint npx eslint . --max-warnings 0
audit_check

# The reliability tests start real server processes and drive them hard (kill, soak); they run on
# their own after the main suite, one file at a time, so they do not compete with it for 2 cores.
server_suite() { # engine label, extra vitest args...
  local label=$1; shift
  npx vitest run --project server --exclude '**/test/reliability/**' "$@" \
    --reporter=default --reporter=json --outputFile.json="$results/server-$label.json" || true
  npx vitest run --project server apps/server/test/reliability --no-file-parallelism "$@" \
    --reporter=default --reporter=json --outputFile.json="$results/server-$label-reliability.json" || true
}

echo "::: server tests on SQLite"
# PostgreSQL-only files (*.pg.test.ts: several instances on one database) are not collected here.
TEST_DATABASE_URL= server_suite sqlite --exclude '**/*.pg.test.ts'

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "::: server tests on PostgreSQL"
  server_suite postgres
elif [ "${CI:-}" = "true" ]; then
  echo "TEST_DATABASE_URL is not set: the PostgreSQL pass cannot run under CI" >&2
  echo "postgres-pass failed" >> "$results/checks.txt"
else
  echo "::: PostgreSQL pass skipped (set TEST_DATABASE_URL=postgres://... to run it)"
fi

echo "::: web component tests"
npx vitest run --project web --reporter=default --reporter=json --outputFile.json="$results/web.json" || true

check build npm run build --silent
# The home page's initial JavaScript within 150 KB gzip, each role area a lazy chunk (issue 8).
check bundle-size node scripts/check-bundle-size.mjs
# A SIGTERM (or Ctrl+C) to the npm process of npm start reaches the server (issue 24 item 7).
check start-stops bash scripts/check-start-stops.sh

if [ -f playwright.config.ts ]; then
  echo "::: browser tests (Playwright on Chromium)"
  npx playwright test || true
fi

node scripts/summarize-results.mjs "$results"
