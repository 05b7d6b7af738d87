"""Exam ruling scenarios are coherent: no generated scenario of seeds 0–19 states facts that contradict
each other (assistant.exam.ruling.contradictions), and the check itself catches a contradiction."""

from __future__ import annotations

from functools import lru_cache

import pytest

from assistant.exam import generate, sources
from assistant.exam.model import EXAM_EDITIONS
from assistant.exam.ruling import contradictions


@lru_cache(maxsize=None)
def _paths(topic: str, edition: str) -> tuple[sources.TreePath, ...]:
    return tuple(sources.tree_paths(sources.trees()[topic], edition))


def _path_of(topic: str, edition: str, leaf: str, facts: dict) -> sources.TreePath:  # type: ignore[type-arg]
    return next(p for p in _paths(topic, edition) if p.leaf == leaf and dict(p.facts) == facts)


@pytest.mark.parametrize("seed", range(20))
def test_every_generated_scenario_is_coherent(seed: int) -> None:
    seen = 0
    for edition, langs in EXAM_EDITIONS.items():
        for lang in langs:
            exam = generate(kinds=["ruling"], edition=edition, lang=lang, n=60, seed=seed)
            for q in exam.questions:
                path = _path_of(q.meta["topic"], edition, q.meta["leaf"], q.meta["facts"])
                assert contradictions(sources.trees()[q.meta["topic"]], path) == [], (edition, lang, q.stem)
                seen += 1
    assert seen > 0


def test_the_check_finds_a_fact_answered_two_ways() -> None:
    tree = sources.trees()["claim"]
    bad = [p for ed in EXAM_EDITIONS if ed in tree.editions for p in sources.tree_paths(tree, ed)
           if contradictions(tree, p)]
    # the claim tree asks the claimer's role again on some paths; whatever the trees say today, a path
    # whose steps give one fact two values must be reported
    path = next(iter(sources.tree_paths(tree, tree.editions[0])))
    (qid, ans), *_ = path.steps
    q = tree.node(qid)
    other = next(a for a in q.answers if not a.matches(ans.canonical()))
    doubled = sources.TreePath((*path.steps, (qid, other)), path.leaf, path.facts)
    assert any("answered both" in s for s in contradictions(tree, doubled))
    assert all(contradictions(tree, p) for p in bad)
