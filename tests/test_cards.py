"""Answer cards show counterpart clauses across editions (the graph's alignment rows), say where an
edition has none, and put the rule before its exceptions."""

from __future__ import annotations

import pytest

from assistant.search.cards import best_rows, is_exception

SHOW = [("ccba1999", "zh-Hans"), ("ccba2018", "zh-Hans"), ("wbf2017", "en")]


def rec(text: str, parent: str | None, title: str = "") -> dict[str, object]:
    return {"text": {"en": text}, "title": {"en": title} if title else {}, "parent": parent, "edition": "wbf2017"}


TOY = {
    "wbf2017/law/9": rec("", None, "Law Nine"),
    "wbf2017/law/9/A": rec("When a revoke is established, tricks are transferred.", "wbf2017/law/9"),
    "wbf2017/law/9/B": rec("There is no rectification if:", "wbf2017/law/9", "No Rectification"),
    "wbf2017/law/9/B/1": rec("the offending side did not win the trick.", "wbf2017/law/9/B"),
}


def test_exception_is_read_from_the_text_and_the_heading_above():
    assert not is_exception(TOY, "wbf2017/law/9/A")
    assert is_exception(TOY, "wbf2017/law/9/B")
    assert is_exception(TOY, "wbf2017/law/9/B/1")          # under an exception heading
    assert not is_exception(TOY, "wbf2017/law/9")           # the law itself never is


def test_rule_row_comes_before_the_exception_that_matched_best():
    rows = [{"wbf2017": "wbf2017/law/9/A"}, {"wbf2017": "wbf2017/law/9/B/1"}]
    score = {"wbf2017/law/9/A": 0.6, "wbf2017/law/9/B/1": 0.9}
    assert best_rows(rows, score, ["wbf2017"], TOY, ["en"], []) == [0, 1]
    # a rule that hardly matches is not pulled in
    assert best_rows(rows, {"wbf2017/law/9/A": 0.1, "wbf2017/law/9/B/1": 0.9}, ["wbf2017"], TOY, ["en"], []) == [1]
    # a cited clause is shown as cited
    assert best_rows(rows, score, ["wbf2017"], TOY, ["en"], ["wbf2017/law/9/B/1"]) == [1]


@pytest.fixture(scope="module")
def searcher():  # type: ignore[no-untyped-def]
    from assistant.resources import resources

    return resources().searcher(None)


def _row_of(searcher, law: str, cid: str) -> dict[str, str | None]:  # type: ignore[no-untyped-def]
    rows = searcher.ix.groups[f"law:{law}"]["rows"]
    return next(r for r in rows if cid in r.values())


@pytest.mark.parametrize("query, law, newest, older", [
    ("Law 63B", "63", "wbf2017/law/63/B", "ccba1999/law/63/C"),     # 2017 63B is 1999 63C
    ("Law 27A2", "27", "wbf2017/law/27/A/2", "ccba1999/law/27/C"),  # 2017 27A2 is 1999 27C
])
def test_card_pairs_counterparts_whose_numbers_differ(searcher, query, law, newest, older):
    r = searcher.search(query, top=1).results[0]
    ids = {c.edition: c.id for c in r.clauses}
    assert r.number == law and ids["wbf2017"] == newest
    assert ids["ccba1999"] == older                       # the counterpart, not 1999's own 63B / 27A2
    row = _row_of(searcher, law, newest)
    assert all(row[c.edition] == c.id for c in r.clauses)


def test_card_says_which_edition_has_no_counterpart(searcher):
    r = searcher.search("Law 64B7", top=1).results[0]
    assert {c.edition for c in r.clauses} == {"ccba2018", "wbf2017"}
    assert r.no_counterpart == ["ccba1999"] and r.differs
    assert r.to_json()["no_counterpart"] == ["ccba1999"]


def test_uncited_card_shows_one_row_of_counterparts(searcher):
    ans = searcher.search("the revoke was only noticed after the next deal had started", top=3)
    r = next(r for r in ans.results if r.kind == "law")
    rows = searcher.ix.groups[f"law:{r.number}"]["rows"]
    shown = [next(i for i, row in enumerate(rows) if c.id in row.values()) for c in r.clauses]
    assert len(set(shown)) <= 2                            # one row, or a rule row before an exception row
    if r.exceptions:
        assert r.clauses[0].id not in r.exceptions         # the rule comes first
