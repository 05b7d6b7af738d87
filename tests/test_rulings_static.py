"""Static checks of the ruling trees: cited ids in the corpus, reachability, no cycles, cites on every
ruling and question, at least 30 topics in both editions, loader errors that name file, node and fix, the classes of
defect closed by `assistant.rulings.checks` (one option left by an edition filter, No before Yes, a
ruling text naming another edition, a section cited where the law has sub-sections, one outcome code
over per-edition words that cite other laws), and the reviewed
snapshot of every path (a review aid; regenerate with BRIDGELAW_UPDATE_SNAPSHOTS=1 after review).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from assistant.rulings import checks
from assistant.rulings.engine import MissingFact, enumerate_paths, reachable, rule
from assistant.rulings.model import Leaf, TreeError, TREES_DIR, all_cites, check_cites, load_trees, parse_tree

SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "rulings_paths.json"


@pytest.fixture(scope="module")
def trees():
    return load_trees()


def test_at_least_thirty_topics_one_file_each_in_both_editions(trees) -> None:
    files = sorted(p.stem for p in TREES_DIR.glob("*.yaml"))
    assert files == sorted(trees)
    both = [t for t, tree in trees.items() if {"wbf2017", "ccba1999"} <= set(tree.editions)]
    assert len(both) >= 30, f"only {len(both)} topics in both editions: {', '.join(sorted(both))}"


def test_every_cited_id_exists_in_its_edition(trees, corpus) -> None:
    n = 0
    for tree in trees.values():
        for _, ed, cid in all_cites(tree):
            assert cid.startswith(ed + "/") and cid in corpus.editions[ed].clauses, (tree.topic, cid)
            n += 1
    assert n > 100


def test_every_node_reachable(trees) -> None:
    for tree in trees.values():
        unreachable = set(tree.nodes) - reachable(tree)
        assert not unreachable, f"{tree.file}: unreachable nodes {sorted(unreachable)}"


def test_every_reachable_ruling_cites_its_edition(trees) -> None:
    for tree in trees.values():
        for ed in tree.editions:
            for p in enumerate_paths(tree, ed):
                leaf = tree.node(p.leaf)
                assert isinstance(leaf, Leaf) and leaf.cites.get(ed), f"{tree.file}: {p.leaf} cites nothing for {ed}"


def test_every_edition_of_a_tree_has_paths(trees) -> None:
    for tree in trees.values():
        for ed in tree.editions:
            assert any(True for _ in enumerate_paths(tree, ed)), (tree.topic, ed)


def _snapshot(trees) -> dict:
    out: dict = {}
    for topic, tree in sorted(trees.items()):
        out[topic] = {}
        for ed in tree.editions:
            rows = []
            for p in enumerate_paths(tree, ed):
                leaf = tree.node(p.leaf)
                rows.append({"path": [f"{fact} = {label}" for _, fact, label in p.steps], "leaf": p.leaf,
                             "outcome_code": leaf.code_for(ed, tree.rules_edition(ed)), "cites": leaf.cites.get(ed, [])})
            out[topic][ed] = rows
    return out


def test_paths_match_reviewed_snapshot(trees) -> None:
    current = _snapshot(trees)
    if os.environ.get("BRIDGELAW_UPDATE_SNAPSHOTS") == "1" or not SNAPSHOT.exists():
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(json.dumps(current, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    saved = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert saved == current, ("ruling paths changed — review the difference, then rerun with "
                              "BRIDGELAW_UPDATE_SNAPSHOTS=1 to accept it")


# ---------------------------------------------------------------------------------------------
# loader errors: each bad tree must be rejected with file, node and the words of the fix

GOOD = {
    "topic": "t", "title": {"zh-Hans": "题", "zh-Hant": "題", "en": "T"}, "editions": ["wbf2017"],
    "triggers": {"zh-Hans": ["题"], "zh-Hant": ["題"], "en": ["t"]}, "start": "q",
    "nodes": {
        "q": {"fact": "f", "ask": {"zh-Hans": "问", "zh-Hant": "問", "en": "Q?"},
              "cites": {"wbf2017": ["wbf2017/law/27/A/1"]},
              "answers": [{"value": True, "label": "yes", "next": "r"}, {"value": False, "label": "no", "next": "r"}]},
        "r": {"outcome_code": "ok", "outcome": {"zh-Hans": "是", "zh-Hant": "是", "en": "ok"},
              "signature": [["ok"]], "cites": {"wbf2017": ["wbf2017/law/27/A/1"]}},
    },
}


def _bad(mutate):
    data = json.loads(json.dumps(GOOD))
    mutate(data)
    return data


@pytest.mark.parametrize("data, words", [
    (_bad(lambda d: d["nodes"]["r"].update(colour="red")), ["node r", "unknown field", "colour"]),
    (_bad(lambda d: d["nodes"]["q"]["ask"].pop("zh-Hant")), ["node q", "lacks zh-Hant", "add ask.zh-Hant"]),
    (_bad(lambda d: d["nodes"]["q"]["answers"][0].update(next="nowhere")), ["node q", "unknown node", "nowhere"]),
    (_bad(lambda d: d.update(start="missing")), ["start", "does not exist"]),
    (_bad(lambda d: d["nodes"]["r"].update(cites={"wbf2017": []})), ["node r", "cites no clause"]),
    (_bad(lambda d: d["nodes"]["q"]["answers"].append({"value": "x", "label": "other", "next": "q"})),
     ["cycle", "q -> q"]),
    (_bad(lambda d: d["nodes"]["q"].pop("cites")), ["node q", "missing field 'cites'"]),
    (_bad(lambda d: d["nodes"]["q"].update(cites="none")), ["node q", "none — <why"]),
    (_bad(lambda d: d["nodes"]["q"]["answers"][0].update(otherwise=True)), ["node q", "otherwise"]),
    (_bad(lambda d: d["nodes"]["q"]["answers"][0].update(pattern="y.*")), ["node q", "pattern"]),
    (_bad(lambda d: d["nodes"]["q"]["answers"][1].update(value=True)), ["node q", "selects both"]),
    (_bad(lambda d: d["nodes"]["r"].update(differs={"note": {}})), ["node r", "differs"]),
    (_bad(lambda d: d.update(starts={"wbf2017": "nowhere"})), ["start", "nowhere"]),
    (_bad(lambda d: d.update(editions=["wbf2099"])), ["unknown edition", "wbf2099"]),
    (_bad(lambda d: d["nodes"]["q"]["answers"][0].update(editions=["ccba1999"])), ["ccba1999", "rules for"]),
    (_bad(lambda d: d["nodes"]["r"].pop("outcome")), ["node r", "neither a question"]),
])
def test_loader_rejects_bad_trees(data, words) -> None:
    with pytest.raises(TreeError) as info:
        parse_tree(data, "t.yaml")
    msg = str(info.value)
    assert msg.startswith("t.yaml:") and " — " in msg
    for w in words:
        assert w in msg, msg


@pytest.mark.parametrize("cite, words", [
    ("wbf2017/law/27/Z/9", ["not in the corpus", "nearest existing clause: wbf2017/law/27"]),
    ("ccba1999/law/27/A", ["listed under wbf2017"]),
    ("wbf2017/rule/1", ["not a clause id"]),
])
def test_loader_rejects_unknown_cites(cite, words, corpus) -> None:
    tree = parse_tree(_bad(lambda d: d["nodes"]["r"].update(cites={"wbf2017": [cite]})), "t.yaml")
    with pytest.raises(TreeError) as info:
        check_cites(tree, corpus)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_loader_names_yaml_syntax_errors(tmp_path) -> None:
    (tmp_path / "broken.yaml").write_text("topic: broken\nnodes: [\n", encoding="utf-8")
    with pytest.raises(TreeError) as info:
        load_trees(tmp_path, check=False)
    assert "broken.yaml" in str(info.value) and "not valid YAML" in str(info.value)


def test_tree_files_use_only_known_top_level_keys() -> None:
    for path in TREES_DIR.glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert set(data) <= {"topic", "title", "editions", "follows", "triggers", "start", "starts", "nodes"}, path.name


def test_no_answer_takes_a_missing_fact(trees) -> None:
    """A missing fact is never silently answered: batch mode stops with the question instead."""
    takers = [f"{tree.topic}:{nid}" for tree in trees.values() for nid, q in tree.questions()
              if any(a.matches(None) for a in q.answers)]
    assert not takers, takers
    for tree in trees.values():
        for ed in tree.editions:
            first = tree.node(tree.start_for(ed))
            if hasattr(first, "fact"):
                with pytest.raises(MissingFact):
                    rule(tree.topic, ed, {}, trees)


@pytest.mark.parametrize("check", ["single_option", "answer_order", "duplicate_labels", "mixed_editions",
                                   "question_cites", "not_announcements", "penalty_card_kinds",
                                   "shared_code_variants"])
def test_static_check(check, trees) -> None:
    problems = getattr(checks, check)(trees)
    assert not problems, "\n".join(problems[:30])


def test_rulings_cite_sub_sections(trees, corpus) -> None:
    known = {name: ed.clauses for name, ed in corpus.editions.items()}
    problems = checks.coarse_cites(trees, known)
    assert not problems, "\n".join(problems[:30])


def test_question_help_is_shown_in_json(trees) -> None:
    tree = trees["revoke"]
    r = rule("revoke", "wbf2017", {"established": False, "offender_role": "defender"}, trees)
    row = r.as_dict(tree)["path"][0]
    assert row["node"] == "q_established" and "help" in row and row["ask"]["en"]
    helped = [nid for nid, q in tree.questions() if q.help]
    assert helped, "the revoke tree explains at least one question"


@pytest.mark.parametrize("cid, lang, text", [
    ("wbf2017/law/27/B/1/a", "en", "Law 27B1(a)"),
    ("ccba2018/law/27/B/1/a", "zh-Hans", "第27条B款1(a)"),
    ("wbf2017/law/20/F/5/b/ii", "zh-Hant", "第20條F款5(b)(ii)"),
    ("ccba1999/law/64", "en", "Law 64"),
    ("ccba2018/article/22/2/1", "en", "Article 22.2.1"),
])
def test_citations_as_a_director_writes_them(cid, lang, text) -> None:
    from assistant.rulings.citation import cite_label

    assert cite_label(cid, lang) == text


# mainland (or OpenCC) forms that Taiwan texts of the laws do not use, and the TW term to use instead
NOT_TAIWAN = {"不叫": "派司", "加倍": "賭倍", "明手": "夢家", "引牌": "攻牌", "首引": "首攻", "墩": "磴",
              "糾正": "矯正", "藏牌": "應跟未跟", "違例": "違常", "可比較": "比擬", "信息": "訊息",
              "聲稱": "攤牌", "承認": "捐牌", "對手": "敵方", "對方": "敵方", "局況": "身價", "定約": "合約",
              "將牌": "王牌", "爲": "為", "纔": "才", "調整分": "調整得分", "實質叫牌": "叫價", "競叫": "叫牌",
              "搭檔": "同伴", "體系卡": "制度卡", "約定叫品": "人為叫品"}


def _zh_hant_texts(tree):
    yield "title", tree.title["zh-Hant"]
    for nid, node in tree.nodes.items():
        texts = []
        if isinstance(node, Leaf):
            texts = [node.outcome, *[c.text for c in node.choices], *[f.text for f in node.followups]]
        else:
            texts = [node.ask, *([node.help] if node.help else []), *[a.label for a in node.answers]]
        for t in texts:
            yield nid, t["zh-Hant"]


def test_zh_hant_texts_use_taiwan_terms(trees) -> None:
    bad = [f"{tree.topic}:{nid}: {w} -> {tw}: {text[:40]}"
           for tree in trees.values() for nid, text in _zh_hant_texts(tree)
           for w, tw in NOT_TAIWAN.items() if w in text and not (w == "調整分" and "調整分數" in text)]
    assert not bad, bad[:20]


@pytest.mark.parametrize("text, flagged", [
    ("The explainer must call the Director; the Director then applies 21B or 40B3.", True),
    ("The Director explains the options: LHO may accept.", True),
    ("Treated as a change of call — Law 25 applies.", True),
    ("Declarer may accept the lead or require its retraction.", False),
    ("The pass is cancelled; Law 72C may apply.", False),
    ("'Low' — deemed to have called the lowest card.", False),
])
def test_announcement_check_tells_rulings_from_pointers(text, flagged) -> None:
    data = _bad(lambda d: d["nodes"]["r"]["outcome"].update(en=text))
    tree = parse_tree(data, "t.yaml")
    assert bool(checks.not_announcements({"t": tree})) == flagged


@pytest.mark.parametrize("text, cites, words", [
    ("The card becomes a penalty card.", ["wbf2017/law/50/B"], ["major or minor"]),
    ("The card becomes a major penalty card.", ["wbf2017/law/27/A/1"], ["neither 50B nor 50C"]),
    ("Every such card becomes a major penalty card.", ["wbf2017/law/50/B"], ["Law 51"]),
    ("The card becomes a major penalty card.", ["wbf2017/law/50/B"], []),
    ("The card is not a penalty card and is picked up.", ["wbf2017/law/27/A/1"], []),
])
def test_penalty_card_check(text, cites, words) -> None:
    data = _bad(lambda d: d["nodes"]["r"].update(cites={"wbf2017": cites}))
    data["nodes"]["r"]["outcome"]["en"] = text
    problems = checks.penalty_card_kinds({"t": parse_tree(data, "t.yaml")})
    assert bool(problems) == bool(words) and all(any(w in p for p in problems) for w in words), problems


def _two_edition_leaf(cites99: list[str], **extra) -> dict:
    """A one-question tree for wbf2017 and ccba1999 whose ruling `r` has 1999 words of its own."""
    data = _bad(lambda d: d.update(editions=["wbf2017", "ccba1999"]))
    words = {"zh-Hans": "裁判判给调整分。", "zh-Hant": "裁判判給調整得分。", "en": "The Director adjusts the score."}
    data["nodes"]["r"].update(cites={"wbf2017": ["wbf2017/law/12/C/1/c"], "ccba1999": cites99},
                              variants={"ccba1999": {"outcome": words, **extra.pop("variant", {})}}, **extra)
    return data


@pytest.mark.parametrize("cites99, extra, flagged", [
    (["ccba1999/law/12/C/2"], {}, True),                                     # 12C1 vs 12C2: a section apart
    (["ccba1999/law/23"], {}, True),                                         # another law
    (["ccba1999/law/12/C/1"], {}, False),                                    # the same section, other item
    (["ccba1999/law/12"], {}, False),                                        # the whole law
    (["ccba1999/law/12/C/2"], {"same_ruling": "both editions award the same assigned score here"}, False),
    (["ccba1999/law/12/C/2"], {"variant": {"outcome_code": "adjusted_score_1999"}}, False),
])
def test_shared_code_check_flags_variants_citing_other_laws(cites99, extra, flagged) -> None:
    tree = parse_tree(_two_edition_leaf(cites99, **extra), "t.yaml")
    problems = checks.shared_code_variants({"t": tree})
    assert bool(problems) == flagged, problems


def test_an_edition_code_of_its_own_makes_the_editions_differ() -> None:
    tree = parse_tree(_two_edition_leaf(["ccba1999/law/12/C/2"], variant={"outcome_code": "adjusted_score_1999"}), "t.yaml")
    facts = {"f": True}
    r17, r99 = rule("t", "wbf2017", facts, {"t": tree}), rule("t", "ccba1999", facts, {"t": tree})
    assert r99.outcome_code == "adjusted_score_1999" and r17.outcome_code == tree.node("r").outcome_code
    assert r17.differs and r17.differs["status"] == "differs" and r17.differs["outcome_code"] == "adjusted_score_1999"


def test_same_ruling_needs_a_reason() -> None:
    with pytest.raises(TreeError) as info:
        parse_tree(_two_edition_leaf(["ccba1999/law/12/C/2"], same_ruling="same"), "t.yaml")
    assert "same_ruling" in str(info.value)
