"""The Streamlit app through streamlit.testing.v1.AppTest: each page's main path and hostile input.

Search is replaced by a small stand-in (`FakeSearch`) returning real `Answer`s built from the corpus,
so these tests do not need the embedding index; the browser test (tests/test_browser.py) runs the real
one. Everything else (corpus, citations, terminology, ruling trees, diff) is the real thing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from assistant.errors import BadQuery

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
TIMEOUT = 60


class FakeSearch:
    """Answers 'revoke' questions with Law 64 of each edition, declines weather questions."""

    def __init__(self, corpus) -> None:  # type: ignore[no-untyped-def]
        self.corpus = corpus
        self.calls: list[str] = []

    def search(self, query: str, edition: str | None = None, lang: str | None = None, top: int = 5):  # type: ignore[no-untyped-def]
        from assistant.search.hybrid import Answer, ClauseHit, Result

        self.calls.append(query)
        if not re.search(r"\w", query):
            raise BadQuery("nothing to search — only symbols — describe the situation in words")
        searched = {"game": "bridge", "editions": ["ccba1999", "ccba2018", "wbf2017"], "tokens": query.split()[:5]}
        if "weather" in query:
            return Answer(query, False, [], searched, "no applicable clause found")
        hits = []
        for ed, lang_ in (("ccba1999", "zh-Hans"), ("ccba2018", "zh-Hans"), ("wbf2017", "en"), ("wbf2017", "zh-Hant")):
            c = self.corpus.clause(f"{ed}/law/64/A/1")
            hits.append(ClauseHit(c.id, ed, lang_, c.title.get(lang_, ""), c.text.get(lang_, "")))
        return Answer(query, True, [Result("law", "64", 1.0, True, "revoke", hits)], searched)

    def clause_titles(self, clause_id: str) -> dict[str, str] | None:
        ed = clause_id.split("/", 1)[0]
        c = self.corpus.editions[ed].clauses.get(clause_id)
        return dict(c.title) if c is not None else None


@pytest.fixture(autouse=True)
def no_warm_up(monkeypatch):  # type: ignore[no-untyped-def]
    """The app's background warm-up would load the real search index inside the test process."""
    from assistant.ui import services

    monkeypatch.setattr(services, "warm_in_background", lambda: None)


@pytest.fixture()
def fake_search(monkeypatch, corpus):  # type: ignore[no-untyped-def]
    from assistant.ui import services

    fake = FakeSearch(corpus)
    monkeypatch.setattr(services, "searcher", lambda: fake)
    return fake


