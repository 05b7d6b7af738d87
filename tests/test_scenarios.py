"""Table situations (assistant/data/scenarios): validated at load, indexed in their law's group, never a
result on their own (edition and language filters, Guandan scope)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.search.scenarios import LANGS, SCENARIOS_DIR, ScenarioError, load_scenarios, read_scenarios

GOOD = """law:58:
  - en: Both defenders lead at the same moment
    zh-Hans: 两个防家同时首攻
    zh-Hant: 兩位防家同時首攻
"""


@pytest.fixture(scope="module")
def searcher():  # type: ignore[no-untyped-def]
    from assistant.resources import resources

    return resources().searcher(None)


@pytest.fixture(scope="module")
def search_index(searcher):  # type: ignore[no-untyped-def]
    return searcher.ix


def write(tmp_path: Path, text: str, name: str = "a.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_package_situations_cover_every_law_and_article_in_three_languages() -> None:
    scs = load_scenarios()
    groups = {s.group for s in scs}
    assert {f"law:{n}" for n in range(1, 94)} <= groups
    assert {f"article:{n}" for n in range(1, 58)} <= groups
    for g in groups:
        per_lang = {lang: sum(1 for s in scs if s.group == g and s.lang == lang) for lang in LANGS}
        assert len(set(per_lang.values())) == 1 and per_lang["en"] >= 2, (g, per_lang)
    # no law numbers in the situations: they describe the table, the search finds the law
    assert not [s for s in scs if "Law " in s.text or "法则" in s.text or "第" in s.text and "条" in s.text]


def test_read_good_file(tmp_path: Path) -> None:
    scs = read_scenarios(write(tmp_path, GOOD))
    assert [(s.group, s.lang, s.n) for s in scs] == [("law:58", "zh-Hans", 1), ("law:58", "zh-Hant", 1),
                                                     ("law:58", "en", 1)]


@pytest.mark.parametrize("text, message", [
    ("law:94x:\n  - en: a\n    zh-Hans: b\n    zh-Hant: c\n", "bad key"),
    ("law:5:\n  - en: a\n    zh-Hans: b\n", "needs exactly"),
    ("law:5:\n  - en: ''\n    zh-Hans: b\n    zh-Hant: c\n", "empty"),
    ("law:5: []\n", "no list"),
    ("law:5: [unclosed\n", "not valid YAML"),
    ("", "no situations"),
])
def test_bad_files_name_the_problem(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        read_scenarios(write(tmp_path, text))


def test_one_law_in_one_file_only(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "a.yaml")
    write(tmp_path, GOOD, "b.yaml")
    with pytest.raises(ScenarioError, match="also in a.yaml"):
        load_scenarios(tmp_path)
    assert SCENARIOS_DIR.is_dir()


def test_situations_are_documents_of_their_law(search_index) -> None:  # type: ignore[no-untyped-def]
    docs = [d for d in search_index.docs if d.kind == "scenario"]
    assert len(docs) == len(load_scenarios())      # none dropped: every key names a law or article
    assert all(d.edition == "scenario" and d.group.split(":")[0] in ("law", "article") for d in docs)
    assert {d.group for d in docs} <= set(search_index.groups)


def test_filters_still_hold_with_situations(searcher) -> None:  # type: ignore[no-untyped-def]
    # a 1999-only question never gets a CCBA 2018 article (only situations would point there)
    ans = searcher.search("运动员穿着拖鞋背心参加全国比赛", edition="ccba1999", top=10)
    assert all(r.kind != "article" for r in ans.results)
    assert all(c.edition == "ccba1999" for r in ans.results for c in r.clauses)
    # every result shows at least one clause: a situation is never shown as a result itself
    ans = searcher.search("dummy keeps pointing at cards before declarer names them", lang="en", top=10)
    assert ans.answered and all(r.clauses and all(c.lang == "en" for c in r.clauses) for r in ans.results)
    # Guandan questions search the Guandan rules only
    ans = searcher.search("掼蛋比赛中出牌超时怎么处理", top=5)
    assert all(r.kind == "guandan" for r in ans.results)
