"""The normative elements of a clause (assistant.diff.elements) and the pair classes read from them: one
hand-written example per cause of a false `substantive` found at the pair level (issue 22), and one per real
change the same rules must still catch. The sentences are written for these tests in the style of the two
editions, not copied from the project's gold (bench/data/diff-gold)."""

from __future__ import annotations

import pytest

from assistant.diff.classify import figures, modals
from assistant.diff.content import Context, bare_aside, classify_content, kept_share, unmatched
from assistant.diff.elements import (actors, cited_clauses, consequences, elements, fold_era, implied_consequences,
                                     mask_references, reference_asides)
from assistant.diff.law import _unnoted, edition_lexicon
from assistant.model import Clause, ClauseId

NOT_SUBSTANTIVE = ("unchanged", "terminology", "reference", "reworded", "restructured")


@pytest.fixture(scope="module")
def lex():
    return edition_lexicon("ccba1999", "zh-Hans"), edition_lexicon("ccba2018", "zh-Hans")


# ---------------------------------------------------------------- causes of a false `substantive`


@pytest.mark.parametrize("cause, old, new", [
    ("no rectification = no consequence", "该牌张可以收回，不判罚。", "该牌张可以收回。"),
    ("no rectification, other words", "庄家多打的牌张放回手中，不受判罚。", "庄家多打的牌张放回手中，没有进一步纠正。"),
    ("Law 26 named for its consequence", "违规者的同伴必须永远不叫，并可应用第26条引牌判罚。",
     "违规者的搭档必须永远不叫。可能适用第 26 条 B 款。"),
    ("a pointer to Law 26 added alone", "违规者的同伴必须永远不叫。", "违规者的搭档必须永远不叫。可能适用第 26 条 B 款。"),
    ("a consequence the text says does not apply", "该叫牌及其后所有接续叫牌均予取消。",
     "该叫牌以及所有接续的叫牌取消。不适用第 26 条 B 款引牌限制。"),
    ("'at the request of' is no 'shall'", "裁判根据非违规方的请求，可允许非违规方放弃处罚权。",
     "裁判应非违例方的请求，可以同意非违例方放弃纠正。"),
    ("'whose turn it is' is no 'shall'", "退回到轮到叫牌的赛员叫牌，并可继续竞叫。",
     "退回到应该轮到叫牌的牌手叫牌，并且可以继续竞叫。"),
    ("the default party spelled out", "发牌人的下家作第二个叫牌，然后按顺时针方向轮流叫牌。",
     "发牌人的下家作出第二个叫牌，然后每位牌手按照顺时针方向依序叫牌。"),
    ("a party the older text already names", "在裁判说明纠正办法前，赛员不得采取任何行动。",
     "在裁判说明纠正办法之前，任何牌手不应采取任何行动。"),
    ("'not the players' names no party", "裁判负责对违规作出纠正。", "裁判（非牌手）负责对违例作出纠正。"),
    ("a hand played from is no party", "庄家越序引牌时，该引牌可以被接受。", "庄家从自己手中或者从明手越序引牌时，该引牌可以被接受。"),
    ("the offending side names its offender", "当违规方或其同伴打出了下一墩的牌张时，藏牌成立。",
     "当违规者或者他的搭档对下一墩打出牌张时，藏牌成立。"),
    ("1999 'sponsoring organization'", "向比赛主办机构报告比赛结果。", "向主办单位报告比赛结果。"),
    ("an exception put after the rule", "在打牌过程中，除非已有另一赛员指出违规，明手不得主动召请裁判。",
     "在打牌过程中，明手不得主动召请裁判，已经另有牌手指出违例的除外。"),
    ("除…外 is an exception too", "除明手外，其余赛员均由自己手中抽出牌张打出。", "明手除外，其他每位牌手均从自己手中抽出牌张打出。"),
    ("an ordinal is no figure", "在第十二墩上发生的藏牌必须改正。", "在第 12 墩上发生的藏牌必须改正。"),
    ("a number as a word or a digit", "将两墩牌转给非违规方。", "将 2 墩牌转给非违规方。"),
    ("a unit word", "每位赛员持有13张牌。", "每位牌手持有 13 个牌张。"),
    ("a list reordered", "庄家、明手或任一防家均可要求复述竞叫过程。", "任一防家、庄家或明手均可要求复述竞叫过程。"),
    ("punctuation", "打牌结束后，牌张放回牌套。", "打牌结束后；牌张放回牌套。"),
    ("a renumbered cross-reference", "违规者的搭档必须不叫（参阅第35条D款）。", "违规者的搭档必须不叫（参照第 39 条 B 款）。"),
    ("a bracketed reference holding parentheses", "庄家可以要求该防家的同伴引出任一有罚张的花色。",
     "庄家可以要求该防家的搭档引出任何一种有罚张的花色 [参照第 50 条 D 款 2(a)]。"),
])
def test_a_false_cause_is_not_substantive(lex, cause, old, new):
    got = classify_content(old, new, *lex)
    assert got.change in NOT_SUBSTANTIVE, (cause, got.change, got.changed)


