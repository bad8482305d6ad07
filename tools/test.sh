#!/usr/bin/env bash
# The project's test command (README and .ci/run use exactly this):
#   tools/test.sh [pytest args...]
# Runs pytest on every backend in HERMES_TEST_BACKENDS (default sqlite,postgres,mysql).
# With CI set, an unreachable server fails the run; otherwise its tests are skipped.
# pytest's exit code 5 ("no tests collected") is turned into a failure.
#
# HERMES_TEST_PARALLEL=1 runs one pytest per backend at the same time (each backend's
# tests wait mostly on its server, so this about halves the wall time on 2 cores);
# each run's output is printed, whole, when it ends, and the worst exit code wins.
# HERMES_TEST_JUNIT_DIR=DIR (parallel only) writes DIR/<backend>.xml for
# tools/gen_compat_matrix.py DIR/*.xml.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

run_one() { # run_one [pytest args...]: one pytest, exit 5 made a failure
    "$PYTHON" -m pytest -q "$@"
    local rc=$?
    if [ "$rc" -eq 5 ]; then
        echo "tools/test.sh: pytest collected no tests (exit 5): failing" >&2
        return 1
    fi
    return "$rc"
}

if [ "${HERMES_TEST_PARALLEL:-0}" != "1" ]; then
    run_one "$@"
    exit $?
fi

backends=${HERMES_TEST_BACKENDS:-sqlite,postgres,mysql}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
declare -A pids
for b in ${backends//,/ }; do
    only=0; [ "$b" != "${backends%%,*}" ] && only=1  # backend-free tests run in the first backend's run only
    junit=(); [ -n "${HERMES_TEST_JUNIT_DIR:-}" ] && junit=(--junitxml="$HERMES_TEST_JUNIT_DIR/$b.xml")
    HERMES_TEST_BACKEND_CASES_ONLY=$only HERMES_TEST_BACKENDS=$b run_one -o cache_dir=".pytest_cache/$b" "${junit[@]}" "$@" >"$logs/$b.log" 2>&1 &
    pids[$b]=$!
done
worst=0
for b in "${!pids[@]}"; do
    wait "${pids[$b]}"
    rc=$?
    echo "===================== backend $b: pytest exit $rc ====================="
    cat "$logs/$b.log"
    [ "$rc" -gt "$worst" ] && worst=$rc
done
exit "$worst"
