"""Incident taxonomy, table-language lexicon and the story reader (assistant/incidents.py).

Data tests are collected one item per incident and one per lexicon row, so a failure names the row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.corpus import clause_ids
from assistant.editions import law_editions
from assistant.errors import CorpusParseError, NotFound
from assistant.incidents import (
    INCIDENTS_FILE, LexEntry, fold, incident, load_incidents, load_lexicon, read_story, read_tokens, stem,
)

INCIDENTS = load_incidents()
LEXICON = load_lexicon()
PHRASES = [e for e in LEXICON if e.match == "phrase"]
GAPS = [e for e in LEXICON if e.match == "gap"]
PATTERNS = [e for e in LEXICON if e.match == "regex"]
IDS = clause_ids()


def test_taxonomy_size_and_groups() -> None:
    assert 80 <= len(INCIDENTS) <= 130
    groups = {i.group for i in INCIDENTS.values()}
    assert {"procedure", "auction", "play", "claim", "scoring", "proprieties", "information", "director",
            "competition"} <= groups


@pytest.mark.parametrize("iid", sorted(INCIDENTS))
def test_incident_has_existing_laws_in_every_law_edition(iid: str) -> None:
    inc = INCIDENTS[iid]
    for ed in law_editions():
        assert inc.laws[ed], f"{iid}: no {ed} clause"
        assert all(c in IDS[ed] and c.startswith(f"{ed}/") for c in inc.laws[ed]), (iid, ed, inc.laws[ed])
    assert inc.primary == inc.primary_in("wbf2017")
    assert inc.primary_in("ccba1999").startswith("ccba1999/law/")
    assert all(inc.title[lang] for lang in ("zh-Hans", "zh-Hant", "en"))


def test_every_ruling_tree_topic_has_an_incident() -> None:
    trees = {p.stem for p in (INCIDENTS_FILE.parent.parent / "rulings" / "trees").glob("*.yaml")}
    assert trees <= {i.topic for i in INCIDENTS.values()}


def test_the_directors_own_laws_are_covered() -> None:
    cited = {c.split("/")[2] for i in INCIDENTS.values() for c in i.laws["wbf2017"]}
    assert {str(n) for n in range(1, 94)} - cited == set()


@pytest.mark.parametrize("entry", PHRASES, ids=lambda e: f"{e.lang}:{e.form}")
def test_every_lexicon_form_reads_as_itself(entry: LexEntry) -> None:
    if entry.kind == "incident":
        found = {m.incident for m in read_story(entry.form)}
        assert set(entry.points_to) <= found, (entry.form, entry.points_to, found)
    else:
        found_tokens = {(t.kind, t.value) for t in read_tokens(entry.form)}
        assert (entry.kind, entry.points_to[0]) in found_tokens


@pytest.mark.parametrize("entry", GAPS, ids=lambda e: f"{e.lang}:{e.form}")
def test_every_gap_form_reads_with_words_between(entry: LexEntry) -> None:
    parts = entry.form.split("…")
    filler = " the ♠3 " if entry.lang == "en" else "了♠3"
    story = filler.join(parts)
    assert set(entry.points_to) <= {m.incident for m in read_story(story)}, story


@pytest.mark.parametrize("entry", PATTERNS, ids=lambda e: f"{e.lang}:{e.kind}:{e.example}")
def test_every_pattern_recognises_its_example(entry: LexEntry) -> None:
    assert any(t.kind == entry.kind for t in read_tokens(entry.example))


def test_every_incident_has_forms_in_all_three_languages() -> None:
    langs: dict[str, set[str]] = {}
    for e in LEXICON:
        for iid in e.points_to if e.kind == "incident" else ():
            langs.setdefault(iid, set()).add(e.lang)
    assert {iid for iid in INCIDENTS if langs.get(iid) != {"en", "zh-Hans", "zh-Hant"}} == set()


@pytest.mark.parametrize("story, first, second", [
    ("West led the ♠3 out of turn; declarer accepted it. At trick 6 East didn't follow suit in hearts and "
     "played to the next trick before anyone noticed.", "lead_out_of_turn_defender", "revoke_established"),
    ("North thought for a long time before passing 2♠; South then bid 3♥. Asked about 2NT, North said it showed "
     "the minors, but their card says it is a raise: wrong explanation.", "hesitation", "misinformation"),
    ("西家越序首引了红心K，庄家接受了。第8墩东家有牌不跟，下一墩才发现，藏牌成立。", "opening_lead_out_of_turn",
     "revoke_established"),
    ("北家長考很久之後派司，南家再叫3♠。東家問2NT的意思，北家解釋錯了。", "hesitation", "misinformation"),
])
def test_a_story_with_two_incidents_yields_both(story: str, first: str, second: str) -> None:
    found = [m.incident for m in read_story(story)]
    assert first in found[:4] and second in found[:4], found


def test_scores_order_the_matches_and_forms_are_reported() -> None:
    matches = read_story("He revoked, did not follow suit, and the revoke was established; then he dropped a card.")
    assert matches[0].incident == "revoke_established"
    assert matches[0].score > matches[-1].score
    assert 0 < matches[-1].confidence < matches[0].confidence < 1
    assert "did not follow suit" in matches[0].forms


def test_folding_reads_traditional_and_case() -> None:
    assert fold("夢家 SHOWED Out") == "梦家 showed out"
    assert "dummy_rights" in {m.incident for m in read_story("夢家提醒莊家")}
    assert "revoke_inquiry" in {m.incident for m in read_story("She SHOWED OUT on the first round")}


@pytest.mark.parametrize("words", [("claim", "claims", "claimed", "claiming"), ("revoke", "revoked", "revokes"),
                                   ("drop", "dropped", "dropping"), ("penalty", "penalties")])
def test_inflections_share_a_stem(words: tuple[str, ...]) -> None:
    assert len({stem(w) for w in words}) == 1


def test_spans_point_into_the_story() -> None:
    story = "At trick 6 East revoked; later West CLAIMS the rest."
    for m in read_story(story):
        assert all(story[a:b].strip() for a, b in m.spans)
    revoke = next(m for m in read_story(story) if m.incident == "revoke_established")
    assert [story[a:b] for a, b in revoke.spans] == ["revoked"]


def test_english_forms_respect_word_boundaries() -> None:
    assert "appeal" not in {m.incident for m in read_story("the player found it unappealing")}
    assert "hesitation" in {m.incident for m in read_story("she hesitated, then passed")}


def test_tokens_seats_calls_cards_tricks() -> None:
    kinds = {(t.kind, t.value) for t in read_tokens("At trick 3 LHO played the ♥Q after RHO bid 3NT; 下家在第5墩出了黑桃K")}
    assert {("trick", "trick"), ("seat", "lho"), ("seat", "rho"), ("card", "card"), ("call", "bid")} <= kinds
    assert not read_story("LHO RHO partner 3NT ♥Q trick 3")


def test_unknown_incident_is_not_found() -> None:
    with pytest.raises(NotFound):
        incident("no_such_incident")


BAD_INCIDENTS = [
    ("id: Bad-Id", "not snake_case"),
    ("id: x\n  laws: {wbf2017: [wbf2017/law/999], ccba1999: [ccba1999/law/1], ccba2018: [ccba2018/law/1]}",
     "unknown wbf2017 clause ids"),
    ("id: x\n  laws: {wbf2017: [wbf2017/law/1], ccba2018: [ccba2018/law/1]}", "no ccba1999 clauses"),
    ("id: x\n  primary: wbf2017/law/2\n  laws: {wbf2017: [wbf2017/law/1], ccba1999: [ccba1999/law/1], "
     "ccba2018: [ccba2018/law/1]}", "primary"),
    ("id: x\n  topic: nope\n  primary: wbf2017/law/1\n  laws: {wbf2017: [wbf2017/law/1], ccba1999: [ccba1999/law/1], "
     "ccba2018: [ccba2018/law/1]}", "no ruling tree"),
]


@pytest.mark.parametrize("body, words", BAD_INCIDENTS, ids=[w for _, w in BAD_INCIDENTS])
def test_bad_incident_data_names_the_entry(tmp_path: Path, body: str, words: str) -> None:
    path = tmp_path / "incidents.yaml"
    path.write_text("incidents:\n- title: {zh-Hans: a, zh-Hant: b, en: c}\n  " + body + "\n", encoding="utf-8")
    with pytest.raises(CorpusParseError) as err:
        load_incidents(path)
    assert words in str(err.value)


BAD_ROWS = [
    ("foo\txx\tincident\trevoke_established\t1\tintl\tphrase\t", "unknown language"),
    ("foo\ten\tincident\tno_such\t1\tintl\tphrase\t", "unknown incidents"),
    ("[a-\ten\tcard\tcard\t1\tintl\tregex\ta", "bad regex"),
    ("x\ten\tincident\trevoke_established\t1\tintl\tphrase\t", "too short"),
]


@pytest.mark.parametrize("row, words", BAD_ROWS, ids=[w for _, w in BAD_ROWS])
def test_bad_lexicon_rows_name_the_line(tmp_path: Path, row: str, words: str) -> None:
    path = tmp_path / "lexicon.tsv"
    path.write_text("form\tlang\tkind\tpoints_to\tweight\tusage\tmatch\texample\n" + row + "\n", encoding="utf-8")
    with pytest.raises(CorpusParseError) as err:
        load_lexicon(path)
    assert words in str(err.value) and "line 2" in str(err.value)


STORIES = Path(__file__).resolve().parent.parent / "bench" / "data" / "stories"


STORY_FILES = sorted(p.name for p in STORIES.glob("*.jsonl"))


def _story_rows(name: str) -> list[dict]:
    import json

    return [json.loads(line) for line in (STORIES / name).read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("name", STORY_FILES)
def test_story_files_are_well_formed(name: str) -> None:
    rows = _story_rows(name)
    assert rows and len({r["id"] for r in rows}) == len(rows)
    langs = {name.removesuffix(".jsonl")} if name.removesuffix(".jsonl") in ("en", "zh-Hans", "zh-Hant") \
        else {"en", "zh-Hans", "zh-Hant"}
    bad = [r["id"] for r in rows if r["lang"] not in langs or not 100 <= len(r["text"]) <= 400
           or any(i not in INCIDENTS for i in r["incidents"]) or r["style"] not in ("column", "forum", "note", "exam")
           or r["laws"]["wbf2017"] != INCIDENTS[r["incidents"][0]].primary
           or (r["lang"] == "zh-Hant" and r.get("converted_from") and "將吃" in r["text"])]
    assert bad == []


def test_stories_cover_every_incident_and_ids_are_unique_across_files() -> None:
    rows = [r for name in STORY_FILES for r in _story_rows(name)]
    assert len({r["id"] for r in rows}) == len(rows)
    assert {i for r in rows for i in r["incidents"]} == set(INCIDENTS)
