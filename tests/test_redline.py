"""Redline and change-class functions on small real phrases (pure, no corpus)."""

from __future__ import annotations

import pytest

from assistant.diff.classify import classify_pair, figures, modals
from assistant.diff.redline import TermLexicon, redline

LEX = TermLexicon({"明手": "dummy", "夢家": "dummy", "dummy": "dummy", "加倍": "double", "賭倍": "double",
                   "double": "double", "牌墩": "trick", "墩": "trick", "牌磴": "trick", "同伴": "partner",
                   "搭档": "partner"})


def test_term_substitution_is_not_a_change():
    rl = redline("明手不得加倍", "夢家不得賭倍", LEX)
    assert rl.changed == []
    assert [s.op for s in rl.segments].count("term") == 2
    assert "⟨明手→夢家⟩" in rl.markdown()


@pytest.mark.parametrize("old, new, expected", [
    ("明手可以提醒庄家", "明手可以提醒庄家", "unchanged"),
    ("明手可以提醒庄家", "明手可以提醒莊家", "script_only"),
    ("明手可以提醒庄家", "夢家可以提醒莊家", "terminology_only"),
    ("将一墩牌转给非违规方", "将两墩牌转给非违规方", "substantive"),
    ("裁判可以判给调整分", "裁判必须判给调整分", "substantive"),
    ("如果违规方赢得了该墩牌", "若是违规方赢得了该墩", "reworded"),
    ("Dummy may not do this.", "Dummy may do this.", "substantive"),
])
def test_change_classes(old, new, expected):
    assert classify_pair(old, new, LEX).change == expected


def test_structural_classes_come_from_the_alignment():
    assert classify_pair("甲", None, LEX).change == "removed"
    assert classify_pair(None, "乙", LEX).change == "new"
    assert classify_pair("甲", "乙", LEX, structural="different_subject").change == "different_subject"


def test_figures_pulled_out():
    assert figures("将两墩牌转给非违规方") == {(2.0, "墩"): 1}
    assert figures("transfer one trick and then 3 minutes") == {(1.0, "tricks"): 1, (3.0, "minutes"): 1}
    change = classify_pair("罚 3 IMP，超时 5 分钟", "罚 3 IMP，超时 10 分钟", LEX)
    assert change.change == "substantive" and change.figures_changed


def test_english_redline_is_word_level():
    rl = redline("The dummy may not do this.", "Dummy may do this at any time.", LEX)
    md = rl.markdown()
    assert "[-not -]" in md and "{+at any time +}" in md


def test_modals():
    assert modals("必须不叫") == {"oblige"}
    assert modals("明手不得主动召请裁判") == {"prohibit"}
    assert modals("對應跟未跟之處理") == frozenset()
    assert modals("The player may not call") == {"prohibit"}
    assert modals("The Director shall award an adjusted score") == {"oblige"}
