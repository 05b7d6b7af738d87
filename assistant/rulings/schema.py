"""The records of a ruling tree (questions, answers, rulings, the tree) and how an answer matches a fact.

Answers match exactly: the answer's value(s), its label in any language, its aliases, or a number in
its range; a yes/no answer also takes true/false, yes/no and 是/否. Nothing else matches, and a missing
fact matches nothing, so an unknown answer can never fall into another branch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..errors import BridgelawError

Tri = dict[str, str]            # lang -> text, exactly the three LANGS
Side = Literal["offender", "offender_partner", "offending_side", "non_offending_side", "declarer",
               "defenders", "lho", "director", "players"]
FollowupKind = Literal["lead_restriction", "law16", "law23", "adjustment", "procedural_penalty",
                       "penalty_card", "other"]

# answer labels common to many questions; a tree may write `label: yes` instead of three texts
COMMON_LABELS: dict[str, Tri] = {
    "yes": {"zh-Hans": "是", "zh-Hant": "是", "en": "Yes"},
    "no": {"zh-Hans": "否", "zh-Hant": "否", "en": "No"},
    "unknown": {"zh-Hans": "尚未确定", "zh-Hant": "尚未確定", "en": "Not yet known"},
    "other": {"zh-Hans": "其他情况", "zh-Hant": "其他情況", "en": "Anything else"},
}
# the words a director may type for a yes/no fact, besides true/false
BOOL_WORDS: dict[bool, frozenset[str]] = {
    True: frozenset({"yes", "y", "true", "是", "对", "對", "有"}),
    False: frozenset({"no", "n", "false", "否", "不", "没有", "沒有", "无", "無"}),
}


class TreeError(BridgelawError):
    """A ruling tree file that cannot be used: bad YAML, bad schema, or a dangling reference."""

    exit_code = 3

    def __init__(self, file: str, where: str, what: str, fix: str) -> None:
        super().__init__(f"{file}: {where}: {what} — {fix}")
        self.file, self.where, self.what = file, where, what


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)


def norm(text: str) -> str:
    """A typed answer folded for exact comparison: case, spaces, underscores, hyphens, quotes, and a
    remark in brackets ('defender (concession)' is 'defender')."""
    t = re.sub(r"\s*[(（][^)）]*[)）]", "", text)
    t = t.replace("’", "'").replace("_", " ").replace("-", " ").casefold()
    return re.sub(r"\s+", " ", t).strip(" .。!！?？")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _as_number(v: Any) -> float | None:
    if _is_number(v):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            return None
    return None


def _stated(v: Any, wanted: Any) -> bool:
    if v is None:
        return False
    for w in wanted if isinstance(wanted, list) else [wanted]:
        if isinstance(w, bool) or isinstance(v, bool):
            if v is w or (isinstance(v, str) and norm(v) in BOOL_WORDS.get(w, ())):
                return True
        elif isinstance(v, str) and isinstance(w, str) and norm(v) == norm(w):
            return True
        elif _is_number(v) and _is_number(w) and float(v) == float(w):
            return True
    return False


class Answer(_Strict):
    """One answer to a question: the fact values it takes, its label, where it leads."""

    label: Tri
    next: str
    value: Any = None            # scalar or list of scalars
    aliases: list[str] = Field(default_factory=list)   # other exact spellings a director may type
    min: float | None = None     # numeric range, inclusive
    max: float | None = None
    otherwise: bool = False      # never allowed: kept so readers of old trees see False
    usual: bool = False          # the answer when a case's story says nothing of this fact (never assumed by the engine)
    implied_by: list[dict[str, Any]] = Field(default_factory=list)   # stated facts that select it (any one set, all of it)
    editions: list[str] | None = None   # rules editions where this answer is offered

    @field_validator("label", mode="before")
    @classmethod
    def _common_label(cls, v: Any) -> Any:
        if isinstance(v, bool):          # YAML 1.1 reads a bare yes/no as a boolean
            v = "yes" if v else "no"
        if isinstance(v, str):
            if v not in COMMON_LABELS:
                raise ValueError(f"unknown short label {v!r}: use one of {', '.join(COMMON_LABELS)} "
                                 "or give zh-Hans, zh-Hant and en")
            return dict(COMMON_LABELS[v])
        return v

    @field_validator("otherwise")
    @classmethod
    def _no_catch_all(cls, v: bool) -> bool:
        if v:
            raise ValueError("`otherwise: true` would take any answer, even a wrong one: give value or aliases")
        return v

    def has_value(self) -> bool:
        return "value" in self.model_fields_set

    def values(self) -> list[Any]:
        if not self.has_value():
            return []
        return list(self.value) if isinstance(self.value, list) else [self.value]

    def is_bool(self) -> bool:
        """A yes/no answer: its value is true or false."""
        return any(isinstance(v, bool) for v in self.values())

    def spellings(self) -> set[str]:
        """Every text that selects this answer, folded."""
        out = {norm(t) for t in self.label.values()} | {norm(a) for a in self.aliases}
        out |= {norm(str(v)) for v in self.values() if isinstance(v, str) or _is_number(v)}
        for v in self.values():
            if isinstance(v, bool):
                out |= BOOL_WORDS[v]
        return out

    def matches(self, v: Any) -> bool:
        """Whether the fact value `v` selects this answer (never a missing one)."""
        if v is None:
            return False
        if isinstance(v, bool):
            return any(w is v for w in self.values())
        if _is_number(v) and any(_is_number(w) and float(w) == float(v) for w in self.values()):
            return True
        if isinstance(v, str) and norm(v) in self.spellings():
            return True
        if self.min is not None or self.max is not None:
            num = _as_number(v)
            lo = self.min if self.min is not None else float("-inf")
            hi = self.max if self.max is not None else float("inf")
            return num is not None and lo <= num <= hi
        return False

    def implied(self, facts: Any) -> bool:
        """Whether facts stated elsewhere select this answer: every fact of one `implied_by` set given
        with one of its values (a fact never stated implies nothing)."""
        return any(all(_stated(facts.get(f), w) for f, w in cond.items()) for cond in self.implied_by)

    def canonical(self) -> Any:
        """The value recorded when this answer is chosen interactively."""
        if self.has_value():
            return self.values()[0]
        if self.min is not None or self.max is not None:
            return self.min if self.min is not None else self.max
        return self.label.get("en")

    def offered(self, rules_edition: str) -> bool:
        return self.editions is None or rules_edition in self.editions


class Question(_Strict):
    """A question node: asks one fact; the matching answer offered in the edition is taken.

    `cites`: the clauses that make the question matter, per edition, or the text `none — reason`."""

    ask: Tri
    fact: str
    answers: list[Answer] = Field(min_length=1)
    help: Tri | None = None
    cites: dict[str, list[str]] | str

    @field_validator("cites")
    @classmethod
    def _none_with_reason(cls, v: Any) -> Any:
        if isinstance(v, str) and not re.match(r"^none\s*[—:-]\s*\S.{8,}", v):
            raise ValueError("a question cites clauses per edition, or `none — <why no clause applies>`")
        return v

    @field_validator("answers")
    @classmethod
    def _one_usual(cls, v: list[Answer]) -> list[Answer]:
        if len({a.label["en"] for a in v if a.usual}) > 1:
            raise ValueError("at most one answer is the usual one")
        return v

    def cited(self) -> dict[str, list[str]]:
        return self.cites if isinstance(self.cites, dict) else {}


class Choice(_Strict):
    """An option the laws give one side after the ruling."""

    side: Side
    text: Tri


class Followup(_Strict):
    """What may still follow: lead restrictions, Law 16/23 information, adjustment, penalty."""

    kind: FollowupKind
    text: Tri


class LeafText(_Strict):
    """A ruling's words in one edition's terms, where they differ from the leaf's own."""

    outcome: Tri
    outcome_code: str | None = None      # its own code where the edition rules otherwise (so `differs` sees it)
    choices: list[Choice] | None = None
    followups: list[Followup] | None = None


