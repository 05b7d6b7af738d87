"""Ruling trees against the dev cases, the engine's walk, the CLI and the search offer.

Each dev case is replayed per edition by answering the tree's own questions from the case's facts;
the ruling must cite the expected clauses (or more precise ones under them) and say the same thing:
the leaf's signature phrases occur in the expected outcome, and the two editions reach the same
outcome class exactly when the case says they rule alike.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.rulings.engine import NoMatchingBranch, UnknownTopic, rule, start
from assistant.rulings.match import topics_for_query
from assistant.rulings.model import load_trees

DEV = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev-rulings.jsonl"
if not DEV.is_file():                      # the eval folder sits beside the working tree
    DEV = Path("/work/shared/eval/dev-rulings.jsonl")
CASES = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
LAW_REF = re.compile(r"^(\d+)([A-H])?(\d+)?((?:\([a-z0-9]+\))*)$")


@pytest.fixture(scope="module")
def trees():
    return load_trees()


def law_id(edition: str, ref: str) -> str:
    """'27B2' -> 'wbf2017/law/27/B/2'; '20F5(b)(ii)' -> '.../law/20/F/5/b/ii'."""
    m = LAW_REF.match(ref)
    assert m, f"unreadable law reference {ref!r} in the dev set"
    parts = [m.group(1), *(x for x in (m.group(2), m.group(3)) if x), *re.findall(r"\(([a-z0-9]+)\)", m.group(4))]
    return f"{edition}/law/" + "/".join(parts)


def covered(clause_id: str, cites: list[str]) -> bool:
    return any(c == clause_id or c.startswith(clause_id + "/") for c in cites)


def statement(case: dict, edition: str) -> str:
    """The expected outcome, plus the other edition's when the case says they rule alike."""
    text = case["expected"][edition]["outcome"]
    if not case.get("differs"):
        text += " " + " ".join(v["outcome"] for e, v in case["expected"].items() if e != edition)
    return text.casefold()


@pytest.mark.parametrize("edition", ["wbf2017", "ccba1999"])
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_dev_case_cites_and_says_the_same(case: dict, edition: str, trees) -> None:
    r = rule(case["topic"], edition, case["facts"], trees)
    missing = [ref for ref in case["expected"][edition]["laws"] if not covered(law_id(edition, ref), r.cites)]
    assert not missing, f"{case['id']} {edition}: leaf {r.leaf} lacks {missing}; cites {r.cites}"
    leaf = trees[case["topic"]].node(r.leaf)
    text = statement(case, edition)
    unmatched = [g for g in leaf.signature if not any(p.casefold() in text for p in g)]
    assert not unmatched, f"{case['id']} {edition}: leaf {r.leaf} ({r.outcome_code}) says {unmatched}, expected: {text}"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_dev_case_editions_differ_exactly_when_expected(case: dict, trees) -> None:
    codes = {ed: rule(case["topic"], ed, case["facts"], trees).outcome_code for ed in ("wbf2017", "ccba1999")}
    assert (codes["wbf2017"] != codes["ccba1999"]) == bool(case["differs"]), (case["id"], codes)
    if case["differs"]:
        leaves = [trees[case["topic"]].node(rule(case["topic"], ed, case["facts"], trees).leaf)
                  for ed in ("wbf2017", "ccba1999")]
        assert any(leaf.differs for leaf in leaves), f"{case['id']}: editions differ but no ruling says so"


def test_ccba2018_follows_the_2017_laws_and_cites_the_translation(trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "pass",
             "corrected_by_lowest_sufficient_same_denomination": False,
             "replacement_is_comparable_call": False, "replacement_is_double_or_redouble": False}
    r17 = rule("insufficient_bid", "wbf2017", facts, trees)
    r18 = rule("insufficient_bid", "ccba2018", facts, trees)
    assert r17.leaf == r18.leaf
    assert "ccba2018/law/27/B/2" in r18.cites and "ccba2018/law/27/B/2" in r17.cites_by_edition["ccba2018"]


def test_differing_ruling_cites_both_editions(trees) -> None:
    facts = {"call_type": "double", "at_turn_of": "partner", "accepted_by_lho": False,
             "offender_later_call_comparable": True}
    r = rule("call_out_of_rotation", "wbf2017", facts, trees)
    assert r.differs and r.differs["note"]["zh-Hans"]
    assert any(c.startswith("ccba1999/") for c in r.cites_by_edition["ccba1999"])


