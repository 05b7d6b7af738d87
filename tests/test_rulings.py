"""Ruling trees against the dev cases, the engine's walk, the CLI and the search offer.

Each dev case is replayed per edition by answering the tree's own questions from the case's facts, as
a director reading the case would (a fact the case is silent on takes the question's `usual` answer;
the engine itself never assumes one); the ruling must cite the expected clauses (or more precise ones
under them) and say the same thing: the leaf's signature phrases occur in the expected outcome, and the
ruling reports a difference of editions exactly when the case says they differ.
The dev cases are read at collection, never at import; without the file those tests are skipped.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.rulings.engine import MissingFact, NoMatchingBranch, UnknownTopic, compare, possible, rule, start
from assistant.rulings.match import topics_for_query
from assistant.rulings.model import load_trees

DEV = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev-rulings.jsonl"   # ../shared beside the clone
LAW_REF = re.compile(r"^(\d+)([A-H])?(\d+)?((?:\([a-z0-9]+\))*)$")


@lru_cache(maxsize=1)
def dev_cases() -> tuple[dict, ...]:
    if not DEV.exists():
        return ()
    return tuple(json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip())


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One item per dev case, read when the tests are collected; one skipped item when the file is absent."""
    if "case" in metafunc.fixturenames:
        cases = dev_cases()
        if cases:
            metafunc.parametrize("case", cases, ids=[c["id"] for c in cases])
        else:
            metafunc.parametrize("case", [pytest.param(None, marks=pytest.mark.skip(
                reason=f"dev cases not found at {DEV} (the shared evaluation folder beside the clone)"))])


@pytest.fixture(scope="module")
def trees():
    return load_trees()


def drive(topic: str, edition: str, facts: dict, trees, told: dict | None = None):
    """The ruling a director reaches answering from the case: its facts, else the usual answer
    (recorded in `told`, so the other edition can be run on the same answers)."""
    told = {} if told is None else told
    s = start(topic, edition, trees)
    while not s.done:
        try:
            s.answer_from({**told, **facts})
        except MissingFact:
            usual = [a for a in s.options() if a.usual]
            if not usual:
                raise
            told[s.question().fact] = usual[0].canonical()
            s.answer(usual[0].canonical())
    return s.ruling(trees)


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
def test_dev_case_cites_and_says_the_same(case: dict, edition: str, trees) -> None:
    r = drive(case["topic"], edition, case["facts"], trees)
    missing = [ref for ref in case["expected"][edition]["laws"] if not covered(law_id(edition, ref), r.cites)]
    assert not missing, f"{case['id']} {edition}: leaf {r.leaf} lacks {missing}; cites {r.cites}"
    leaf = trees[case["topic"]].node(r.leaf)
    text = statement(case, edition)
    unmatched = [g for g in leaf.signature if not any(p.casefold() in text for p in g)]
    assert not unmatched, f"{case['id']} {edition}: leaf {r.leaf} ({r.outcome_code}) says {unmatched}, expected: {text}"


def test_dev_case_editions_differ_exactly_when_expected(case: dict, trees) -> None:
    told: dict = {}
    rulings = {ed: drive(case["topic"], ed, case["facts"], trees, told) for ed in ("wbf2017", "ccba1999")}
    codes = {ed: r.outcome_code for ed, r in rulings.items()}
    assert (codes["wbf2017"] != codes["ccba1999"]) == bool(case["differs"]), (case["id"], codes)
    for ed, r in rulings.items():         # the engine's own comparison, on the same answers
        differs = compare(r, trees, {**told, **case["facts"]})
        assert bool(differs) == bool(case["differs"]), (case["id"], ed, differs)


def test_ccba2018_follows_the_2017_laws_and_cites_the_translation(trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "pass",
             "replaced_before_director_ruled": False, "corrected_by_lowest_sufficient_same_denomination": False,
             "replacement_is_comparable_call": False, "replacement_is_double_or_redouble": False}
    r17 = rule("insufficient_bid", "wbf2017", facts, trees)
    r18 = rule("insufficient_bid", "ccba2018", facts, trees)
    assert r17.leaf == r18.leaf
    assert "ccba2018/law/27/B/2" in r18.cites and "ccba2018/law/27/B/2" in r17.cites_by_edition["ccba2018"]


def test_differing_ruling_cites_both_editions(trees) -> None:
    facts = {"call_type": "double", "at_turn_of": "partner", "accepted_by_lho": False,
             "offender_later_call_comparable": True}
    r = rule("call_out_of_rotation", "wbf2017", facts, trees)
    assert r.differs and r.differs["status"] == "differs" and r.differs["note"]["zh-Hans"]
    assert r.differs["edition"] == "ccba1999" and r.differs["cites"]["ccba1999"][0].startswith("ccba1999/")
    back = rule("call_out_of_rotation", "ccba1999", facts, trees)
    assert back.differs and back.differs["edition"] == "wbf2017" and back.differs["outcome_code"] == r.outcome_code


