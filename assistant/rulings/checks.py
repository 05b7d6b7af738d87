"""Static checks over every tree and edition, each closing a class of defect; each returns the problems.

Used by tests/test_rulings_static.py: a check that returns nothing passes.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping

from ..model import ClauseId
from .engine import enumerate_paths, other_edition
from .model import Leaf, Question, Tree

# words that name another edition in a text shown for this one (edition -> forbidden pattern)
OTHER_EDITION = {
    "wbf2017": re.compile(r"1999|1997|2018|CCBA"),
    "ccba2018": re.compile(r"1999|1997"),
    "ccba1999": re.compile(r"2017|2018|2024"),
}
LAST = {"unknown", "other"}        # answers that come after the real ones


def _rules_editions(tree: Tree) -> list[str]:
    return sorted({tree.rules_edition(e) for e in tree.editions})


def asked_in(tree: Tree) -> dict[str, set[str]]:
    """Question id -> the rules editions in which some path asks it."""
    asked: dict[str, set[str]] = {}
    for ed in tree.editions:
        for p in enumerate_paths(tree, ed):
            for nid, _, _ in p.steps:
                asked.setdefault(nid, set()).add(tree.rules_edition(ed))
    return asked


def single_option(trees: Mapping[str, Tree]) -> list[str]:
    """A question that offers fewer than two answers in an edition forces a true fact to a false answer."""
    out = []
    for tree in trees.values():
        for nid, eds in asked_in(tree).items():
            q = tree.node(nid)
            assert isinstance(q, Question)
            for ed in sorted(eds):
                n = sum(1 for a in q.answers if a.offered(ed))
                if n < 2:
                    out.append(f"{tree.file}: {nid} offers {n} answer(s) in {ed}")
    return out


def answer_order(trees: Mapping[str, Tree]) -> list[str]:
    """Yes before No on every question; 'not yet known' and 'anything else' after the real answers."""
    out = []
    for tree in trees.values():
        for nid, q in tree.questions():
            kinds = []
            for a in q.answers:
                vals = a.values()
                kinds.append("yes" if True in vals and all(v is True for v in vals if isinstance(v, bool))
                             else "no" if False in vals else "last" if set(map(str, vals)) & LAST else "")
            if "yes" in kinds and "no" in kinds and kinds.index("no") < kinds.index("yes"):
                out.append(f"{tree.file}: {nid}: No comes before Yes")
            if "last" in kinds and any(k not in ("last",) for k in kinds[kinds.index("last"):]):
                out.append(f"{tree.file}: {nid}: an unknown/other answer comes before a real one")
    return out


def duplicate_labels(trees: Mapping[str, Tree]) -> list[str]:
    """One label, one answer: the same answer listed twice in an edition confuses the director."""
    out = []
    for tree in trees.values():
        for nid, q in tree.questions():
            for ed in _rules_editions(tree):
                labels = [a.label["en"] for a in q.answers if a.offered(ed)]
                dups = sorted({x for x in labels if labels.count(x) > 1})
                if dups:
                    out.append(f"{tree.file}: {nid} lists {dups} twice in {ed}")
    return out


def _reached(tree: Tree) -> Iterator[tuple[str, str, Leaf]]:
    """(edition, leaf id, leaf) for every leaf reachable in each edition of the tree."""
    for ed in tree.editions:
        seen = set()
        for p in enumerate_paths(tree, ed):
            if p.leaf not in seen:
                seen.add(p.leaf)
                leaf = tree.node(p.leaf)
                assert isinstance(leaf, Leaf)
                yield ed, p.leaf, leaf


def mixed_editions(trees: Mapping[str, Tree]) -> list[str]:
    """A ruling text shown in one edition never names another edition (no 2017 aside in a 1999 run)."""
    out = []
    for tree in trees.values():
        for ed, lid, leaf in _reached(tree):
            bad = OTHER_EDITION.get(ed)
            if bad is None:
                continue
            outcome, choices, followups = leaf.text_for(ed, tree.rules_edition(ed))
            texts = [outcome, *[c.text for c in choices], *[f.text for f in followups]]
            hits = sorted({m.group(0) for t in texts for s in t.values() for m in bad.finditer(s)})
            if hits:
                out.append(f"{tree.file}: {lid} reached in {ed} mentions {hits}")
    return out


def coarse_cites(trees: Mapping[str, Tree], known: Mapping[str, Collection[str]]) -> list[str]:
    """A ruling cites the sub-section, not the law or section alone, where the law has sub-sections
    (unless the leaf says in `sections:` why the whole section applies)."""
    prefixes: dict[str, set[str]] = {}
    for ed, ids in known.items():
        parents = prefixes.setdefault(ed, set())
        for cid in ids:
            head, _, _ = cid.rpartition("/")
            parents.add(head)
    out = []
    for tree in trees.values():
        for ed, lid, leaf in _reached(tree):
            for cid in leaf.cites.get(ed, []):
                if cid in prefixes.get(ed, set()) and cid not in leaf.sections and not _section_ok(leaf, cid):
                    out.append(f"{tree.file}: {lid} cites {cid} ({ed}), which has sub-sections")
    return out


def _section_ok(leaf: Leaf, cid: str) -> bool:
    """The same clause written with the other edition's id in `sections` covers it too."""
    tail = cid.split("/", 1)[1]
    return any(k.split("/", 1)[1] == tail for k in leaf.sections)