class Leaf(_Strict):
    """A ruling: the outcome in three languages and the clauses it rests on, per edition.

    Where the editions differ is computed (the other edition's tree on the same facts), never written."""

    outcome: Tri
    outcome_code: str
    signature: list[list[str]] = Field(min_length=1)   # groups of alternative phrases any statement of it contains
    choices: list[Choice] = Field(default_factory=list)
    followups: list[Followup] = Field(default_factory=list)
    cites: dict[str, list[str]]
    sections: dict[str, str] = Field(default_factory=dict)  # cited id -> why the whole section, not a sub-section
    variants: dict[str, LeafText] = Field(default_factory=dict)  # edition -> its own words
    same_ruling: str | None = None     # why editions whose cited laws differ still rule alike (checks.py)

    def code_for(self, *editions: str) -> str:
        """The outcome code under an edition: the first of `editions` whose words carry their own code,
        else the leaf's; the engine compares editions by it."""
        v = next((self.variants[e] for e in editions if e in self.variants), None)
        return v.outcome_code if v is not None and v.outcome_code else self.outcome_code

    @field_validator("same_ruling")
    @classmethod
    def _a_reason(cls, v: str | None) -> str | None:
        if v is not None and len(v.split()) < 6:
            raise ValueError("same_ruling gives the reason the editions rule alike, in a sentence")
        return v

    def text_for(self, *editions: str) -> tuple[Tri, list[Choice], list[Followup]]:
        """The outcome, choices and follow-ups as announced under an edition (the first of `editions`
        with its own words: the edition, then the one whose branches it follows)."""
        v = next((self.variants[e] for e in editions if e in self.variants), None)
        if v is None:
            return self.outcome, self.choices, self.followups
        return (v.outcome, self.choices if v.choices is None else v.choices,
                self.followups if v.followups is None else v.followups)

    @field_validator("signature", mode="before")
    @classmethod
    def _phrases_as_text(cls, v: Any) -> Any:
        """YAML reads a bare 25 as a number; a phrase is always text."""
        if isinstance(v, list):
            return [[str(p) if isinstance(p, (int, float)) else p for p in g] if isinstance(g, list) else g
                    for g in v]
        return v


