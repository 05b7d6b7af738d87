"""The app's one adapter to the other layers: cached resources and every call into search, graph,
rulings, terminology and diff, so a change of their API is a one-line fix here.

Resources are cached once per process with `st.cache_resource` (corpus, search index and model,
citations, terminology, ruling trees, term lexicon); the pages call only the functions below.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import streamlit as st

from ..corpus import Corpus, load_corpus
from ..errors import BadQuery

MAX_QUERY_CHARS = 2000          # mirrors assistant.search.query.MAX_CHARS; checked again there
# a letter, digit or CJK character: a query without one has nothing to search (emoji, symbols)
SEARCHABLE = re.compile(r"[0-9A-Za-z\u3400-\u9fff\uf900-\ufaff\u00c0-\u024f\u0400-\u04ff]")


# ------------------------------------------------------------------------------------ resources


@st.cache_resource(show_spinner=False)
def corpus() -> Corpus:
    """The parsed corpus (assistant.corpus.load_corpus)."""
    return load_corpus()


@st.cache_resource(show_spinner=False)
def searcher() -> Any:
    """The hybrid searcher with its index and embedding model (assistant.search.hybrid.default_search)."""
    from ..search.hybrid import default_search

    return default_search()


@dataclass
class CitationIndex:
    """Citations by citing clause and by cited clause (assistant.graph.citations)."""

    by_source: dict[str, list[Any]] = field(default_factory=dict)
    by_target: dict[str, list[Any]] = field(default_factory=dict)


@st.cache_resource(show_spinner=False)
def citations() -> CitationIndex:
    """Every resolved citation of the corpus, indexed both ways."""
    from ..graph.citations import cached_citations, citations_by_target

    cits = [c for c in cached_citations(corpus()) if c.target]
    by_source: dict[str, list[Any]] = {}
    for c in cits:
        by_source.setdefault(c.source, []).append(c)
    return CitationIndex(by_source, citations_by_target(cits))


@st.cache_resource(show_spinner=False)
def terminology() -> Any:
    """The terminology crosswalk (assistant.terminology.load_terminology)."""
    from ..terminology import load_terminology

    return load_terminology()


@st.cache_resource(show_spinner=False)
def trees() -> dict[str, Any]:
    """The ruling trees by topic (assistant.rulings.load_trees), validated against the corpus."""
    from ..rulings import load_trees

    return dict(load_trees())


@st.cache_resource(show_spinner=False)
def lexicon() -> Any:
    """The term lexicon the redlines compare by concept (assistant.diff.redline.TermLexicon)."""
    from ..diff.redline import TermLexicon

    terms = terminology()
    labels = {lb.form: c.id for c in terms.concepts.values() for lb in c.labels if lb.role in ("pref", "alt")}
    return TermLexicon(labels)


# ------------------------------------------------------------------------------------ search


def check_query(text: str | None) -> str:
    """The query stripped; BadQuery when empty or too long (before the index is even loaded)."""
    q = (text or "").strip()
    if not q:
        raise BadQuery("empty query — there is nothing to search — type a question")
    if len(q) > MAX_QUERY_CHARS:
        raise BadQuery(f"query too long: {len(q)} characters — the limit is {MAX_QUERY_CHARS} — "
                       "describe the situation in a few sentences")
    if not SEARCHABLE.search(q):
        raise BadQuery("nothing to search — the query has only punctuation, symbols or emoji — "
                       "describe the situation in words")
    return q


def ask(query: str, edition: str | None = None, top: int = 5) -> Any:
    """Search (HybridSearch.search) -> Answer with .answered, .results, .searched, .message, .rulings."""
    return searcher().search(check_query(query), edition=edition, top=top)


def clause_title(clause_id: str) -> dict[str, str] | None:
    """A clause's titles by language from the search index (the Ask page needs no parsed corpus)."""
    return searcher().clause_titles(clause_id)  # type: ignore[no-any-return]


def topics_for_query(query: str, offered: list[str] | None = None) -> list[str]:
    """Ruling topics for a question: the search's own offer, else rulings.match, else trigger words."""
    known = trees()
    if offered is not None:
        return [t for t in offered if t in known]
    try:
        match = import_module("assistant.rulings.match")
        return [str(t) for t in match.topics_for_query(query) if str(t) in known]
    except ImportError:
        pass
    from ..terminology import fold

    q = fold(query)
    out = []
    for topic, tree in known.items():
        words = [w for ws in tree.triggers.values() for w in ws]
        if any(fold(w) and fold(w) in q for w in words):
            out.append(topic)
    return out


# ------------------------------------------------------------------------------------ rulings


def start_ruling(topic: str, edition: str) -> Any:
    """An interactive ruling session (assistant.rulings.start); UnknownTopic if it does not exist."""
    from ..rulings import start

    return start(topic, edition, trees())