def question_cites(trees: Mapping[str, Tree]) -> list[str]:
    """Every question cites, for each edition it is asked in, the clause that makes it matter
    (or says `none — why`)."""
    out = []
    for tree in trees.values():
        for nid, eds in asked_in(tree).items():
            q = tree.node(nid)
            assert isinstance(q, Question)
            if isinstance(q.cites, str):
                continue
            lacking = sorted(e for e in eds if not q.cites.get(e))
            if lacking:
                out.append(f"{tree.file}: {nid} cites nothing for {', '.join(lacking)}")
    return out


# a ruling is an announcement: who may or must do what, or what happens next (issue 15). These are
# the English forms of it; a text of the leaf with none of them, or one that hands the ruling on to
# other laws ("the Director applies 21B or 40B3", "explains the options"), is not a ruling.
_POINTER = re.compile(
    r"\([^()]*\)|\b(?:see|cf\.)\s+(?:Laws?\s+)?\d+\S*|"
    r"(?:Laws?\s+)?\d+[A-Z]?[0-9a-z()]*(?:\s*(?:,|and|or|/)\s*\d+[A-Z]?[0-9a-z()]*)*\s+"
    r"(?:may\s+apply|does\s+not\s+apply|do\s+not\s+apply|applies|apply|governs)\b(?:\s+to\s+[^;.—]*)?", re.I)
_HANDS_ON = re.compile(
    r"\b(?:then\s+)?appl(?:y|ies)\s+(?:Laws?\s+)?\d+\S*\s*(?:or|/)\s*(?:Laws?\s+)?\d|"
    r"\bDirector\s+(?:then\s+)?applies\b|\bexplains?\s+(?:the\s+options|to\s+declarer)\b|"
    r"\bfirst\s+establish|\bdeal\s+with\s+it\b|\brectified\s+under\s+Laws?\b", re.I)
_ACTION = re.compile(
    r"\b(?:may|must|shall|is\s+entitled|are\s+entitled|becomes?|stands?|continues?|awards?|adjusts?|"
    r"stays?|remains?|(?:is|are)\s+(?:cancelled|void|picked\s+up|withdrawn|transferred|restored|redealt|reconstructed|"
    r"corrected|played|scored|accepted|retracted|deemed|treated|annulled|disqualified)|"
    r"deemed|transferred|receives?|gets?|designates?|forfeits?|withdraws|corrects|substitutes|supplies|"
    r"adjudicates|separates|rules|accepts|does\s+not\s+accept|(?:not\s+)?entitled|(?:not\s+)?allowed|"
    r"subject\s+to|there\s+is|procedural\s+penalty|category\s+\d|adjusted\s+scores?|"
    r"no\s+(?:[\w-]+\s+){0,2}(?:rectification|penalty|infraction|adjustment|irregularity|increase)|"
    r"penalis(?:es|ed))\b|[−-]\d+(?:\.\d+)?\s*(?:VP|IMPs?|%)", re.I)
PROCEDURE_CODES = re.compile(r"^(?:explain|apply|see|consult)_")


def _leaf_texts(tree: Tree, leaf: Leaf) -> Iterator[tuple[str, str]]:
    """(where, English outcome) for the leaf's own words and each edition's own words."""
    yield "", leaf.outcome["en"]
    for ed, v in leaf.variants.items():
        yield f" ({ed})", v.outcome["en"]


def not_announcements(trees: Mapping[str, Tree]) -> list[str]:
    """A ruling names who may or must do what, or what happens next: never only a pointer to other
    laws, the Director's own procedure ('explains the options'), or a code that names a procedure."""
    out = []
    for tree in trees.values():
        for lid, leaf in tree.leaves():
            for code in {leaf.outcome_code, *(v.outcome_code for v in leaf.variants.values() if v.outcome_code)}:
                if PROCEDURE_CODES.match(code):
                    out.append(f"{tree.file}: {lid}: outcome_code {code} names a procedure, not a ruling")
            for where, text in _leaf_texts(tree, leaf):
                core = _POINTER.sub(" ", text)
                hand = _HANDS_ON.search(text)
                if hand:
                    out.append(f"{tree.file}: {lid}{where}: hands the ruling on ({hand.group(0)!r})")
                elif not _ACTION.search(core):
                    out.append(f"{tree.file}: {lid}{where}: no one may or must do anything: {text[:80]!r}")
    return out


