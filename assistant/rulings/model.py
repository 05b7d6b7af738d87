"""The schema of a ruling tree (one YAML file per topic) and its loader, which validates everything.

A tree is a graph of question nodes (each asks one `fact`, its answers lead to other nodes, some only
in some editions) ending in ruling leaves (outcome, choices, follow-ups, cited clause ids per
edition). Loading rejects unknown fields, missing languages, dangling references, cycles and cited
ids that are not in the corpus, naming the file, the node and the fix.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import BridgelawError
from ..model import EDITIONS, LANGS, ClauseId

TREES_DIR = Path(__file__).resolve().parent / "trees"
FACT_RE = re.compile(r"^[a-z][a-z0-9_]*$")
NODE_RE = re.compile(r"^[a-z][a-z0-9_]*$")

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


class TreeError(BridgelawError):
    """A ruling tree file that cannot be used: bad YAML, bad schema, or a dangling reference."""

    exit_code = 3

    def __init__(self, file: str, where: str, what: str, fix: str) -> None:
        super().__init__(f"{file}: {where}: {what} — {fix}")
        self.file, self.where, self.what = file, where, what


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)


class Answer(_Strict):
    """One answer to a question: how it matches a fact value, its label, where it leads."""

    label: Tri
    next: str
    value: Any = None            # scalar or list of scalars (equality; strings case-insensitive)
    pattern: str | None = None   # regex searched in a string value (free-text facts)
    min: float | None = None     # numeric range, inclusive
    max: float | None = None
    otherwise: bool = False      # matches anything, including a missing fact
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

    def has_value(self) -> bool:
        return "value" in self.model_fields_set

    def matches(self, v: Any) -> bool:
        """Whether the fact value `v` selects this answer."""
        if self.otherwise:
            return True
        if self.has_value():
            wanted = self.value if isinstance(self.value, list) else [self.value]
            if any(_same(v, w) for w in wanted):
                return True
        if self.pattern is not None and isinstance(v, str) and re.search(self.pattern, v, re.I):
            return True
        if (self.min is not None or self.max is not None) and _is_number(v):
            lo = self.min if self.min is not None else float("-inf")
            hi = self.max if self.max is not None else float("inf")
            return lo <= float(v) <= hi
        return False

    def canonical(self) -> Any:
        """The value recorded when this answer is chosen interactively."""
        if self.has_value():
            return self.value[0] if isinstance(self.value, list) else self.value
        if self.min is not None or self.max is not None:
            return self.min if self.min is not None else self.max
        return self.label.get("en")

    def offered(self, rules_edition: str) -> bool:
        return self.editions is None or rules_edition in self.editions


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _same(v: Any, w: Any) -> bool:
    if isinstance(v, bool) or isinstance(w, bool) or v is None or w is None:
        return v is w
    if isinstance(v, str) and isinstance(w, str):
        return v.strip().casefold() == w.strip().casefold()
    if _is_number(v) and _is_number(w):
        return float(v) == float(w)
    return bool(v == w)


class Question(_Strict):
    """A question node: asks one fact; the first matching answer offered in the edition is taken."""

    ask: Tri
    fact: str
    answers: list[Answer] = Field(min_length=1)
    help: Tri | None = None
    cites: dict[str, list[str]] = Field(default_factory=dict)


class Choice(_Strict):
    """An option the laws give one side after the ruling."""

    side: Side
    text: Tri


class Followup(_Strict):
    """What may still follow: lead restrictions, Law 16/23 information, adjustment, penalty."""

    kind: FollowupKind
    text: Tri


class Differs(_Strict):
    """Where another edition rules differently: what it says and its clauses."""

    note: Tri
    cites: dict[str, list[str]] = Field(default_factory=dict)


class Leaf(_Strict):
    """A ruling: the outcome in three languages and the clauses it rests on, per edition."""

    outcome: Tri
    outcome_code: str
    signature: list[list[str]] = Field(min_length=1)   # groups of alternative phrases any statement of it contains
    choices: list[Choice] = Field(default_factory=list)
    followups: list[Followup] = Field(default_factory=list)
    cites: dict[str, list[str]]
    differs: Differs | None = None

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
    nodes: dict[str, Any]
    file: str = ""

    # filled by the loader
    def node(self, node_id: str) -> Node:
        return self.nodes[node_id]  # type: ignore[no-any-return]

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


# ---------------------------------------------------------------------------------------------
# loading and validation


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in loc)


def _pyd_error(file: str, where: str, err: ValidationError) -> TreeError:
    first = err.errors()[0]
    loc = _loc(first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        fix = "remove it or fix its spelling (see assistant/rulings/model.py for the fields)"
        what = f"unknown field {loc!r}"
    elif kind == "missing":
        what, fix = f"missing field {loc!r}", "add it"
    else:
        what, fix = f"{loc}: {first['msg']}", "correct the value"
    more = len(err.errors()) - 1
    if more:
        what += f" (and {more} more problem{'s' if more > 1 else ''})"
    return TreeError(file, where, what, fix)


def _check_tri(file: str, where: str, field: str, tri: Tri | None) -> None:
    if tri is None:
        return
    missing = [lang for lang in LANGS if not str(tri.get(lang) or "").strip()]
    extra = [k for k in tri if k not in LANGS]
    if missing:
        raise TreeError(file, where, f"{field} lacks {', '.join(missing)}",
                        f"every text needs {', '.join(LANGS)}: add {field}.{missing[0]}")
    if extra:
        raise TreeError(file, where, f"{field} has unknown language {extra[0]!r}",
                        f"use only {', '.join(LANGS)}")


ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7", "viii": "8"}


def _derive(clause_id: str, edition: str, known: Any = None) -> str | None:
    """The same law clause in a translated edition (ccba2018 part 2 mirrors wbf2017); None if not a law.

    The translation numbers (i)(ii) as (1)(2); where it lacks the exact clause, its nearest ancestor.
    """
    cid = ClauseId.parse(clause_id)
    if cid.kind != "law":
        return None
    same = str(ClauseId(edition, cid.kind, cid.path))
    if known is None or same in known:
        return same
    arabic = ClauseId(edition, cid.kind, tuple(ROMAN.get(p, p) for p in cid.path))
    node: ClauseId | None = arabic
    while node is not None and str(node) not in known:
        node = node.parent
    return str(node) if node is not None else same


def known_ids(corpus: Any) -> Mapping[str, Collection[str]]:
    """Clause ids by edition, from a parsed Corpus or from such a mapping itself (corpus.clause_ids)."""
    if isinstance(corpus, Mapping):
        return corpus
    return {name: ed.clauses for name, ed in corpus.editions.items()}


def derive_translations(tree: "Tree", known: Any = None) -> None:
    """Give each ruling the cites of the editions that follow another (ccba2018 -> wbf2017), unless written.

    `known`: a Corpus or clause ids by edition, to fall back to the nearest existing clause."""
    ids_by_ed = known_ids(known) if known is not None else None
    for _, leaf in tree.leaves():
        for ed, src in tree.follows.items():
            if ed not in leaf.cites and src in leaf.cites:
                ids = [_derive(c, ed, ids_by_ed.get(ed, ()) if ids_by_ed is not None else None) for c in leaf.cites[src]]
                leaf.cites[ed] = list(dict.fromkeys(i for i in ids if i))


def parse_tree(data: Any, file: str) -> Tree:
    """Validate one tree's data (schema, languages, references, cycles); cites are checked separately."""
    if not isinstance(data, dict):
        raise TreeError(file, "top level", "not a mapping", "start the file with `topic:`")
    try:
        tree = Tree.model_validate({**data, "file": file})
    except ValidationError as err:
        raise _pyd_error(file, "top level", err) from None
    expected_topic = Path(file).stem
    if tree.topic != expected_topic:
        raise TreeError(file, "topic", f"topic {tree.topic!r} differs from the file name",
                        f"rename the file to {tree.topic}.yaml or the topic to {expected_topic}")
    _check_tri(file, "title", "title", tree.title)
    for ed in [*tree.editions, *tree.follows, *tree.follows.values()]:
        if ed not in EDITIONS:
            raise TreeError(file, "editions", f"unknown edition {ed!r}", f"choose from {', '.join(EDITIONS)}")
    for lang, words in tree.triggers.items():
        if lang not in LANGS or not words:
            raise TreeError(file, "triggers", f"bad trigger language or empty list {lang!r}",
                            f"give trigger words for each of {', '.join(LANGS)}")
    for lang in LANGS:
        if lang not in tree.triggers:
            raise TreeError(file, "triggers", f"no trigger words in {lang}", f"add triggers.{lang}")
    rules_eds = {tree.rules_edition(e) for e in tree.editions}

    nodes: dict[str, Node] = {}
    for nid, raw in tree.nodes.items():
        where = f"node {nid}"
        if not NODE_RE.match(str(nid)):
            raise TreeError(file, where, "node id is not snake_case", "rename it, e.g. q_accepted")
        if not isinstance(raw, dict) or ("fact" in raw) == ("outcome" in raw):
            raise TreeError(file, where, "neither a question (with `fact:`) nor a ruling (with `outcome:`)",
                            "give a question `fact`, `ask`, `answers` or a ruling `outcome`, `cites`")
        try:
            node: Node = Question.model_validate(raw) if "fact" in raw else Leaf.model_validate(raw)
        except ValidationError as err:
            raise _pyd_error(file, where, err) from None
        nodes[str(nid)] = node
    tree.nodes = nodes  # type: ignore[assignment]

    if tree.start not in nodes:
        raise TreeError(file, "start", f"start node {tree.start!r} does not exist",
                        f"choose one of {', '.join(list(nodes)[:5])}")
    for nid, node in nodes.items():
        where = f"node {nid}"
        if isinstance(node, Question):
            _check_tri(file, where, "ask", node.ask)
            _check_tri(file, where, "help", node.help)
            if not FACT_RE.match(node.fact):
                raise TreeError(file, where, f"fact {node.fact!r} is not snake_case", "name it like in_rotation")
            for i, ans in enumerate(node.answers):
                aw = f"{where} answer {i + 1}"
                _check_tri(file, aw, "label", ans.label)
                if ans.next not in nodes:
                    raise TreeError(file, aw, f"leads to unknown node {ans.next!r}",
                                    "add that node or correct `next`")
                if not (ans.otherwise or ans.has_value() or ans.pattern or ans.min is not None
                        or ans.max is not None):
                    raise TreeError(file, aw, "matches no value", "give value, pattern, min/max or otherwise: true")
                if ans.pattern is not None:
                    try:
                        re.compile(ans.pattern)
                    except re.error as err:
                        raise TreeError(file, aw, f"bad pattern: {err}", "fix the regular expression") from None
                for ed in ans.editions or []:
                    if ed not in rules_eds:
                        raise TreeError(file, aw, f"edition {ed!r} is not one this tree rules for",
                                        f"use one of {', '.join(sorted(rules_eds))}")
        else:
            _check_tri(file, where, "outcome", node.outcome)
            if not FACT_RE.match(node.outcome_code):
                raise TreeError(file, where, "outcome_code is not snake_case", "name it like partner_must_pass")
            for c in node.choices:
                _check_tri(file, where, f"choice for {c.side}", c.text)
            for f in node.followups:
                _check_tri(file, where, f"followup {f.kind}", f.text)
            if node.differs:
                _check_tri(file, where, "differs.note", node.differs.note)
            if not any(node.cites.values()):
                raise TreeError(file, where, "cites no clause", "every ruling cites at least one clause id")
            for group in node.signature:
                if not group or not all(isinstance(p, str) and p.strip() for p in group):
                    raise TreeError(file, where, "empty signature group", "list phrases, e.g. [must pass, 必须不叫]")
    _check_cycles(tree)
    return tree


