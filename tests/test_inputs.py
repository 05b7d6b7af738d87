"""The input edge (assistant/inputs.py) and errors as data (assistant/errors.py, data/messages.yaml)."""

from __future__ import annotations

import re
import string

import pytest

from assistant.errors import BadInput, BridgelawError, CorpusParseError, UnknownClause, message, messages
from assistant.inputs import (MAX_ANSWERS, MAX_ID, choice, clause_id, clean, clean_argv, decode, edition_name,
                              finite_in_range, int_in_range, lang_name, limited, model_name, read_answers,
                              read_arg_file, resolve_clause_id)

# ---------------------------------------------------------------------------------------------- messages


@pytest.mark.parametrize("key", sorted(messages()))
def test_each_message_has_three_languages_with_the_same_fields(key: str) -> None:
    tpl = messages()[key]
    assert set(tpl) == {"en", "zh-Hans", "zh-Hant"}
    fields = {lang: {f for _, f, _, _ in string.Formatter().parse(text) if f} for lang, text in tpl.items()}
    assert fields["en"] == fields["zh-Hans"] == fields["zh-Hant"], fields


def test_an_error_with_a_key_renders_in_each_language_and_str_stays_english() -> None:
    err = BadInput(key="out_of_range", params={"name": "--top", "value": 99, "lo": 1, "hi": 50})
    assert str(err) == err.render("en") == message("out_of_range", "en", name="--top", value=99, lo=1, hi=50)
    assert "超出范围" in err.render("zh-Hans") and "超出範圍" in err.render("zh-Hant")


def test_an_error_without_a_key_keeps_its_text_in_english_and_a_generic_line_elsewhere() -> None:
    err = CorpusParseError("x.txt", "truncated", 3, "restore the file")
    assert str(err) == "x.txt:3: truncated — restore the file" and err.render("en") == str(err)
    assert "x.txt" not in err.render("zh-Hans") and err.render("zh-Hans") == message("generic_3", "zh-Hans")
    assert BridgelawError("plain").render("zh-Hant") == message("generic_2", "zh-Hant")


def test_unknown_clause_keeps_its_english_text_and_gets_a_key() -> None:
    err = UnknownClause("wbf2017/law/64/Z", "nearest existing clause: wbf2017/law/64")
    assert "nearest existing clause: wbf2017/law/64" in str(err) and err.exit_code == 1
    assert err.key == "unknown_clause_nearest" and "wbf2017/law/64" in err.render("zh-Hans")
    assert "nearest" not in err.render("zh-Hans")


# ---------------------------------------------------------------------------------------------- text


@pytest.mark.parametrize("raw, expected", [
    ("dummy \udcff card", "dummy \ufffd card"),          # an undecodable byte, as Python hands it over
    ("e\u0301", "\u00e9"),                                # NFC
    ("a\x00b\x1b[31mc\x7f", "ab[31mc"),                   # controls removed
    ("\u202eevil\u202c \u2066x\u2069\u200f", "evil x"),   # bidi overrides, isolates and marks removed
    ("line\n\ttab", "line\n\ttab"),                       # newline and tab kept
    ("👨‍👩‍👧 明手", "👨‍👩‍👧 明手"),                               # emoji with ZWJ kept
])
def test_clean(raw: str, expected: str) -> None:
    assert clean(raw) == expected


def test_decode_says_when_it_replaced_and_clean_argv_names_the_positions() -> None:
    assert decode("ok") == ("ok", False) and decode("\ud800x") == ("\ufffdx", True)
    assert clean_argv(["ask", "a\udcffb", "--top", "5"]) == (["ask", "a\ufffdb", "--top", "5"], [1])


def test_limited() -> None:
    assert limited("x" * MAX_ID, "id", MAX_ID) == "x" * MAX_ID
    with pytest.raises(BadInput, match="too long: 201"):
        limited("x" * (MAX_ID + 1), "id", MAX_ID)
    with pytest.raises(BadInput, match="is empty"):
        limited("  ", "id", MAX_ID, required=True)


# ---------------------------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("value, phrase", [(float("nan"), "finite"), (float("inf"), "finite"),
                                           (float("-inf"), "finite"), (0.0, "out of range"),
                                           (-1.0, "out of range"), (601.0, "out of range")])
