"""A tiny LALR(1) table builder that makes the choices the Lemon generator makes.

FTS5's query parser is Lemon-generated, and *which* error a malformed query
reports depends on Lemon's exact behaviour: semantic actions (column lookup,
``NEAR`` checks) run during reductions, and Lemon performs a state's most
common reduction by default even on a lookahead that is about to be
rejected.  Building the same tables lets us reproduce the error precedence
of SQLite, not just the accepted language.

Rules are ``(lhs, rhs)``; the first rule's lhs is the start symbol.
Precedence is ``{terminal: (level, "left"|"right"|"none")}``.
"""

from __future__ import annotations

from dataclasses import dataclass

EOF = "$"

Action = tuple[str, int]  # ("shift", state) | ("reduce", rule) | ("accept", 0)


@dataclass(frozen=True)
class Tables:
    """Parse tables: per-state terminal actions, default reduction, gotos."""

    actions: tuple[dict[str, Action], ...]
    default_reduce: tuple[int | None, ...]
    gotos: tuple[dict[str, int], ...]
    rules: tuple[tuple[str, tuple[str, ...]], ...]


def build(
    rules: list[tuple[str, tuple[str, ...]]],
    terminals: list[str],
    precedence: dict[str, tuple[int, str]],
) -> Tables:
    """Build Lemon-equivalent LALR(1) tables (terminal order = Lemon's)."""
    nonterms = {lhs for lhs, _ in rules}
    start = rules[0][0]
    aug = [("$start", (start,))] + list(rules)
    sym_index = {EOF: 0}
    for t in terminals:
        sym_index.setdefault(t, len(sym_index))

    # FIRST sets and nullability
    nullable: set[str] = set()
    first: dict[str, set[str]] = {n: set() for n in nonterms | {"$start"}}
    changed = True
    while changed:
        changed = False
        for lhs, rhs in aug:
            before = (len(first[lhs]), lhs in nullable)
            all_null = True
            for sym in rhs:
                if sym in nonterms:
                    first[lhs] |= first[sym]
                    if sym not in nullable:
                        all_null = False
                        break
                else:
                    first[lhs].add(sym)
                    all_null = False
                    break
            if all_null:
                nullable.add(lhs)
            if (len(first[lhs]), lhs in nullable) != before:
                changed = True

    def first_of(seq: tuple[str, ...], la: str) -> set[str]:
        out: set[str] = set()
        for sym in seq:
            if sym in nonterms:
                out |= first[sym]
                if sym not in nullable:
                    return out
            else:
                out.add(sym)
                return out
        out.add(la)
        return out

    by_lhs: dict[str, list[int]] = {}
    for i, (lhs, _) in enumerate(aug):
        by_lhs.setdefault(lhs, []).append(i)

    Item = tuple[int, int, str]  # rule, dot, lookahead

    def closure(items: frozenset[Item]) -> frozenset[Item]:
        out = set(items)
        todo = list(items)
        while todo:
            r, d, la = todo.pop()
            rhs = aug[r][1]
            if d < len(rhs) and rhs[d] in nonterms:
                for la2 in first_of(rhs[d + 1 :], la):
                    for r2 in by_lhs[rhs[d]]:
                        it = (r2, 0, la2)
                        if it not in out:
                            out.add(it)
                            todo.append(it)
        return frozenset(out)

    def goto(items: frozenset[Item], sym: str) -> frozenset[Item]:
        moved = frozenset(
            (r, d + 1, la) for r, d, la in items
            if d < len(aug[r][1]) and aug[r][1][d] == sym
        )
        return closure(moved) if moved else frozenset()

    # canonical LR(1) collection, then merge states sharing an LR(0) core
    init = closure(frozenset({(0, 0, EOF)}))
    states = [init]
    index = {init: 0}
    trans: dict[tuple[int, str], int] = {}
    symbols = [t for t in sym_index if t != EOF] + sorted(nonterms)
    k = 0
    while k < len(states):
        for sym in symbols:
            nxt = goto(states[k], sym)
            if not nxt:
                continue
            if nxt not in index:
                index[nxt] = len(states)
                states.append(nxt)
            trans[(k, sym)] = index[nxt]
        k += 1

    def core(s: frozenset[Item]) -> frozenset[tuple[int, int]]:
        return frozenset((r, d) for r, d, _ in s)

    core_id: dict[frozenset[tuple[int, int]], int] = {}
    merged: list[set[Item]] = []
    remap: list[int] = []
    for s in states:
        c = core(s)
        if c not in core_id:
            core_id[c] = len(merged)
            merged.append(set())
        merged[core_id[c]] |= s
        remap.append(core_id[c])

    n = len(merged)
    actions: list[dict[str, Action]] = [{} for _ in range(n)]
    gotos: list[dict[str, int]] = [{} for _ in range(n)]
    for (src, sym), dst in trans.items():
        if sym in nonterms:
            gotos[remap[src]][sym] = remap[dst]
        else:
            actions[remap[src]][sym] = ("shift", remap[dst])

    def rule_prec(r: int) -> tuple[int, str] | None:
        for sym in aug[r][1]:
            if sym in precedence:
                return precedence[sym]
        return None

    for st, items in enumerate(merged):
        for r, d, la in sorted(items):
            if d != len(aug[r][1]):
                continue
            if r == 0:
                actions[st][EOF] = ("accept", 0)
                continue
            cur = actions[st].get(la)
            if cur is None:
                actions[st][la] = ("reduce", r)
            elif cur[0] == "shift":
                tp, rp = precedence.get(la), rule_prec(r)
                if tp is None or rp is None:
                    raise ValueError(f"unresolved shift/reduce on {la}")
                if rp[0] > tp[0] or (rp[0] == tp[0] and tp[1] == "left"):
                    actions[st][la] = ("reduce", r)
                elif rp[0] == tp[0] and tp[1] == "none":
                    del actions[st][la]
            elif cur[0] == "reduce" and cur[1] != r:
                raise ValueError(f"reduce/reduce conflict on {la}")

    # Lemon's default action: the reduction with the most lookaheads
    # (first in lookahead-symbol order on ties), never one of the start
    # symbol's rules (so a bad token after a complete query errors at once).
    defaults: list[int | None] = []
    for st in range(n):
        acts = sorted(actions[st].items(), key=lambda kv: sym_index[kv[0]])
        best, best_n = None, 0
        for _sym, (kind, r) in acts:
            if kind != "reduce" or aug[r][0] in (start, "$start"):
                continue
            cnt = sum(1 for _s, a in acts if a == ("reduce", r))
            if cnt > best_n:
                best, best_n = r, cnt
        defaults.append(best)
    # rules are reported 0-based against the caller's list
    return Tables(
        actions=tuple(
            {t: (k, v - 1 if k == "reduce" else v) for t, (k, v) in a.items()}
            for a in actions
        ),
        default_reduce=tuple(None if d is None else d - 1 for d in defaults),
        gotos=tuple(gotos),
        rules=tuple(rules),
    )
