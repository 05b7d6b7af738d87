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

DEV = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev-rulings.jsonl"   # ../shared beside the clone
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


# ---------------------------------------------------------------------------------------------
# branches a director needs beyond the dev cases (exceptions, wrong-hand leads, 27C, 70D2)

REVOKE_BASE = {"established": True, "offender_role": "defender", "revoke_on_trick_12": False,
               "revoke_by_dummy": False, "both_sides_revoked": False, "offender_won_revoke_trick": True,
               "offending_side_won_revoke_or_later_trick": True, "offending_side_tricks_after_revoke": 1}


@pytest.mark.parametrize("extra, leaf, cite17, cite99", [
    ({"revoke_attention_drawn": "after a non-offender called on the next board"}, "r64b4",
     "wbf2017/law/64/B/4", "ccba1999/law/64/B/4"),
    ({"revoke_attention_drawn": "after the round ended"}, "r64b5", "wbf2017/law/64/B/5", "ccba1999/law/64/B/5"),
    ({"subsequent_revoke_same_suit_same_player": True}, "r64b2", "wbf2017/law/64/C/2/a", "ccba1999/law/64/B/2"),
    ({"non_offending_side_insufficiently_compensated": True}, "r64c", "wbf2017/law/64/C/1", "ccba1999/law/64/C"),
    ({"revoke_attention_drawn": None}, "r64a1_two", "wbf2017/law/64/A/1", "ccba1999/law/64/A/1"),
])
def test_revoke_exceptions_and_equity(extra, leaf, cite17, cite99, trees) -> None:
    facts = {**REVOKE_BASE, **extra}
    r17, r99 = rule("revoke", "wbf2017", facts, trees), rule("revoke", "ccba1999", facts, trees)
    assert r17.leaf == leaf and cite17 in r17.cites
    assert cite99 in r99.cites


def test_revoke_both_sides_2017_only_and_62c3(trees) -> None:
    facts = {**REVOKE_BASE, "both_sides_revoked": True}
    assert rule("revoke", "wbf2017", facts, trees).leaf == "r64b7"
    assert rule("revoke", "ccba1999", facts, trees).leaf == "r64a1_two"       # 1999: each under 64A
    r = rule("revoke", "wbf2017", {**facts, "both_revokes_corrected_under_62c3": True}, trees)
    assert r.leaf == "r64b8" and {"wbf2017/law/62/C/3", "wbf2017/law/64/B/8"} <= set(r.cites) and r.differs


@pytest.mark.parametrize("turn, leaf, cite", [
    ("defender's turn", "r55b1", "law/55/B/1"),
    ("declarer's own, led from the wrong hand (dummy)", "r55b2", "law/55/B/2"),
    ("莊家自己（從錯誤方位攻牌）", "r55b2", "law/55/B/2"),
    (None, "r55b", "law/55/B/2"),
])
def test_declarer_lead_from_wrong_hand_versus_defenders_turn(turn, leaf, cite, trees) -> None:
    facts = {"opening_lead": False, "trick_number": 5, "offender": "declarer", "defenders_choice": "refuse",
             "turn_to_lead": turn}
    for ed in ("wbf2017", "ccba1999"):
        r = rule("lead_out_of_turn", ed, facts, trees)
        assert r.leaf == leaf and f"{ed}/{cite}" in r.cites


def test_premature_replacement_of_insufficient_bid_27c(trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "2♥",
             "replaced_before_director_ruled": True, "corrected_by_lowest_sufficient_same_denomination": False,
             "replacement_is_comparable_call": False, "replacement_is_double_or_redouble": False}
    r17 = rule("insufficient_bid", "wbf2017", facts, trees)
    assert r17.leaf == "r_c_b2" and "wbf2017/law/27/C" in r17.cites and r17.differs
    r99 = rule("insufficient_bid", "ccba1999", facts, trees)
    assert not any("/27/C" in c for c in r99.cites) and r99.outcome_code == r17.outcome_code
    lowest = rule("insufficient_bid", "wbf2017", {**facts, "corrected_by_lowest_sufficient_same_denomination": True}, trees)
    assert lowest.leaf == "r_c_b1a"


def test_defender_claim_relying_on_partner_70d2(trees) -> None:
    facts = {"claimer_role": "defender", "partner_objected_immediately": False, "objection_timing": "immediately",
             "all_four_agreed_to_play_on": False, "outstanding_trump_with_opponent": False,
             "line_depends_on_unstated_finesse": False, "claim_depends_on_partner_choice": True}
    r = rule("claim", "wbf2017", facts, trees)
    assert r.leaf == "r70d2" and "wbf2017/law/70/D/2" in r.cites
    assert "ccba1999/law/70/A" in rule("claim", "ccba1999", facts, trees).cites
    declarer = rule("claim", "wbf2017", {**facts, "claimer_role": "declarer"}, trees)
    assert declarer.leaf != "r70d2"


@pytest.mark.parametrize("topic, facts, leaf", [
    ("call_out_of_rotation", {"accepted_by_lho": False, "call_type": "bid", "at_turn_of": None}, "r_turn_unknown"),
    ("insufficient_bid", {"in_rotation": None, "accepted_by_lho": True}, "r_accepted"),
    ("fouled_board", {"fouled_cause": "cards", "event_type": "teams", "contestant_at_fault": "none"}, "r86b2a"),
    ("fouled_board", {"fouled_cause": "cards", "event_type": "teams", "contestant_at_fault": "one side"}, "r86b2b"),
])
def test_unreported_and_worded_facts_reach_a_sensible_ruling(topic, facts, leaf, trees) -> None:
    assert rule(topic, "wbf2017", facts, trees).leaf == leaf


