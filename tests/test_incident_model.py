"""The incident reader of the search (assistant/search/incident_model.py): its pure parts on small arrays,
its model file's checks, its behaviour on fixed stories written here (not its exact scores), the
`reading` of an answer (JSON and text) and a reading chosen by the user."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.errors import BadInput
from assistant.incidents import Incident, load_incidents
from assistant.search.answer_text import answer_text, question_lang, say
from assistant.search.incident_model import (IncidentModelError, incident_channels, law_matrices,
                                             load_incident_models, reading)


def _incident(iid: str, laws: dict[str, tuple[str, ...]]) -> Incident:
    return Incident(iid, "play", {"en": iid}, "", laws["wbf2017"][0], laws)


def test_law_matrices_share_an_incident_among_its_laws() -> None:
    incidents = {"a": _incident("a", {"wbf2017": ("w/62", "w/63"), "ccba1999": ("c/62",)}),
                 "b": _incident("b", {"wbf2017": ("w/16",), "ccba1999": ("c/16",)})}
    gpos = {"law:16": 0, "law:62": 1, "law:63": 2}
    group_of = {"w/62": "law:62", "w/63": "law:63", "c/62": "law:62", "w/16": "law:16", "c/16": "law:16"}
    primary, listed = law_matrices(incidents, ["a", "b"], gpos, group_of)
    assert primary[0].tolist() == [0.0, 1.0, 0.0]            # both editions' primary is Law 62
    assert listed[0].tolist() == [0.0, 0.5, 0.5]
    assert primary[1].tolist() == [1.0, 0.0, 0.0]
    ch = incident_channels(np.array([0.25, 0.75]), primary, listed)
    assert ch["incident_primary"].tolist() == [0.75, 0.25, 0.0]


def test_reading_names_likely_incidents_and_puts_a_chosen_one_first() -> None:
    p = np.array([0.05, 0.6, 0.3, 0.05])
    ids = ["w", "x", "y", "z"]
    assert [i for i, _ in reading(p, ids)] == ["x", "y"]
    assert reading(np.full(4, 0.25) * 0.1, ids) == []
    forced = reading(p, ids, forced="z")
    assert forced[0] == ("z", 1.0) and [i for i, _ in forced[1:]] == ["x", "y"]


def test_a_missing_or_foreign_model_file_is_a_data_error(tmp_path: Path) -> None:
    incidents = load_incidents()
    with pytest.raises(IncidentModelError, match="not built"):
        load_incident_models(incidents, tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"ids": ["no_such_incident"]}), encoding="utf-8")
    with pytest.raises(IncidentModelError, match="no_such_incident"):
        load_incident_models(incidents, bad)


def test_the_shipped_model_covers_the_taxonomy() -> None:
    models = load_incident_models(load_incidents())
    assert set(models.full.ids) == set(load_incidents())
    assert models.full.w.shape[0] == len(models.full.ids) and models.full.w.shape[1] > 0
    assert models.lexicon_only.w.shape[1] == 0


STORIES = [
    ("At trick 6 declarer ruffed a heart although he still had the ♥3. He noticed it himself before anyone "
     "had led to the next trick and put the heart on the table instead. What happens to the ♠2 he ruffed with?",
     {"revoke_corrected", "revoke_established", "penalty_card_disposition"}, {"62", "63", "64", "50"}),
    ("我们在打第12副牌。庄家叫到4♠，西家首攻之前，东家先把♣K面朝上打了出来，说以为轮到他首攻。"
     "庄家问裁判现在该怎么处理这张牌，能不能让西家不出梅花。",
     {"opening_lead_out_of_turn", "lead_out_of_turn_defender", "defender_exposed_card", "penalty_card_disposition"},
     {"54", "56", "49", "50", "41"}),
]


@pytest.fixture(scope="module")
def searcher():  # type: ignore[no-untyped-def]
    from assistant.resources import resources

    return resources().searcher(None)


@pytest.mark.parametrize("story, incidents, laws", STORIES, ids=["revoke-en", "lead-zh"])
def test_a_table_story_is_read_as_its_incident_and_its_law_comes_up(searcher, story, incidents, laws) -> None:  # type: ignore[no-untyped-def]
    ans = searcher.search(story)
    assert ans.answered and ans.reading
    assert ans.reading[0]["incident"] in incidents
    assert {r.number for r in ans.results[:5]} & laws
    item = ans.to_json()["reading"][0]
    assert set(item) == {"incident", "title", "confidence", "laws"}
    assert 0 < item["confidence"] <= 1 and set(item["title"]) == {"en", "zh-Hans", "zh-Hant"}
    assert set(item["laws"]) >= {"wbf2017", "ccba1999"}


def test_a_chosen_reading_brings_its_law_first(searcher) -> None:  # type: ignore[no-untyped-def]
    ans = searcher.search(STORIES[0][0], reading="opening_lead_out_of_turn")
    assert ans.reading[0]["incident"] == "opening_lead_out_of_turn" and ans.reading[0]["confidence"] == 1.0
    assert ans.results[0].number == "54"
    with pytest.raises(BadInput):
        searcher.search(STORIES[0][0], reading="no_such_incident")


def test_a_short_citation_question_names_no_reading(searcher) -> None:  # type: ignore[no-untyped-def]
    assert searcher.search("Law 27").results[0].number == "27"


@pytest.mark.parametrize("question, lang", [("What if dummy revokes?", "en"), ("明手藏牌怎么办", "zh-Hans"),
                                            ("夢家藏牌怎麼辦", "zh-Hant")])
def test_the_text_answer_speaks_the_question_s_language(searcher, question: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert question_lang(question) == lang
    text = answer_text(searcher.search(question))
    assert say("law", lang) in text
    other = [say("chance", lg, p="").strip() for lg in ("en", "zh-Hans", "zh-Hant") if lg != lang]
    assert not any(o in text for o in other if o != say("chance", lang, p="").strip())


def test_a_declined_answer_says_so_in_the_question_s_language(searcher) -> None:  # type: ignore[no-untyped-def]
    ans = searcher.search("麻將一炮三響怎麼算")
    assert not ans.answered and ans.message == say("declined", "zh-Hant")
    assert answer_text(ans).startswith(say("declined", "zh-Hant"))


def test_a_long_story_is_cut_into_windows_of_whole_sentences() -> None:
    from assistant.search.incident_model import SEGMENTS_MAX, segments

    en = ("Board 7: my LHO led the ♠K before it was her turn, partner was on lead. Then on trick 4 declarer "
          "did not follow suit to hearts, and found out two tricks later. What now?")
    parts = segments(en)
    assert len(parts) == 2 and parts[0].endswith("on lead.") and "trick 4" in parts[1]
    zh = "第12副牌。庄家叫到4♠，东家先把♣K面朝上打了出来，说以为轮到他首攻。庄家问裁判现在该怎么处理这张牌，能不能让西家不出梅花。"
    assert len(segments(zh)) == 2
    assert segments("Law 27?") == [] and segments("明手可以提醒庄家吗？") == []
    many = " ".join(f"Sentence number {i} is long enough to stand alone as a window." for i in range(20))
    assert 2 <= len(segments(many)) <= SEGMENTS_MAX


def test_a_story_s_windows_raise_its_second_incident() -> None:
    ch = incident_channels(np.array([0.9, 0.1]), np.eye(2), np.eye(2), np.array([0.9, 0.7]))
    assert ch["incident_segments"].tolist() == [0.9, 0.7] and ch["incident_primary"].tolist() == [0.9, 0.1]


def test_the_word_model_s_sparse_reading_equals_its_dense_vector() -> None:
    from assistant.search.word_model import WordModel
    from assistant.search.lexical import tokenize

    vocab = {tokenize(w)[0]: i for i, w in enumerate(("revoke", "lead", "trick", "claim"))}
    w = np.array([[2.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.5, 3.0]])
    model = WordModel(vocab, np.array([1.0, 1.5, 0.5, 2.0]), w, np.array([0.0, 0.1, -0.1]))
    text = "Revoke on trick 3, another revoke on the next trick"
    x = model.vector(text)
    assert x[3] == 0.0 and x[1] == 0.0 and x[0] > 0 and x[2] > 0 and np.isclose(np.linalg.norm(x), 1.0)
    u = w @ x + model.b
    dense = np.exp(u - u.max()) / np.exp(u - u.max()).sum()
    assert np.allclose(model.probabilities(text), dense) and model.probabilities(text).argmax() == 0
    assert np.allclose(model.probabilities("nothing known here"), np.exp(model.b) / np.exp(model.b).sum())


def test_a_story_s_windows_are_read_without_the_encoder(searcher) -> None:  # type: ignore[no-untyped-def]
    calls = []
    real = searcher.embedder.encode

    def counting(texts):  # type: ignore[no-untyped-def]
        calls.append(len(texts))
        return real(texts)

    story = ("Board 7: my LHO led the ♠K before it was her turn, partner was on lead. Then on trick 4 declarer "
             "did not follow suit to hearts, and found out two tricks later. What now?")
    whole = searcher.read_incidents(story, real([story])[0])
    searcher.embedder.encode = counting
    try:
        best = searcher.read_segments(story, whole)
    finally:
        searcher.embedder.encode = real
    assert calls == [] and np.all(best >= whole) and not np.allclose(best, whole)
    assert searcher.window_reader.model.w.shape[1] == 0


def test_the_ranker_s_story_features_vanish_for_a_one_line_question() -> None:
    from assistant.search.fusion import BASE_FEATURES, FEATURES, features

    valid = np.array([True, True, False])
    ch = {"lexical": np.array([2.0, 1.0, 0.0]), "incident_primary": np.array([0.7, 0.0, 0.0]),
          "incident_segments": np.array([0.8, 0.1, 0.0]), "incident_listed": np.array([0.5, 0.2, 0.0])}
    kind = np.array(["law", "law", "law"])
    hand = np.array([1.0, 0.5, 0.0])
    short = features(ch, valid, kind, False, hand, 20.0, story=0.0)
    told = features(ch, valid, kind, False, hand, 20.0, story=1.0)
    n = len(BASE_FEATURES)
    assert short.shape == told.shape == (3, len(FEATURES))
    assert np.all(short[:, n:] == 0.0) and np.allclose(told[:, :n], told[:, n:2 * n])
    log_primary = told[:, FEATURES.index("story_log_incident_primary")]
    assert log_primary[0] > log_primary[1] and np.isfinite(log_primary).all()


def test_the_encoder_reads_a_long_question_s_head_only() -> None:
    from assistant.search.embedders import ENCODE_CHARS, encoder_text

    short = "East led out of turn and declarer accepted it"
    assert encoder_text(short) == short
    long_en, long_zh = "x" * 5000, "首攻" * 1000
    assert encoder_text(long_en) == long_en[: ENCODE_CHARS[0]] and encoder_text(long_zh) == long_zh[: ENCODE_CHARS[1]]
    assert ENCODE_CHARS[1] >= 400        # every story of the corpus (100-400 characters) is read whole
