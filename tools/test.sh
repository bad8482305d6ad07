#!/usr/bin/env bash
# The project's test command (README and .ci/run use exactly this):
#   tools/test.sh [pytest args...]
# Runs pytest on every backend in HERMES_TEST_BACKENDS (default sqlite,postgres,mysql).
# With CI set, an unreachable server fails the run; otherwise its tests are skipped.
# pytest's exit code 5 ("no tests collected") is turned into a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -m pytest -q "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
    echo "tools/test.sh: pytest collected no tests (exit 5): failing" >&2
    exit 1
fi
exit "$rc"