# ------------------------------------------------------------------------------------ diff


@st.cache_resource(show_spinner=False)
def counterparts_1999() -> dict[str, str]:
    """CCBA 1999 clause id -> its CCBA 2018 counterpart, '' when it has none (assistant.diff.report.correspondences, built
    on the graph alignment); empty when that layer is missing, so the Laws page aligns by path only."""
    try:
        from ..diff.report import correspondences

        out: dict[str, str] = {}
        for a, b, _kind, _note in correspondences(corpus(), "ccba1999", "ccba2018"):
            if a and (b or a not in out):
                out[a] = b or ""             # '' : the alignment found no counterpart (removed)
        return out
    except Exception:  # noqa: BLE001 - an optional layer: the page falls back to same-path alignment
        return {}


def redline(old: str, new: str) -> Any:
    """A redline between two texts, terms compared by concept (assistant.diff.redline.redline)."""
    from ..diff.redline import redline as _redline

    return _redline(old, new, lexicon())


def classify(old: str | None, new: str | None) -> Any:
    """The change class of a pair of texts (assistant.diff.classify.classify_pair)."""
    from ..diff.classify import classify_pair

    return classify_pair(old, new, lexicon())


def change_classes() -> tuple[str, ...]:
    from ..diff.classify import CHANGE_CLASSES

    return CHANGE_CLASSES


@dataclass(frozen=True)
class ChangeRow:
    """One pair of corresponding clauses (CCBA 1999 -> CCBA 2018) with its change class."""

    law: str
    chapter: str | None          # ccba2018 chapter id
    old_id: str | None
    new_id: str | None
    change: str
    old: str
    new: str
    figures_old: tuple[Any, ...] = ()
    figures_new: tuple[Any, ...] = ()


def _clause_text(c: Any) -> str:
    return "\n".join(p for p in (c.title.get("zh-Hans", ""), c.text.get("zh-Hans", "")) if p).strip() if c else ""


def _report_rows() -> list[ChangeRow] | None:
    """Rows of the change report (assistant.diff.report.change_report: laws -> pairs), None if absent."""
    try:
        from ..diff.report import change_report
    except ImportError:
        return None
    c = corpus()
    old_ed, new_ed = c.editions["ccba1999"].clauses, c.editions["ccba2018"].clauses
    out: list[ChangeRow] = []
    for ld in change_report(c).laws:
        for p in ld.pairs:
            out.append(ChangeRow(str(ld.law), ld.chapter or None, p.from_id, p.to_id, p.change,
                                 _clause_text(old_ed.get(p.from_id or "")), _clause_text(new_ed.get(p.to_id or "")),
                                 tuple(p.figures_from), tuple(p.figures_to)))
    return out


@st.cache_resource(show_spinner=False)
def change_rows() -> list[ChangeRow]:
    """Every CCBA 1999 / 2018 clause pair with its class: the diff report if present, else per clause id."""
    rows = _report_rows()
    if rows is not None:
        return rows
    c = corpus()
    old_ed, new_ed = c.editions["ccba1999"].clauses, c.editions["ccba2018"].clauses
    out: list[ChangeRow] = []
    seen: set[str] = set()
    for cid, new in new_ed.items():
        if "/law/" not in cid:
            continue
        old_id = "ccba1999" + cid[len("ccba2018"):]
        old = old_ed.get(old_id)
        seen.add(old_id)
        ot, nt = (old.text.get("zh-Hans", "") if old else ""), new.text.get("zh-Hans", "")
        if not ot and not nt:
            continue
        pc = classify(ot or None, nt or None)
        out.append(ChangeRow(cid.split("/")[2], new.chapter, old_id if old else None, cid, pc.change, ot, nt,
                             tuple(pc.figures_old), tuple(pc.figures_new)))
    for old_id, old in old_ed.items():
        if "/law/" in old_id and old_id not in seen and old.text.get("zh-Hans"):
            out.append(ChangeRow(old_id.split("/")[2], None, old_id, None, "removed", old.text["zh-Hans"], ""))
    return out


# ------------------------------------------------------------------------------------ helpers


def _warm() -> None:
    """Answer one throw-away question so the index, the model, the tokenizers, the terminology and the
    ruling trees are loaded while the user is still typing; errors are left for the page that needs them."""
    try:
        ask("dummy")
        trees()
    except Exception:  # noqa: BLE001 - a warm-up never fails the app; the page reports the error
        return


@st.cache_resource(show_spinner=False)
def warm_in_background() -> threading.Thread:
    """Start, once per process, a thread that loads the slow resources while the first page renders."""
    th = threading.Thread(target=_warm, name="bridgelaw-warm", daemon=True)
    th.start()
    return th
