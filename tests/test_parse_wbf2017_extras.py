"""The WBF 2017 index and policies parsers (file 004 after the laws): counts, ids, verbatim texts."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from assistant.errors import CorpusParseError
from assistant.model import ClauseId
from assistant.parse.wbf2017_extras import (
    clean_policy_line,
    headword_map,
    parse_wbf2017_index,
    parse_wbf2017_policies,
    ref_clause,
    split_bilingual,
    split_headwords,
)
from helpers import FILES, source_line, source_text

FILE = FILES["004"]


@lru_cache(maxsize=1)
def index():
    return parse_wbf2017_index(source_text("004"), FILE)


@lru_cache(maxsize=1)
def policies():
    return parse_wbf2017_policies(source_text("004"), FILE)


# ---------------------------------------------------------------- index: counts of corpus-guide §4.6

@pytest.mark.parametrize("key, expected", [
    ("index_lines", 714), ("index_lines_tab", 710), ("index_lines_distinct", 677),
    ("index_duplicates", 37), ("index_well_formed", 557), ("index_snowball_lines", 87),
    ("index_ref_tokens", 1591), ("index_ref_definitions", 167), ("index_ref_introduction", 7),
    ("index_ref_footnotes", 9), ("bad_ref_tokens", 24), ("index_headwords_guide_method", 180),
])
def test_index_counts_match_the_corpus_guide(key, expected):
    assert index().stats[key] == expected


def test_headwords_are_the_guide_set_plus_the_three_it_misreads():
    """183 = the guide's 180, with MAY/PACK (non-ASCII OCR), CALL FOR CARD and CANCELLED (no TAB)
    added and RETRACTED + WITHDRAWN read as the one headword RETRACTED (WITHDRAWN) CARD."""
    heads = set(index().stats["index_headword_list"])
    assert len(heads) == 183
    assert {"MAY", "PACK", "CALL FOR CARD", "CANCELLED", "RETRACTED (WITHDRAWN) CARD",
            "AUCTION", "SESSION", "TRICK", "DECEPTION", "OVERTRICK", "WITHDRAWN ACTION"} <= heads
    assert not heads & {"DOURIE", "REDUBLED CONTRACT", "ΜΑΥ", "РАСК", "RETRACTED", "PERIOD"}
    assert all(h == h.upper() for h in heads)


def test_ocr_headwords_are_fixed_and_the_printed_form_kept():
    fixes = {(f["line"], f["printed"], f["fixed"]) for f in index().stats["index_ocr_fixes"]}
    assert (3259, "РАСК", "PACK") in fixes and (3212, "ΜΑΥ", "MAY") in fixes
    assert source_line("004", 3259).startswith("РАСК")


def test_bad_tokens_are_kept_as_printed_but_yield_no_clause():
    bad = dict(index().stats["bad_ref_token_list"])
    assert bad[2830] == "1202(0)" and bad[3044] == "790"
    e = next(e for e in index().index if e.source.first == 3044)
    assert e.refs == ["790"] and e.clauses == []


@pytest.mark.parametrize("token, cid", [
    ("12C1(d)", "wbf2017/law/12/C/1/d"), ("86B2", "wbf2017/law/86/B/2"), ("93", "wbf2017/law/93"),
    ("40B2(a)(ii)", "wbf2017/law/40/B/2/a/ii"), ("20F5(b)(ii)", "wbf2017/law/20/F/5/b/ii"),
    ("1202(0)", None), ("790", None), ("20L", None), ("00.000", None),
])
def test_reference_tokens_map_to_law_ids(token, cid):
    assert ref_clause(token) == cid


def test_every_clause_id_is_well_formed():
    for e in index().index:
        for c in e.clauses:
            assert str(ClauseId.parse(c)) == c


def test_definitions_and_footnote_tokens():
    entries = index().index
    adjusted = next(e for e in entries if e.headword == "ADJUSTED SCORE" and not e.term)
    assert adjusted.clauses == ["wbf2017/definition/adjusted-score"]
    visible = next(e for e in entries if e.headword == "CARD" and e.term == "Visible")
    assert visible.clauses == ["wbf2017/definition/visible-card"]
    # '70 footnote' is the footnote of Law 70 (the 21st), '20 second footnote' the 2nd of Law 20 (the 7th)
    normal = next(e for e in entries if e.headword == "CLAIM" and e.term == "Normal play")
    assert normal.refs == ["70 footnote"] and normal.clauses == ["wbf2017/footnote/21"]
    question = next(e for e in entries if e.term == "Required by Law to pass")
    assert question.clauses == ["wbf2017/law/20/B", "wbf2017/footnote/7"]


def test_snowball_blocks_yield_their_increments_not_repeats():
    deal = [e for e in index().index if e.headword == "DEAL"]
    assert [e.term for e in deal][:3] == ["", "At Director's instructions redeal", "Cards incorrectly dealt or exposed"]
    assert deal[1].refs == ["6D3"]
    assert max(len(e.refs) for e in deal) <= 3
    double = [e for e in index().index if e.headword == "DOUBLE"]
    assert [e.term for e in double].count("Legal") == 1


@pytest.mark.parametrize("term, expected", [
    ("AUCTIONSee also Auction Period", [("AUCTION", "See also Auction Period")]),
    ("RHO required to pass", [("", "RHO required to pass")]),
    ("WAIVER OF RECTIFICATION WITHDRAWN ACTION", [("WAIVER OF RECTIFICATION", ""), ("WITHDRAWN ACTION", "")]),
])
def test_split_headwords(term, expected):
    assert split_headwords(term) == expected


def test_headword_map_for_search():
    hm = headword_map(index().index)
    assert any(c.startswith("wbf2017/law/16/B") for c in hm["hesitation"])
    assert any(c.startswith("wbf2017/law/73/D") for c in hm["hesitation"])
    assert {"wbf2017/law/61", "wbf2017/law/62", "wbf2017/law/63", "wbf2017/law/64"} <= set(hm["revoke"])
    assert all(ClauseId.parse(c).law in {"61", "62", "63", "64", "66"} for c in hm["revoke"]
               if c.startswith("wbf2017/law/"))
    assert hm["pack"][:2] == ["wbf2017/definition/pack", "wbf2017/law/1"]
    assert "wbf2017/law/6/D/2" in hm["sorted deck"]


def test_index_has_no_ghosts_and_points_to_the_source():
    for e in index().index:
        assert e.headword not in ("DOURIE", "REDUBLED CONTRACT")
        assert e.source.file == FILE and 2825 <= e.source.first <= 3563


def test_index_without_heading_raises():
    with pytest.raises(CorpusParseError, match=FILE):
        parse_wbf2017_index("LAW 1 - THE CARDS\n", FILE)


# ---------------------------------------------------------------- policies

def by_id():
    return policies().by_id()


def test_systems_policy_paragraphs_including_restored():
    ids = by_id()
    sysp = [c.number for c in policies().clauses if c.id.startswith("wbf2017/policy/systems/")]
    assert [n for n in sysp if "." not in n] == ["1", "2", "3", "4", "5", "6", "7"]
    for n in ("1.1", "1.2", "1.4", "2.1.1", "2.1.3", "2.4", "2.4.3", "2.7"):
        assert f"wbf2017/policy/systems/{n}" in ids
    assert ids["wbf2017/policy/systems/2.4.3"].parent == "wbf2017/policy/systems/2.4"
    assert ids["wbf2017/policy/systems/6"].parent == "wbf2017/policy/systems"
    assert ids["wbf2017/policy/systems/6"].source.first == 3819
    assert ids["wbf2017/policy/systems"].level == "policy"
    assert ids["wbf2017/policy/systems"].title == {"en": "The WBF Systems Policy 2023", "zh-Hant": "世界橋藝聯盟制度規範 2023"}


def test_restorations_are_recorded():
    restored = {(r["policy"], r["number"], r["line"]) for r in policies().stats["restored"]}
    assert restored == {("systems", "1.1", 3574), ("systems", "2.1.1", 3593), ("systems", "6", 3819),
                        ("alerting", "1.1", 3873), ("alerting", "1.3", 3879), ("alerting", "2.i", 3887),
                        ("psychic", "1", 3919), ("psychic", "3", 3924), ("psychic", "4", 3925)}


def test_alerting_and_psychic():
    ids = by_id()
    alert = [c.number for c in policies().clauses if c.id.startswith("wbf2017/policy/alerting/")]
    assert alert == ["1", "1.1", "1.2", "1.3", "1.4", "2", "2.i", "2.ii", "2.iii"]
    assert ids["wbf2017/policy/alerting/2.ii"].parent == "wbf2017/policy/alerting/2"
    psychic = [c.number for c in policies().clauses if c.id.startswith("wbf2017/policy/psychic/")]
    assert psychic == ["1", "2", "3", "4"]
    assert ids["wbf2017/policy/psychic"].title["en"] == "Psychic Bidding"


@pytest.mark.parametrize("line, cid, lang", [
    (3664, "wbf2017/policy/systems/2.4.3", "en"),
    (3666, "wbf2017/policy/systems/2.4.3", "zh-Hant"),
    (3731, "wbf2017/policy/systems/3", "zh-Hant"),
    (3823, "wbf2017/policy/systems/6", "en"),
    (3889, "wbf2017/policy/alerting/2.ii", "en"),
    (3913, "wbf2017/policy/psychic", "zh-Hant"),
    (3920, "wbf2017/policy/psychic/2", "en"),
    (3926, "wbf2017/policy/psychic/4", "zh-Hant"),
])
def test_policy_texts_verbatim(line, cid, lang):
    en, zh = split_bilingual(clean_policy_line(source_line("004", line)))
    part = re.sub(r"^(?:\d+(?:\.\d+)*\.|i{1,3})\s+", "", en if lang == "en" else zh)   # the paragraph number
    assert len(part) > 10 and part in by_id()[cid].text[lang].split("\n")


def test_colours_and_notes_stay_in_their_paragraph():
    text = by_id()["wbf2017/policy/systems/2.2"].text["en"]
    for colour in ("GREEN:", "BLUE:", "RED:", "YELLOW:"):
        assert colour in text
    assert "II. Restriction (b)" in by_id()["wbf2017/policy/systems/2.5"].text["en"]
    assert "EXCEPTION:" in by_id()["wbf2017/policy/systems/2.5"].text["en"]


def test_english_after_chinese_goes_to_english():
    text = by_id()["wbf2017/policy/systems/3"].text
    assert "Whenever a team with one or more pairs using a HUM system" in text["en"]
    assert "Whenever" not in text["zh-Hant"]


def test_policy_texts_are_clean():
    for c in policies().clauses:
        for s in [*c.text.values(), *c.title.values()]:
            assert "International Olympic Committee" not in s
            assert "**" not in s and "<u>" not in s and "$" not in s
            assert not any(l.startswith(">") or l.startswith("- ") for l in s.split("\n"))
        assert c.source and c.source.file == FILE and c.source.first <= c.source.last


def test_missing_policy_raises_naming_the_file():
    text = source_text("004").split("WBF Alerting Policy")[0]
    with pytest.raises(CorpusParseError, match=FILE):
        parse_wbf2017_policies(text, FILE)
