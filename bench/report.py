"""Plain-text tables, the issue's bars and PASS/FAIL verdicts."""

from __future__ import annotations

from typing import Any


def table(title: str, headers: list[str], rows: list[list[Any]]) -> str:
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = "  ".join("-" * w for w in widths)
    out = [f"\n== {title}", "  ".join(h.ljust(w) for h, w in zip(headers, widths)), line]
    out += ["  ".join(c.rjust(w) if isinstance(v, (int, float)) else c.ljust(w) for c, v, w in zip(r, row, widths))
            for r, row in zip(cells, rows)]
    return "\n".join(out)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        if value != value:
            return "n/a"
        return f"{value:.2f}" if abs(value) < 100 else f"{value:,.0f}"
    return str(value)


class Verdicts:
    """Collects bar checks; ``mark`` returns the text put next to a ratio."""

    def __init__(self) -> None:
        self.items: list[dict] = []

    def mark(self, name: str, ok: bool, bar: str, measured: str) -> str:
        self.items.append({"bar": name, "limit": bar, "measured": measured, "pass": bool(ok)})
        return f"{'PASS' if ok else 'FAIL'} ({bar})"

    def summary(self) -> str:
        rows = [[i["bar"], i["limit"], i["measured"], "PASS" if i["pass"] else "FAIL"] for i in self.items]
        passed = sum(i["pass"] for i in self.items)
        return table(f"Bars: {passed}/{len(self.items)} pass", ["bar", "limit", "measured", "verdict"], rows)


def overhead(results: list[dict], v: Verdicts) -> str:
    rows = []
    for r in results:
        bar = ""
        if r["op"] == "point SELECT":
            limit = 1.10 if r["server"] == "postgres" else 1.15
            bar = v.mark(f"point SELECT {r['server']}", r["ratio"] <= limit, f"≤ {limit:.2f}×", f"{r['ratio']:.2f}×")
        elif r["op"].startswith("executemany"):
            bar = v.mark(
                f"executemany 1000 {r['server']}", r["ratio_best"] <= 1.10, "≤ 1.10× best", f"{r['ratio_best']:.2f}×"
            )
        rows.append([r["server"], r["op"], r["hermes_us"], r["raw_us"], r["ratio"],
                     f"{r['raw_best_method']} {r['raw_best_us']:,.0f}", r["ratio_best"], bar])
    return table("1. Per-statement overhead (median µs/op, autocommit; raw = psycopg default cursor / PyMySQL)",
                 ["server", "op", "hermes µs", "raw µs", "ratio", "raw best µs", "vs best", "bar"], rows)


def cache(results: list[dict], hit_rate: dict | None, v: Verdicts) -> str:
    rows = []
    for r in results:
        bar = v.mark(f"cache hit {r['server']}", r["hit_us"] <= 3.0, "≤ 3 µs", f"{r['hit_us']:.2f} µs")
        rows.append([r["server"], r["hit_us"], r["hit_get_us"], r["file_us"], r["miss_us"], r["miss_max_us"], bar])
    text = table("2. Translation cache (median µs; hit = Connection._translation, get = bare LRU get; "
                 "file = kept by an earlier process, with SQLite's compile check; miss = translate())",
                 ["server", "hit µs", "get µs", "file µs", "miss µs", "miss max µs", "bar"], rows)
    if hit_rate:
        text += (f"\nSessionDB workload: {hit_rate['lookups']} lookups, shared hits {hit_rate['shared_hits']}, "
                 f"local hits {hit_rate['local_hits']}, plan hits {hit_rate.get('plan_hits', 0)}, "
                 f"translated {hit_rate.get('translated', '?')}, "
                 f"hit rate {hit_rate['hit_rate']:.2%}")
    return text


def workload(result: dict, v: Verdicts) -> str:
    rates = result["ops_per_s"]
    rows = [["sqlite", rates["sqlite"], "", "", ""]]
    for name, rate in rates.items():
        if not name.startswith("hermes/"):
            continue
        server = name.split("/", 1)[1]
        raw = rates[f"raw/{server}"]
        ratio = rate / raw
        bar = ""
        if server == "postgres":
            bar = v.mark("SessionDB on PG vs psycopg", ratio >= 0.90, "≥ 0.90×", f"{ratio:.2f}×")
        rows.append([name, rate, raw, ratio, bar])
    text = table(f"3. SessionDB workload (ops/s, median of {result['rounds']} rounds × {result['ops_per_round']} ops)",
                 ["implementation", "ops/s", "hand-written ops/s", "ratio", "bar"], rows)
    if result.get("per_operation"):
        text += "\n" + _per_operation(result["per_operation"])
    if result.get("append_split"):
        text += "\n" + _append_split(result["append_split"])
    return text + f"\nplacement: {result['placement']}" if result.get("placement") else text


def _append_split(split: dict[str, dict[str, float]]) -> str:
    """The append's gap split: the full-text index's upkeep (with minus without the
    index, each side) and the rest (the gap without any index)."""
    rows = []
    for server, us in split.items():
        upkeep_h = us["hermes_indexed"] - us["hermes_plain"]
        upkeep_r = us["raw_indexed"] - us["raw_plain"]
        rows.append([server, us["hermes_indexed"], us["raw_indexed"], us["hermes_plain"], us["raw_plain"],
                     upkeep_h, upkeep_r, us["hermes_plain"] - us["raw_plain"]])
    return table("3c. append_message with and without the full-text index (µs per call, median; "
                 "index upkeep = with − without; rest = the gap without an index)",
                 ["server", "hermes µs", "raw µs", "hermes, no index", "raw, no index",
                  "hermes index upkeep", "raw index upkeep", "rest of the gap"], rows)


