"""Walk a ruling tree: start a topic for an edition, answer, go back, explain the path, reach the ruling.

`Session` is the interactive walk; `rule(topic, edition, facts)` is the batch mode, answering each
question from a mapping of facts (snake_case names, as the trees ask them; a missing fact is an error
naming the question); `possible` lists the rulings still open when facts are missing; `enumerate_paths`
lists every path of a tree per edition (static checks and the reviewed snapshot). Where the editions
differ is computed by running the other edition's tree on the same facts (`compare`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import BridgelawError
from .model import Answer, Leaf, Question, Tree, load_trees


class UnknownTopic(BridgelawError):
    """A topic that no tree covers, or an edition the topic's tree does not rule for."""

    exit_code = 1

    def __init__(self, topic: str, known: list[str], edition: str | None = None) -> None:
        if edition is None:
            msg = (f"unknown ruling topic: {topic!r} — no tree file trees/{topic}.yaml — "
                   f"choose from {', '.join(known)} (`bridgelaw rule --list`)")
        else:
            msg = (f"topic {topic!r} has no branches for edition {edition!r} — "
                   f"the tree rules for {', '.join(known)} — pass --edition with one of them")
        super().__init__(msg)
        self.topic = topic


class NoMatchingBranch(BridgelawError):
    """A fact value that none of the question's answers (offered in this edition) accepts."""

    exit_code = 2

    def __init__(self, topic: str, node: str, fact: str, value: Any, offered: list[str]) -> None:
        super().__init__(
            f"{topic}: question {node} asks {fact!r} (= {value!r}) — no answer matches it exactly — "
            f"give {fact} one of: {'; '.join(offered)}")
        self.topic, self.node, self.fact, self.value = topic, node, fact, value


class MissingFact(BridgelawError):
    """Batch mode reached a question whose fact was not given."""

    exit_code = 2

    def __init__(self, topic: str, node: str, q: Question, offered: list[str]) -> None:
        super().__init__(
            f"{topic}: question {node} ({q.ask['en']}) needs {q.fact!r} — the fact is not given — "
            f"give {q.fact} one of: {'; '.join(offered)} (or pass --partial for the rulings still possible)")
        self.topic, self.node, self.fact = topic, node, q.fact