@pytest.mark.parametrize("old, new", [
    ("赛员不得作出超过七线的叫牌。", "牌手不得作出超过七阶的叫牌。"),
    ("（判罚）违规者的同伴必须不叫。", "违规者的搭档必须不叫。"),
])
def test_terminology_is_never_substantive(lex, old, new):
    assert classify_content(old, new, *lex).change == "terminology"


def test_a_changed_reference_is_never_substantive(lex):
    assert classify_content("违规者的搭档必须不叫（参阅第23条）。", "违规者的搭档必须不叫（参照第 72 条 C 款）。",
                            *lex).change == "reference"


@pytest.mark.parametrize("kind", ["moved", "renumbered", "merged", "split"])
def test_a_moved_or_split_rule_is_never_substantive(lex, kind):
    old = "如该不能成立的叫牌为最终不叫后的叫牌，则该叫牌及其后的所有接续叫牌均予取消，不判罚。"
    new = "如果该不能成立的叫牌为最终不叫后的叫牌，则该叫牌以及所有接续叫牌取消。"
    assert classify_content(old, new, *lex, kind=kind).change == "restructured"


def test_an_inline_note_is_not_compared_as_the_rule():
    """1999 prints inline the notes 2018 prints as footnotes: the note leaves the compared text."""
    c = Clause(ClauseId("ccba1999/law/45/A"), "ccba1999", "section", "A", notes=["（注：首引应牌面向下放置）"])
    assert _unnoted(c, "每位赛员打牌时均由自己手中抽出一张牌（注：首引应牌面向下放置）。") == "每位赛员打牌时均由自己手中抽出一张牌。"
    assert _unnoted(None, "x") == "x"


# ---------------------------------------------------------------- the elements read


def test_consequences():
    assert consequences("违规者的搭档在下一次轮到他叫牌时必须不叫。") == {"pass-once"}
    assert consequences("违规者的搭档此后在轮到他叫牌时，必须永远不叫。") == {"pass"}
    assert consequences("可能适用第 26 条 B 款。") == frozenset()
    assert implied_consequences("可能适用第 26 条 B 款。") == {"lead-restrictions"}
    assert consequences("不适用第 26 条 B 款引牌限制。") == implied_consequences("不适用第 26 条 B 款引牌限制。") == frozenset()
    assert implied_consequences("（第26条引牌判罚，亦不适用）") == frozenset()
    assert consequences("依照第 64 条 A 款 2 中转让一墩牌的规定调整。") == {"transfer"}
    assert consequences("违例者可能受到程序性判罚。") == {"procedural-penalty"}


def test_modals_skip_request_and_turn():
    assert modals("裁判应非违例方的请求同意放弃纠正。") == frozenset()
    assert modals("退回到应该轮到叫牌的牌手叫牌。") == frozenset()
    assert modals("裁判应要求该轮从正确方位引牌。") == {"oblige"}      # 应 + a verb is still 'shall'


def test_figures_skip_ordinals():
    assert figures("在第十三墩之前") == {}
    assert figures("转移十三墩") == {(13.0, "墩"): 1}


def test_actors(lex):
    new = lex[1]
    assert "player" not in actors("然后每位牌手按照顺时针方向依序叫牌。", new)
    assert {"player", "contestant"} <= actors("裁判有权对牌手或者参赛者作出纪律性判罚。", new)
    assert "player" in actors("任何牌手，包括明手，可以试图阻止违例。", new)
    assert "player" in actors("牌手可以要求复述竞叫过程。", new)
    assert "player" not in actors("裁判（非牌手）负责对违例作出纠正。", new)
    assert "dummy" not in actors("庄家从自己手中或者从明手越序引牌。", new)
    assert mask_references("[参照第 50 条 D 款 2(a)]") == "§"
    assert fold_era("比赛主办机构和主办机构") == "主办单位和主办单位"


