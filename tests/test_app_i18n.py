"""Every page of the app speaks the interface language: on a zh-Hans or zh-Hant page no English word
of the interface, no internal value (`which_law`, `wbf2017`, `medium`), no file name or clause id
outside the "details" control. Law text (the other editions, folded) and proper names are exempt.

AppTest over every page and state (ask answered and declined, a law, an article, a definition, the
wizard's first question and a ruling, compare, glossary, exam generated, score)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
# proper names and format names that stay as they are in every language
# ("English" is the language picker's endonym, as every site names its languages)
PROPER = {"wbf", "ccba", "imp", "imps", "anki", "csv", "html", "markdown", "nt", "en", "english"}
INTERNAL = re.compile(r"\b(?:[a-z]+_[a-z_]+|ccba1999|ccba2018|wbf2017|guandan2017|easy|medium|hard)\b"
                      r"|\.txt\b|\b\d{3}_[0-9a-f]{6,}|\w+/(?:law|article|definition|policy)/\w+")


class _Search:
    """Answers every question with Law 64 of each edition (the real index is not needed here)."""

    def __init__(self, corpus) -> None:  # type: ignore[no-untyped-def]
        self.corpus = corpus

    def search(self, query: str, edition: str | None = None, lang: str | None = None, top: int = 5):  # type: ignore[no-untyped-def]
        from assistant.search.hybrid import Answer, ClauseHit, Result

        searched = {"game": "bridge", "editions": ["ccba1999", "ccba2018", "wbf2017"], "tokens": query.split()[:5]}
        if "weather" in query or "天气" in query:
            return Answer(query, False, [], searched, "no applicable clause found")
        hits = [ClauseHit(f"{ed}/law/64/A/1", ed, lg, self.corpus.clause(f"{ed}/law/64/A/1").title.get(lg, ""),
                          self.corpus.clause(f"{ed}/law/64/A/1").text.get(lg, ""))
                for ed, lg in (("ccba1999", "zh-Hans"), ("ccba2018", "zh-Hans"), ("wbf2017", "en"), ("wbf2017", "zh-Hant"))]
        return Answer(query, True, [Result("law", "64", 0.9, True, "revoke", hits, why="revoke named")], searched)

    def clause_titles(self, clause_id: str) -> dict[str, str] | None:
        c = self.corpus.editions[clause_id.split("/", 1)[0]].clauses.get(clause_id)
        return dict(c.title) if c is not None else None


@pytest.fixture(autouse=True)
def fake_search(monkeypatch, corpus):  # type: ignore[no-untyped-def]
    from assistant.ui import services

    monkeypatch.setattr(services, "warm_in_background", lambda: None)
    monkeypatch.setattr(services, "searcher", lambda: _Search(corpus))


def _english_words() -> set[str]:
    """Words of the English interface that a Chinese page must not show."""
    from assistant.ui.i18n import strings

    words: set[str] = set()
    zh = " ".join(v[lg] for v in strings().values() for lg in ("zh-Hans", "zh-Hant")).casefold()
    for v in strings().values():
        for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[a-z_]+\}", "", v["en"])):
            if w.casefold() not in PROPER and w.casefold() not in zh:
                words.add(w.casefold())
    return words


def _folded_labels(lang: str) -> tuple[str, ...]:
    """Labels of the controls that fold law text or developer details (exempt from the check)."""
    from assistant.ui.i18n import t

    return (t("details", lang), t("law_other_editions", lang).split("{")[0] or "其他",
            t("law_other_languages", lang).split("{")[0], t("ask_other_editions", lang).split("{")[0])


def _chrome(node, folded: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """The interface texts of a page: labels, options, captions, headings, messages; not markdown bodies
    (law text), not inside folded controls."""
    for c in getattr(node, "children", {}).values():
        typ = getattr(c, "type", "")
        if typ == "expander":
            label = c.proto.label if hasattr(c.proto, "label") else ""
            if any(label.startswith(f) for f in folded if f):
                continue
            yield label
        if typ in ("caption", "header", "subheader", "error", "warning", "info", "success"):
            yield c.value
        elif typ in ("button", "download_button", "toggle", "text_input", "number_input", "radio", "selectbox",
                     "multiselect", "button_group"):
            yield getattr(c, "label", "")
            for o in getattr(c, "options", []) or []:
                yield str(o)
        elif typ == "page_link":
            yield c.proto.label
        yield from _chrome(c, folded)


STATES = [
    {"page": "ask"}, {"page": "ask", "q": "庄家藏牌"}, {"page": "ask", "q": "今天天气"},
    {"page": "law"}, {"page": "law", "id": "wbf2017/law/64"}, {"page": "law", "id": "ccba2018/article/22"},
    {"page": "law", "id": "wbf2017/definition/dummy"}, {"page": "rule"}, {"page": "rule", "topic": "revoke"},
    {"page": "compare"}, {"page": "glossary", "q": "明手"}, {"page": "exam"}, {"page": "score", "c": "4HX+1"},
]


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("state", STATES, ids=lambda s: "-".join(s.values()))
def test_no_english_interface_word_on_a_chinese_page(lang: str, state: dict[str, str]) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in {**state, "lang": lang}.items():
        at.query_params[k] = v
    at.run()
    if state["page"] == "exam":
        at.button(key="exam_generate").click().run()
        preview = "\n".join(m.value for m in at.markdown)
        assert "## 1." in preview and not re.search(r"\b(?:easy|medium|hard|which_law|zh-Han[st])\b", preview)
    assert not at.exception
    english, folded = _english_words(), _folded_labels(lang)
    bad = []
    for text in _chrome(at.main, folded):
        text = str(text or "")
        found = {w for w in re.findall(r"[A-Za-z]{3,}", text) if w.casefold() in english}
        if found or INTERNAL.search(text):
            bad.append((sorted(found), INTERNAL.findall(text), text[:120]))
    assert not bad, bad


def test_the_check_sees_an_english_label() -> None:
    """The checker is not blind: the English interface of the same page fails it."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["page"] = "law"
    at.query_params["lang"] = "en"
    at.run()
    english = _english_words()
    assert any(re.findall(r"[A-Za-z]{3,}", str(x)) and any(w.casefold() in english for w in re.findall(r"[A-Za-z]{3,}", str(x)))
               for x in _chrome(at.main, _folded_labels("en")))


