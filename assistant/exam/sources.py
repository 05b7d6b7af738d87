"""What the exam generators read from the rest of the project: clauses and chapters, terms, ruling
trees and their paths, the 1999 -> 2018 alignment and the change report.

No fallbacks: a tree that fails validation or an alignment that cannot be built is an error here, as
everywhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterator

from ..corpus import Corpus, load_corpus
from ..editions import bridge_editions, edition
from ..errors import BridgelawError
from ..model import Clause, ClauseId

if TYPE_CHECKING:
    from ..rulings.model import Tree
    from ..terminology import Concept, Terminology

BRIDGE_EDITIONS: tuple[str, ...] = bridge_editions()
# the edition whose chapter headings place another edition's laws (wbf2017 prints no chapters)
CHAPTERS_FROM: dict[str, str] = {"wbf2017": "ccba2018"}
# alignment kinds the change classifier takes as given
STRUCTURAL_KINDS: frozenset[str] = frozenset({"moved", "different_subject", "new", "removed"})
SAFE_UNCHANGED: frozenset[str] = frozenset({"unchanged", "script_only", "terminology_only"})


@lru_cache(maxsize=1)
def corpus() -> Corpus:
    """The project's corpus (load_corpus resolves its folder on every call; a generator asks thousands of times)."""
    return load_corpus()


def clause(clause_id: str) -> Clause | None:
    """The clause, or None when the id is not in the corpus."""
    cid = ClauseId.parse(clause_id)
    ed = corpus().editions.get(cid.edition)
    return ed.clauses.get(clause_id) if ed else None


def clauses(edition: str) -> list[Clause]:
    """An edition's clauses in document order."""
    return list(corpus().editions[edition].clauses.values())


# ---------------------------------------------------------------------------------------- chapters


@lru_cache(maxsize=8)
def _law_chapters(edition: str) -> dict[tuple[str, str], str]:
    """(kind, number) of each top-level law/article -> its chapter id (borrowed for wbf2017)."""
    src = CHAPTERS_FROM.get(edition, edition)
    out: dict[tuple[str, str], str] = {}
    for c in corpus().editions[src].laws():
        if c.chapter:
            out[(c.cid.kind, c.number)] = c.chapter
    return out


def chapter_of(c: Clause) -> str | None:
    """The chapter id of a clause's law or article ('ccba2018/part/2/chapter/6' for wbf2017 Law 64)."""
    cid = c.cid
    if cid.kind not in ("law", "article") or not cid.path:
        return c.chapter
    return _law_chapters(c.edition).get((cid.kind, cid.path[0]), c.chapter)


def chapter_titles(edition: str) -> dict[str, str]:
    """Chapter id -> title, for the edition whose headings place this edition's laws."""
    src = CHAPTERS_FROM.get(edition, edition)
    return {ch.id: ch.title for ch in corpus().editions[src].chapters}


def chapter_matches(chapter_id: str | None, wanted: str) -> bool:
    """`wanted` is a chapter id, or a bare number meaning the chapter of the laws with that number."""
    if not chapter_id:
        return False
    if "/" in wanted:
        return chapter_id == wanted or chapter_id.startswith(wanted + "/")
    m = re.search(r"chapter/(\d+)$", chapter_id)
    law_part = "/part/1/" not in chapter_id      # ccba2018 part 1 holds the articles
    return m is not None and m.group(1) == wanted.strip() and law_part


# ------------------------------------------------------------------------------------- terminology


def terminology() -> "Terminology":
    from ..terminology import load_terminology

    return load_terminology()


def concepts() -> list["Concept"]:
    """All concepts, sorted by id."""
    return [terminology().concepts[k] for k in sorted(terminology().concepts)]


def labels(concept: "Concept", edition: str, lang: str, roles: tuple[str, ...] = ("pref", "alt")) -> list[str]:
    """A concept's labels in one edition and language, preferred first."""
    out = [lb.form for r in roles for lb in concept.labels if lb.role == r and lb.edition == edition
           and lb.lang == lang]
    return list(dict.fromkeys(out))