def test_unmatched_phrases_cancel_a_moved_exception():
    assert unmatched(("，除非已有另一牌手指出违例",), ("，已经另有牌手指出违例的除外",)) == ((), ())
    assert unmatched(("，并告知双方牌手有申诉的权利",), ("（如果缺乏相关规定，裁判选定某种方法并且公布）",)) == (
        ("，并告知双方牌手有申诉的权利",), ("（如果缺乏相关规定，裁判选定某种方法并且公布）",))


# ---------------------------------------------------------------- real changes the rules still catch


@pytest.mark.parametrize("old, new, element", [
    ("任何牌面向上的越序引牌可以成为正常引牌。", "在第十三墩之前，任何牌面向上的越序引牌可以成为正常引牌。", "condition"),
    ("来不及更改叫牌时，裁判长可判给调整分。", "当来不及更改叫牌，并且裁判断定违例方从违例中获利时，判给调整分。", "condition"),
    ("禁止违规者同伴打出庄家指定的另一花色的牌张。", "要求违规者的搭档打出庄家指定的另一种花色的牌张。", "consequence"),
    ("违规者的同伴此后在轮到他叫牌时，必须永远不叫。", "违规者的搭档在下一次轮到他叫牌时必须不叫。", "consequence"),
    ("明手可以试图阻止庄家发生违规。", "任何牌手，包括明手，可以试图阻止违例。", "actor"),
    ("裁判可对参赛者作纪律性处罚。", "裁判有权对牌手或者参赛者作出纪律性判罚。", "actor"),
    ("违规者必须选打一张该花色牌张放入已打出的牌张中，不判罚。",
     "违规者必须选择一个该花色的牌张放入已经打出的牌张中，依照第 64 条转让一墩牌。", "consequence"),
])
def test_a_real_change_is_still_substantive(lex, old, new, element):
    got = classify_content(old, new, *lex)
    assert got.change == "substantive" and element in got.changed, got


def test_the_elements_of_a_clause_are_compared_after_folding(lex):
    e = elements("除明手外，其余赛员打牌时均由自己手中抽出一张牌。", *lex)
    assert e.condition == {"exception"} and "player" in e.named


# ---------------------------------------------------------------- round 4: context, asides, references written out


@pytest.mark.parametrize("cause, old, new, context", [
    ("a rule moved from before its exception to after it, reworded",
     "除非庄家为了整理牌张时触摸到相邻牌张外，庄家审慎地触摸到明手某一张牌，则该牌张必须打出。",
     "庄家谨慎地触摸到明手的某个牌张，该牌张为打出牌张，庄家为了整理牌张时触摸到相邻牌张的情况除外。", Context()),
    ("a reference's aside written out as a condition",
     "如防家作出实质叫牌，则可应用第26条的引牌判罚（如违规者下家接续叫牌时，参阅第35条D款）。",
     "如果防家违规作出了实质叫牌，而违规者的下家没有对该违规叫牌作出接续叫牌，则可能适用第 26 条 B 款引牌限制。",
     Context()),
    ("a reference replaced by the consequence the cited clause states",
     "此时不能如上述规定收回打出的牌张，应用第40条C款。", "如果已经不能依照上述的规定更正打牌时，裁判可以判给调整分。",
     Context(cited=("如果裁判断定一方因对方未能说明其叫牌的全部含义而遭受损害，则可以判给调整分。", ""))),
    ("a party the heading above names, spelled out",
     "如果庄家禁止引出罚张花色，该防家可收回该花色全部罚张。",
     "如果庄家禁止该防家的搭档引出罚张的花色，该防家把该花色所有罚张收回手中。",
     Context(around=("违规者同伴引牌时", ""))),
    ("a condition the lead-in above states, spelled out",
     "如该叫牌为最终不叫后的叫牌，则该叫牌及其后的所有接续叫牌均予取消，不判罚。",
     "如果该叫牌为最终不叫之后的叫牌，而违例者的下家在裁判纠正之前接续叫牌，则该叫牌以及所有接续叫牌取消，没有进一步纠正。",
     Context(around=("在下述不能成立的叫牌后，违规者下家在裁判纠正前接续叫了牌，即不再纠正：", ""))),
    ("an aside that rules nothing", "一方在下一副牌叫牌之前或该轮结束之前未提出异议，则认同成立。",
     "一方在下一副牌叫牌之前或者该轮结束之前（这两种情况以先发生的为准）没有提出异议，则认同成立。", Context()),
])
def test_round4_cause_is_not_substantive(lex, cause, old, new, context):
    got = classify_content(old, new, *lex, context=context)
    assert got.change in NOT_SUBSTANTIVE, (cause, got.change, got.changed)