def test_editions_that_rule_alike_report_no_difference(trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": True}
    assert rule("insufficient_bid", "wbf2017", facts, trees).differs is None
    assert rule("insufficient_bid", "ccba1999", facts, trees).differs is None


def test_a_fact_only_the_other_edition_asks_is_reported_not_guessed(trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "pass",
             "replaced_before_director_ruled": False, "corrected_by_lowest_sufficient_same_denomination": False,
             "replacement_is_comparable_call": False, "replacement_is_double_or_redouble": False}
    d = rule("insufficient_bid", "wbf2017", facts, trees).differs
    assert d and d["status"] == "undetermined" and d["fact"] == "insufficient_bid_artificial"


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
    answers = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "bid"}
    p17, p99 = possible("insufficient_bid", "wbf2017", answers, trees), possible("insufficient_bid", "ccba1999", answers, trees)
    facts17, facts99 = {m["fact"] for m in p17.missing}, {m["fact"] for m in p99.missing}
    assert "replacement_is_comparable_call" in facts17 and "replacement_is_comparable_call" not in facts99
    assert "insufficient_bid_artificial" in facts99


def test_a_missing_fact_is_an_error_naming_the_question(trees) -> None:
    with pytest.raises(MissingFact) as info:
        rule("revoke", "wbf2017", {}, trees)
    msg = str(info.value)
    assert "q_established" in msg and "'established'" in msg and "Yes" in msg and "--partial" in msg
    assert info.value.exit_code == 2


def test_partial_lists_the_rulings_still_possible(trees) -> None:
    p = possible("insufficient_bid", "wbf2017", {"in_rotation": True}, trees)
    leaves = {r["leaf"] for r in p.rulings}
    assert "r_accepted" in leaves and "r_out_of_rotation" not in leaves
    assert p.missing[0]["fact"] == "accepted_by_lho" and p.missing[0]["ask"]["en"]


@pytest.mark.parametrize("value, leaf", [(True, "r_accepted"), ("yes", "r_accepted"), ("是", "r_accepted"),
                                         ("Yes", "r_accepted"), (False, None), ("否", None)])
def test_yes_no_answers_in_words_and_booleans(value, leaf, trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": value}
    if leaf:
        assert rule("insufficient_bid", "ccba1999", facts, trees).leaf == leaf
    else:
        with pytest.raises(MissingFact):          # No leads on to the next question
            rule("insufficient_bid", "ccba1999", facts, trees)


@pytest.mark.parametrize("value", ["not replaced yet but soon", "maybe", "2", "replaced?!x"])
def test_an_unknown_answer_never_falls_into_another_branch(value, trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": value}
    with pytest.raises(NoMatchingBranch) as info:
        rule("insufficient_bid", "wbf2017", facts, trees)
    assert "Not replaced yet" in str(info.value) and "exactly" in str(info.value)


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
    from assistant.cli import app     # the real CLI: errors become one line and the class's exit code

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
    ({"revoke_attention_drawn": "after_subsequent_call"}, "r64b4",
     "wbf2017/law/64/B/4", "ccba1999/law/64/B/4"),
    ({"revoke_attention_drawn": "after_round"}, "r64b5", "wbf2017/law/64/B/5", "ccba1999/law/64/B/5"),
    ({"subsequent_revoke_same_suit_same_player": True}, "r64b2", "wbf2017/law/64/C/2/a", "ccba1999/law/64/B/2"),
    ({"non_offending_side_insufficiently_compensated": True}, "r64c", "wbf2017/law/64/C/1", "ccba1999/law/64/C"),
    ({"revoke_attention_drawn": "during_play"}, "r64a1_two", "wbf2017/law/64/A/1", "ccba1999/law/64/A/1"),
])
def test_revoke_exceptions_and_equity(extra, leaf, cite17, cite99, trees) -> None:
    facts = {**REVOKE_BASE, "revoke_attention_drawn": "this_board", "non_offending_side_insufficiently_compensated": False,
             "subsequent_revoke_same_suit_same_player": False, **extra}
    r17, r99 = rule("revoke", "wbf2017", facts, trees), rule("revoke", "ccba1999", facts, trees)
    assert r17.leaf == leaf and cite17 in r17.cites
    assert cite99 in r99.cites


def test_revoke_both_sides_2017_only_and_62c3(trees) -> None:
    facts = {**REVOKE_BASE, "both_sides_revoked": True, "revoke_attention_drawn": "this_board",
             "non_offending_side_insufficiently_compensated": False, "subsequent_revoke_same_suit_same_player": False,
             "both_revokes_corrected_under_62c3": False}
    assert rule("revoke", "wbf2017", facts, trees).leaf == "r64b7"
    r99 = rule("revoke", "ccba1999", facts, trees)
    assert r99.leaf == "r64_both_99" and r99.differs["status"] == "differs"     # 1999: each under 64A
    r = rule("revoke", "wbf2017", {**facts, "both_revokes_corrected_under_62c3": True}, trees)
    assert r.leaf == "r64b8" and {"wbf2017/law/62/C/3", "wbf2017/law/64/B/8"} <= set(r.cites) and r.differs


