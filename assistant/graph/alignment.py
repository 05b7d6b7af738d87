"""The one alignment of the law editions, read by the diff, the Laws page and the search's answer cards:
links between any two editions (direct, chained through the hub edition, or reversed) and, for one law,
the rows of counterpart clauses across every law edition. Pure given the corpus; computed once per corpus.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from ..errors import BadInput
from .align import Correspondence, align_editions, edition_pairs

# the kind of a link kept when two steps are chained: structure wins over text, a revision over sameness
STRUCTURAL = ("different_subject", "moved", "renumbered", "merged", "split")
INVERSE = {"new": "removed", "removed": "new", "merged": "split", "split": "merged"}
# which counterpart of a clause gives it its row: the closest kind first
ROW_PRIORITY = ("same", "revised", "renumbered", "moved", "merged", "split", "different_subject")
_CACHE: dict[str, tuple[Correspondence, ...]] = {}
_LINKS: dict[tuple[str, str, str], tuple["Link", ...]] = {}
_CACHE_SIZE = 4


class NoAlignment(BadInput):
    """Two editions the alignment cannot connect."""


@dataclass(frozen=True)
class Link:
    """A correspondence from a clause of one edition to a clause of another (either side may be None)."""

    from_id: str | None
    to_id: str | None
    kind: str
    method: str
    note: str = ""
    scope: str = "clause"        # 'title': only the headings correspond, the text is linked apart


@dataclass(frozen=True)
class AlignedRow:
    """One row of a law across the law editions: the clause of each edition there (None: no counterpart)."""

    path: tuple[str, ...]        # the position below the law number; '(edition)' marks a row of one edition
    ids: dict[str, str | None]


def alignment(corpus: Any) -> tuple[Correspondence, ...]:
    """Every correspondence of the directly aligned edition pairs, computed once per corpus fingerprint."""
    key = corpus.fingerprint
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = tuple(align_editions(corpus))
    return _CACHE[key]


def _ed(cid: str | None) -> str | None:
    return cid.split("/", 1)[0] if cid else None


def _direct(corpus: Any, older: str, newer: str) -> list[Link]:
    """The links of one directly aligned pair; a one-sided row belongs to the pair of its own edition."""
    return [Link(c.from_id, c.to_id, c.kind, c.method, c.note, c.scope) for c in alignment(corpus)
            if (c.from_id is None or _ed(c.from_id) == older) and (c.to_id is None or _ed(c.to_id) == newer)]


def _invert(found: list[Link]) -> list[Link]:
    return [Link(x.to_id, x.from_id, INVERSE.get(x.kind, x.kind), x.method, x.note, x.scope) for x in found]


def _route(a: str, b: str) -> list[tuple[str, str]]:
    """The steps from edition a to edition b over the directly aligned pairs (breadth first)."""
    pairs = edition_pairs()
    step = {(x, y) for x, y in pairs} | {(y, x) for x, y in pairs}
    prev: dict[str, str] = {a: a}
    queue = deque([a])
    while queue:
        cur = queue.popleft()
        for x, y in sorted(step):
            if x == cur and y not in prev:
                prev[y] = cur
                queue.append(y)
    if b not in prev or a == b:
        known = sorted({e for p in pairs for e in p})
        raise NoAlignment(f"no alignment from {a} to {b} — choose two different editions of {', '.join(known)}")
    route = [b]
    while route[-1] != a:
        route.append(prev[route[-1]])
    route.reverse()
    return list(zip(route, route[1:], strict=False))


def _chain(first: list[Link], second: list[Link]) -> list[Link]:
    """Links a→c from links a→b and b→c: a clause keeps the counterparts of its counterpart."""
    onward: dict[str, list[Link]] = {}
    for x in second:
        if x.from_id:
            onward.setdefault(x.from_id, []).append(x)
    out: list[Link] = []
    for x in first:
        if x.to_id is None:
            out.append(x)
            continue
        for y in onward.get(x.to_id, []):
            if x.from_id is None and y.to_id is None:
                continue                       # new in b, gone again in c
            if x.from_id is None:
                out.append(Link(None, y.to_id, "new", x.method, x.note))
            elif y.to_id is None:
                out.append(Link(x.from_id, None, "removed", y.method, y.note))
            else:
                pick = x if x.kind in STRUCTURAL or (x.kind == "revised" and y.kind not in STRUCTURAL) else y
                pick = x if pick.kind == "same" else pick
                out.append(Link(x.from_id, y.to_id, pick.kind, pick.method, pick.note,
                                "title" if "title" in (x.scope, y.scope) else "clause"))
    out += [y for y in second if y.from_id is None]
    unique: dict[tuple[str | None, str | None], Link] = {}
    for x in out:
        unique.setdefault((x.from_id, x.to_id), x)        # two routes to one pair (merged clauses): once
    return list(unique.values())


def links(corpus: Any, from_ed: str, to_ed: str) -> tuple[Link, ...]:
    """Every link from edition `from_ed` to edition `to_ed`: direct, reversed, or chained through the hub."""
    key = (corpus.fingerprint, from_ed, to_ed)
    if key not in _LINKS:
        out: list[Link] | None = None
        for a, b in _route(from_ed, to_ed):
            step = _direct(corpus, a, b) if (a, b) in edition_pairs() else _invert(_direct(corpus, b, a))
            out = step if out is None else _chain(out, step)
        if len(_LINKS) >= 4 * _CACHE_SIZE:
            _LINKS.pop(next(iter(_LINKS)))
        _LINKS[key] = tuple(out or ())
    return _LINKS[key]


# ---------------------------------------------------------------------------------------------
# Rows of one law


def _hub() -> tuple[str, tuple[str, ...]]:
    """The edition aligned directly with every other law edition, and the others (manifest order)."""
    pairs = edition_pairs()
    eds = list(dict.fromkeys(e for p in pairs for e in p))
    hub = max(eds, key=lambda e: sum(e in p for p in pairs))
    return hub, tuple(e for e in eds if e != hub)


def _subtree(ed: Any, root: str) -> list[str]:
    out: list[str] = []
    stack = [root] if root in ed.clauses else []
    while stack:
        cid = stack.pop()
        out.append(cid)
        stack.extend(reversed(ed.clauses[cid].children))
    return out


def _primary(pairs: tuple[Link, ...]) -> dict[str, str]:
    """Each clause of the other edition -> the hub clause whose row it joins (the closest kind)."""
    best: dict[str, tuple[int, str]] = {}
    for x in pairs:
        if not (x.from_id and x.to_id) or x.scope != "clause" or x.kind not in ROW_PRIORITY:
            continue
        rank = ROW_PRIORITY.index(x.kind)
        if x.from_id not in best or rank < best[x.from_id][0]:
            best[x.from_id] = (rank, x.to_id)
    return {k: v for k, (_, v) in best.items()}


def law_alignment(corpus: Any, number: str) -> list[AlignedRow]:
    """The rows of law `number`: one per clause of the hub edition (ccba2018), each with the counterpart
    of every other law edition; a clause with no counterpart there gets a row of its own, after the row of
    the clause before it."""
    hub, others = _hub()
    eds = (hub, *others)
    hub_ids = _subtree(corpus.editions[hub], f"{hub}/law/{number}")
    rows: list[dict[str, str | None]] = [{hub: cid} for cid in hub_ids]
    paths: list[tuple[str, ...]] = [tuple(cid.split("/")[3:]) for cid in hub_ids]
    row_of = {cid: i for i, cid in enumerate(hub_ids)}
    for other in others:
        to_hub = _primary(links(corpus, other, hub))
        own = _subtree(corpus.editions[other], f"{other}/law/{number}")
        joining = [a for a, h in to_hub.items() if h in row_of and a not in own]
        prev: int | None = None
        for cid in own + joining:
            target = to_hub.get(cid)
            i = row_of.get(target) if target else None
            if i is not None and rows[i].get(other) is None:
                rows[i][other] = cid
                prev = i
                continue
            path = tuple(cid.split("/")[3:])
            path = path if path not in paths else (*path, f"({other})")
            at = len(rows) if prev is None or cid in joining else prev + 1
            row: dict[str, str | None] = {other: cid}
            if target and i is None:          # its counterpart lives in another law: show it beside
                row[hub] = target
            rows.insert(at, row)
            paths.insert(at, path)
            row_of = {str(r[hub]): j for j, r in enumerate(rows) if r.get(hub)}
            prev = at
    return [AlignedRow(p, {e: r.get(e) for e in eds}) for p, r in zip(paths, rows, strict=True)]
