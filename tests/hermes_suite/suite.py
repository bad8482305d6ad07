"""Hermes Agent's own SessionDB test suite, run through hermes_dbapi.

The suite is not copied into this project: it is fetched from PyPI (the
``hermes-agent`` source distribution, pinned below) into a cache directory and
run there in a subprocess, with ``sqlite3`` replaced by ``hermes_dbapi``
(``swap.py``, the import swap an application makes) and ``HERMES_DB_URL``
pointing at the backend.  Results come back as a map of test id to outcome.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERMES_AGENT_VERSION = "0.19.0"
TEST_FILES = (
    "tests/test_hermes_state.py",
    "tests/test_hermes_state_compression_locks.py",
    "tests/test_hermes_state_wal_fallback.py",
    "tests/test_state_db_malformed_repair.py",
)
HERE = Path(__file__).resolve().parent


def cache_dir() -> Path:
    base = os.environ.get("HERMES_SUITE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "hermes_dbapi")
    return Path(base)


def source_tree() -> Path:
    """The unpacked sdist, downloaded once with pip (raises RuntimeError naming the cause).
    A lock file serialises test runs that start at the same time (tools/test.sh parallel)."""
    import fcntl

    cache_dir().mkdir(parents=True, exist_ok=True)
    with open(cache_dir() / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _fetch()


def _fetch() -> Path:
    root = cache_dir() / f"hermes_agent-{HERMES_AGENT_VERSION}"
    if (root / ".complete").is_file():
        return root
    archive = cache_dir() / f"hermes_agent-{HERMES_AGENT_VERSION}.tar.gz"
    if not archive.is_file():
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
             f"hermes-agent=={HERMES_AGENT_VERSION}", "-d", str(cache_dir())],
            capture_output=True, text=True, timeout=300, check=False,
        )
        if done.returncode != 0 or not archive.is_file():
            raise RuntimeError(f"pip could not fetch hermes-agent=={HERMES_AGENT_VERSION}: {done.stderr.strip()[-500:]}")
    with tarfile.open(archive) as tar:
        tar.extractall(cache_dir(), filter="data") if sys.version_info >= (3, 12) else tar.extractall(cache_dir())
    (root / ".complete").touch()
    return root


def run(url: str | None, *, swap: bool, report: Path, extra: tuple[str, ...] = ()) -> dict[str, str]:
    """Run the suite; ``url`` None = the embedded default.  Returns {test id: outcome}
    with outcome one of passed / failed / error / skipped."""
    root = source_tree()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.pop("HERMES_DB_URL", None)
    if url is not None:
        env["HERMES_DB_URL"] = url
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "pytest", *TEST_FILES, "-q", "-p", "no:cacheprovider",
               f"--junitxml={report}", "--timeout=180", *extra]
    if swap:
        command[3:3] = ["-p", "swap"]
    subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=3600, check=False)
    return outcomes(report)


def outcomes(report: Path) -> dict[str, str]:
    results: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        if "failure" in kinds:
            results[test_id] = "failed"
        elif "error" in kinds:
            results[test_id] = "error"
        elif "skipped" in kinds:
            results[test_id] = "skipped"
        else:
            results[test_id] = "passed"
    return results


def failure_texts(report: Path) -> dict[str, str]:
    """The first line of each failure message (for the assertion output)."""
    texts: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        for child in case:
            if child.tag in ("failure", "error"):
                texts[f"{case.get('classname')}::{case.get('name')}"] = (child.get("message") or "")[:300]
    return texts


def _run_subset(backend: str, select: list[str]) -> None:
    """Run (part of) the suite on one backend in a fresh namespace prefix, drop it
    afterwards and print each test that does not pass with its first message line."""
    import tempfile

    sys.path.insert(0, str(HERE.parent))
    import conftest  # the tests' own URL and clean-up rules

    url = None
    if backend != "sqlite":
        prefix = conftest.new_run_prefix()
        url = conftest.url_with_prefix(conftest.server_url(backend), prefix)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "subset.xml"
            results = run(url, swap=True, report=report, extra=tuple(select))
            texts = failure_texts(report)
    finally:
        if url is not None:
            conftest.drop_namespaces(backend, conftest.server_url(backend), prefix)
    bad = {k: v for k, v in sorted(results.items()) if v in ("failed", "error")}
    for test_id, outcome in bad.items():
        print(f"{outcome.upper():6} {test_id}: {texts.get(test_id, '')[:240]}")
    counts = {o: sum(1 for v in results.values() if v == o) for o in ("passed", "failed", "error", "skipped")}
    print(f"{backend}: " + ", ".join(f"{n} {o}" for o, n in counts.items()))


def main() -> None:
    """``python tests/hermes_suite/suite.py --ids``: rewrite test_ids.txt from a
    plain sqlite3 run of the pinned suite.
    ``python tests/hermes_suite/suite.py --run BACKEND [pytest args, e.g. -k wal]``:
    run the suite (or a selection) through the swap on one backend and list what fails."""
    import tempfile

    if sys.argv[1:2] == ["--run"] and len(sys.argv) >= 3:
        _run_subset(sys.argv[2], sys.argv[3:])
        return
    if sys.argv[1:] != ["--ids"]:
        raise SystemExit("usage: suite.py --ids | --run sqlite|postgres|mysql [pytest args]")
    with tempfile.TemporaryDirectory() as tmp:
        ids = sorted(run(None, swap=False, report=Path(tmp) / "ids.xml"))
    (HERE / "test_ids.txt").write_text("\n".join(ids) + "\n", encoding="utf-8")
    print(f"{len(ids)} Hermes tests")


if __name__ == "__main__":
    main()