def test_session_answer_back_and_explain(trees) -> None:
    s = start("insufficient_bid", "wbf2017", trees)
    s.answer(True)
    s.answer(False)
    assert s.question().fact == "replacement_call"
    assert len(s.explain("en")) == 2
    s.back()
    assert s.question().fact == "accepted_by_lho" and len(s.history) == 1
    s.answer(True)
    assert s.done and s.ruling().outcome_code == "accepted"
    assert "→" in s.explain("zh-Hant")[0]


def test_edition_branches_offer_different_questions(trees) -> None:
    answers = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "1NT"}
    path17 = [s.fact for s in rule("insufficient_bid", "wbf2017", answers, trees).path]
    path99 = [s.fact for s in rule("insufficient_bid", "ccba1999", answers, trees).path]
    assert "replacement_is_comparable_call" in path17 and "replacement_is_comparable_call" not in path99
    assert "insufficient_bid_artificial" in path99


@pytest.mark.parametrize("call, kwargs, words", [
    (lambda t: rule("no_such_topic", "wbf2017", {}, t), {}, ["unknown ruling topic", "insufficient_bid"]),
    (lambda t: rule("insufficient_bid", "guandan2017", {}, t), {}, ["no branches", "wbf2017"]),
    (lambda t: rule("call_out_of_rotation", "wbf2017", {"accepted_by_lho": False, "call_type": "bid",
                                                       "at_turn_of": "dealer"}, t),
     {}, ["at_turn_of", "no answer matches", "rho"]),
])
def test_errors_name_the_cause_and_fix(call, kwargs, words, trees) -> None:
    with pytest.raises((UnknownTopic, NoMatchingBranch)) as info:
        call(trees)
    for w in words:
        assert w.casefold() in str(info.value).casefold()


def test_topics_for_query_in_three_scripts(trees) -> None:
    assert topics_for_query("对方叫了不足叫牌怎么办", trees)[0] == "insufficient_bid"
    assert topics_for_query("東家違序首攻，莊家怎麼選？", trees)[0] == "lead_out_of_turn"
    assert topics_for_query("Partner revoked on trick 4 — how many tricks are transferred?", trees)[0] == "revoke"
    assert topics_for_query("什么是局况", trees) == []


# ---------------------------------------------------------------------------------------------
# CLI


@pytest.fixture(scope="module")
def runner_app():
    import typer

    from assistant.rulings.commands import register

    app = typer.Typer()
    register(app)

    @app.command()
    def _other() -> None:  # a second command keeps typer's multi-command routing, as in the real CLI
        pass

    return CliRunner(), app


def test_cli_list_json(runner_app) -> None:
    runner, app = runner_app
    res = runner.invoke(app, ["rule", "--list", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert {"topic", "title", "editions"} <= set(rows[0])
    assert any(r["topic"] == "revoke" and "ccba1999" in r["editions"] for r in rows)


def test_cli_batch_json(runner_app) -> None:
    runner, app = runner_app
    res = runner.invoke(app, ["rule", "insufficient_bid", "--edition", "ccba1999", "--json",
                              "--answers", '{"in_rotation": true, "accepted_by_lho": true}'])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["topic"] == "insufficient_bid" and out["edition"] == "ccba1999"
    assert out["cites"] == ["ccba1999/law/27/A"] and [p["fact"] for p in out["path"]] == ["in_rotation", "accepted_by_lho"]
    assert set(out["outcome"]) == {"zh-Hans", "zh-Hant", "en"}


@pytest.mark.parametrize("args, code, word", [
    (["rule", "no_such_topic", "--answers", "{}", "--json"], 1, "unknown ruling topic"),
    (["rule", "insufficient_bid", "--answers", "[1]", "--json"], 2, "JSON object"),
    (["rule", "insufficient_bid", "--answers", "{oops", "--json"], 2, "JSON"),
    (["rule", "insufficient_bid", "--answers", '{"in_rotation": "maybe"}', "--json"], 2, "in_rotation"),
    (["rule", "--list", "--lang", "fr"], 2, "unknown language"),
])
def test_cli_errors_and_exit_codes(runner_app, args, code, word) -> None:
    runner, app = runner_app
    res = runner.invoke(app, args)
    assert res.exit_code == code, res.output
    assert word.casefold() in res.output.casefold()


def test_cli_interactive_walk_with_back(runner_app) -> None:
    runner, app = runner_app
    res = runner.invoke(app, ["rule", "insufficient_bid", "--lang", "en"], input="1\nb\np\n1\n1\n")
    assert res.exit_code == 0, res.output
    assert "accepts the insufficient bid" in res.output and "wbf2017/law/27/A/1" in res.output