@pytest.mark.parametrize("locale, accept, lang", [
    ("zh-CN", None, "zh-Hans"), ("zh-TW", None, "zh-Hant"), ("zh-HK", None, "zh-Hant"), ("zh-Hant-TW", None, "zh-Hant"),
    ("zh", None, "zh-Hans"), ("en-GB", None, "en"), ("fr-FR", "fr;q=1, en;q=0.8", "en"), (None, "zh-tw,zh;q=0.9", "zh-Hant"),
    ("de-DE", "de", "zh-Hans"), (None, None, "zh-Hans"),
])
def test_the_browser_language_picks_the_interface(locale: str | None, accept: str | None, lang: str) -> None:
    from assistant.ui.i18n import browser_lang

    assert browser_lang(locale, accept) == lang


def _concepts_with_notes() -> list[str]:
    from assistant.terminology import load_terminology

    return sorted(c.id for c in load_terminology().concepts.values() if c.note)


@pytest.mark.parametrize("concept", _concepts_with_notes())
def test_every_glossary_note_is_written_for_readers(concept: str) -> None:
    """Each note of the crosswalk (developer English in terms.tsv) has a reader's note in every language,
    with no edition tag or developer shorthand ('collision:', 'TW', 'wbf2017 zh-Hant')."""
    from assistant.ui.i18n import strings

    tri = strings().get(f"gloss_note_{concept}")
    assert tri, f"add gloss_note_{concept} to ui_strings.yaml"
    for lang, text in tri.items():
        assert not re.search(r"collision|\bTW\b|ccba\d{4}|wbf\d{4}|zh-Han[st]", text), (lang, text)
        if lang != "en":
            assert not re.search(r"[A-Za-z]{3,}", text), (lang, text)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_the_glossary_shows_the_note_in_the_interface_language(lang: str) -> None:
    from assistant.terminology import load_terminology
    from assistant.ui.i18n import t

    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in {"page": "glossary", "q": "賽員", "lang": lang}.items():
        at.query_params[k] = v
    at.run()
    shown = "\n".join(c.value for c in at.caption)
    raw = [c.note for c in load_terminology().concepts.values() if c.note]
    assert t("gloss_note_contestant", lang) in shown.replace("\\", ""), shown
    assert not any(n in shown for n in raw)
    assert not at.exception
