"""The Ask page's "Read as" line (answer.reading): the first reading's title in the interface language
and its law as a link in the user's edition, the other readings as links that ask again with that
reading chosen; a chosen reading reaches the search, an unknown one is named and left out."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from test_app import follow, links

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
READINGS = [
    {"incident": "revoke", "title": {"zh-Hans": "藏牌", "zh-Hant": "藏牌（繁）", "en": "Revoke"}, "confidence": 0.8,
     "laws": {"ccba1999": "ccba1999/law/64", "ccba2018": "ccba2018/law/63", "wbf2017": "wbf2017/law/64"}},
    {"incident": "lead_out_of_turn", "title": {"zh-Hans": "首攻出错", "zh-Hant": "首攻出錯", "en": "Lead out of turn"},
     "confidence": 0.1, "laws": {"ccba2018": "ccba2018/law/54", "wbf2017": "wbf2017/law/54"}},
]


class ReadingSearch:
    """Law 64 for every question, read as the READINGS (a chosen reading first)."""

    incidents = {r["incident"]: r for r in READINGS}

    def __init__(self, corpus) -> None:  # type: ignore[no-untyped-def]
        self.corpus = corpus
        self.chosen: list[str | None] = []

    def search(self, query: str, edition: str | None = None, lang: str | None = None, top: int = 5,  # type: ignore[no-untyped-def]
               reading: str | None = None):
        from assistant.search.hybrid import Answer, ClauseHit, Result

        self.chosen.append(reading)
        c = self.corpus.clause("wbf2017/law/64/A/1")
        hits = [ClauseHit(c.id, "wbf2017", "en", "", c.text["en"])]
        order = sorted(READINGS, key=lambda r: r["incident"] != reading) if reading else READINGS
        return Answer(query, True, [Result("law", "64", 0.9, False, "revoke", hits)],
                      {"game": "bridge", "editions": ["wbf2017"], "tokens": query.split()}, reading=list(order))

    def clause_titles(self, clause_id: str) -> dict[str, str] | None:
        c = self.corpus.editions[clause_id.split("/", 1)[0]].clauses.get(clause_id)
        return dict(c.title) if c is not None else None


@pytest.fixture()
def search(monkeypatch, corpus):  # type: ignore[no-untyped-def]
    from assistant.ui import services

    fake = ReadingSearch(corpus)
    monkeypatch.setattr(services, "warm_in_background", lambda: None)
    monkeypatch.setattr(services, "searcher", lambda: fake)
    return fake


def _run(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception
    return at


@pytest.mark.parametrize("lang, edition, law", [("zh-Hans", "ccba2018", "第63条"), ("zh-Hant", "wbf2017", "第64條"),
                                                ("en", "wbf2017", "Law 64")])
def test_the_first_reading_names_its_law_in_the_users_edition(search, lang: str, edition: str, law: str) -> None:  # type: ignore[no-untyped-def]
    from assistant.ui.i18n import t

    at = _run(page="ask", q="revoke", lang=lang)
    line = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert t("ask_read_as", lang, title=READINGS[0]["title"][lang]) in line  # type: ignore[index]
    target = links(at)["ask_reading_law"]
    assert target.proto.label == law  # type: ignore[attr-defined]
    assert parse_qs(target.proto.query_string)["id"] == [READINGS[0]["laws"][edition]]  # type: ignore[attr-defined, index]


def test_another_reading_asks_again_with_that_reading(search) -> None:  # type: ignore[no-untyped-def]
    at = _run(page="ask", q="my question", lang="en", only="1")
    assert search.chosen == [None]
    other = links(at)["ask_reading_0"]
    qs = parse_qs(other.proto.query_string)  # type: ignore[attr-defined]
    assert qs["reading"] == ["lead_out_of_turn"] and qs["q"] == ["my question"] and qs["only"] == ["1"]
    assert other.proto.label == "Lead out of turn"  # type: ignore[attr-defined]
    follow(at, "ask_reading_0")
    assert search.chosen[-1] == "lead_out_of_turn" and not at.exception
    assert links(at)["ask_reading_law"].proto.label == "Law 54"  # type: ignore[attr-defined]


def test_an_unknown_reading_in_the_link_is_named_and_left_out(search) -> None:  # type: ignore[no-untyped-def]
    at = _run(page="ask", q="revoke", lang="en", reading="<no such>")
    assert at.warning and "no such" in at.warning[0].value
    assert search.chosen == [None]


def test_no_reading_no_line(monkeypatch, corpus) -> None:  # type: ignore[no-untyped-def]
    from test_app import FakeSearch

    from assistant.ui import services

    monkeypatch.setattr(services, "warm_in_background", lambda: None)
    monkeypatch.setattr(services, "searcher", lambda: FakeSearch(corpus))
    at = _run(page="ask", q="revoke", lang="en")
    assert "ask_reading_law" not in links(at) and at.get("page_link")
