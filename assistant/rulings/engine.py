"""Walk a ruling tree: start a topic for an edition, answer, go back, explain the path, reach the ruling.

`Session` is the interactive walk; `rule(topic, edition, facts)` is the batch mode, answering each
question from a mapping of facts (snake_case names, as the trees ask them); `enumerate_paths` lists
every path of a tree per edition (static checks and the reviewed snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

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
        given = "not given" if value is None else f"= {value!r}"
        super().__init__(
            f"{topic}: question {node} asks {fact!r} ({given}) — no answer matches it — "
            f"give {fact} one of: {'; '.join(offered)}")
        self.topic, self.node, self.fact, self.value = topic, node, fact, value


@dataclass(frozen=True)
class Step:
    """One answered question: the node, the fact it asked, the value and the answer's label."""

    node: str
    fact: str
    value: Any
    label: dict[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {"node": self.node, "fact": self.fact, "value": self.value, "answer": self.label}


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

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of `bridgelaw rule --answers … --json`."""
        return {
            "topic": self.topic, "edition": self.edition, "outcome": self.outcome,
            "outcome_code": self.outcome_code, "leaf": self.leaf, "cites": self.cites,
            "cites_by_edition": self.cites_by_edition, "choices": self.choices,
            "followups": self.followups, "differs": self.differs,
            "path": [s.as_dict() for s in self.path],
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
    differs = None
    if leaf.differs:
        differs = {"note": leaf.differs.note, "cites": leaf.differs.cites}
        for ed, ids in leaf.differs.cites.items():
            by_edition.setdefault(ed, [])
            by_edition[ed] += [i for i in ids if i not in by_edition[ed]]
    return Ruling(
        topic=tree.topic, edition=edition, leaf=leaf_id, outcome_code=leaf.outcome_code,
        outcome=dict(leaf.outcome), cites=cites, cites_by_edition=by_edition,
        choices=[{"side": c.side, "text": c.text} for c in leaf.choices],
        followups=[{"kind": f.kind, "text": f.text} for f in leaf.followups],
        differs=differs, path=list(path))


class Session:
    """An interactive walk through one tree for one edition: answer, go back, explain, rule."""

    def __init__(self, tree: Tree, edition: str) -> None:
        self.tree, self.edition = tree, edition
        self.rules_edition = tree.rules_edition(edition)
        self.history: list[Step] = []
        self.current = tree.start

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
        for a in self.options():
            if a.matches(value):
                self._take(a, value)
                return
        raise NoMatchingBranch(self.tree.topic, self.current, q.fact, value,
                               [_describe(a) for a in self.options()])

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

    def ruling(self) -> Ruling | None:
        if not self.done:
            return None
        return make_ruling(self.tree, self.edition, self.current, self.history)


class BadAnswer(BridgelawError):
    """An interactive answer that is not one of the offered choices."""

    exit_code = 2


def _describe(a: Answer) -> str:
    if a.otherwise:
        return "anything else"
    parts = []
    if a.has_value():
        parts.append(repr(a.value))
    if a.pattern:
        parts.append(f"text matching /{a.pattern}/")
    if a.min is not None or a.max is not None:
        parts.append(f"a number in [{a.min}, {a.max}]")
    return " or ".join(parts) + f" ({a.label['en']})"


def start(topic: str, edition: str = "wbf2017", trees: Mapping[str, Tree] | None = None) -> Session:
    """Start an interactive walk; UnknownTopic for an unknown topic or an edition it lacks."""
    return Session(_tree(topic, edition, trees), edition)


def rule(topic: str, edition: str, facts: Mapping[str, Any], trees: Mapping[str, Tree] | None = None) -> Ruling:
    """Batch mode: answer every question from `facts` (a missing fact counts as null)."""
    s = start(topic, edition, trees)
    while not s.done:
        q = s.question()
        assert q is not None
        s.answer(facts.get(q.fact))
    r = s.ruling()
    assert r is not None
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

    yield from walk(tree.start, ())


def reachable(tree: Tree) -> set[str]:
    """Nodes reachable from the start in at least one edition."""
    seen: set[str] = set()
    for ed in tree.editions:
        for p in enumerate_paths(tree, ed):
            seen.update(s[0] for s in p.steps)
            seen.add(p.leaf)
    return seen
