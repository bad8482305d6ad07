"""Run every benchmark in one go, print tables with the issue's bars, write JSON."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time

from . import cache, common, contention, fts, memory, overhead, placement, report, workload

SECTIONS = ("overhead", "cache", "workload", "contention", "memory", "fts")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer iterations (~30 s)")
    parser.add_argument("--json", default=os.path.join(os.path.dirname(__file__), "results.json"))
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    parser.add_argument("--servers", nargs="+", choices=list(common.SERVERS), default=list(common.SERVERS))
    args = parser.parse_args(argv)

    servers = []
    for server in args.servers:
        reason = common.reachable(server)
        if reason:
            print(f"!! {server} unreachable, skipped: {reason}", file=sys.stderr)
        else:
            servers.append(server)
    workdir = tempfile.mkdtemp(prefix="hdbbench-")
    # the run's own file of kept translations: every run starts from none (its first
    # contention round, one writer, then fills it as a machine's earlier processes would)
    os.environ.setdefault("HERMES_DB_CACHE", os.path.join(workdir, "translations.sqlite3"))
    verdicts = report.Verdicts()
    out: dict = {"quick": args.quick, "python": platform.python_version(), "cpus": os.cpu_count(),
                 "servers": servers, "timings_s": {}}
    started = time.perf_counter()

    def section(name: str, fn, *fn_args):
        t0 = time.perf_counter()
        result = fn(*fn_args)
        out["timings_s"][name] = round(time.perf_counter() - t0, 1)
        out[name] = result
        return result

    try:
        for server in servers:  # leftovers of an interrupted run
            common.drop_namespaces(server)
        if "overhead" in args.only:
            with placement.split() as where:
                out["placement_overhead"] = where
                print(f"\nplacement for section 1: {where}", flush=True)
                results = [r for s in servers for r in section(f"overhead_{s}", overhead.run, s, workdir, args.quick)]
            out["overhead"] = results
            print(report.overhead(results, verdicts), flush=True)
        hit_rate, flow = None, None
        if "workload" in args.only:  # runs first: its cache hit rate belongs in section 2
            with placement.split() as where:
                flow = section("workload", workload.run, servers, workdir, args.quick)
                flow["append_split"] = section("append_split", workload.append_split, servers, workdir, args.quick)
            flow["placement"] = where  # out["workload"] is this dict: the JSON has it there
            hit_rate = flow["cache"]
        if "cache" in args.only:
            results = [section(f"cache_{s}", cache.run, s, workdir, args.quick) for s in servers]
            out["cache"] = results
            print(report.cache(results, hit_rate, verdicts), flush=True)
        if flow is not None:
            print(report.workload(flow, verdicts), flush=True)
        if "contention" in args.only:
            results = section("contention", contention.run, servers, workdir, args.quick)
            print(report.contention(results, verdicts), flush=True)
        if "memory" in args.only:
            results = section("memory", memory.run, servers, workdir, args.quick)
            print(report.memory(results, verdicts), flush=True)
        if "fts" in args.only:
            results = section("fts", fts.run, servers, workdir, args.quick)
            print(report.fts(results, verdicts), flush=True)
    finally:
        for server in servers:
            common.drop_namespaces(server)
        shutil.rmtree(workdir, ignore_errors=True)

    print(verdicts.summary())
    out["verdicts"] = verdicts.items
    out["total_s"] = round(time.perf_counter() - started, 1)
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=2, default=str)
    print(f"\ntotal {out['total_s']} s; JSON summary written to {os.path.abspath(args.json)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
