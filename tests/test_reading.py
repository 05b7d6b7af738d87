"""The reading text: every correction applies where it says, nothing else differs, and the defects are gone."""

from __future__ import annotations

import importlib.util
import re

import pytest
from helpers import REPO

from assistant import reading
from assistant.corpus import build_corpus
from assistant.errors import CorpusParseError
from assistant.reading import Correction, apply_corrections, load_corrections
from assistant.text import garbled_zh_hant

CORRECTIONS = load_corrections()
CJK = "\u3400-\u9fff\uf900-\ufaff"
SUITS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
         "黑桃": "♠", "紅心": "♥", "红心": "♥", "方塊": "♦", "方块": "♦", "梅花": "♣"}
SUIT_RE = re.compile(r"(" + "|".join(SUITS) + r")\s*[（(]\s*([♠♥♦♣])")


@pytest.fixture(scope="module")
def raw():
    """The corpus as parsed, before any correction (the loader's corrections switched off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reading, "load_corrections", lambda *a: ())
        return build_corpus()


@pytest.fixture(scope="module")
def replay(raw):
    """Each correction's count of its source string at the moment it applies, replayed on the raw texts."""
    work: dict[tuple[str, str | None], str] = {}
    counts = []
    for c in CORRECTIONS:
        clause = raw.clause(c.id)
        key = (c.id, c.lang)
        if key not in work:
            work[key] = clause.text.get(str(c.lang), "") if c.field == "text" else "\x00".join(clause.tables)
        counts.append(work[key].count(c.source))
        work[key] = work[key].replace(c.source, c.reading, 1)
    return counts, work


def _name(c: Correction) -> str:
    return f"{c.id}:{c.lang or c.field}:{c.kind}:{c.source[:12]}"


@pytest.mark.parametrize("n", range(len(CORRECTIONS)), ids=[_name(c) for c in CORRECTIONS])
def test_source_string_is_present_once_where_the_entry_says(replay, n):
    counts, _ = replay
    assert counts[n] == 1, f"{_name(CORRECTIONS[n])}: source string found {counts[n]} times"


@pytest.mark.parametrize("edition", ["ccba1999", "ccba2018", "wbf2017", "guandan2017"])
def test_nothing_else_differs(corpus, raw, replay, edition):
    _, work = replay
    for cid, clause in corpus.editions[edition].clauses.items():
        before = raw.clause(cid)
        for lang, text in clause.text.items():
            expected = work.get((cid, lang), before.text[lang])
            assert text == expected, f"{cid} ({lang}) differs beyond its corrections"
            if text != before.text[lang]:
                assert clause.received[lang] == before.text[lang]
            else:
                assert lang not in clause.received
        assert "\x00".join(clause.tables) == work.get((cid, None), "\x00".join(before.tables)), cid
        assert clause.received_tables in ([], before.tables), cid
        assert len(clause.corrections) == sum(1 for c in CORRECTIONS if c.id == cid)


def test_every_suit_glyph_matches_the_suit_named_beside_it(corpus, raw):
    def wrong(cl):
        return [m.group(0) for t in cl.text.values() for m in SUIT_RE.finditer(t) if SUITS[m.group(1)] != m.group(2)]

    assert not [(c.id, wrong(c)) for c in corpus.all_clauses() if wrong(c)]
    assert wrong(raw.clause("wbf2017/law/1/A")) == ["diamonds (♠", "方塊 (♠", "梅花 (♠"]   # the defect is real


def test_no_middle_dot_left_in_the_zh_hant_law_text(corpus):
    left = [c.id for c in corpus.editions["wbf2017"].clauses.values() if re.search("[·‧・]", c.text.get("zh-Hant", ""))]
    assert not left


def test_no_space_inside_a_cjk_word_in_any_law_text(corpus):
    rx = re.compile(rf"[{CJK}][ \u3000]+[{CJK}]")
    left = [(c.id, m.group(0)) for c in corpus.all_clauses() for t in c.text.values() for m in rx.finditer(t)]
    assert not left