# a leaf that makes a card a penalty card says which kind (major or minor, Law 50B in both editions)
# and cites 50B or 50C; where several cards become penalty cards it cites Law 51 too
_CLAUSE = re.compile(r"[;—.](?:\s|$)")
_MAKES_PENALTY = re.compile(r"\bbecom\w*\b[^;—.]*penalty cards?", re.I)
_NOT_PENALTY = re.compile(r"\b(?:never|not|no)\b[^;—.]*penalty card", re.I)
_SEVERAL = re.compile(r"penalty cards\b|\b(?:every|each|all)\b[^;—.]*penalty card|two or more", re.I)


def penalty_card_kinds(trees: Mapping[str, Tree]) -> list[str]:
    """Every ruling that makes a card a penalty card says major or minor and cites 50B/50C (and 51
    where several cards become penalty cards), in each edition it is reached in."""
    out = []
    for tree in trees.values():
        for ed, lid, leaf in _reached(tree):
            outcome, _, _ = leaf.text_for(ed, tree.rules_edition(ed))
            cites = leaf.cites.get(ed, [])
            for clause in _CLAUSE.split(outcome["en"]):
                if not _MAKES_PENALTY.search(clause) or _NOT_PENALTY.search(clause):
                    continue
                if not re.search(r"\b(?:major|minor)\b", clause, re.I):
                    out.append(f"{tree.file}: {lid} ({ed}) makes a penalty card without saying major or minor: {clause.strip()[:70]!r}")
                if not any(re.search(r"/law/50/[BC](?:/|$)", c) for c in cites):
                    out.append(f"{tree.file}: {lid} ({ed}) makes a penalty card but cites neither 50B nor 50C")
                if _SEVERAL.search(clause) and not any("/law/51/" in c for c in cites):
                    out.append(f"{tree.file}: {lid} ({ed}) makes several penalty cards but cites no part of Law 51")
    return sorted(set(out))


# a leaf worded per edition (`variants`) but sharing one outcome code: the engine compares editions by
# the code, so where the two editions' cited laws differ in law number, section or numbered item (12C1
# vs 12C2, 72C vs 23) the editions must have their own codes, or the leaf says in `same_ruling:` why
# the rule is the same. Lettered sub-items (14B1 vs 14B1(a)) and a law or section cited against a part
# of it are not differences.


def _heads(cites: list[str]) -> set[tuple[str, ...]]:
    """Each cite as (kind, number, section, item): law 12C1(c) -> ('law', '12', 'C', '1')."""
    out = set()
    for c in cites:
        cid = ClauseId.parse(c)
        out.add((cid.kind, *cid.path[:3]) if cid.kind == "law" else (cid.kind, cid.path[0]))
    return out


def _covered(head: tuple[str, ...], others: set[tuple[str, ...]]) -> bool:
    """The other edition cites the same clause, a part of it, or a whole it belongs to."""
    return any(o[:len(head)] == head or head[:len(o)] == o for o in others)


def cited_law_difference(a: list[str], b: list[str]) -> str | None:
    """How two editions' cites of one ruling differ in law number, section or item, or None."""
    ha, hb = _heads(a), _heads(b)
    only = sorted({"/".join(h[1:]) for h in ha if not _covered(h, hb)} | {"/".join(h[1:]) for h in hb if not _covered(h, ha)})
    return f"cited in one edition only: {', '.join(only)}" if only else None


def shared_code_variants(trees: Mapping[str, Tree]) -> list[str]:
    """A leaf with its own words in an edition, reached in that edition and the one it is compared with,
    one outcome code for both, and cited laws that differ in number or section, says `same_ruling:`."""
    out = []
    for tree in trees.values():
        reached: dict[str, set[str]] = {}
        for ed, lid, _ in _reached(tree):
            reached.setdefault(lid, set()).add(ed)
        for lid, leaf in tree.leaves():
            if not leaf.variants or leaf.same_ruling:
                continue
            pairs = {tuple(sorted((ed, o))) for ed in reached.get(lid, ())
                     if (o := other_edition(tree, ed)) is not None and o in reached[lid]}
            for a, b in sorted(pairs):
                ra, rb = tree.rules_edition(a), tree.rules_edition(b)
                if leaf.code_for(a, ra) != leaf.code_for(b, rb) or leaf.text_for(a, ra) == leaf.text_for(b, rb):
                    continue
                why = cited_law_difference(leaf.cites.get(a, []), leaf.cites.get(b, []))
                if why:
                    out.append(f"{tree.file}: {lid} ({a} vs {b}) shares outcome_code {leaf.code_for(a, ra)} — {why}; "
                               "give an edition its own variants.<ed>.outcome_code or say same_ruling: <reason>")
    return out
