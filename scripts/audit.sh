#!/usr/bin/env bash
# Dependency audit of what ships: `npm audit` of the production dependencies (dev tools excluded),
# failing on any high or critical advisory. Run from CI and before a release: bash scripts/audit.sh
#
# Exit codes: 0 clean (low/moderate advisories are printed but do not fail), 1 high or critical
# advisory found, 2 the registry's advisory service could not be asked. Under CI=true an unanswered
# audit fails like any skipped check; AUDIT_ALLOW_UNREACHABLE=1 makes it exit 3, "not audited"
# (for networks whose registry proxy allows only downloads, e.g. answering 405 to the audit POST),
# which npm test counts as skipped, never as passed.
set -uo pipefail
cd "$(dirname "$0")/.."

output=$(npm audit --omit=dev --audit-level=high 2>&1)
status=$?
echo "$output"

if [ "$status" -eq 0 ]; then
  echo "audit: no high or critical advisory in the production dependencies"
  exit 0
fi

if echo "$output" | grep -qE 'audit endpoint returned an error|E405|E403|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET'; then
  echo "audit: the npm registry's advisory service did not answer, so the dependencies are NOT audited" >&2
  if [ "${CI:-}" = "true" ] && [ "${AUDIT_ALLOW_UNREACHABLE:-}" != "1" ]; then
    exit 2
  fi
  echo "audit: skipped (not under CI, or AUDIT_ALLOW_UNREACHABLE=1)" >&2
  exit 3
fi

echo "audit: high or critical advisories in the production dependencies (see above); update them or document why not" >&2
exit 1
