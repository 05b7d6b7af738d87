"""The app's one adapter to the other layers: cached resources and every call into search, graph,
rulings, terminology and diff, so a change of their API is a one-line fix here.

Resources are loaded once per process and shared by every session (assistant.resources; the citation
index and the change rows are memoised here, and `resources.reset()` forgets them too); a warm-up thread
loads them before anyone waits. The pages call only the functions below.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..corpus import Corpus
from ..errors import BridgelawError
from ..resources import Resources
from ..resources import resources as process_resources
from ..rulings.model import Tree
from ..search.hybrid import Answer, HybridSearch
from ..search.query import MAX_CHARS
from ..terminology import Terminology

MAX_QUERY_CHARS = MAX_CHARS     # the search's own limit (assistant.search.query)
log = logging.getLogger("bridgelaw.app")


# ------------------------------------------------------------------------------------ resources


def resources() -> Resources:
    """The process's one Resources (assistant.resources), shared by every session."""
    return process_resources()


def corpus() -> Corpus:
    """The parsed corpus."""
    return resources().corpus


def searcher() -> HybridSearch:
    """The hybrid searcher with its index, embedding model and ruling-topic channel (after a warm-up under
    way has loaded them)."""
    wait_for_search()
    return resources().searcher()


@dataclass
class CitationIndex:
    """Citations by citing clause and by cited clause (assistant.graph.citations)."""

    by_source: dict[str, list[Any]] = field(default_factory=dict)
    by_target: dict[str, list[Any]] = field(default_factory=dict)


@lru_cache(maxsize=1)
def citations() -> CitationIndex:
    """Every resolved citation of the corpus, indexed both ways."""
    from ..graph.citations import cached_citations, citations_by_target

    cits = [c for c in cached_citations(corpus()) if c.target]
    by_source: dict[str, list[Any]] = {}
    for c in cits:
        by_source.setdefault(c.source, []).append(c)
    return CitationIndex(by_source, citations_by_target(cits))


def terminology() -> Terminology:
    """The terminology crosswalk."""
    return resources().terms


def trees() -> dict[str, Tree]:
    """The ruling trees by topic, validated against the corpus."""
    return resources().trees


# where a concept's name is read in each interface language: (edition, language) in order of preference
LABEL_SOURCES = {"zh-Hans": (("ccba2018", "zh-Hans"), ("ccba1999", "zh-Hans")),
                 "zh-Hant": (("wbf2017", "zh-Hant"),), "en": (("wbf2017", "en"),)}


def concept_label(concept_id: str, lang: str) -> str:
    """A term's name as the edition a reader of `lang` uses writes it ('dummy' -> 明手 / 夢家 / dummy);
    '' when the terminology has no such concept."""
    c = terminology().concepts.get(concept_id)
    if c is None:
        return ""
    for ed, lg in LABEL_SOURCES.get(lang, ()):
        forms = [lb.form for lb in c.labels if lb.edition == ed and lb.lang == lg and lb.role == "pref"]
        if forms:
            return str(forms[0])
    return str(c.en) if lang == "en" else ""


@lru_cache(maxsize=1)
def lexicon() -> Any:
    """The term lexicon the redlines compare by concept (assistant.diff.redline.TermLexicon)."""
    from ..diff.redline import TermLexicon

    terms = terminology()
    labels = {lb.form: c.id for c in terms.concepts.values() for lb in c.labels if lb.role in ("pref", "alt")}
    return TermLexicon(labels)


# ------------------------------------------------------------------------------------ search


def check_query(text: str | None) -> str:
    """The query cleaned and stripped, or a keyed BadQuery (rendered in the page's language) when it is
    empty, too long or has nothing to search — before the index is even loaded."""
    from ..search.query import check

    return check(text)


def ask(query: str, edition: str | None = None, top: int = 5, reading: str | None = None) -> Answer:
    """Search (HybridSearch.search) -> Answer with .answered, .results, .searched, .message, .rulings and
    .reading; `reading` is an incident the user chose as the reading of the question (see readings())."""
    if reading is None:
        return searcher().search(check_query(query), edition=edition, top=top)
    return searcher().search(check_query(query), edition=edition, top=top, reading=reading)


def readings() -> frozenset[str]:
    """The incidents a question can be read as (the search's incident channel; empty without one)."""
    return frozenset(getattr(searcher(), "incidents", None) or ())