def _check_cycles(tree: Tree) -> None:
    state: dict[str, int] = {}

    def visit(nid: str, trail: list[str]) -> None:
        if state.get(nid) == 2:
            return
        if state.get(nid) == 1:
            loop = " -> ".join([*trail[trail.index(nid):], nid])
            raise TreeError(tree.file, f"node {nid}", f"cycle {loop}", "a tree must not loop: point an answer forward")
        state[nid] = 1
        node = tree.nodes[nid]
        if isinstance(node, Question):
            for a in node.answers:
                visit(a.next, [*trail, nid])
        state[nid] = 2

    visit(tree.start, [])


def all_cites(tree: Tree) -> Iterator[tuple[str, str, str]]:
    """(node id, edition key, clause id) for every id a tree cites, questions and differs included."""
    for nid, node in tree.nodes.items():
        groups: list[dict[str, list[str]]] = [node.cites]
        if isinstance(node, Leaf) and node.differs:
            groups.append(node.differs.cites)
        for g in groups:
            for ed, ids in g.items():
                for cid in ids:
                    yield nid, ed, cid


def check_cites(tree: Tree, corpus: Any) -> None:
    """Every cited id well formed, of the edition it is listed under, and present in the corpus
    (a Corpus, or clause ids by edition)."""
    known = known_ids(corpus)
    for nid, ed, cid in all_cites(tree):
        where = f"node {nid}"
        if ed not in EDITIONS:
            raise TreeError(tree.file, where, f"cites under unknown edition {ed!r}", f"use one of {', '.join(EDITIONS)}")
        try:
            parsed = ClauseId.parse(cid)
        except ValueError as err:
            raise TreeError(tree.file, where, str(err).split(" — ")[0], "write ids like wbf2017/law/27/B/2") from None
        if parsed.edition != ed:
            raise TreeError(tree.file, where, f"{cid} is listed under {ed}",
                            f"list it under {parsed.edition} or cite the {ed} clause")
        edition = known.get(ed)
        if edition is None or cid not in edition:
            nearest = parsed.parent
            while nearest is not None and edition is not None and str(nearest) not in edition:
                nearest = nearest.parent
            hint = f"nearest existing clause: {nearest}" if nearest else "check `bridgelaw show`"
            raise TreeError(tree.file, where, f"cited id {cid} is not in the corpus", hint)


