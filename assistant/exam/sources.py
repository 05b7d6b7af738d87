"""The one adapter between the exam generators and the rest of the project.

Every call into the corpus, the terminology, the ruling trees, the edition alignment and the change
classifier goes through here, so when one of those APIs moves only this module changes.
Relied on: corpus.load_corpus, terminology.load_terminology (Concept.forms, Terminology.find,
Terminology.by_definition), rulings.model.load_trees/read_tree/check_cites (Tree, Leaf, Answer.offered/canonical, TreeError),
rulings.engine.rule, diff.classify.classify_pair, diff.redline.TermLexicon,
graph.align.align_editions (Correspondence.from_id/to_id/kind) when it exists, same-numbered clauses
otherwise, and for kind 4 diff.report.change_report / diff_law (LawDiff.law/change/title_to/pairs,
PairDiff.from_id/to_id/change/figures_from/figures_to/note) with graph.align.curated for the laws the
2024 revision touched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

from ..corpus import Corpus, load_corpus
from ..model import Clause, ClauseId

BRIDGE_EDITIONS: tuple[str, ...] = ("ccba1999", "ccba2018", "wbf2017")
# Laws whose number kept but whose subject changed between 1999 and 2017 (corpus-guide §8): never
# paired by number. Used only while graph.align is not available.
DIFFERENT_SUBJECT_LAWS: frozenset[str] = frozenset({"23", "34", "35", "75", "88", "89"})
# the edition whose chapter headings place another edition's laws (wbf2017 prints no chapters)
CHAPTERS_FROM: dict[str, str] = {"wbf2017": "ccba2018"}
# alignment kinds the change classifier takes as given
STRUCTURAL_KINDS: frozenset[str] = frozenset({"moved", "different_subject", "new", "removed"})
SAFE_UNCHANGED: frozenset[str] = frozenset({"unchanged", "script_only", "terminology_only"})


def corpus() -> Corpus:
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
    return bool(m) and m.group(1) == wanted.strip() and law_part


# ------------------------------------------------------------------------------------- terminology


def terminology() -> Any:
    from ..terminology import load_terminology

    return load_terminology()


def concepts() -> list[Any]:
    """All concepts, sorted by id."""
    return [terminology().concepts[k] for k in sorted(terminology().concepts)]


def labels(concept: Any, edition: str, lang: str, roles: tuple[str, ...] = ("pref", "alt")) -> list[str]:
    """A concept's labels in one edition and language, preferred first."""
    out = [lb.form for r in roles for lb in concept.labels if lb.role == r and lb.edition == edition
           and lb.lang == lang]
    return list(dict.fromkeys(out))


def concepts_named(form: str, edition: str) -> list[str]:
    """Ids of the concepts a label names in one edition (exact look-up; several for a collision)."""
    return [c.id for c in terminology().find(form, edition)] if form else []


def definition_concept(c: Clause) -> str | None:
    """The concept a definitions-chapter clause defines, if the crosswalk knows it."""
    found = terminology().by_definition([c.key, c.key_printed, c.number], c.term, c.edition)
    return found.id if found else None


# ---------------------------------------------------------------------------------- ruling trees


def trees() -> dict[str, Any]:
    """The validated ruling trees by topic; {} while no tree file exists. A tree file that does not
    validate is left out (the rulings' own tests report it) rather than stopping every exam."""
    from ..rulings.model import TREES_DIR, TreeError, load_trees

    files = sorted(p for p in TREES_DIR.glob("*.yaml") if not p.name.startswith("_"))
    if not files:
        return {}
    try:
        return dict(sorted(load_trees().items()))
    except TreeError:
        return dict(_valid_trees(tuple(files)))


@lru_cache(maxsize=2)
def _valid_trees(files: tuple[Any, ...]) -> tuple[tuple[str, Any], ...]:
    from ..rulings.model import TreeError, check_cites, read_tree

    out = []
    for path in files:
        try:
            tree = read_tree(path)
            check_cites(tree, corpus())
        except TreeError:
            continue
        out.append((tree.topic, tree))
    return tuple(sorted(out, key=lambda x: x[0]))


@dataclass(frozen=True)
class TreePath:
    """One root-to-ruling path: the (question node, answer) steps, the leaf, the facts that replay it."""

    steps: tuple[tuple[str, Any], ...]       # (question node id, Answer)
    leaf: str
    facts: tuple[tuple[str, Any], ...]


def tree_paths(tree: Any, edition: str) -> list[TreePath]:
    """Every path of a tree in an edition whose facts replay to the same ruling through the engine."""
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
                facts[fact] = None if ans.otherwise else ans.canonical()
            yield TreePath(steps, nid, tuple(facts.items()))
            return
        for ans in node.answers:
            if ans.offered(rules_ed):
                yield from walk(ans.next, (*steps, (nid, ans)))

    for p in walk(tree.start, ()):
        try:
            reached = rule(tree.topic, edition, dict(p.facts), trees={tree.topic: tree})
        except Exception:          # a path the engine cannot replay from facts is not a scenario
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
    """Corresponding clauses 1999 -> 2018, from graph.align when it exists, else by equal path."""
    try:
        from ..graph.align import align_editions  # type: ignore[import-not-found]
    except ImportError:
        align_editions = None
    if align_editions is not None:
        try:
            return tuple(_from_alignment(align_editions(corpus())))
        except Exception:           # an alignment API still moving: fall back rather than fail
            pass
    old_ed, new_ed = corpus().editions["ccba1999"], corpus().editions["ccba2018"]
    out = []
    for cid, c in old_ed.clauses.items():
        if c.cid.kind != "law" or c.cid.path[0] in DIFFERENT_SUBJECT_LAWS:
            continue
        new_id = str(ClauseId("ccba2018", "law", c.cid.path))
        if new_id in new_ed.clauses:
            out.append(Pair(cid, new_id, None, "same"))
    return tuple(out)


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


@lru_cache(maxsize=1)
def revised_2024() -> tuple[str, ...]:
    """Laws the 2024 revision changed (curated ccba2018 → wbf2017 entries), in law order."""
    from ..graph.align import curated

    laws = {ClauseId.parse(e["to"]).path[0] for e in curated().get("ccba2018-wbf2017", []) if e.get("to")}
    return tuple(sorted(laws, key=int))
