"""Edition differences: hand-checked laws (corpus-guide §8), term-only pairs, CLI and the change report."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from assistant.cli import app
from assistant.diff.classify import UNIT_FOLD, classify_translation, figures
from assistant.diff.report import change_report, diff_law
from assistant.editions import edition

runner = CliRunner()


def pair(d, from_id=None, to_id=None):
    for p in d.pairs:
        if (from_id is None or p.from_id == from_id) and (to_id is None or p.to_id == to_id):
            return p
    raise AssertionError(f"no pair {from_id} → {to_id} in law {d.law}: {[(p.from_id, p.to_id) for p in d.pairs]}")


@pytest.fixture(scope="module")
def report(corpus):
    return change_report(corpus)


def test_law_23_is_a_new_law_at_an_old_number(corpus):
    """1999 Law 23 moved to 72C; 2017 Law 23 (comparable call) is a new rule: the law is `new`."""
    d = diff_law(corpus, "23")
    assert d.change == "new" and d.subject_changed
    assert pair(d, "ccba1999/law/23", "ccba2018/law/23").change == "restructured"
    assert pair(d, "ccba1999/law/23", "ccba2018/law/23").structure == "different_subject"
    assert pair(d, to_id="ccba2018/law/23/A").change == "new"


def test_law_27_c_moved_to_a2_and_c_d_new(corpus):
    d = diff_law(corpus, "27")
    assert pair(d, "ccba1999/law/27/C", "ccba2018/law/27/A/2").change == "restructured"
    assert pair(d, "ccba1999/law/27/C", "ccba2018/law/27/A/2").structure == "renumbered"
    assert pair(d, None, "ccba2018/law/27/C").change == "new"
    assert pair(d, None, "ccba2018/law/27/D").change == "new"
    assert pair(d, None, "ccba2018/law/27/B/4").change == "new"
    assert d.change == "substantive"


def test_law_64b_six_cases_against_eight(corpus):
    d = diff_law(corpus, "64")
    for n in "123456":
        p = pair(d, f"ccba1999/law/64/B/{n}")
        assert p.to_id and p.to_id.startswith("ccba2018/law/64/B/")
    assert pair(d, None, "ccba2018/law/64/B/7").change == "new"
    assert pair(d, None, "ccba2018/law/64/B/8").change == "new"


def test_law_86_content_replaced(corpus):
    d = diff_law(corpus, "86")
    assert pair(d, "ccba1999/law/86/A").to_id == "ccba2018/law/12/C/2/b"
    assert pair(d, "ccba1999/law/86/B").to_id == "ccba2018/law/12/C/4"
    assert pair(d, "ccba1999/law/86/A").structure == "moved"
    assert pair(d, None, "ccba2018/law/86/B").change == "new"


@pytest.mark.parametrize("law, target", [("88", "ccba2018/law/12/C/2/c"), ("89", "ccba2018/law/12/C/3")])
def test_laws_88_89_are_now_pointers(corpus, law, target):
    """The rule moved to 12C; the law now only points there: restructured, never substantive."""
    d = diff_law(corpus, law)
    assert d.change == "restructured" and d.subject_changed
    assert pair(d, f"ccba1999/law/{law}", target).structure == "moved"


def test_2024_law_73b_and_89_against_2017_text(corpus):
    d73 = diff_law(corpus, "73", "ccba2018", "wbf2017")
    assert d73.change == "revised"
    assert pair(d73, "ccba2018/law/73/B", "wbf2017/law/73/B").change == "revised"
    assert pair(d73, "ccba2018/law/73/A/2", "wbf2017/law/73/A/2").change == "revised"
    assert pair(d73, "ccba2018/law/73/A/2", "wbf2017/law/73/D/3").change == "restructured"
    assert pair(d73, "ccba2018/law/73/C/1", "wbf2017/law/73/C/1").change == "translation"   # untouched in 2024
    d89 = diff_law(corpus, "89", "ccba2018", "wbf2017")
    assert d89.change == "revised"
    assert pair(d89, "ccba2018/law/89", "wbf2017/law/89").change == "revised"
    assert {p.to_id for p in d89.pairs if p.change == "new"} >= {"wbf2017/law/89/A", "wbf2017/law/89/D"}


def test_laws_12c_and_16_restructured(corpus):
    d12 = diff_law(corpus, "12")
    assert pair(d12, "ccba1999/law/12/B", "ccba2018/law/12/B").change in ("substantive", "restructured")
    assert pair(d12, None, "ccba2018/law/12/B/1").change == "new"
    assert pair(d12, None, "ccba2018/law/12/C/1").change == "new"
    assert any(p.to_id == "ccba2018/law/12/C/4" and p.from_id == "ccba1999/law/86/B" for p in d12.pairs)
    d16 = diff_law(corpus, "16")
    assert pair(d16, None, "ccba2018/law/16/A").change == "new"               # use of information
    assert pair(d16, None, "ccba2018/law/16/D").structure in ("moved", "renumbered")   # other sources, was 16B
    assert d16.change == "substantive"


@pytest.mark.parametrize("law, from_id, to_id, change", [
    ("17", "ccba1999/law/17/D", "ccba2018/law/15/A", "moved"),          # cards from a wrong board
    ("34", "ccba1999/law/34", "ccba2018/law/17/D/3", "moved"),          # 34's content now 17D3
    ("43", "ccba1999/law/43/C", "ccba2018/law/43/B/3", "moved"),
    ("71", "ccba1999/law/71/C", "ccba2018/law/71/B", "renumbered"),
    ("75", "ccba1999/law/75", "ccba2018/law/75", "different_subject"),
    ("35", "ccba1999/law/35", "ccba2018/law/35", "different_subject"),
])
def test_structure_comes_from_the_alignment(corpus, law, from_id, to_id, change):
    assert pair(diff_law(corpus, law), from_id, to_id).structure == change


@pytest.mark.parametrize("law, from_id, to_id, change", [
    ("71", "ccba1999/law/71/B", None, "removed"),
    ("57", None, "ccba2018/law/57/D", "new"),                           # 57D new in 2017
    ("24", None, "ccba2018/law/24/D", "new"),                           # 24 grows A-C to A-E
    ("50", None, "ccba2018/law/50/E", "new"),                           # information from a penalty card
])
def test_ten_more_hand_checked(corpus, law, from_id, to_id, change):
    assert pair(diff_law(corpus, law), from_id, to_id).change == change


def test_the_dropped_revoke_trick_is_named(corpus):
    """1999 64A2 also transferred a later trick won with a card that could have been played to the revoke
    trick; 2017 dropped it: a substantive pair whose changed element quotes the dropped phrase."""
    p = pair(diff_law(corpus, "64"), "ccba1999/law/64/A/2", "ccba2018/law/64/A/2")
    assert p.change == "substantive" and "condition" in p.elements
    dropped = dict((e, old) for e, old, _ in p.values)["condition"]
    assert any("可合法打出" in x for x in dropped)


def test_figures_pulled_out_of_changed_pairs(corpus):
    d = diff_law(corpus, "12", redlines=False)
    assert any(p.figures_from != p.figures_to for p in d.pairs if p.change == "substantive")


@pytest.mark.parametrize("law", ["42", "43"])
def test_translations_are_translation_and_redlined_on_request(corpus, law):
    quiet = diff_law(corpus, law, "ccba2018", "wbf2017")
    assert {p.change for p in quiet.pairs} <= {"translation", "unchanged"} and quiet.change == "translation"
    assert not any(p.redline for p in quiet.pairs)                      # redlines only on request
    d = diff_law(corpus, law, "ccba2018", "wbf2017", redlines=True)
    assert any("⟨明手→夢家⟩" in p.redline for p in d.pairs), "明手 / 夢家 should be recognised as the same term"
    assert [p.change for p in d.pairs] == [p.change for p in quiet.pairs]


@pytest.mark.parametrize("law", [str(n) for n in range(1, 94)])
def test_translations_change_only_in_the_revised_laws(corpus, law):
    """CCBA 2018 translates WBF 2017: a law is translation or unchanged unless the 2024 revision changed it."""
    revised = {str(n) for n in edition("wbf2017").revised_laws}
    change = diff_law(corpus, law, "ccba2018", "wbf2017").change
    assert change == "revised" if law in revised else change in ("translation", "unchanged")


def test_law_level_text_is_not_removed_and_new(corpus):
    d = diff_law(corpus, "1")
    assert pair(d, "ccba1999/law/1", "ccba2018/law/1/A").change in ("reworded", "terminology", "unchanged")
    assert not [p for p in d.pairs if p.to_id == "ccba2018/law/1/A" and p.change == "new"]
    heading = pair(d, "ccba1999/law/1", "ccba2018/law/1")
    assert "复式" not in heading.redline           # the heading pair compares titles, not the 1999 text


def test_reverse_direction_swaps_new_and_removed(corpus):
    d = diff_law(corpus, "64", "ccba2018", "ccba1999")
    assert pair(d, "ccba2018/law/64/B/7", None).change == "removed"


def test_change_report_covers_93_laws_and_57_articles(report):
    assert len(report.laws) == 93 and len(report.articles) == 57
    assert sum(report.counts().values()) == 93
    diff_subject = {ld.law for ld in report.laws if ld.subject_changed}
    assert {"23", "35", "75", "88", "89"} <= diff_subject
    assert not {ld.law for ld in report.laws if ld.law in ("34", "88", "89") and ld.change == "substantive"}
    assert all(a["class"] == "new" for a in report.articles)
    art22 = next(a for a in report.articles if a["article"] == "22")
    assert "74B4" in art22["laws"] and "90" in art22["laws"]


def test_cli_diff_json_shape():
    res = runner.invoke(app, ["diff", "27", "--from", "ccba1999", "--to", "ccba2018", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["law"] == "27" and data["from"] == "ccba1999" and data["to"] == "ccba2018"
    assert {"from_id", "to_id", "class", "redline"} <= set(data["pairs"][0])


@pytest.mark.parametrize("args, code, words", [
    (["diff", "99"], 1, "no law"),
    (["diff", "27", "--from", "ccba2018", "--to", "ccba2018"], 2, "no alignment"),
    (["changes", "--from", "wbf2017", "--to", "wbf2017"], 2, "no alignment"),
    (["diff", "27", "--from", "ccba2018", "--to", "wbf2017", "--lang", "en"], 2, "cannot redline"),
    (["changes", "--format", "pdf"], 2, "choose from md, csv, html"),
    (["changes", "--lang", "fr"], 2, "choose from zh-Hans, zh-Hant, en"),
])
def test_cli_diff_errors(args, code, words):
    res = runner.invoke(app, args)
    assert res.exit_code == code and words in res.output and "Traceback" not in res.output


def test_cli_changes_csv(report):
    res = runner.invoke(app, ["changes", "--format", "csv"])
    assert res.exit_code == 0
    rows = list(csv.reader(io.StringIO(res.output)))
    assert rows[0][0] == "kind"
    assert sum(1 for r in rows if r[0] == "law") == 93 and sum(1 for r in rows if r[0] == "article") == 57


def test_cli_changes_between_translations():
    res = runner.invoke(app, ["changes", "--from", "ccba2018", "--to", "wbf2017", "--format", "csv"])
    assert res.exit_code == 0, res.output
    rows = list(csv.reader(io.StringIO(res.output)))
    assert rows[0][:11] == ["kind", "number", "title_1999", "title_2017", "chapter", "class", "from_id", "to_id",
                            "pair_class", "figures_from", "figures_to"]             # the earlier columns, kept
    classes = {r[1]: r[5] for r in rows if r[0] == "law"}
    assert len(classes) == 93 and not [r for r in rows if r[0] == "article"]
    assert {classes[str(n)] for n in edition("wbf2017").revised_laws} == {"revised"}


def test_unit_fold_is_one_step_and_folds_both_scripts():
    assert not set(UNIT_FOLD.values()) & set(UNIT_FOLD), "a folded unit must not be folded again"
    assert UNIT_FOLD["個"] == UNIT_FOLD["个"]
    assert figures("52 個牌張") == figures("52 个牌张") == figures("52张")


@pytest.mark.parametrize("old, new, revised, expected", [
    ("牌手必须不叫", "牌手務必不叫", False, "translation"),
    ("牌手必须不叫", "牌手必须不叫", False, "unchanged"),
    ("牌手必须不叫", "牌手得叫牌", True, "revised"),
    ("牌手必须不叫", None, False, "removed"),
])
def test_classify_translation(old, new, revised, expected):
    assert classify_translation(old, new, None, revised).change == expected
    assert classify_translation(old, new, None, revised).redline is None or revised


def test_redlines_can_be_turned_off_and_revisions_keep_theirs(corpus):
    assert not any(p.redline for p in diff_law(corpus, "39", redlines=False).pairs)
    d73 = diff_law(corpus, "73", "ccba2018", "wbf2017")
    assert pair(d73, "ccba2018/law/73/B", "wbf2017/law/73/B").redline      # a revision is shown unasked