@lru_cache(maxsize=16384)
def concepts_named(form: str, edition: str) -> tuple[str, ...]:
    """Ids of the concepts a label names in one edition (exact look-up; several for a collision)."""
    return tuple(c.id for c in terminology().find(form, edition)) if form else ()


def definition_concept(c: Clause) -> str | None:
    """The concept a definitions-chapter clause defines, if the crosswalk knows it."""
    found = terminology().by_definition([c.key, c.key_printed, c.number], c.term, c.edition)
    return found.id if found else None


# ---------------------------------------------------------------------------------- ruling trees


def trees() -> dict[str, "Tree"]:
    """The validated ruling trees by topic (a tree that fails validation stops here: TreeError)."""
    from ..rulings.model import load_trees

    return dict(sorted(load_trees().items()))


@dataclass(frozen=True)
class TreePath:
    """One root-to-ruling path: the (question node, answer) steps, the leaf, the facts that replay it."""

    steps: tuple[tuple[str, Any], ...]       # (question node id, Answer)
    leaf: str
    facts: tuple[tuple[str, Any], ...]


_PATHS: dict[tuple[int, str], tuple[Any, tuple[TreePath, ...]]] = {}


def tree_paths(tree: Any, edition: str) -> list[TreePath]:
    """Every path of a tree in an edition whose facts replay to the same ruling through the engine
    (replayed once per tree object and edition: every seed and kind reads the same paths; a reloaded
    tree is another object, so its paths are replayed again)."""
    key = (id(tree), edition)
    hit = _PATHS.get(key)
    if hit is None or hit[0] is not tree:
        hit = _PATHS[key] = (tree, tuple(_tree_paths(tree, edition)))
    return list(hit[1])


def _tree_paths(tree: Any, edition: str) -> list[TreePath]:
    from ..rulings.engine import rule
    from ..rulings.model import Leaf

    rules_ed = tree.rules_edition(edition)
    out: list[TreePath] = []

    def walk(nid: str, steps: tuple[tuple[str, Any], ...]) -> Iterator[TreePath]:
        node = tree.node(nid)
        if isinstance(node, Leaf):
            facts: dict[str, Any] = {}
            for qid, ans in steps:
                fact = tree.node(qid).fact
                if fact in facts:          # the same fact asked twice: replay decides
                    continue
                facts[fact] = ans.canonical()
            yield TreePath(steps, nid, tuple(facts.items()))
            return
        for ans in node.answers:
            if ans.offered(rules_ed):
                yield from walk(ans.next, (*steps, (nid, ans)))

    for p in walk(tree.start_for(edition), ()):
        try:
            reached = rule(tree.topic, edition, dict(p.facts), trees={tree.topic: tree})
        except BridgelawError:     # a path the engine cannot replay from facts is not a scenario
            continue
        if reached.leaf == p.leaf:
            out.append(p)
    return out


def replay(topic: str, edition: str, facts: dict[str, Any], tree: Any = None) -> Any:
    """The engine's ruling for these facts (tests use it to re-check answers and distractors)."""
    from ..rulings.engine import rule

    return rule(topic, edition, facts, trees={topic: tree} if tree is not None else None)


def is_leaf(node: Any) -> bool:
    from ..rulings.model import Leaf

    return isinstance(node, Leaf)


# ------------------------------------------------------------------------ alignment and changes


@dataclass(frozen=True)
class Pair:
    """A 1999 clause and its 2017-family counterpart (ccba2018 path; wbf2017 has the same path)."""

    old: str
    new: str
    structural: str | None = None     # the alignment kind the classifier takes as given
    kind: str = "same"                # the alignment kind: same | revised | renumbered | moved …


@lru_cache(maxsize=1)
def pairs_1999_2017() -> tuple[Pair, ...]:
    """Corresponding clauses 1999 -> 2018, from the graph's alignment."""
    from ..graph.align import align_editions

    return tuple(_from_alignment(align_editions(corpus())))