def _per_operation(spent: dict[str, dict[str, dict[str, float]]]) -> str:
    """Where a round's time goes, operation by operation: µs per call (median) and
    the operation's part of the gap between hermes_dbapi and the hand-written driver."""
    servers = [name.split("/", 1)[1] for name in spent if name.startswith("hermes/")]
    headers = ["operation", "calls", "sqlite µs"]
    for server in servers:
        headers += [f"hermes/{server} µs", f"raw/{server} µs", "ratio", "gap share"]
    gaps = {server: sum(spent[f"hermes/{server}"][op]["us_per_round"] - spent[f"raw/{server}"][op]["us_per_round"]
                        for op in spent[f"hermes/{server}"]) for server in servers}
    rows = []
    for op, lite in spent["sqlite"].items():
        row: list[Any] = [op, lite["calls_per_round"], lite["median_us"]]
        for server in servers:
            mine, raw = spent[f"hermes/{server}"][op], spent[f"raw/{server}"][op]
            gap = mine["us_per_round"] - raw["us_per_round"]
            share = f"{round(100 * gap / gaps[server])}%" if gaps[server] > 0 else ""  # an int: no "-0%"
            row += [mine["median_us"], raw["median_us"], raw["median_us"] / mine["median_us"], share]
        rows.append(row)
    return table("3b. per operation (µs per call, median; ratio = hand-written / hermes_dbapi; "
                 "gap share = the operation's part of the round's extra time)", headers, rows)


def contention(results: list[dict], v: Verdicts) -> str:
    rows = [[r["backend"], r["writers"], r["committed"], r["tx_per_s"], r["p50_ms"], r["p99_ms"],
             r["lock_retried"], r["lock_escaped"], "ok" if r["counters_ok"] else "MISMATCH"] for r in results]
    text = table("4. Concurrent writers (processes; BEGIN IMMEDIATE; INSERT; UPDATE; COMMIT + retry loop)",
                 ["backend", "writers", "committed", "tx/s", "p50 ms", "p99 ms", "lock retried", "escaped", "counters"],
                 rows)
    at16 = {r["backend"]: r for r in results if r["writers"] == 16}
    sqlite, pg = at16.get("sqlite"), at16.get("hermes/postgres")
    if sqlite and pg:  # the bar is PostgreSQL's; other servers are shown for information
        ok = pg["p99_ms"] < sqlite["p99_ms"] and pg["lock_escaped"] == 0 and pg["counters_ok"]
        label = v.mark("16 writers hermes/postgres", ok, "p99 < SQLite, 0 escaped",
                       f"p99 {pg['p99_ms']:.0f} vs {sqlite['p99_ms']:.0f} ms, {pg['lock_escaped']} escaped")
        text += f"\nhermes/postgres @16 writers: {label}"
    for backend, r in at16.items():
        if backend not in ("sqlite", "hermes/postgres") and sqlite:
            text += (f"\n{backend} @16 writers (info): p99 {r['p99_ms']:.0f} ms vs SQLite {sqlite['p99_ms']:.0f} ms, "
                     f"{r['lock_escaped']} escaped")
    for r in results:
        for message in r["unrecognized"]:
            text += f"\n  escaped ({r['backend']}, {r['writers']}w): {message}"
    return text


def memory(results: list[dict], v: Verdicts) -> str:
    rows = []
    for r in results:
        bar = v.mark(f"100k fetch memory {r['server']} {r['mode']}", r["ratio"] <= 1.5, "≤ 1.5×", f"{r['ratio']:.2f}×")
        rows.append([r["server"], r["mode"], r["hermes"]["delta_kb"] / 1024, r["raw"]["delta_kb"] / 1024,
                     r["ratio"], bar])
    return table("5. Peak RSS growth fetching 100,000 rows (MiB, fresh process each)",
                 ["server", "mode", "hermes MiB", "raw MiB", "ratio", "bar"], rows)


def fts(result: dict, v: Verdicts) -> str:
    servers = [s for s in result["queries"][0]["ratio"]] if result["queries"] else []
    rows = []
    for q in result["queries"]:
        rows.append([q["query"], q["form"], q["rows"], q["ms"]["sqlite"],
                     *[x for s in servers for x in (q["ms"][s], q["ratio"][s])], "" if q["same_rows"] else "ROWS DIFFER"])
    headers = ["query", "form", "rows", "sqlite ms"] + [h for s in servers for h in (f"{s} ms", f"{s} ×")] + [""]
    setup = ", ".join(f"{k} {t:.0f} s" for k, t in result["setup_s"].items())
    text = table(f"6. FTS5 MATCH latency on {result['messages']:,} messages (median of {result['rounds']} rounds; "
                 "search = Hermes' join + snippet + ORDER BY rank LIMIT 20, bare = every matching rowid)",
                 headers, rows)
    for s in servers:
        ratios = [q["ratio"][s] for q in result["queries"]]
        geo = 1.0
        for r in ratios:
            geo *= r
        geo **= 1 / len(ratios)
        same = all(q["same_rows"] for q in result["queries"])
        text += f"\n{s}: geometric mean {geo:.2f}× SQLite, worst {max(ratios):.2f}×"
        v.mark(f"FTS rows identical {s}", same, "same row counts as SQLite", "same" if same else "differ")
    return text + f"\nsetup (executemany + 'rebuild' + VACUUM): {setup}"