def run(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    return at


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [h.value for h in at.header]
    parts += [e.value for e in at.error] + [w.value for w in at.warning] + [i.value for i in at.info]
    parts += [s.value for s in at.success] + [b.label for b in at.button] + [s.value for s in at.subheader]
    parts += [x.proto.label for x in at.get("page_link")] + [e.label for e in at.expander]
    return "\n".join(str(p) for p in parts)


def _blocks(node):  # type: ignore[no-untyped-def]
    for c in getattr(node, "children", {}).values():
        yield c
        yield from _blocks(c)


def _key_of(node) -> str:  # type: ignore[no-untyped-def]
    """The user key of a keyed container ('$$ID-<hash>-<key>'), '' for others."""
    bid = getattr(getattr(node, "proto", None), "id", "") or ""
    return bid.split("-", 2)[2] if bid.startswith("$$ID-") and bid.count("-") >= 2 else ""


def links(at: AppTest) -> dict[str, object]:
    """Every link (st.page_link in a keyed container, render.link) by its key."""
    out = {}
    for b in _blocks(at.main):
        k = _key_of(b)
        if k:
            pl = next((e for e in _blocks(b) if getattr(e, "type", "") == "page_link"), None)
            if pl is not None:
                out[k] = pl
    return out


def keys(at: AppTest, prefix: str) -> list[str]:
    """Keys of buttons and links starting with `prefix`."""
    return [b.key for b in at.button if b.key and b.key.startswith(prefix)] + \
        [k for k in links(at) if k.startswith(prefix)]


def follow(at: AppTest, key: str) -> AppTest:
    """Follow a link as the browser does: its href's query string becomes the URL, and the app runs."""
    from urllib.parse import parse_qsl

    target = links(at)[key]
    for k in list(at.query_params):
        del at.query_params[k]
    for k, v in parse_qsl(target.proto.query_string):  # type: ignore[attr-defined]
        at.query_params[k] = v
    return at.run()


def qp(at: AppTest, key: str) -> str:
    v = at.query_params.get(key, "")
    return v[0] if isinstance(v, list) else v


# ------------------------------------------------------------------------------------ ask


def test_ask_main_path_groups_editions_and_opens_the_law(fake_search) -> None:  # type: ignore[no-untyped-def]
    at = run(lang="en")
    at.text_input(key="ask_q").input("declarer revoked, established")
    at.button(key="ask_go").click().run()
    assert at.query_params["q"] == ["declarer revoked, established"] or at.query_params["q"] == "declarer revoked, established"
    body = texts(at)
    assert "Law 64" in body and "Editions differ" in body
    assert "wbf2017/law/64/A/1" in body and "ccba1999/law/64/A/1" in body
    assert fake_search.calls == ["declarer revoked, established"]
    follow(at, "ask_open_0")
    assert at.query_params["page"] in ("law", ["law"])
    assert at.header and "64" in at.header[0].value
    assert not at.exception


def test_ask_from_a_shared_url_declines_with_what_was_searched(fake_search) -> None:  # type: ignore[no-untyped-def]
    at = run(page="ask", q="what is the weather", lang="en")
    assert any("No applicable clause found" in w.value for w in at.warning)
    assert "ccba1999" in texts(at) or "CCBA 1999" in texts(at)
    assert not at.exception


def test_ask_offers_the_ruling_tree_when_a_topic_matches(fake_search) -> None:  # type: ignore[no-untyped-def]
    from assistant.ui import services

    trees = services.trees()
    topic, tree = next(iter(trees.items()))
    trigger = tree.triggers["en"][0]
    at = run(page="ask", q=f"at the table: {trigger}", lang="en")
    assert f"ask_rule_{topic}" in keys(at, "ask_rule_")
    follow(at, f"ask_rule_{topic}")
    assert at.query_params["topic"] in (topic, [topic])
    assert not at.exception


def test_ask_query_text_is_shown_literally_not_as_markdown(fake_search) -> None:  # type: ignore[no-untyped-def]
    at = run(page="ask", q="**bold** [x](http://evil.example) :red[y]", lang="en")
    head = next(c.value for c in at.caption if "Results for" in c.value)
    assert "\\*\\*bold\\*\\*" in head and "\\[x\\]\\(" in head and "\\:red\\[" in head
    assert not at.exception


@pytest.mark.parametrize("query, words", [
    ("", "Please type a question"),
    ("x" * 10_000, "too long"),
    ("🂡😀🎉", "Cannot search"),
    ("   ", "Please type a question"),
])
def test_ask_bad_input_shows_a_message(fake_search, query: str, words: str) -> None:  # type: ignore[no-untyped-def]
    at = run(lang="en")
    at.text_input(key="ask_q").input(query)
    at.button(key="ask_go").click().run()
    shown = "\n".join([w.value for w in at.warning] + [i.value for i in at.info] + [c.value for c in at.caption])
    assert words in shown, shown
    assert fake_search.calls == []
    assert not at.exception


# ------------------------------------------------------------------------------------ laws


def test_laws_index_lists_chapters_and_opens_a_law() -> None:
    at = run(page="law", lang="en")
    assert "law_idx_64" in keys(at, "law_idx_")
    assert len(at.expander) > 10
    follow(at, "law_idx_64")
    assert "64" in at.header[0].value
    assert not at.exception


def test_law_shows_editions_side_by_side_with_footnotes_sources_and_citations() -> None:
    at = run(page="law", id="wbf2017/law/64", lang="en")
    body = texts(at)
    for label in ("CCBA 1999 (zh-Hans)", "CCBA 2018 (zh-Hans)", "WBF 2017 English", "WBF 2017 (zh-Hant)"):
        assert label in body
    plain = body.replace("\\", "")
    assert "Source: 004_" in plain and "Source: 000_" in plain
    assert at.toggle(key="law_redlines").value is True
    assert ":red-background[~~" in body and ":green-background[" in body
    cites = keys(at, "law_cite_")
    assert cites, "Law 64 cites other laws"
    target = links(at)[cites[0]].proto.help.split("→")[-1].strip()
    follow(at, cites[0])
    qp = at.query_params["id"]
    assert (qp[0] if isinstance(qp, list) else qp) == target.replace("\\", "")
    assert not at.exception


def test_law_focus_on_a_clause_and_cited_by() -> None:
    at = run(page="law", id="wbf2017/law/69/A", lang="en")
    assert "law_whole" in keys(at, "law_")
    assert keys(at, "law_citedby_"), "69A is cited by Law 63"
    assert not at.exception


@pytest.mark.parametrize("bad", ["wbf2017/law/999", "wbf2017/law/64/Z/9", "<script>alert(1)</script>",
                                 "ccba2018/footnote/1", "x" * 5000, "😀"])
def test_law_unknown_id_in_the_url_shows_a_message(bad: str) -> None:
    at = run(page="law", id=bad, lang="en")
    assert at.error and "No such clause" in at.error[0].value
    assert "law_back_err" in keys(at, "law_")
    assert not at.exception


def test_law_nearest_existing_clause_is_offered() -> None:
    at = run(page="law", id="wbf2017/law/64/A/9", lang="en")
    assert "law_nearest" in keys(at, "law_")
    assert not at.exception


def test_definition_and_article_pages() -> None:
    at = run(page="law", id="wbf2017/definition/dummy", lang="en")
    assert "Definition" in at.header[0].value
    at = run(page="law", id="ccba2018/article/22", lang="zh-Hans")
    assert "竞赛规则第22条" in at.header[0].value
    assert not at.exception


# ------------------------------------------------------------------------------------ rulings


def _walk_to_ruling(at: AppTest) -> AppTest:
    for _ in range(40):
        if keys(at, "rule_cite_"):
            return at
        at.button(key="rule_opt_0").click().run()
    raise AssertionError("no ruling after 40 answers")


def test_ruling_wizard_answers_to_the_end_with_back() -> None:
    from assistant.ui import services

    topic = sorted(services.trees())[0]
    at = run(page="rule", lang="en")
    follow(at, f"rule_topic_{topic}")
    at.button(key="rule_opt_0").click().run()
    first = at.query_params["a"]
    at.button(key="rule_back").click().run()
    assert "a" not in at.query_params or at.query_params["a"] in ("", [""])
    at.button(key="rule_opt_0").click().run()
    assert at.query_params["a"] == first
    at = _walk_to_ruling(at)
    body = texts(at)
    assert "Ruling" in body and "Based on (WBF 2017)" in body or "Based on" in body
    assert at.success, "the outcome is shown"
    follow(at, "rule_cite_0")
    assert at.query_params["page"] in ("law", ["law"])
    assert not at.exception


def test_ruling_edition_switch_and_shared_url() -> None:
    from assistant.ui import services

    topic, tree = next((t, tr) for t, tr in services.trees().items() if "ccba1999" in tr.editions)
    at = run(page="rule", topic=topic, edition="ccba1999", lang="zh-Hant")
    assert at.radio(key="rule_edition").value == "ccba1999"
    at.radio(key="rule_edition").set_value("wbf2017").run()
    assert at.query_params["edition"] in ("wbf2017", ["wbf2017"])
    assert not at.exception


@pytest.mark.parametrize("params, words", [
    ({"topic": "no_such_topic"}, "Unknown ruling topic"),
    ({"topic": "<b>x</b>" * 100}, "Unknown ruling topic"),
])
def test_ruling_unknown_topic_shows_a_message(params: dict[str, str], words: str) -> None:
    at = run(page="rule", lang="en", **params)
    assert at.error and words in at.error[0].value
    assert keys(at, "rule_topic_"), "the known topics are offered"
    assert not at.exception


@pytest.mark.parametrize("path", ["9.9.9", "abc", "0." * 200, "-1"])
def test_ruling_bad_answers_in_the_url_restart(path: str) -> None:
    from assistant.ui import services

    topic = sorted(services.trees())[0]
    at = run(page="rule", topic=topic, a=path, lang="en")
    assert any("not valid" in w.value for w in at.warning)
    assert "rule_opt_0" in keys(at, "rule_opt_")
    assert not at.exception


# ------------------------------------------------------------------------------------ compare, glossary


def test_compare_filters_by_class_and_chapter() -> None:
    at = run(page="compare", lang="en")
    assert keys(at, "cmp_open_")
    at.multiselect(key="cmp_class").set_value(["substantive"]).run()
    assert at.query_params["class"] in ("substantive", ["substantive"])
    assert all("substantive" in m.value for m in at.markdown if ":orange-badge[" in m.value)
    chapters = at.selectbox(key="cmp_chapter").options
    at.selectbox(key="cmp_chapter").set_value("ccba2018/part/2/chapter/6").run()
    assert at.query_params["chapter"] in ("6", ["6"])
    assert len(chapters) > 5
    assert not at.exception


def test_compare_bad_filters_in_the_url() -> None:
    at = run(page="compare", **{"class": "bogus,<x>", "chapter": "99"}, lang="en")
    assert at.info and "No changes match" in at.info[0].value
    assert not at.exception


@pytest.mark.parametrize("term", ["明手", "夢家", "Dummy", "DUMMY"])
def test_glossary_finds_a_term_in_any_script(term: str) -> None:
    at = run(page="glossary", lang="en")
    at.text_input(key="gloss_q").input(term).run()
    body = texts(at)
    assert "夢家" in body and "明手" in body and "Dummy" in body
    assert not at.exception


@pytest.mark.parametrize("term", ["zzzz-not-a-term", "😀", "x" * 10_000])
def test_glossary_unknown_term(term: str) -> None:
    at = run(page="glossary", q=term, lang="en")
    assert at.info and "Nothing found" in at.info[0].value
    assert not at.exception


# ------------------------------------------------------------------------------------ app shell


def test_language_switch_changes_the_labels() -> None:
    at = run(page="law", lang="zh-Hans")
    assert "复式桥牌规则" in texts(at)
    at.segmented_control(key="hdr_lang").set_value("en").run()
    assert qp(at, "lang") == "en" and qp(at, "page") == "law"
    assert "Laws of Duplicate Bridge (Laws 1–93)" in texts(at)
    at.segmented_control(key="hdr_lang").set_value("zh-Hant").run()
    assert "複式橋牌規則" in texts(at)
    assert at.selectbox(key="hdr_pref").value == "wbf2017", "zh-Hant reads WBF 2017 first"
    assert not at.exception


def test_language_switch_keeps_the_page_and_its_question(fake_search) -> None:  # type: ignore[no-untyped-def]
    at = run(page="ask", q="revoke", lang="en")
    at.segmented_control(key="hdr_lang").set_value("zh-Hans").run()
    assert qp(at, "q") == "revoke" and qp(at, "lang") == "zh-Hans"
    assert not at.exception


@pytest.mark.parametrize("lang, edition", [("zh-Hans", "ccba2018"), ("zh-Hant", "wbf2017"), ("en", "wbf2017")])
def test_default_edition_follows_the_language(lang: str, edition: str) -> None:
    at = run(page="law", lang=lang)
    assert at.selectbox(key="hdr_pref").value == edition
    assert links(at)["law_idx_64"].proto.query_string.count(f"{edition}%2Flaw%2F64") == 1
    assert not at.exception


def test_edition_preference_is_kept_in_the_url() -> None:
    at = run(page="law", lang="en")
    at.selectbox(key="hdr_pref").set_value("ccba1999").run()
    assert qp(at, "pref") == "ccba1999"
    follow(at, "law_idx_64")
    assert qp(at, "id") == "ccba1999/law/64" and qp(at, "pref") == "ccba1999"
    assert not at.exception


def test_links_carry_language_and_edition_and_have_an_href() -> None:
    at = run(page="law", id="wbf2017/law/64", lang="zh-Hant", pref="ccba1999")
    found = links(at)
    assert found, "a law page links to other laws"
    for key, pl in found.items():
        q = pl.proto.query_string  # type: ignore[attr-defined]
        assert q.startswith("page=") and "lang=zh-Hant" in q and "pref=ccba1999" in q, (key, q)
    assert not at.exception


@pytest.mark.parametrize("page", ["nope", "<script>", "😀" * 50])
def test_unknown_page_falls_back_to_ask(page: str) -> None:
    at = run(page=page, lang="en")
    assert at.warning and "There is no page" in at.warning[0].value
    assert not at.exception


def test_every_label_has_three_languages_and_every_used_key_exists() -> None:
    from assistant.ui.i18n import UI_LANGS, strings

    table = strings()
    assert all(set(v) == set(UI_LANGS) and all(v.values()) for v in table.values())
    used = set()
    for path in [REPO / "app.py", *(REPO / "assistant" / "ui").glob("*.py")]:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_\-]+)["']""", path.read_text(encoding="utf-8")))
    dynamic = [f"ed_{e}" for e in ("ccba1999", "ccba2018", "wbf2017", "guandan2017")]
    from assistant.diff.report import CLASSES

    dynamic += [f"class_{c}" for c in CLASSES]
    dynamic += [f"side_{s}" for s in ("offender", "offender_partner", "offending_side", "non_offending_side",
                                      "declarer", "defenders", "lho", "director", "players")]
    missing = sorted(k for k in (used | set(dynamic)) if k not in table and not k.endswith("_"))
    assert not missing, f"labels used but not in ui_strings.yaml: {missing}"


