"""The schema of a ruling tree (one YAML file per topic) and its loader, which validates everything.

A tree is a graph of question nodes (each asks one `fact`, its answers lead to other nodes, some only
in some editions) ending in ruling leaves (outcome, choices, follow-ups, cited clause ids per
edition). Loading rejects unknown fields, missing languages, dangling references, cycles and cited
ids that are not in the corpus, naming the file, the node and the fix.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..model import EDITIONS, LANGS, ClauseId
from .schema import (
    COMMON_LABELS,
    Answer,
    Choice,
    Followup,
    Leaf,
    Node,
    Question,
    Tree,
    TreeError,
    Tri,
)

__all__ = [
    "COMMON_LABELS",
    "TREES_DIR",
    "Answer",
    "Choice",
    "Followup",
    "Leaf",
    "Node",
    "Question",
    "Tree",
    "TreeError",
    "all_cites",
    "check_cites",
    "derive_translations",
    "load_trees",
    "parse_tree",
    "read_tree",
]

TREES_DIR = Path(__file__).resolve().parent / "trees"
FACT_RE = re.compile(r"^[a-z][a-z0-9_]*$")
NODE_RE = re.compile(r"^[a-z][a-z0-9_]*$")

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


def derive_translations(tree: Tree, known: Any = None) -> None:
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
    tree.nodes = nodes

    for ed, first in {"": tree.start, **tree.starts}.items():
        if first not in nodes:
            raise TreeError(file, "start", f"start node {first!r} does not exist",
                            f"choose one of {', '.join(list(nodes)[:5])}")
        if ed and ed not in rules_eds:
            raise TreeError(file, "starts", f"edition {ed!r} is not one this tree rules for",
                            f"use one of {', '.join(sorted(rules_eds))}")
    for nid, node in nodes.items():
        if isinstance(node, Question):
            _check_question(file, f"node {nid}", node, nodes, rules_eds)
        else:
            _check_leaf(file, f"node {nid}", node, tree)
    _check_cycles(tree)
    return tree


def _check_question(file: str, where: str, node: Question, nodes: dict[str, Node], rules_eds: set[str]) -> None:
    """A question's texts, fact name, answers (each leading somewhere and matching something) and editions."""
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
        if not (ans.has_value() or ans.aliases or ans.min is not None or ans.max is not None):
            raise TreeError(file, aw, "matches no value", "give value, aliases or min/max")
        for ed in ans.editions or []:
            if ed not in rules_eds:
                raise TreeError(file, aw, f"edition {ed!r} is not one this tree rules for",
                                f"use one of {', '.join(sorted(rules_eds))}")
    _check_ambiguous(file, where, node, rules_eds)


def _check_leaf(file: str, where: str, node: Leaf, tree: Tree) -> None:
    """A ruling's texts in every language and edition, its code, cites and signature."""
    _check_tri(file, where, "outcome", node.outcome)
    if not FACT_RE.match(node.outcome_code):
        raise TreeError(file, where, "outcome_code is not snake_case", "name it like partner_must_pass")
    for c in node.choices:
        _check_tri(file, where, f"choice for {c.side}", c.text)
    for f in node.followups:
        _check_tri(file, where, f"followup {f.kind}", f.text)
    for ed, v in node.variants.items():
        if ed not in tree.editions:
            raise TreeError(file, where, f"variant for {ed!r}, not an edition this tree rules for",
                            f"use one of {', '.join(tree.editions)}")
        if v.outcome_code is not None and not FACT_RE.match(v.outcome_code):
            raise TreeError(file, where, f"variants.{ed}.outcome_code is not snake_case", "name it like partner_must_pass")
        for tri in [v.outcome, *[c.text for c in v.choices or []], *[f.text for f in v.followups or []]]:
            _check_tri(file, where, f"variants.{ed}", tri)
    if not any(node.cites.values()):
        raise TreeError(file, where, "cites no clause", "every ruling cites at least one clause id")
    for group in node.signature:
        if not group or not all(isinstance(p, str) and p.strip() for p in group):
            raise TreeError(file, where, "empty signature group", "list phrases, e.g. [must pass, 必须不叫]")


def _check_ambiguous(file: str, where: str, q: Question, rules_eds: set[str]) -> None:
    """In each edition, no spelling (value, label or alias) selects two answers of one question."""
    for ed in sorted(rules_eds):
        seen: dict[str, str] = {}
        for ans in q.answers:
            if not ans.offered(ed):
                continue
            for sp in ans.spellings():
                if sp in seen and seen[sp] != ans.label["en"]:
                    raise TreeError(file, where, f"{sp!r} selects both {seen[sp]!r} and {ans.label['en']!r} in {ed}",
                                    "give each answer its own values and aliases")
                seen[sp] = ans.label["en"]


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

    for first in {tree.start, *tree.starts.values()}:
        visit(first, [])


def all_cites(tree: Tree) -> Iterator[tuple[str, str, str]]:
    """(node id, edition key, clause id) for every id a tree cites, questions included."""
    for nid, node in tree.nodes.items():
        cites = node.cited() if isinstance(node, Question) else node.cites
        for ed, ids in cites.items():
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
