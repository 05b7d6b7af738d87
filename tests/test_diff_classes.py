"""Change classes on the rule's content (assistant.diff.content): each cause of a false `substantive` the
issue lists, as a fixed example, and a few laws classified by this test's author from both texts (not the
project's gold in bench/data/diff-gold, which bench/diff.py scores)."""

from __future__ import annotations

import pytest

from assistant.diff.content import classify_content
from assistant.diff.elements import elements, fold_era, mask_references, references
from assistant.diff.law import diff_law, edition_lexicon

NOT_SUBSTANTIVE = ("unchanged", "terminology", "reference", "reworded", "restructured")


@pytest.fixture(scope="module")
def lex():
    return edition_lexicon("ccba1999", "zh-Hans"), edition_lexicon("ccba2018", "zh-Hans")


@pytest.mark.parametrize("old, new", [
    ("（判罚）违规者的同伴必须不叫。", "违规者的搭档必须不叫。"),           # 判罚 → 纠正, 同伴 → 搭档
    ("赛员不得作出超过七线的叫牌。", "牌手不得作出超过七阶的叫牌。"),         # 线 → 阶, 赛员 → 牌手
    ("可应用第26条引牌判罚。", "可应用第26条引牌限制。"),                    # lead penalties → restrictions
])
def test_a_terminology_change_is_terminology(lex, old, new):
    assert classify_content(old, new, *lex).change == "terminology"


@pytest.mark.parametrize("old, new", [
    ("违规者的搭档必须不叫（参阅第23条）。", "违规者的搭档必须不叫（参照第 72 条 C 款）。"),
    ("庄家可以禁止引出该花色，适用第 26 条。", "庄家可以禁止引出该花色，适用第 26 条 B 款。"),
])
def test_a_changed_cross_reference_is_reference(lex, old, new):
    assert classify_content(old, new, *lex).change == "reference"


@pytest.mark.parametrize("old, new", [
    ("如果某防家有两张或更多的罚张可以合法打出，庄家可指定先出哪一张。",
     "如果一位防家有两个或者更多罚张可以合法打出，庄家指定该防家打出哪一个罚张。"),    # 两张 / 两个: one number
    ("所有牌桌由裁判按序排定桌号，其余三个方位按照与北相应的关系决定。",
     "所有牌桌由裁判按序排定桌号，其他方位按照与北相应的关系决定。"),                 # 三个方位: no figure
    ("同一赛员在同一花色中所发生的第二次藏牌。", "同一位牌手在同一种花色中发生的藏牌。"),  # 第二次: an ordinal
])
def test_a_unit_word_is_not_a_changed_number(lex, old, new):
    got = classify_content(old, new, *lex)
    assert got.change in NOT_SUBSTANTIVE and "number" not in got.changed, got


@pytest.mark.parametrize("old, new, element", [
    ("将一墩牌转给非违规方。", "将两墩牌转给非违规方。", "number"),
    ("裁判可以判给调整分。", "裁判必须判给调整分。", "modal"),
    ("违规者的搭档必须永远不叫。", "竞叫继续进行，没有进一步纠正。", "consequence"),
    ("在竞叫阶段，任何牌手均可以指出违例。", "在竞叫阶段，任何牌手均可以指出违例，规则禁止的除外。", "condition"),
    ("裁判确定某副牌的牌张放置方位有误，该副牌即为错乱牌。",
     "裁判确定某副牌的牌张放置方位有误，或者在所复制的同一副牌上标明的发牌人或者局况不同，该副牌即为错乱牌。", "condition"),
])
def test_a_changed_element_is_substantive_and_named(lex, old, new, element):
    got = classify_content(old, new, *lex)
    assert got.change == "substantive" and element in got.changed, got


@pytest.mark.parametrize("kind", ["moved", "renumbered"])
def test_a_move_with_the_same_rule_is_restructured(lex, kind):
    text = "违规者的搭档必须不叫，可能适用第 26 条。"
    assert classify_content(text, text.replace("第 26 条", "第 26 条 B 款"), *lex, kind=kind).change == "restructured"


