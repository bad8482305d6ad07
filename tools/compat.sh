#!/usr/bin/env bash
# Run the whole test suite on every backend and regenerate compat_matrix.md.
#   tools/compat.sh [pytest args...]      (PYTHON=/path/to/python to pick the interpreter)
# Runs tools/test.sh with one pytest per backend in parallel, each writing a JUnit
# report, then tools/gen_compat_matrix.py over the reports.  Failing tests are
# recorded in the matrix, not fatal; exit status is non-zero only when pytest
# could not run the suite (usage error, interrupted, no tests) or the matrix
# could not be written.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HERMES_TEST_BACKENDS=${HERMES_TEST_BACKENDS:-sqlite,postgres,mysql}
HERMES_TEST_PARALLEL=1 HERMES_TEST_JUNIT_DIR="$tmp" PYTHON="$PYTHON" tools/test.sh "$@"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "tools/compat.sh: pytest exited $rc; compat_matrix.md not regenerated" >&2
    exit "$rc"
fi
"$PYTHON" tools/gen_compat_matrix.py "$tmp"/*.xml -o compat_matrix.md