def test_no_unsafe_html_and_markdown_is_escaped() -> None:
    from assistant.ui.render import esc

    for path in [REPO / "app.py", *(REPO / "assistant" / "ui").glob("*.py")]:
        assert not re.search(r"unsafe_allow_html\s*=", path.read_text(encoding="utf-8")), path
    s = esc("**bold** [x](javascript:alert(1)) :red[y] $x$ <b>")
    assert "**" not in s.replace("\\*", "") and "](" not in s.replace("\\]\\(", "")
    assert ":red[" not in s and "$x$" not in s and "<b>" not in s


def test_law_rows_place_every_clause_of_the_law_once(corpus) -> None:  # type: ignore[no-untyped-def]
    from assistant.ui.laws import law_rows

    rows = law_rows(corpus, "27")
    for ed in ("ccba1999", "ccba2018", "wbf2017"):
        shown = [r.clauses[ed].id for r in rows if r.clauses.get(ed) is not None]
        assert len(shown) == len(set(shown)), ed
        assert f"{ed}/law/27" in shown or any(x.startswith(f"{ed}/law/27/") for x in shown)


def test_exam_page_generates_a_set_with_an_answer_key() -> None:
    at = run(page="exam", lang="en")
    assert not at.exception
    at.button(key="exam_generate").click().run()
    assert not at.exception
    out = texts(at)
    assert "Answer key" in out or "答案" in out


@pytest.mark.parametrize("lang", ["zh-Hant", "en"])
def test_law_page_marks_a_corrected_clause_and_shows_it_as_received(lang: str) -> None:
    """16B1's zh-Hant text is read with the space inside 答 詢 removed; the page says so and keeps the
    printed text one click away; 30B1(b)(ii)'s translation note shows as a warning."""
    at = run(page="law", id="wbf2017/law/16/B/1", lang=lang)
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert any("✎" in lb for lb in labels), labels
    assert "答 詢" in "\n".join(t.value for t in at.text)            # the text as printed, folded
    assert "答詢" in texts(at)                                       # the reading text shown
    at = run(page="law", id="wbf2017/law/30/B/1/b/ii", lang=lang)
    assert any(("英文原文" in w.value) or ("English original" in w.value) for w in at.warning)