@dataclass(frozen=True)
class Step:
    """One answered question: the node, the fact it asked, the value and the answer's label."""

    node: str
    fact: str
    value: Any
    label: dict[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {"node": self.node, "fact": self.fact, "value": self.value, "answer": self.label}

    def facts(self) -> tuple[str, Any]:
        return self.fact, self.value


@dataclass
class Ruling:
    """The ruling reached: outcome, choices, follow-ups, the cited ids for the edition, the path."""

    topic: str
    edition: str
    leaf: str
    outcome_code: str
    outcome: dict[str, str]
    cites: list[str]
    cites_by_edition: dict[str, list[str]]
    choices: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    differs: dict[str, Any] | None = None
    path: list[Step] = field(default_factory=list)

    def as_dict(self, tree: Tree | None = None) -> dict[str, Any]:
        """The JSON form of `bridgelaw rule --answers … --json` (with each question's help given `tree`)."""
        from .citation import cite_labels

        path = [s.as_dict() for s in self.path]
        if tree is not None:
            for row in path:
                q = tree.node(row["node"])
                row["ask"] = q.ask if isinstance(q, Question) else None
                row["help"] = q.help if isinstance(q, Question) else None
        return {
            "topic": self.topic, "edition": self.edition, "outcome": self.outcome,
            "outcome_code": self.outcome_code, "leaf": self.leaf, "cites": self.cites,
            "citations": {lang: cite_labels(self.cites, lang) for lang in ("en", "zh-Hans", "zh-Hant")},
            "cites_by_edition": self.cites_by_edition, "choices": self.choices,
            "followups": self.followups, "differs": self.differs, "path": path,
        }


def _tree(topic: str, edition: str, trees: Mapping[str, Tree] | None) -> Tree:
    trees = trees if trees is not None else load_trees()
    tree = trees.get(topic)
    if tree is None:
        raise UnknownTopic(topic, sorted(trees))
    if edition not in tree.editions:
        raise UnknownTopic(topic, tree.editions, edition)
    return tree


def make_ruling(tree: Tree, edition: str, leaf_id: str, path: list[Step]) -> Ruling:
    leaf = tree.node(leaf_id)
    assert isinstance(leaf, Leaf)
    cites = list(leaf.cites.get(edition, []))
    by_edition = {ed: list(ids) for ed, ids in leaf.cites.items()}
    outcome, choices, followups = leaf.text_for(edition, tree.rules_edition(edition))
    return Ruling(
        topic=tree.topic, edition=edition, leaf=leaf_id,
        outcome_code=leaf.code_for(edition, tree.rules_edition(edition)),
        outcome=dict(outcome), cites=cites, cites_by_edition=by_edition,
        choices=[{"side": c.side, "text": c.text} for c in choices],
        followups=[{"kind": f.kind, "text": f.text} for f in followups],
        differs=None, path=list(path))


class Session:
    """An interactive walk through one tree for one edition: answer, go back, explain, rule."""

    def __init__(self, tree: Tree, edition: str) -> None:
        self.tree, self.edition = tree, edition
        self.rules_edition = tree.rules_edition(edition)
        self.history: list[Step] = []
        self.current = tree.start_for(edition)

    @property
    def done(self) -> bool:
        return isinstance(self.tree.node(self.current), Leaf)

    def question(self) -> Question | None:
        node = self.tree.node(self.current)
        return node if isinstance(node, Question) else None

    def options(self) -> list[Answer]:
        """The answers offered at the current question in this edition."""
        q = self.question()
        return [a for a in q.answers if a.offered(self.rules_edition)] if q else []

    def choose(self, index: int) -> None:
        """Pick the index-th offered answer (0-based)."""
        opts = self.options()
        if not 0 <= index < len(opts):
            raise BadAnswer(f"answer {index + 1} is not offered — choose 1 to {len(opts)}")
        self._take(opts[index], opts[index].canonical())

    def answer(self, value: Any) -> None:
        """Answer the current question with a fact value; NoMatchingBranch if nothing accepts it."""
        q = self.question()
        if q is None:
            raise BadAnswer("the ruling is already reached — go back or start again")
        if value is None:
            raise MissingFact(self.tree.topic, self.current, q, [_describe(a) for a in self.options()])
        for a in self.options():
            if a.matches(value):
                self._take(a, value)
                return
        raise NoMatchingBranch(self.tree.topic, self.current, q.fact, value,
                               [_describe(a) for a in self.options()])

    def answer_from(self, facts: Mapping[str, Any]) -> None:
        """Answer the current question from stated facts: its own fact, else an answer other stated
        facts imply; MissingFact (naming the question) when neither is there."""
        q = self.question()
        if q is None:
            raise BadAnswer("the ruling is already reached — go back or start again")
        if facts.get(q.fact) is None:
            hit = next((a for a in self.options() if a.implied(facts)), None)
            if hit is not None:
                self._take(hit, hit.canonical())
                return
        self.answer(facts.get(q.fact))

    def _take(self, ans: Answer, value: Any) -> None:
        q = self.question()
        assert q is not None
        self.history.append(Step(self.current, q.fact, value, dict(ans.label)))
        self.current = ans.next

    def back(self) -> None:
        """Undo the last answer (no-op at the first question)."""
        if self.history:
            self.current = self.history.pop().node

    def explain(self, lang: str = "en") -> list[str]:
        """The path so far, one line per answered question, in a language."""
        lines = []
        for s in self.history:
            q = self.tree.node(s.node)
            assert isinstance(q, Question)
            lines.append(f"{q.ask[lang]} → {s.label[lang]}")
        return lines

    def ruling(self, trees: Mapping[str, Tree] | None = None) -> Ruling | None:
        """The ruling reached, with where the other edition's tree rules otherwise on the same answers."""
        if not self.done:
            return None
        r = make_ruling(self.tree, self.edition, self.current, self.history)
        r.differs = compare(r, trees if trees is not None else {self.tree.topic: self.tree})
        return r


class BadAnswer(BridgelawError):
    """An interactive answer that is not one of the offered choices."""

    exit_code = 2


def _describe(a: Answer) -> str:
    """An answer as a director may type it: its label, then its value(s) and aliases."""
    words = [repr(v) for v in a.values()] + [repr(x) for x in a.aliases]
    if a.min is not None or a.max is not None:
        words.append(f"a number in [{a.min if a.min is not None else ''}, {a.max if a.max is not None else ''}]")
    return f"{a.label['en']!r}" + (f" ({', '.join(words)})" if words else "")


def start(topic: str, edition: str = "wbf2017", trees: Mapping[str, Tree] | None = None) -> Session:
    """Start an interactive walk; UnknownTopic for an unknown topic or an edition it lacks."""
    return Session(_tree(topic, edition, trees), edition)


def rule(topic: str, edition: str, facts: Mapping[str, Any], trees: Mapping[str, Tree] | None = None,
         *, compare_editions: bool = True) -> Ruling:
    """Batch mode: answer every question from `facts`; MissingFact names the first question not answered."""
    s = start(topic, edition, trees)
    while not s.done:
        s.answer_from(facts)
    r = make_ruling(s.tree, edition, s.current, s.history)
    if compare_editions:
        r.differs = compare(r, trees if trees is not None else load_trees(), facts)
    return r


@dataclass(frozen=True)
class PathRecord:
    """One root-to-leaf path of a tree in one edition."""

    edition: str
    steps: tuple[tuple[str, str, str], ...]     # (node, fact, answer label en)
    leaf: str


def enumerate_paths(tree: Tree, edition: str) -> Iterator[PathRecord]:
    """Every path from the start to a ruling using only answers offered in `edition`."""
    rules_ed = tree.rules_edition(edition)

    def walk(nid: str, steps: tuple[tuple[str, str, str], ...]) -> Iterator[PathRecord]:
        node = tree.node(nid)
        if isinstance(node, Leaf):
            yield PathRecord(edition, steps, nid)
            return
        for a in node.answers:
            if a.offered(rules_ed):
                yield from walk(a.next, (*steps, (nid, node.fact, a.label["en"])))

    yield from walk(tree.start_for(edition), ())


def reachable(tree: Tree) -> set[str]:
    """Nodes reachable from the start in at least one edition."""
    seen: set[str] = set()
    for ed in tree.editions:
        for p in enumerate_paths(tree, ed):
            seen.update(s[0] for s in p.steps)
            seen.add(p.leaf)
    return seen


# ---------------------------------------------------------------------------------------------
# the other edition on the same facts, and the rulings still possible when facts are missing


def other_edition(tree: Tree, edition: str) -> str | None:
    """The edition a ruling is compared with: the one this edition revises (2017 -> 1999), or an
    edition of the tree that revises this one, the original before a translation (1999 -> wbf2017);
    from the manifest."""
    from ..editions import edition as edition_info

    revises = edition_info(edition).revises
    if revises in tree.editions:
        return revises
    later = [e for e in tree.editions if edition_info(e).revises == edition]
    # an original text before a translation of it (wbf2017 before ccba2018, which translates it)
    return next((e for e in later if not edition_info(e).translates), later[0] if later else None)


def _note(other: str, outcome: dict[str, str]) -> dict[str, str]:
    from ..editions import edition as edition_info

    info = edition_info(other)
    return {lang: f"{info.title_in(lang)} ({info.version.split(' ')[0]}): {text}" for lang, text in outcome.items()}


def compare(r: Ruling, trees: Mapping[str, Tree], facts: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """Run the other edition's tree on the same facts: None when it rules alike, else what it rules
    (status `differs`) or the question it would still need (status `undetermined`)."""
    tree = trees[r.topic]
    other = other_edition(tree, r.edition)
    if other is None:
        return None
    given = dict(facts) if facts is not None else dict(s.facts() for s in r.path)
    try:
        o = rule(r.topic, other, given, trees, compare_editions=False)
    except (MissingFact, NoMatchingBranch) as err:
        q = tree.node(err.node)
        ask = q.ask if isinstance(q, Question) else {lang: err.fact for lang in r.outcome}
        return {"status": "undetermined", "edition": other, "fact": err.fact,
                "note": {lang: f"{other}: {text}" for lang, text in ask.items()}, "cites": {}}
    if o.outcome_code == r.outcome_code:
        return None
    return {"status": "differs", "edition": other, "leaf": o.leaf, "outcome_code": o.outcome_code,
            "outcome": o.outcome, "note": _note(other, o.outcome), "cites": {other: o.cites}}


@dataclass
class Partial:
    """The rulings still possible from the facts given: the questions left open and each leaf reachable."""

    topic: str
    edition: str
    missing: list[dict[str, Any]]
    rulings: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return {"topic": self.topic, "edition": self.edition, "partial": True,
                "missing": self.missing, "rulings": self.rulings}


def possible(topic: str, edition: str, facts: Mapping[str, Any], trees: Mapping[str, Tree] | None = None) -> Partial:
    """`--partial`: follow the facts given, branch over every offered answer where a fact is missing."""
    tree = _tree(topic, edition, trees)
    rules_ed = tree.rules_edition(edition)
    missing: dict[str, dict[str, Any]] = {}
    leaves: dict[str, None] = {}

    def walk(nid: str) -> None:
        node = tree.node(nid)
        if isinstance(node, Leaf):
            leaves[nid] = None
            return
        opts = [a for a in node.answers if a.offered(rules_ed)]
        value = facts.get(node.fact)
        implied = next((a for a in opts if a.implied(facts)), None) if value is None else None
        if implied is not None:
            walk(implied.next)
            return
        if value is None:
            missing.setdefault(nid, {"node": nid, "fact": node.fact, "ask": node.ask, "help": node.help,
                                     "answers": [a.label for a in opts]})
            for a in opts:
                walk(a.next)
            return
        hit = next((a for a in opts if a.matches(value)), None)
        if hit is None:
            raise NoMatchingBranch(topic, nid, node.fact, value, [_describe(a) for a in opts])
        walk(hit.next)

    walk(tree.start_for(edition))
    rows = []
    for lid in leaves:
        leaf = tree.node(lid)
        assert isinstance(leaf, Leaf)
        rows.append({"leaf": lid, "outcome_code": leaf.code_for(edition, rules_ed),
                     "outcome": leaf.text_for(edition, rules_ed)[0],
                     "cites": leaf.cites.get(edition, [])})
    return Partial(topic, edition, list(missing.values()), rows)