def _from_alignment(result: Any) -> Iterator[Pair]:
    """1999 -> 2018 law correspondences; merged/split ones are left out (no one-to-one comparison)."""
    for p in result:
        old, new, kind = getattr(p, "from_id", None), getattr(p, "to_id", None), getattr(p, "kind", None)
        if not (isinstance(old, str) and isinstance(new, str)) or kind in ("merged", "split"):
            continue
        if old.startswith("ccba1999/law/") and new.startswith("ccba2018/law/"):
            yield Pair(old, new, kind if kind in STRUCTURAL_KINDS else None, str(kind))


@lru_cache(maxsize=1)
def lexicon() -> Any:
    """Term label -> concept id, so the classifier reads 明手/夢家 as one term."""
    from ..diff.redline import TermLexicon

    mapping: dict[str, str] = {}
    for c in concepts():
        for lb in c.labels:
            if lb.role in ("pref", "alt"):
                mapping.setdefault(lb.form, c.id)
    return TermLexicon(mapping)


def change_class(old: str | None, new: str | None, structural: str | None = None) -> tuple[str, float]:
    """The diff class of a pair of texts (unchanged … substantive) from diff.classify, and the
    similarity of the redline (1.0 where there is none)."""
    from ..diff.classify import classify_pair

    pc = classify_pair(old, new, lexicon(), structural)
    return str(pc.change), (pc.redline.ratio if pc.redline is not None else 1.0)


# ---------------------------------------------------------------------------------- change report

REPORT_STEPS: tuple[str, ...] = ("1999-2017", "2017-2024")


@dataclass(frozen=True)
class ReportPair:
    """One pair of the change report: 1999 → 2017 (ccba1999 → ccba2018) or the 2024 revision
    (ccba2018 → wbf2017, only the laws the curated alignment marks revised)."""

    step: str                                   # one of REPORT_STEPS
    law: str                                    # the law the report files the pair under
    from_id: str | None
    to_id: str | None
    change: str                                 # the report's change class
    figures_from: tuple[tuple[float, str], ...] = ()
    figures_to: tuple[tuple[float, str], ...] = ()
    note: str = ""                              # the curated source note ('' for computed pairs)


@dataclass(frozen=True)
class ReportLaw:
    """A law's overall class 1999 → 2017 and its titles."""

    law: str
    change: str
    title_from: str
    title_to: str
    chapter: str


@lru_cache(maxsize=1)
def _report() -> tuple[tuple[ReportLaw, ...], tuple[ReportPair, ...]]:
    from ..diff.report import change_report, diff_law

    rep = change_report(corpus())
    laws = tuple(ReportLaw(ld.law, ld.change, ld.title_from, ld.title_to, ld.chapter) for ld in rep.laws)
    pairs = [ReportPair("1999-2017", ld.law, p.from_id, p.to_id, p.change, p.figures_from, p.figures_to, p.note)
             for ld in rep.laws for p in ld.pairs]
    for law in revised_2024():
        for p in diff_law(corpus(), law, "ccba2018", "wbf2017", "zh-Hant").pairs:
            pairs.append(ReportPair("2017-2024", law, p.from_id, p.to_id, p.change, p.figures_from,
                                    p.figures_to, p.note))
    return laws, tuple(pairs)


def report_laws() -> tuple[ReportLaw, ...]:
    """Every law's class 1999 → 2017, in law order."""
    return _report()[0]


def report_pairs(step: str = "1999-2017") -> tuple[ReportPair, ...]:
    """The report's pairs of one step, in the report's order (a pair may be filed under two laws)."""
    return tuple(p for p in _report()[1] if p.step == step)


def revised_2024() -> tuple[str, ...]:
    """Laws the 2024 revision changed (the manifest's `revised_laws` of wbf2017), in law order."""
    return tuple(str(n) for n in edition("wbf2017").revised_laws)
