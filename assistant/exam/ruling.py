"""Kind 1, ruling scenarios: a path through a ruling tree told as the facts found at the table; the
options are the path's ruling and sibling rulings of the same tree that the path does not reach.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rulings.schema import Leaf, Tree
from ..rulings.schema import Question as TreeQuestion
from . import sources
from .model import Question
from .scope import Scope, place, spread
from .text import contains, edition_name, norm, phrase, squash


@dataclass(frozen=True)
class Item:
    topic: str
    path: sources.TreePath


def _topics(scope: Scope) -> list[str]:
    trees = sources.trees()
    return [t for t in sorted(trees) if (not scope.topics or t in scope.topics)
            and scope.edition in trees[t].editions]


# who is said to have offended, and who is said to choose the remedy: the choice belongs to the
# non-offending side (Law 10C1 / 2018 第10条C1), so an offender who also chooses is a contradiction
OFFENDER_FACTS = ("offender", "offender_role", "offender_final_role")
CHOOSER_FACTS = {"declarer_choice": "declarer", "declarer_option_chosen": "declarer", "defenders_choice": "defender"}
ROLES = ("declarer", "defender", "dummy")


def _role(value: object) -> str | None:
    s = str(value).casefold()
    return next((r for r in ROLES if r in s), None)


def contradictions(tree: object, path: sources.TreePath) -> list[str]:
    """Facts of a path that contradict each other, each as a sentence; [] when the scenario is coherent.
    Three checks: one fact answered twice differently; an answer while the other facts imply a sibling
    answer of the same question (the trees' `implied_by`); the offender also choosing the remedy."""
    out: list[str] = []
    facts = dict(path.facts)
    asked: dict[str, object] = {}
    for qid, ans in path.steps:
        q = tree.node(qid)  # type: ignore[attr-defined]
        if q.fact in asked and not ans.matches(asked[q.fact]):
            out.append(f"{q.fact} answered both {asked[q.fact]!r} and {ans.canonical()!r}")
        asked.setdefault(q.fact, ans.canonical())
        others = {k: v for k, v in facts.items() if k != q.fact}
        for o in q.answers:
            if o is not ans and o.implied(others) and not ans.implied(others):
                out.append(f"{q.fact}: answered {ans.label['en']!r} but the other facts imply {o.label['en']!r}")
    offenders = {_role(facts[k]) for k in OFFENDER_FACTS if k in facts} - {None}
    for fact, chooser in CHOOSER_FACTS.items():
        if fact in facts and chooser in offenders:
            out.append(f"the {chooser} offended and also chooses the remedy ({fact})")
    return out


def candidates(scope: Scope) -> list[Item]:
    trees = sources.trees()
    out = []
    for topic in _topics(scope):
        for p in sources.tree_paths(trees[topic], scope.edition):
            if p.steps:
                out.append(Item(topic, p))
    return out


def _prefix(a: sources.TreePath, leaf_depth: dict[str, tuple[str, ...]], leaf: str) -> int:
    """How many leading question nodes the path shares with the first path to `leaf` (closeness)."""
    mine = tuple(q for q, _ in a.steps)
    other = leaf_depth.get(leaf, ())
    n = 0
    for x, y in zip(mine, other, strict=False):
        if x != y:
            break
        n += 1
    return n


def _leaf(tree: Tree, node_id: str) -> Leaf:
    node = tree.node(node_id)
    assert isinstance(node, Leaf), f"{tree.topic}: {node_id} is not a ruling"
    return node


def _question(tree: Tree, node_id: str) -> TreeQuestion:
    node = tree.node(node_id)
    assert isinstance(node, TreeQuestion), f"{tree.topic}: {node_id} is not a question"
    return node


def build(scope: Scope, rng: random.Random, item: Item, paths: list[sources.TreePath]) -> Question | None:
    tree = sources.trees()[item.topic]
    if contradictions(tree, item.path):
        return None                 # facts that contradict each other never reach an exam
    lang = scope.lang
    leaf = _leaf(tree, item.path.leaf)
    eds = (scope.edition, tree.rules_edition(scope.edition))
    answer = squash(leaf.text_for(*eds)[0][lang])          # the ruling in this edition's own words
    cites = list(leaf.cites.get(scope.edition) or leaf.cites.get(tree.rules_edition(scope.edition)) or [])
    cites = [c for c in cites if sources.clause(c) is not None]
    if not cites:
        return None
    first_path: dict[str, tuple[str, ...]] = {}
    for p in paths:
        first_path.setdefault(p.leaf, tuple(q for q, _ in p.steps))
    # sibling rulings reachable in this edition, with another outcome than the path's
    siblings = []
    for lid in sorted(first_path):
        other = _leaf(tree, lid)
        if lid == item.path.leaf or other.outcome_code == leaf.outcome_code:
            continue
        text = squash(other.text_for(*eds)[0][lang])
        if norm(text) == norm(answer):
            continue
        siblings.append((-_prefix(item.path, first_path, lid), lid, text))
    k = scope.n_options - 1
    if len(siblings) < 1:
        return None
    ordered = sorted(siblings) if scope.difficulty == "hard" else sorted(siblings, key=lambda s: s[1])
    pool = ordered[: max(k, 1) * 2] if scope.difficulty == "hard" else ordered
    chosen = rng.sample(pool, min(k, len(pool)))
    facts = "\n".join(phrase("ruling_fact", lang, ask=squash(_question(tree, q).ask[lang]), answer=squash(a.label[lang]))
                      for q, a in item.path.steps)
    stem = phrase("ruling_stem", lang, topic=squash(tree.title[lang]), facts=facts,
                  edition=edition_name(scope.edition, lang))
    if contains(stem, answer):
        return None
    options, idx = place(rng, answer, [t for _, _, t in chosen])
    return Question(
        kind="ruling", stem=stem, answer=answer, options=options, answer_index=idx, cites=cites,
        tags=[f"topic::{item.topic}"], key=f"ruling:{item.topic}:" + ",".join(f"{q}={a.label['en']}" for q, a in item.path.steps),
        meta={"topic": item.topic, "leaf": item.path.leaf, "facts": dict(item.path.facts),
              "distractor_leaves": [lid for _, lid, _ in chosen]})


def generate(scope: Scope, rng: random.Random, n: int) -> list[Question]:
    """Up to n scenarios, one per topic and ruling before any is asked twice."""
    trees = sources.trees()
    paths = {t: sources.tree_paths(trees[t], scope.edition) for t in _topics(scope)}
    out: list[Question] = []
    seen: set[str] = set()
    for item in spread(rng, candidates(scope), 10**6, group=lambda it: f"{it.topic}/{it.path.leaf}"):
        q = build(scope, rng, item, paths[item.topic])
        if q is not None and q.key not in seen:
            seen.add(q.key)
            out.append(q)
        if len(out) == n:
            break
    return out