def test_timeout_must_be_finite_and_in_range(value: float, phrase: str) -> None:
    with pytest.raises(BadInput, match=phrase):
        finite_in_range(value, "--timeout", 0.0, 600.0)


def test_numbers_in_range_pass() -> None:
    assert finite_in_range(30.0, "--timeout", 0.0, 600.0) == 30.0
    assert int_in_range(5, "-n", 1, 500) == 5
    with pytest.raises(BadInput, match="from 1 to 500"):
        int_in_range(0, "-n", 1, 500)


# ---------------------------------------------------------------------------------------------- names


def test_names_are_checked_against_their_lists() -> None:
    assert edition_name("wbf2017") == "wbf2017" and lang_name("zh-Hant") == "zh-Hant"
    with pytest.raises(BadInput, match="unknown edition: 'nope' .* choose from ccba1999"):
        edition_name("nope")
    with pytest.raises(BadInput, match="guandan2017"):
        edition_name("guandan2017", ("ccba1999", "ccba2018", "wbf2017"))
    with pytest.raises(BadInput, match="unknown language"):
        lang_name("zh")
    with pytest.raises(BadInput, match="choose from md, csv"):
        choice("pdf", "format", ("md", "csv"))


def test_model_names_a_known_model_or_an_existing_folder(tmp_path) -> None:
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    assert model_name("use") == "use" and model_name(str(tmp_path)) == str(tmp_path)
    for bad in ("nope", "/", str(tmp_path / "missing")):          # '/' exists but holds no model
        with pytest.raises(BadInput, match="unknown model"):
            model_name(bad)
    with pytest.raises(BadInput, match="indomain is not trained"):
        model_name("indomain", tmp_path / "not-trained")
    assert model_name("indomain", tmp_path) == "indomain"


# ---------------------------------------------------------------------------------------------- files


