"""Answer cards: which clauses a result shows, from the graph's alignment of the law editions.

A law's clauses are shown as counterparts: the row of the alignment (assistant.graph.alignment.
law_alignment, stored in the index as the group's `rows`) whose clauses match the question best, so
1999 64B6 stands beside 2017 64B6 and not beside whatever 2017 clause matched on its own. An edition
without a counterpart in that row is named (`no_counterpart`). When the best row states an exception
(its text or a heading above it: "does not apply", "no rectification", "不适用", "不予", a heading
"除……外" / "Exceptions"), the row stating the rule comes first. Groups without rows (CCBA articles,
definitions, policies, Guandan) show each edition's best clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .results import ClauseHit

# exception wording, in a clause's text or title (EXCEPTION_TEXT) or only in a title (EXCEPTION_TITLE):
# "除……外" and "except" open many rules ("除本条另有规定外，…"), so in a text they do not mark one
EXCEPTION_TEXT = re.compile(r"\b(?:does|do|shall) not apply\b|\bno rectification\b|\bno automatic trick adjustment\b"
                            r"|\bis not subject to\b|不[适適]用|不予|不判罚|不[须須]", re.I)
EXCEPTION_TITLE = re.compile(r"\bexceptions?\b|除.{0,20}外", re.I)
RULE_SHARE = 0.3          # a rule row is shown before an exception row when it scores this share of it


@dataclass
class Card:
    """The clauses one result shows, and what the alignment says about them."""

    hits: list[ClauseHit]
    no_counterpart: list[str]
    exceptions: list[str]
    rows: list[dict[str, str | None]]


def _own_exception(rec: dict[str, object]) -> bool:
    texts = " ".join(str(t) for t in dict(rec.get("text", {})).values())  # type: ignore[call-overload]
    titles = " ".join(str(t) for t in dict(rec.get("title", {})).values())  # type: ignore[call-overload]
    return bool(EXCEPTION_TEXT.search(texts) or EXCEPTION_TEXT.search(titles) or EXCEPTION_TITLE.search(titles))


_EXCEPTIONS: dict[tuple[int, str], bool] = {}     # (id of the index's clause table, clause id) -> marked


def is_exception(clauses: dict[str, dict[str, object]], cid: str) -> bool:
    """A clause states an exception when its words or a heading above it (below the law) say so."""
    key = (id(clauses), cid)
    if key not in _EXCEPTIONS:
        _EXCEPTIONS[key] = _exception(clauses, cid)
    return _EXCEPTIONS[key]


def _exception(clauses: dict[str, dict[str, object]], cid: str) -> bool:
    cur: str | None = cid
    while cur and cur in clauses:
        rec = clauses[cur]
        if rec.get("parent") is None or len(cur.split("/")) <= 3:      # the law itself is no exception
            return False
        if _own_exception(rec):
            return True
        cur = rec.get("parent")  # type: ignore[assignment]
    return False


def clause_scores(doc_clause: list[str], doc_score: np.ndarray, docs: np.ndarray) -> dict[str, float]:
    """Best document score per clause id among `docs` (clause, sub-tree, whole-law and index documents)."""
    out: dict[str, float] = {}
    for i in np.flatnonzero(docs):
        cid = doc_clause[i]
        s = float(doc_score[i])
        if s > out.get(cid, -np.inf):
            out[cid] = s
    return out


def _has_text(clauses: dict[str, dict[str, object]], cid: str, langs: list[str], titles: bool = True) -> bool:
    """Whether the clause has words to show in one of `langs` (its text, or with `titles` its title)."""
    c = clauses[cid]
    return any(c["text"].get(lg) or (titles and c["title"].get(lg)) for lg in langs)  # type: ignore[attr-defined]


def best_rows(rows: list[dict[str, str | None]], score: dict[str, float], editions: list[str],
              clauses: dict[str, dict[str, object]], langs: list[str], cited: list[str]) -> list[int]:
    """The rows to show, best first: the cited row or the best-scoring row with text, preceded by the
    best rule row when that one states an exception."""
    def row_score(r: dict[str, str | None]) -> float:
        return max((score.get(str(r[e]), -np.inf) for e in editions if r.get(e)), default=-np.inf)

    def shown(r: dict[str, str | None], titles: bool) -> bool:
        return any(r.get(e) and _has_text(clauses, str(r[e]), langs, titles) for e in editions)

    def exc(r: dict[str, str | None]) -> bool:
        return any(is_exception(clauses, str(r[e])) for e in editions if r.get(e))

    # rows with text to show; rows of bare headings (a law's title, 43A1) only when there is nothing else
    usable = [i for i, r in enumerate(rows) if shown(r, False)] or [i for i, r in enumerate(rows) if shown(r, True)]
    # a cited clause's row: the first cited id (newest edition first) that some row shows
    hit = next((i for c in cited for i, r in enumerate(rows) if c in r.values() and shown(r, True)), None)
    if not usable and hit is None:
        return []
    first = hit if hit is not None else max(usable, key=lambda i: row_score(rows[i]))
    if hit is not None or not exc(rows[first]):
        return [first]
    rules = [i for i in usable if not exc(rows[i]) and row_score(rows[i]) > -np.inf]
    if not rules:
        return [first]
    rule = max(rules, key=lambda i: row_score(rows[i]))
    return [rule, first] if row_score(rows[rule]) >= RULE_SHARE * row_score(rows[first]) else [first]


def hits_of(ids: dict[str, str], show: list[tuple[str, str]], clauses: dict[str, dict[str, object]]) -> list[ClauseHit]:
    """ClauseHits for the chosen clause of each edition, in the order of `show` (edition, language)."""
    out: list[ClauseHit] = []
    for ed, lg in show:
        cid = ids.get(ed)
        if not cid:
            continue
        c = clauses[cid]
        text = str(c["text"].get(lg, ""))  # type: ignore[attr-defined]
        title = str(c["title"].get(lg, "") or c.get("term", {}).get(lg, ""))  # type: ignore[attr-defined]
        if text or title:
            out.append(ClauseHit(cid, ed, lg, title, text))
    return out


def aligned_card(rows: list[dict[str, str | None]], score: dict[str, float], show: list[tuple[str, str]],
                 clauses: dict[str, dict[str, object]], cited: list[str]) -> Card | None:
    """The card of a law from its alignment rows; None when no row has anything to show."""
    editions = list(dict.fromkeys(e for e, _ in show))
    langs = list(dict.fromkeys(lg for _, lg in show))
    picked = best_rows(rows, score, editions, clauses, langs, cited)
    if not picked:
        return None
    hits: list[ClauseHit] = []
    for i in picked:
        hits += hits_of({e: str(rows[i][e]) for e in editions if rows[i].get(e)}, show, clauses)
    main = rows[picked[-1]]
    missing = [e for e in editions if not main.get(e)]
    exceptions = [h.id for h in hits if is_exception(clauses, h.id)]
    return Card(hits, missing, list(dict.fromkeys(exceptions)), [rows[i] for i in picked])


def best_clause_card(in_group: list[str], score: dict[str, float], show: list[tuple[str, str]],
                     clauses: dict[str, dict[str, object]], cited: list[str]) -> Card:
    """Each edition's best-scoring clause with text (groups without alignment rows)."""
    chosen: dict[str, str] = {str(clauses[c]["edition"]): c for c in cited}
    for ed in dict.fromkeys(e for e, _ in show):
        if ed in chosen:
            continue
        langs = [lg for e, lg in show if e == ed]
        cand = [c for c in in_group if clauses[c]["edition"] == ed and _has_text(clauses, c, langs)]
        if cand:
            chosen[ed] = max(cand, key=lambda c: score.get(c, -np.inf))
    return Card(hits_of(chosen, show, clauses), [], [], [])