def test_law_77_table_has_no_ocr_line(corpus, raw):
    table = corpus.clause("wbf2017/law/77").tables[0]
    assert "accurs" in raw.clause("wbf2017/law/77").tables[0]
    assert not [line for line in table.splitlines() if garbled_zh_hant(line)]
    assert "accurs" not in table and "۸" not in table and "not vulnerab " not in table
    assert "| ♣ | ♦ | ♥ | ♠" in table


def test_ccba2018_tables_in_the_text_keep_their_columns(corpus):
    text = corpus.clause("ccba2018/law/78/B").text["zh-Hans"]
    assert "20~40 | 1 | 750~890 | 13" in text
    assert "将牌为♣或者♦ | 20 | 40 | 80" in corpus.clause("ccba2018/law/77").text["zh-Hans"]


def test_search_text_of_16b1_holds_the_word(corpus):
    clause = corpus.clause("wbf2017/law/16/B/1")
    assert "答詢" in clause.text["zh-Hant"] and "答 詢" in clause.received["zh-Hant"]


def test_translation_error_is_flagged_not_fixed(corpus, raw):
    clause = corpus.clause("wbf2017/law/30/B/1/b/ii")
    assert "為比擬叫品" in clause.text["zh-Hant"]
    notes = [c for c in clause.corrections if c["kind"] == "translation_note"]
    assert len(notes) == 1 and "not" in notes[0]["reason"].lower()
    assert reading.notes(clause) and "translation note" in reading.notes(clause)[0]


def test_a_source_string_not_found_is_a_corpus_error(raw):
    bad = Correction("wbf2017/law/16/B/1", "zh-Hant", "text", "space_in_word", "不存在的字串", "x", "test")
    with pytest.raises(CorpusParseError) as err:
        apply_corrections(raw, (bad,))
    assert err.value.exit_code == 3
    assert "wbf2017/law/16/B/1" in str(err.value) and "not found" in str(err.value)


def test_a_broken_entry_stops_the_cli_with_exit_3(tmp_path, monkeypatch):
    import shutil

    from typer.testing import CliRunner

    from assistant.cli import app
    from assistant.corpus import DEFAULT_CORPUS

    shutil.copytree(DEFAULT_CORPUS, tmp_path / "corpus")              # its own cache key: a fresh load
    monkeypatch.setenv("BRIDGELAW_CORPUS", str(tmp_path / "corpus"))
    bad = Correction("wbf2017/law/1/A", "en", "text", "suit_glyph", "diamonds (♥)", "diamonds (♦)", "test")
    monkeypatch.setattr(reading, "load_corrections", lambda *a: (bad,))
    res = CliRunner().invoke(app, ["show", "wbf2017/law/1"])
    assert res.exit_code == 3, res.output
    assert "corrections.yaml" in res.output and "diamonds (♥)" in res.output
    assert len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("entry, words", [
    ({"id": "x", "kind": "nope", "source": "a", "reading": "b", "reason": "r", "lang": "en"}, ["kind 'nope'"]),
    ({"id": "x", "kind": "suit_glyph", "source": "a", "reading": "b", "reason": "r"}, ["needs lang"]),
    ({"id": "x", "kind": "translation_note", "source": "a", "reading": "b", "reason": "r", "lang": "en"},
     ["translation note keeps the text"]),
    ({"id": "x", "kind": "suit_glyph", "source": "a", "reading": "b", "lang": "en"}, ["missing ['reason']"]),
    ({"id": "x", "kind": "suit_glyph", "source": "a", "reading": "b", "reason": "r", "lang": "en", "why": 1},
     ["unknown keys ['why']"]),
])
def test_malformed_entries_are_named(entry, words):
    with pytest.raises(CorpusParseError) as err:
        reading.parse_entry(entry, 7)
    assert "entry 7" in str(err.value)
    for w in words:
        assert w in str(err.value)


def test_the_data_file_is_what_the_generator_writes():
    path = REPO / "bench" / "data" / "make_corrections.py"
    spec = importlib.util.spec_from_file_location("make_corrections", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render(module.generate()) == reading.CORRECTIONS_PATH.read_text(encoding="utf-8")
    assert reading.load_corrections is not None and load_corrections() == CORRECTIONS   # no patch left behind