def test_a_piece_inside_its_whole_is_restructured(lex):
    whole = "如果信息无关紧要，裁判允许该副牌打牌和记分；如果信息影响了结果，他应当调整分数，并且可以判罚违规者。"
    for piece in ("如果信息无关紧要，裁判可允许该副牌打牌与记分。", "如果信息影响了结果，裁判应判给调整分。"):
        assert classify_content(piece, whole, *lex, kind="merged").change == "restructured"
        assert classify_content(whole, piece, *lex, kind="split").change == "restructured"


def test_elements_are_read_after_the_era_words_are_folded(lex):
    assert fold_era("（判罚）赛员的同伴在一线，判罚") == "牌手的搭档在一阶，纠正"
    e = elements("违规者必须不叫（参阅第23条），可应用第26条引牌判罚。", lex[0], lex[1])
    assert e.modal == {"oblige", "permit"} and {"pass-once", "lead-restrictions"} <= e.consequence
    assert e.reference == {"23", "26"} and "第" not in mask_references("参阅第 23 条 A 款")
    assert references("参照本条 D 款") == {"self"}


# ------------------------------------------------------------------- laws, read by this test's author


@pytest.mark.parametrize("law, expected", [
    ("34", "restructured"),      # 1999 34 now 17D3; 2017 34 only points there
    ("88", "restructured"),      # the 60 % rule moved to 12C2(c)
    ("89", "restructured"),      # individual events moved to 12C3
    ("23", "new"),               # 1999 23 (damaging enforced pass) went to 72C; 23 is now comparable call
    ("12", "substantive"),       # weighted adjusted scores (12C1(c))
    ("25", "substantive"),       # only unintended calls may be replaced
    ("27", "substantive"),       # comparable call
    ("64", "substantive"),       # 1999 64A2's extra trick gone; 64B7, B8 new
    ("68", "substantive"),       # play may continue after a disputed claim
])
def test_laws_read_by_hand(corpus, law, expected):
    assert diff_law(corpus, law).change == expected


@pytest.mark.parametrize("law, from_id, to_id", [
    ("34", "ccba1999/law/34", "ccba2018/law/17/D/3"),            # a move to another law
    ("35", "ccba1999/law/35/A", "ccba2018/law/36/A"),
    ("13", "ccba1999/law/13/B/1", "ccba2018/law/13/A/2"),        # two sections merged into one
    ("13", "ccba1999/law/13/B/2", "ccba2018/law/13/A/2"),
    ("26", "ccba1999/law/26/A", "ccba2018/law/26/B"),
])
def test_moves_and_merges_never_make_their_source_law_substantive(corpus, law, from_id, to_id):
    from assistant.diff.law import _weight

    d = diff_law(corpus, law)
    p = next(p for p in d.pairs if p.from_id == from_id and p.to_id == to_id)
    assert p.structure in ("moved", "merged")
    if p.to_id.split("/")[2] != law:
        assert _weight(p, law, "ccba1999", "ccba2018", False) == "restructured"
    else:
        assert p.change == "restructured"


def test_a_split_law_is_restructured_not_new(corpus):
    """1999 27A (an insufficient bid accepted) is split into 2017 27A and 27A1: 27A1 is no new rule."""
    p = next(p for p in diff_law(corpus, "27").pairs if p.to_id == "ccba2018/law/27/A/1")
    assert p.change == "restructured" and p.structure == "split"


@pytest.mark.parametrize("law", [str(n) for n in range(1, 94)])
def test_the_law_class_never_contradicts_its_rows(corpus, law):
    d = diff_law(corpus, law)
    rows = {p.change for p in d.pairs}
    if d.change == "substantive":
        assert rows & {"substantive", "new", "removed"}, rows
    elif d.change not in ("new", "removed"):
        assert "substantive" not in rows or any(
            p.change == "substantive" and p.to_id and p.to_id.split("/")[2] != law for p in d.pairs), rows