def clause_title(clause_id: str) -> dict[str, str] | None:
    """A clause's titles by language from the search index (the Ask page needs no parsed corpus)."""
    return searcher().clause_titles(clause_id)


def topics_for_query(query: str, offered: list[str] | None = None) -> list[str]:
    """Ruling topics for a question: the search's own offer, else the trees' trigger words."""
    known = trees()
    if offered is not None:
        return [t for t in offered if t in known]
    return [t for t, _laws in resources().topics(query) if t in known]


# ------------------------------------------------------------------------------------ rulings


def start_ruling(topic: str, edition: str) -> Any:
    """An interactive ruling session (assistant.rulings.start); UnknownTopic if it does not exist."""
    from ..rulings import start

    return start(topic, edition, trees())


# ------------------------------------------------------------------------------------ diff


def redline(old: str, new: str) -> Any:
    """A redline between two texts, terms compared by concept (assistant.diff.redline.redline)."""
    from ..diff.redline import redline as _redline

    return _redline(old, new, lexicon())


def change_classes() -> tuple[str, ...]:
    """The classes of a clause pair between two editions, least serious first (assistant.diff.content)."""
    from ..diff.content import CONTENT_CLASSES

    return CONTENT_CLASSES


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
    law_change: str = ""         # the law's class: the most serious of its pairs
    pair: Any = None             # the PairDiff (what changed, element by element)


def _clause_text(c: Any) -> str:
    return "\n".join(p for p in (c.title.get("zh-Hans", ""), c.text.get("zh-Hans", "")) if p).strip() if c else ""


@lru_cache(maxsize=1)
def change_rows() -> list[ChangeRow]:
    """Every CCBA 1999 / 2018 clause pair with its class, once each, read off the change report
    (assistant.diff.report.change_report, built on the one alignment)."""
    from ..diff.report import change_report

    c = corpus()
    old_ed, new_ed = c.editions["ccba1999"].clauses, c.editions["ccba2018"].clauses
    out: list[ChangeRow] = []
    seen: set[tuple[str | None, str | None]] = set()
    for ld in change_report(c, "ccba1999", "ccba2018").laws:
        for p in ld.pairs:
            if (p.from_id, p.to_id) in seen:       # a pair across two laws is filed under both
                continue
            seen.add((p.from_id, p.to_id))
            out.append(ChangeRow(str(ld.law), ld.chapter or None, p.from_id, p.to_id, p.change,
                                 _clause_text(old_ed.get(p.from_id or "")), _clause_text(new_ed.get(p.to_id or "")),
                                 tuple(p.figures_from), tuple(p.figures_to), ld.change, p))
    return out


def key_changes() -> tuple[Any, ...]:
    """The ranked key changes CCBA 1999 -> CCBA 2018 (assistant.diff.keychanges), ids checked on the corpus."""
    from ..diff.keychanges import key_changes as _key_changes

    return _key_changes(corpus())


# ------------------------------------------------------------------------------------ warm-up


_WARM: list[threading.Thread] = []          # the process's one warm-up thread, once started
_WARM_LOCK = threading.Lock()
_SEARCH_READY = threading.Event()           # set when the warm-up has answered its first question


def _warm() -> None:
    """Load what the pages need, most needed first, while nobody waits: the search (index, embedding model,
    tokenizers, ruling-topic channel) and the ruling trees, then the corpus and its citations (law pages),
    then the change report (Compare). Errors are left for the page that needs the resource."""
    from ..search.query import check

    res = process_resources()
    try:
        try:
            res.searcher().search(check("dummy points at a card and declarer plays it"))
            trees()
        finally:
            _SEARCH_READY.set()
        citations()
        change_rows()
        key_changes()
    except (BridgelawError, OSError) as err:     # the page that needs the resource reports the error
        log.warning("warm-up stopped: %s", err)
        return
    log.info("warm-up done")


def warm_in_background() -> threading.Thread:
    """Start, once per process, a thread that loads the slow resources while the first page renders (the
    app calls it on every run; `python -m assistant.ui.serve` calls it as the server starts)."""
    with _WARM_LOCK:
        if not _WARM:
            th = threading.Thread(target=_warm, name="bridgelaw-warm", daemon=True)
            th.start()
            _WARM.append(th)
        return _WARM[0]


def wait_for_search() -> None:
    """A question asked while the warm-up is loading the search waits for it rather than loading the same
    index and model a second time in its own thread."""
    if _WARM and _WARM[0].is_alive() and threading.current_thread() is not _WARM[0]:
        _SEARCH_READY.wait()
