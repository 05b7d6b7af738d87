"""`bridgelaw show` reads a law: the whole subtree in reading order, languages, ids, as received, JSON."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from assistant.cli import app
from assistant.corpus import load_corpus
from assistant.corpus_commands import render

runner = CliRunner()
LAWS = [law.id for ed in load_corpus().editions.values() for law in ed.laws()]
ID_RE = re.compile(r"<([^<>]+)>$")


@pytest.mark.parametrize("law_id", LAWS)
def test_every_law_reads_whole_with_ids_in_order(corpus, law_id):
    ed = corpus.editions[law_id.split("/")[0]]
    lines = render(corpus, law_id, ids=True)
    printed = [m.group(1) for line in lines if (m := ID_RE.search(line))]
    expected = [cid for cid in ed.clauses if cid == law_id or cid.startswith(law_id + "/")]
    assert printed == expected                                   # every clause once, in document order
    content = [re.sub(r"^\s+(text \([^)]*\):|table:)", "", line) for line in lines
               if line.startswith(" ") and not ID_RE.search(line) and not line.strip().startswith("[")]
    assert any(re.search(r"[^\W\d_]", line) for line in content)   # letters or ideographs, not only labels


def test_show_law_prints_the_items_text_not_only_their_ids():
    res = runner.invoke(app, ["show", "ccba1999/law/60"])
    assert res.exit_code == 0, res.output
    assert "非违规方的赛员在其上家越序" in res.output                # 60A1's text
    assert res.output.index("A. 违规后的打牌") < res.output.index("B. ") < res.output.index("C. ")


def test_leaf_shows_just_the_clause():
    res = runner.invoke(app, ["show", "wbf2017/law/16/B/1/a", "--ids"])
    assert res.exit_code == 0, res.output
    assert res.output.count("<wbf2017/") == 1 and "Law 16B1(a)" in res.output


def test_lang_filters_languages():
    res = runner.invoke(app, ["show", "wbf2017/law/16", "--lang", "zh-Hant"])
    assert res.exit_code == 0, res.output
    assert "text (zh-Hant):" in res.output and "text (en):" not in res.output


@pytest.mark.parametrize("args, words", [
    (["show", "wbf2017/law/16", "--lang", "fr"], ["unknown language 'fr'", "choose from"]),
    (["show", "ccba1999/law/16", "--lang", "en"], ["ccba1999 has no en text", "zh-Hans"]),
])
def test_bad_lang_is_one_line_exit_2(args, words):
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1
    for w in words:
        assert w in res.output


def test_reading_text_is_marked_and_as_received_is_one_flag_away():
    res = runner.invoke(app, ["show", "wbf2017/law/1/A"])
    assert "diamonds (♦)" in res.output and "[corrected: suit glyph" in res.output
    faithful = runner.invoke(app, ["show", "wbf2017/law/1/A", "--as-received"])
    assert faithful.exit_code == 0
    assert "diamonds (♠)" in faithful.output and "[corrected" not in faithful.output
    assert "[as received" in faithful.output


def test_translation_note_is_shown():
    res = runner.invoke(app, ["show", "wbf2017/law/30/B/1/b"])
    assert "[translation note (zh-Hant):" in res.output


def test_footnotes_print_in_place(corpus):
    holder = next(c for c in corpus.editions["wbf2017"].clauses.values() if c.footnotes and c.parent)
    lines = render(corpus, "/".join(holder.id.split("/")[:3]), ids=True)
    at = next(i for i, line in enumerate(lines) if line.endswith(f"<{holder.id}>"))
    nxt = next((i for i, line in enumerate(lines[at + 1:], at + 1) if ID_RE.search(line)), len(lines))
    assert any("footnote " in line for line in lines[at:nxt])      # under its clause, before the next one


def test_json_keeps_its_keys_and_adds_the_subtree(corpus):
    res = runner.invoke(app, ["show", "wbf2017/law/16/B", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    keys = {"id", "edition", "level", "number", "title", "text", "parent", "children", "chapter", "notes",
            "tables", "footnotes", "term", "key", "source", "received", "corrections"}
    assert keys <= set(data) and "subtree" in data
    ids = [x["id"] for x in data["subtree"]]
    ed = corpus.editions["wbf2017"].clauses
    assert ids == [c for c in ed if c.startswith("wbf2017/law/16/B/")]
    b1 = next(x for x in data["subtree"] if x["id"] == "wbf2017/law/16/B/1")
    assert "答詢" in b1["text"]["zh-Hant"] and "答 詢" in b1["received"]["zh-Hant"]
    assert {c["kind"] for c in b1["corrections"]} >= {"space_in_word"}