def read_tree(path: Path) -> Tree:
    """Read and validate one YAML file (without the corpus check)."""
    try:
        # the C loader when PyYAML has it: same safe semantics, 8x faster on the 20 trees
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as err:
        line = getattr(getattr(err, "problem_mark", None), "line", None)
        where = f"line {line + 1}" if line is not None else "YAML"
        raise TreeError(path.name, where, "not valid YAML", str(err).splitlines()[0]) from None
    return parse_tree(data, path.name)


def load_trees(directory: Path | None = None, corpus: Any = None, check: bool = True) -> dict[str, Tree]:
    """All trees of a folder by topic, validated; cited ids checked against the corpus when `check`."""
    if directory is None and corpus is None and check:
        return dict(_default_trees())
    return _load(Path(directory or TREES_DIR), corpus, check)


def _load(directory: Path, corpus: Any, check: bool) -> dict[str, Tree]:
    trees: dict[str, Tree] = {}
    files = sorted(p for p in directory.glob("*.yaml") if not p.name.startswith("_"))
    if not files:
        raise TreeError(str(directory), "folder", "no tree files", "add one YAML file per topic")
    for path in files:
        tree = read_tree(path)
        trees[tree.topic] = tree
    if check and corpus is None:
        from ..corpus import clause_ids

        corpus = clause_ids()           # the ids are all the check needs (cached; no parse when unchanged)
    for tree in trees.values():
        derive_translations(tree, corpus if check else None)
        if check:
            check_cites(tree, corpus)
    return trees


@lru_cache(maxsize=1)
def _default_trees() -> dict[str, Tree]:
    return _load(TREES_DIR, None, True)