@pytest.mark.parametrize("turn, leaf, cite", [
    ("defender", "r55b1", "law/55/B/1"),
    ("wrong hand", "r55b2", "law/55/B/2"),
    ("莊家（從錯誤方位攻牌）", "r55b2", "law/55/B/2"),
    ("unknown", "r55b", "law/55/B/2"),
])
def test_declarer_lead_from_wrong_hand_versus_defenders_turn(turn, leaf, cite, trees) -> None:
    facts = {"opening_lead": False, "trick_number": 5, "offender": "declarer", "defenders_choice": "refuse",
             "turn_to_lead": turn}
    for ed in ("wbf2017", "ccba1999"):
        r = rule("lead_out_of_turn", ed, facts, trees)
        assert r.leaf == leaf and f"{ed}/{cite}" in r.cites


def test_premature_replacement_of_insufficient_bid_27c(trees) -> None:
    facts = {"in_rotation": True, "accepted_by_lho": False, "replacement_call": "bid", "insufficient_bid_artificial": False,
             "replaced_before_director_ruled": True, "corrected_by_lowest_sufficient_same_denomination": False,
             "replacement_is_comparable_call": False, "replacement_is_double_or_redouble": False}
    r17 = rule("insufficient_bid", "wbf2017", facts, trees)
    assert r17.leaf == "r_c_b2" and "wbf2017/law/27/C" in r17.cites and r17.differs is None   # same ruling in 1999
    r99 = rule("insufficient_bid", "ccba1999", facts, trees)
    assert not any("/27/C" in c for c in r99.cites) and r99.outcome_code == r17.outcome_code
    lowest = rule("insufficient_bid", "wbf2017", {**facts, "corrected_by_lowest_sufficient_same_denomination": True}, trees)
    assert lowest.leaf == "r_c_b1a"


def test_defender_claim_relying_on_partner_70d2(trees) -> None:
    facts = {"claimer_role": "defender", "partner_objected_immediately": False, "objection_timing": "immediately",
             "all_four_agreed_to_play_on": False, "outstanding_trump_with_opponent": False,
             "line_depends_on_unstated_finesse": False, "claim_depends_on_partner_choice": True,
             "clarification_statement_given": True}
    r = rule("claim", "wbf2017", facts, trees)
    assert r.leaf == "r70d2" and "wbf2017/law/70/D/2" in r.cites
    assert "ccba1999/law/70/A" in rule("claim", "ccba1999", facts, trees).cites
    declarer = rule("claim", "wbf2017", {**facts, "claimer_role": "declarer"}, trees)
    assert declarer.leaf != "r70d2"


@pytest.mark.parametrize("topic, facts, leaf", [
    ("call_out_of_rotation", {"accepted_by_lho": False, "call_type": "bid", "at_turn_of": "not yet known"}, "r_turn_unknown"),
    ("insufficient_bid", {"in_rotation": "yes", "accepted_by_lho": "Yes"}, "r_accepted"),
    ("fouled_board", {"fouled_cause": "cards", "event_type": "teams", "contestant_at_fault": "none"}, "r86b2a"),
    ("fouled_board", {"fouled_cause": "cards", "event_type": "teams", "contestant_at_fault": "one"}, "r86b2b"),
])
def test_worded_facts_reach_a_sensible_ruling(topic, facts, leaf, trees) -> None:
    assert rule(topic, "wbf2017", facts, trees).leaf == leaf


def test_misinformation_noticed_by_the_explainers_partner(trees) -> None:
    base = {"explanation_matches_agreement": False, "offending_side_final_role": "defending",
            "noticed_during_auction": False, "corrected_during_auction": False}
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


# ---------------------------------------------------------------------------------------------
# usability: help shown, citations as a director writes them, --partial, other-edition ids only when they differ


def test_cli_interactive_shows_question_help(runner_app) -> None:
    runner, app = runner_app
    res = runner.invoke(app, ["rule", "insufficient_bid", "--lang", "en"], input="1\n2\n3\nq\n")
    assert "Answer Yes only if the offender changed his call on his own" in res.output, res.output


def test_cli_text_prints_director_citations_and_no_other_edition_when_alike(runner_app) -> None:
    runner, app = runner_app
    res = runner.invoke(app, ["rule", "insufficient_bid", "--lang", "en", "--answers",
                              '{"in_rotation": true, "accepted_by_lho": true}'])
    assert res.exit_code == 0, res.output
    assert "Law 27A1 [wbf2017/law/27/A/1]" in res.output and "ccba1999" not in res.output


def test_cli_partial_lists_open_questions_and_rulings(runner_app) -> None:
    runner, app = runner_app
    res = runner.invoke(app, ["rule", "insufficient_bid", "--json", "--partial", "--answers", '{"in_rotation": true}'])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["partial"] and out["missing"][0]["fact"] == "accepted_by_lho" and len(out["rulings"]) > 3
    res = runner.invoke(app, ["rule", "insufficient_bid", "--json", "--answers", '{"in_rotation": true}'])
    assert res.exit_code == 2 and "accepted_by_lho" in res.output