def test_misinformation_noticed_by_the_explainers_partner(trees) -> None:
    base = {"explanation_matches_agreement": False}
    partner = rule("misinformation", "wbf2017", {**base, "mistake_noticed_by": "the explainer's partner"}, trees)
    explainer = rule("misinformation", "wbf2017", {**base, "mistake_noticed_by": "explainer"}, trees)
    assert "q_partner_role" in [s.node for s in partner.path]
    assert "q_when" in [s.node for s in explainer.path]


# ---------------------------------------------------------------------------------------------
# the tree offered for typical director questions, in each script (written for these tests)

QUERIES = {
    "en": [
        ("My LHO made a bid lower than the last bid — what now?", "insufficient_bid"),
        ("North opened out of turn before the dealer had a chance to call", "call_out_of_rotation"),
        ("West doubled when it was his partner's turn to call", "call_out_of_rotation"),
        ("South said 2 hearts then immediately changed it to 2 spades, a slip of the tongue", "change_of_call"),
        ("East doubled his partner's bid, which is not allowed", "inadmissible_call"),
        ("The wrong defender faced the opening lead", "lead_out_of_turn"),
        ("Declarer led from dummy when the lead was in his hand", "lead_out_of_turn"),
        ("A defender played to the trick before his partner had played", "premature_play"),
        ("Declarer discovered at trick 9 that East had not followed suit on trick 3", "revoke"),
        ("West dropped a card face up during the play; is it a major or minor penalty card?", "exposed_card"),
        ("At trick 8 we found that trick 5 has only three cards", "defective_trick"),
        ("Declarer said 'small spade' for dummy — which card is played?", "dummy_designation"),
        ("Can dummy ask declarer whether he has no hearts left?", "dummy_rights"),
        ("Declarer claimed the rest but forgot an outstanding trump", "claim"),
        ("Partner hesitated for a long time before passing; may I bid on?", "unauthorized_information"),
        ("The explanation given for the 2C bid was wrong — they had no agreement about it", "misinformation"),
        ("East was found to have 14 cards and West 12", "incorrect_number_of_cards"),
        ("The hands were put back in the wrong pockets so the board was fouled", "fouled_board"),
        ("We played board 7 instead of board 17", "wrong_board"),
        ("The pair arrived 15 minutes late for the session", "late_arrival"),
        ("The pair is playing too slowly and is 20 minutes behind", "slow_play"),
        ("A player consulted his own system card during the auction — what procedural penalty?", "procedural_penalty"),
    ],
    "zh-Hans": [
        ("下家在同伴开叫1黑桃后叫了1红心，不够高", "insufficient_bid"),
        ("发牌人还没叫，北家就抢先开叫了", "call_out_of_rotation"),
        ("南家刚叫了2红心又马上改成2黑桃，说是口误", "change_of_call"),
        ("东家对同伴的叫牌加倍了，怎么处理", "inadmissible_call"),
        ("应该西家首引，结果东家先把牌亮出来了", "lead_out_of_turn"),
        ("庄家从明手引牌，但上一墩是他手里赢的", "lead_out_of_turn"),
        ("第三墩东家没有跟红心，后来发现他手里还有红心", "revoke"),
        ("防家打牌时掉出一张黑桃K，是不是罚张", "exposed_card"),
        ("明手能不能提醒庄家他从错误的一手出牌", "dummy_rights"),
        ("庄家摊牌说剩下都是他的，防家不同意", "claim"),
        ("同伴想了很久才不叫，我还能再叫吗", "unauthorized_information"),
        ("对方对2梅花的解释是错的，我们受到了损害", "misinformation"),
        ("打完才发现东家有14张牌", "incorrect_number_of_cards"),
        ("这副牌我们已经在别的桌打过了", "wrong_board"),
        ("他们队迟到了二十分钟", "late_arrival"),
    ],
    "zh-Hant": [
        ("左敵家在同伴開叫1黑桃後叫了1紅心，不足叫價怎麼處理", "insufficient_bid"),
        ("發牌人還沒叫品，北家就違序開叫了", "call_out_of_rotation"),
        ("南家叫了2紅心又馬上改成2黑桃，是口誤", "change_of_call"),
        ("東家賭倍了同伴的叫價", "inadmissible_call"),
        ("應該西家首攻，東家卻搶先首攻亮出了♠A", "lead_out_of_turn"),
        ("莊家從夢家攻牌，但應該從他手上攻", "lead_out_of_turn"),
        ("第三磴東家沒有跟紅心，後來發現他還有紅心", "revoke"),
        ("防家打牌時掉出一張黑桃K，是重罰張嗎", "exposed_card"),
        ("夢家能不能提醒莊家從錯誤方位攻牌", "dummy_rights"),
        ("莊家攤牌說剩下都是他的，防家有異議", "claim"),
        ("同伴遲疑很久才派司，我還能再叫嗎", "unauthorized_information"),
        ("敵方對2梅花的解釋是錯的，沒有示警", "misinformation"),
        ("打完才發現東家有14張牌", "incorrect_number_of_cards"),
        ("這副牌的牌張放錯方位", "fouled_board"),
        ("這一隊遲到了二十分鐘", "late_arrival"),
        ("他們打牌太慢超時了", "slow_play"),
    ],
}


@pytest.mark.parametrize("lang", sorted(QUERIES))
def test_topics_for_typical_questions_per_script(lang, trees) -> None:
    wrong = [(q, want, topics_for_query(q, trees)[:2]) for q, want in QUERIES[lang]
             if topics_for_query(q, trees)[:1] != [want]]
    assert not wrong, wrong


def test_the_same_trigger_in_two_scripts_counts_once(trees) -> None:
    from assistant.rulings.match import match_topics

    m = {x.topic: x for x in match_topics("搶先", trees)}["call_out_of_rotation"]
    assert len(m.matched) == 1
