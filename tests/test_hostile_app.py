"""Hostile input in the app (streamlit AppTest): URL parameters and typed questions never reach a
traceback, and a Chinese page never shows an exception's English text.

Search is the small stand-in of tests/test_app.py (FakeSearch: real Answers from the corpus), so no index
is built; everything else is real. Property tests: a fast profile by default, BRIDGELAW_FUZZ=deep for more.
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from test_app import FakeSearch, run

DEEP = os.environ.get("BRIDGELAW_FUZZ") == "deep"

# what an exception's English text looks like ("unknown ruling topic: … — no tree file trees/….yaml")
ENGLISH = re.compile(r"unknown|choose from|nearest existing|no tree file|too long|empty query|nothing to search|"
                     r"cannot|not in the|traceback|error|\.ya?ml\b|\.py\b|— try|Errno", re.I)


@pytest.fixture(autouse=True)
def quiet_app(monkeypatch, corpus):  # type: ignore[no-untyped-def]
    """No background warm-up (it would load the real index), and the stand-in search."""
    from assistant.ui import services

    monkeypatch.setattr(services, "warm_in_background", lambda: None)
    monkeypatch.setattr(services, "searcher", lambda: FakeSearch(corpus))


def messages_shown(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in [*at.error, *at.warning, *at.info, *at.exception])


def english_in(at: AppTest, *typed: str) -> list[str]:
    """English exception phrases in the page's boxes, the user's own text (escaped or not) left out."""
    text = messages_shown(at).replace("\\", "")
    for t in typed:
        if t:
            text = text.replace(t, "").replace(t[:80], "")
    return ENGLISH.findall(text)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("params", [
    {"page": "rule", "topic": "999.999"},                     # unknown topic
    {"page": "rule", "topic": "revoke", "edition": "nope"},   # unknown edition
    {"page": "score", "ed": "nope", "c": "4H="},              # unknown edition
    {"page": "ask", "q": "x" * 3000},                         # too long a question
    {"page": "ask", "q": "🂡😀🎉"},                            # nothing to search
    {"page": "nope"},                                         # unknown page
], ids=lambda p: "-".join(f"{k}={v[:12]}" for k, v in p.items()) if isinstance(p, dict) else p)
def test_a_chinese_page_shows_no_english_exception_text(params: dict[str, str], lang: str) -> None:
    at = run(**params, lang=lang)
    assert not at.exception
    assert not english_in(at, *params.values()), messages_shown(at)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_an_unknown_topic_is_said_in_chinese(lang: str) -> None:
    at = run(page="rule", topic="999.999", lang=lang)
    assert at.error and "999" in at.error[0].value and "裁" in at.error[0].value
    assert not english_in(at, "999.999"), at.error[0].value


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_an_unknown_clause_id_is_said_in_chinese(lang: str) -> None:
    at = run(page="law", id="wbf2017/law/999", lang=lang)
    assert at.error and not at.exception
    assert not english_in(at, "wbf2017/law/999"), at.error[0].value


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("typed", ["", "   ", "x" * 3000, "\u202e\x00"])
def test_an_empty_or_too_long_typed_question_is_said_in_chinese(lang: str, typed: str) -> None:
    at = run(page="ask", lang=lang)
    at.text_input(key="ask_q").input(typed)
    at.button(key="ask_go").click().run()
    assert not at.exception
    assert at.warning or at.info or at.caption
    assert not english_in(at, typed), messages_shown(at)


def test_url_parameters_are_cleaned_at_the_edge() -> None:
    at = run(page="ask", q="dummy\u202e \x00points\u2066 e\u0301", lang="en")   # (a URL cannot carry surrogates)
    q = at.query_params["q"]
    assert (q[0] if isinstance(q, list) else q) == "dummy points \u00e9"
    assert not at.exception


NASTY = ["\x00", "\u202e", "\u2066", "😀", "{", "[", "'", "<script>", "../", "x" * 300, "第64条", "64A1",
         "wbf2017/law/64", "revoke", "%00", "\n"]
param_text = st.one_of(st.text(st.characters(codec="utf-8"), max_size=30), st.lists(st.sampled_from(NASTY), max_size=5).map("".join))


@settings(max_examples=200 if DEEP else 25, deadline=None, derandomize=not DEEP,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(page=st.sampled_from(["ask", "law", "rule", "compare", "glossary", "score", "exam"]),
       params=st.dictionaries(st.sampled_from(["q", "id", "topic", "edition", "a", "class", "chapter", "ed", "c",
                                               "d", "vul"]), param_text, max_size=3),
       lang=st.sampled_from(["zh-Hans", "zh-Hant"]))
def test_property_url_parameters(page: str, params: dict[str, str], lang: str) -> None:
    at = run(page=page, lang=lang, **params)
    assert not at.exception, (page, params)
    assert not english_in(at, *params.values()), (page, params, messages_shown(at))
