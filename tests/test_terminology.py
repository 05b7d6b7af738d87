"""The terminology crosswalk: data completeness, edition-scoped collisions, OCR forms, expansion, tagging."""

from __future__ import annotations

import csv

import pytest

from assistant.errors import BridgelawError
from assistant.terminology import (BRIDGE_EDITIONS, TERMS_FILE, Terminology, TermsFileError, UnknownConcept,
                                   fold, load_terminology, read_terms)


@pytest.fixture(scope="module")
def terms() -> Terminology:
    return load_terminology()


def ids(concepts) -> set[str]:
    return {c.id for c in concepts}


def test_crosswalk_keeps_the_118_shared_concepts_and_adds_more(terms):
    with TERMS_FILE.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    seeded = [r for r in rows if r["source"] == "shared/terms.tsv"]
    assert len(seeded) == 118
    assert len(terms.concepts) > 118
    assert {"convention", "agreement"} <= set(terms.concepts)


def test_every_concept_has_an_english_or_chinese_preferred_label(terms):
    for c in terms.concepts.values():
        assert any(lb.role == "pref" for lb in c.labels), c.id
        assert {lb.edition for lb in c.labels} <= set(BRIDGE_EDITIONS), c.id


def test_every_definitions_chapter_term_is_a_curated_concept(corpus, terms):
    for edition in BRIDGE_EDITIONS:
        definitions = corpus.editions[edition].definitions()
        assert definitions, edition
        for d in definitions:
            concept = terms.by_definition((d.key, d.key_printed, d.id.rsplit("/", 1)[-1]), d.term, edition)
            assert concept is not None, f"{d.id} ({d.term}) has no concept in terms.tsv"
            own = {fold(f) for f in concept.forms(edition, ("pref", "alt", "hidden"))}
            for lang, form in d.term.items():
                if form and lang != "en":
                    assert fold(form) in own, f"{d.id}: {form!r} is not a {edition} label of {concept.id}"


@pytest.mark.parametrize("form, edition, expected", [
    ("叫牌", "ccba1999", {"call"}),
    ("叫牌", "ccba2018", {"call"}),
    ("叫牌", "wbf2017", {"auction"}),
    ("违规", "ccba1999", {"irregularity"}),
    ("违规", "ccba2018", {"infraction"}),
    ("違規", "wbf2017", {"infraction"}),
    ("轮", "ccba2018", {"round"}),
    ("輪", "wbf2017", {"turn"}),
    ("赛员", "ccba1999", {"player"}),
    ("賽員", "wbf2017", {"contestant", "player"}),
    ("约定", "ccba1999", {"convention"}),
    ("约定", "ccba2018", {"agreement"}),
    ("撤回", "wbf2017", {"withdrawn", "retracted"}),
    ("撤回", "ccba2018", {"withdrawn"}),
])
def test_collisions_are_edition_scoped_not_flattened(terms, form, edition, expected):
    assert ids(terms.find(form, edition)) == expected


def test_without_an_edition_a_colliding_form_names_every_concept(terms):
    assert ids(terms.find("叫牌")) == {"call", "auction"}
    assert ids(terms.find("违规")) >= {"irregularity", "infraction"}


@pytest.mark.parametrize("ocr, concept", [("口以海", "auction"), ("印品", "call"), ("実目", "contestant"),
                                          ("満貫", "slam"), ("花白", "suit")])
def test_ocr_forms_are_hidden_labels(terms, ocr, concept):
    c = terms.concept(concept)
    assert ocr in c.forms("wbf2017", ("hidden",))
    assert ocr not in c.forms()                       # not offered as a pref/alt label
    assert concept in ids(terms.find(ocr, "wbf2017"))


def test_expand_crosses_editions_and_scripts(terms):
    assert {"明手", "Dummy"} <= set(terms.expand("夢家"))
    assert {"藏牌", "應跟未跟"} <= set(terms.expand("revoke"))
    assert {"Revoke", "應跟未跟"} <= set(terms.expand("藏牌"))
    assert "夢家" not in terms.expand("夢家")
    assert "口以海" not in terms.expand("auction")
    assert "口以海" in terms.expand("auction", include_hidden=True)


def test_find_folds_script_case_and_plural(terms):
    assert ids(terms.find("应跟未跟")) == {"revoke"}        # simplified spelling of the TW term
    assert ids(terms.find("REVOKES")) == {"revoke"}
    assert ids(terms.find("the dummy revoked after the opening lead")) >= {"dummy", "opening-lead"}


def test_labels_by_edition(terms):
    assert set(terms.labels("revoke", "wbf2017")) == {"Revoke", "應跟未跟"}
    assert terms.labels("revoke", "ccba1999") == ["藏牌"]
    assert terms.labels("dummy", "wbf2017")[0] in ("Dummy", "夢家")


def test_unknown_concept_is_a_clear_error(terms):
    with pytest.raises(UnknownConcept) as err:
        terms.labels("no-such-concept")
    assert isinstance(err.value, BridgelawError) and err.value.exit_code == 1
    assert "no-such-concept" in str(err.value) and " — " in str(err.value)


def test_mentions_use_the_editions_own_words_longest_first(terms):
    assert terms.mentions("如果违规方不同意", "ccba1999", "zh-Hans") == ["irregularity"]
    assert terms.mentions("如果违规方不同意", "ccba2018", "zh-Hans") == ["infraction"]
    assert terms.mentions("非违规方可以接受", "ccba1999", "zh-Hans") == ["non-offending-side"]
    assert "revoke" in terms.mentions("A revoke by dummy is not established.", "wbf2017", "en")
    assert "revoke" in terms.mentions("防守方應跟未跟時", "wbf2017", "zh-Hant")
    assert terms.mentions("局", "ccba2018", "zh-Hans") == []          # one-character labels are not tagged


def test_jieba_words_are_multi_character_chinese_labels(terms):
    words = terms.jieba_words()
    assert {"應跟未跟", "藏牌", "明手", "夢家"} <= set(words)
    assert all(len(w) >= 2 and not w.isascii() for w in words)


def test_malformed_crosswalk_is_rejected(tmp_path):
    bad = tmp_path / "terms.tsv"
    bad.write_text("id\ten\tccba1999\nx\tX\t\nx\tY\t\n", encoding="utf-8")
    with pytest.raises(TermsFileError, match="duplicate concept id"):
        read_terms(bad)
    bad.write_text("id\ten\tccba1999\ny\t\t\n", encoding="utf-8")
    with pytest.raises(TermsFileError, match="has no label"):
        read_terms(bad)