def test_round4_causes_without_their_context_are_substantive(lex):
    """The context is what clears the last three causes: without it the same pairs are substantive."""
    assert classify_content("此时不能如上述规定收回打出的牌张，应用第40条C款。",
                            "如果已经不能依照上述的规定更正打牌时，裁判可以判给调整分。", *lex).change == "substantive"
    assert classify_content("如果庄家禁止引出罚张花色，该防家可收回该花色全部罚张。",
                            "如果庄家禁止该防家的搭档引出罚张的花色，该防家把该花色所有罚张收回手中。",
                            *lex).change == "substantive"


def test_reference_asides_and_cited_clauses():
    assert reference_asides(fold_era("可应用第26条引牌判罚（如违规者下家接续叫牌时，参阅第35条D款）。")) == (
        "如违例者下家接续叫牌时",)
    assert reference_asides("该牌成为罚张（参阅第50条）。") == ()
    assert cited_clauses("应用第40条C款。", "47") == ("40/C",)
    assert cited_clauses("参照本条 B 款 2 和第 16 条 C 款。", "47") == ("47/B/2", "16/C")
    assert cited_clauses("不适用第 26 条 B 款引牌限制。", "47") == ()


@pytest.mark.parametrize("aside, bare", [
    ("（这两种情况以先发生的为准）", True),
    ("（或者打出一个牌张）", False),               # an alternative widens the rule
    ("（而不是理论上的明手）", False),             # a party
    ("（主管单位可对特定的比赛规定不同的申诉条件）", False),
    ("（如果缺乏相关规定，裁判选定某种方法）", False),
    ("这两种情况以先发生的为准", False),           # not a parenthesis
])
def test_bare_aside(lex, aside, bare):
    assert bare_aside(aside, lex[1]) is bare


def test_a_short_phrase_is_not_cancelled_by_a_heading_that_holds_its_words():
    assert unmatched((), ("（或者打出一个牌张）",), (("收回打出的牌张",), ())) == ((), ("（或者打出一个牌张）",))
    assert unmatched(("，庄家审慎地触摸到明手某一张牌，则该牌张必须打出",), (),
                     ((), ("庄家谨慎地触摸到明手的某个牌张，该牌张为打出牌张，",))) == ((), ())


def test_adjusting_one_side_s_score_is_an_adjusted_score():
    assert consequences("裁判只调整获利方的分数，另一方保持桌上结果。") == {"adjusted-score"}
    assert consequences("The Director adjusts the score of the side that gained.") == {"adjusted-score"}


def test_kept_share_tells_a_reworded_piece_from_a_new_rule():
    whole = "受罚不叫的赛员作出的实质叫牌、加倍或再加倍，均予取消，且违规方的每一赛员在轮到他叫牌时，必须永远不叫。"
    assert kept_share("被规则要求不叫的牌手所作出的任何实质叫牌、加倍或者再加倍被取消。", whole) >= 0.62
    assert kept_share("牌手可以指出某个牌张指向不正确，但是己方针对下一墩引牌之时，该权利终止。", whole) < 0.4


def test_a_piece_that_only_points_to_law_26_is_inside_its_whole(lex):
    """A merged piece whose consequence is stated by a reference alone is still inside the whole."""
    piece, whole = "违规者的同伴必须永远不叫（参阅第26条）。", "违规者的搭档以后必须永远不叫，裁判可以判给调整分。"
    assert classify_content(piece, whole, *lex, kind="merged").change == "restructured"
    assert classify_content("违规者的同伴必须永远不叫，并转移一墩。", whole, *lex, kind="merged").change == "substantive"