Node = Question | Leaf


class Tree(_Strict):
    """One topic: its titles, editions, trigger words, first node and nodes."""

    topic: str
    title: Tri
    editions: list[str] = Field(min_length=1)
    follows: dict[str, str] = Field(default_factory=dict)   # edition -> edition whose branches it takes
    triggers: dict[str, list[str]]
    start: str
    starts: dict[str, str] = Field(default_factory=dict)   # rules edition -> its own first node
    nodes: dict[str, Any]
    file: str = ""

    def start_for(self, edition: str) -> str:
        """The first node in an edition: its own where the tree gives one, else the common start."""
        return self.starts.get(self.rules_edition(edition), self.start)

    def node(self, node_id: str) -> Node:
        return self.nodes[node_id]

    def rules_edition(self, edition: str) -> str:
        """The edition whose branches apply: ccba2018 rules as wbf2017 where the topic says so."""
        return self.follows.get(edition, edition)

    def questions(self) -> Iterator[tuple[str, Question]]:
        for nid, n in self.nodes.items():
            if isinstance(n, Question):
                yield nid, n

    def leaves(self) -> Iterator[tuple[str, Leaf]]:
        for nid, n in self.nodes.items():
            if isinstance(n, Leaf):
                yield nid, n

    def facts(self) -> list[str]:
        return sorted({q.fact for _, q in self.questions()})
