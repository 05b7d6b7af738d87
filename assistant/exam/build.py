"""`generate`: an exam set from the options, the same set for the same seed.

Each kind gets an even share of the questions; a kind short of material leaves its share to the
others. Randomness comes only from `random.Random(seed)`, one generator per kind derived from the seed,
over inputs in a fixed order, so adding a kind does not change another kind's questions.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

from . import changes, cloze, matching, ruling, sources, which_law
from ..model import ClauseId
from .model import DEFAULT_EDITION, DIFFICULTIES, EXAM_EDITIONS, KINDS, BadExamOptions, ExamSet, NothingToAsk, Question
from .scope import Scope

GENERATORS: dict[str, Callable[[Scope, random.Random, int], list[Question]]] = {
    "ruling": ruling.generate,
    "which_law": which_law.generate,
    "cloze": cloze.generate,
    "change": changes.generate,
    "matching": matching.generate,
}
MAX_QUESTIONS = 500


def resolve(edition: str | None, lang: str | None) -> tuple[str, str]:
    """The edition and language of an exam, each defaulting from the other; BadExamOptions if they clash."""
    if edition is None and lang is None:
        edition, lang = "wbf2017", "en"
    if edition is None:
        if lang not in DEFAULT_EDITION:
            raise BadExamOptions(f"unknown language {lang!r} — choose from {', '.join(DEFAULT_EDITION)}")
        edition = DEFAULT_EDITION[lang]
    if edition not in EXAM_EDITIONS:
        raise BadExamOptions(f"no exams for edition {edition!r} — exams cover the bridge laws — "
                             f"choose from {', '.join(EXAM_EDITIONS)}")
    if lang is None:
        lang = EXAM_EDITIONS[edition][0]
    if lang not in EXAM_EDITIONS[edition]:
        raise BadExamOptions(f"edition {edition} has no {lang} text — it prints {', '.join(EXAM_EDITIONS[edition])} — "
                             f"pass --lang {EXAM_EDITIONS[edition][0]} or --edition {DEFAULT_EDITION.get(lang, 'wbf2017')}")
    return edition, lang


def topic_laws(topics: Iterable[str], edition: str) -> frozenset[str] | None:
    """Law numbers the ruling trees of these topics cite in this edition (None: no topic given)."""
    topics = list(topics)
    if not topics:
        return None
    trees = sources.trees()
    unknown = [t for t in topics if t not in trees]
    if unknown:
        from ..rulings.engine import UnknownTopic

        raise UnknownTopic(unknown[0], sorted(trees) or ["(no ruling trees yet)"])
    laws: set[str] = set()
    for t in topics:
        for node in trees[t].nodes.values():
            for cid in node.cites.get(edition, []) + node.cites.get(trees[t].rules_edition(edition), []):
                ref = ClauseId.parse(cid)
                if ref.kind == "law" and ref.law:
                    laws.add(ref.law)
    return frozenset(laws)


def shares(kinds: list[str], n: int) -> list[int]:
    """An even split of n over the kinds, the remainder to the first ones."""
    base, extra = divmod(n, len(kinds))
    return [base + (1 if i < extra else 0) for i in range(len(kinds))]


def generate(kinds: Iterable[str] | None = None, edition: str | None = None, lang: str | None = None,
             topics: Iterable[str] = (), chapters: Iterable[str] = (), n: int = 20,
             difficulty: str = "medium", seed: int = 0) -> ExamSet:
    """An exam set; the same arguments always give the same questions in the same order."""
    kinds_l = list(dict.fromkeys(kinds or KINDS))
    bad = [k for k in kinds_l if k not in GENERATORS]
    if bad:
        raise BadExamOptions(f"unknown question kind {bad[0]!r} — choose from {', '.join(KINDS)}")
    if difficulty not in DIFFICULTIES:
        raise BadExamOptions(f"unknown difficulty {difficulty!r} — choose from {', '.join(DIFFICULTIES)}")
    if not 1 <= n <= MAX_QUESTIONS:
        raise BadExamOptions(f"cannot make {n} questions — the number must be 1 to {MAX_QUESTIONS}")
    edition, lang = resolve(edition, lang)
    topics_t, chapters_t = tuple(sorted(set(topics))), tuple(sorted(set(str(c) for c in chapters)))
    scope = Scope(edition, lang, difficulty, topics_t, chapters_t, topic_laws(topics_t, edition))
    # each kind draws more than its share, so a short kind's share can go to the others
    made: dict[str, list[Question]] = {}
    for kind in kinds_l:
        rng = random.Random(f"{seed}:{kind}")
        made[kind] = GENERATORS[kind](scope, rng, n)
    want = dict(zip(kinds_l, shares(kinds_l, n), strict=True))
    take = {k: min(want[k], len(made[k])) for k in kinds_l}
    short = n - sum(take.values())
    while short > 0:
        spare = [k for k in kinds_l if len(made[k]) > take[k]]
        if not spare:
            break
        for k in spare:
            if short == 0:
                break
            take[k] += 1
            short -= 1
    questions = [q for k in kinds_l for q in made[k][: take[k]]]
    if not questions:
        raise NothingToAsk(f"no questions for these options — no usable material for {', '.join(kinds_l)} "
                           f"in {edition} ({lang}) — widen --chapter/--topic or choose other kinds")
    shortfall = {k: want[k] - take[k] for k in kinds_l if take[k] < want[k]}
    return ExamSet(edition, lang, kinds_l, difficulty, seed, list(topics_t), list(chapters_t), questions, n,
                   shortfall)