def test_read_arg_file_errors_name_the_path_and_the_reason(tmp_path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    (tmp_path / "big.txt").write_text("x" * 50, encoding="utf-8")
    (tmp_path / "ok.txt").write_text("ASK {}\u202e", encoding="utf-8")
    cases = [("@", "no file name after @"), (f"@{tmp_path}", "it is a folder"),
             (f"@{tmp_path}/missing", "no such file"), (f"@{tmp_path}/bad.txt", "not UTF-8")]
    for arg, phrase in cases:
        with pytest.raises(BadInput, match=phrase):
            read_arg_file(arg, "QUERY")
    with pytest.raises(BadInput, match="50 bytes, the limit is 10"):
        read_arg_file(f"@{tmp_path}/big.txt", "QUERY", max_bytes=10)
    assert read_arg_file(f"@{tmp_path}/ok.txt", "QUERY") == "ASK {}"


@pytest.mark.parametrize("text, phrase", [
    ("[" * 5000, "nested too deeply"),
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ("{oops", "not JSON"),
    ('{"in_rotation": NaN}', "not JSON"),
    ("[1]", "not a JSON object"),
    ('"yes"', "not a JSON object"),
    ('{"in_rotation": [true]}', "in_rotation"),
    ('{"x": "' + "y" * MAX_ANSWERS + '"}', "too large"),
])
def test_answers_schema_errors(text: str, phrase: str) -> None:
    with pytest.raises(BadInput, match=phrase):
        read_answers(text)


def test_answers_unknown_facts_are_named_with_the_known_ones(tmp_path) -> None:
    with pytest.raises(BadInput, match=r"unknown facts: zzz — topic t does not ask them — .*a, b"):
        read_answers('{"zzz": true, "a": true}', "t", ["a", "b"])
    (tmp_path / "a.json").write_text('{"a": "是", "b": false}', encoding="utf-8")
    assert read_answers(f"@{tmp_path}/a.json", "t", ["a", "b"]) == {"a": "是", "b": False}


# ---------------------------------------------------------------------------------------------- clause ids

IDS = {
    "ccba1999": {"ccba1999/law/64", "ccba1999/law/64/B", "ccba1999/law/64/B/3", "ccba1999/definition/revoke"},
    "ccba2018": {"ccba2018/law/22", "ccba2018/article/22", "ccba2018/article/22/2/1", "ccba2018/law/64",
                 "ccba2018/law/64/A", "ccba2018/law/64/A/1"},
    "wbf2017": {"wbf2017/law/64", "wbf2017/law/64/A", "wbf2017/law/64/A/1", "wbf2017/law/27/B/1/b",
                "wbf2017/definition/bidding-box"},
}


@pytest.mark.parametrize("typed, expected", [
    ("wbf2017/law/64/A/1", "wbf2017/law/64/A/1"),
    ("64A1", "wbf2017/law/64/A/1"),
    ("Law 64A1", "wbf2017/law/64/A/1"),
    ("law 64 a 1", "wbf2017/law/64/A/1"),
    ("LAW 064.A.1", "wbf2017/law/64/A/1"),
    ("WBF2017/law/64/a/1", "wbf2017/law/64/A/1"),
    ("wbf2017/LAW/064/A/1/", "wbf2017/law/64/A/1"),
    ("27B1(b)", "wbf2017/law/27/B/1/b"),
    ("６４Ａ１", "wbf2017/law/64/A/1"),                 # full-width
    ("第六十四条", "ccba2018/law/64"),                   # simplified Chinese: ccba2018
    ("第64条A款1项", "ccba2018/law/64/A/1"),
    ("第六十四條", "wbf2017/law/64"),                    # traditional Chinese: wbf2017
    ("第22条第2款第1项", "ccba2018/article/22/2/1"),
    ("ccba1999 64B3", "ccba1999/law/64/B/3"),           # an edition named first: that edition only
    ("64B3", "ccba1999/law/64/B/3"),                    # not in the default edition: the one that has it
    ("Bidding Box", "wbf2017/definition/bidding-box"),
])
def test_typed_ids_resolve_to_the_canonical_id(typed: str, expected: str) -> None:
    assert resolve_clause_id(typed, IDS).id == expected


def test_an_ambiguous_form_lists_the_candidates_and_a_missing_one_the_nearest() -> None:
    r = resolve_clause_id("第二十二条", IDS)
    assert r.id is None and set(r.candidates) == {"ccba2018/law/22", "ccba2018/article/22"}
    r = resolve_clause_id("64A9", IDS)
    assert r.id is None and r.nearest == "wbf2017/law/64/A" and r.edition == "wbf2017"
    r = resolve_clause_id("WBF2017/law/64/A/9", IDS)
    assert r.id is None and r.nearest == "wbf2017/law/64/A"
    with pytest.raises(UnknownClause, match="names 2 clauses .* ccba2018/law/22"):
        clause_id("第二十二条", IDS)
    with pytest.raises(UnknownClause, match="nearest existing clause: wbf2017/law/64/A") as exc:
        clause_id("64A9", IDS)
    assert exc.value.exit_code == 1


@pytest.mark.parametrize("typed", ["", "   ", "x" * (MAX_ID + 1)])
def test_an_empty_or_overlong_id_is_bad_input(typed: str) -> None:
    with pytest.raises(BadInput):
        clause_id(typed, IDS)


@pytest.mark.parametrize("typed", ["999", "\ufffd", "64Z", "guandan2017/x", "nope/law/1", "第一百条", "../../etc",
                                   "第二二條", "第十十条", "第六十四十条"])
def test_nonsense_resolves_to_nothing_without_raising(typed: str) -> None:
    r = resolve_clause_id(typed, IDS)
    assert r.id is None and not r.candidates


def test_every_real_law_resolves_from_its_short_form(corpus) -> None:
    ids = {n: e.clauses for n, e in corpus.editions.items()}
    for law in range(1, 94):
        assert resolve_clause_id(f"Law {law}", ids).id == f"wbf2017/law/{law}"
    sample = [c for c in corpus.editions["wbf2017"].clauses if re.fullmatch(r"wbf2017/law/\d+/[A-H]/\d+", c)]
    for cid in sample:
        _, _, n, sec, item = cid.split("/")
        assert resolve_clause_id(f"{n}{sec}{item}", ids).id == cid
