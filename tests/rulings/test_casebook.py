"""The casebook as a whole: a file per topic, at least five cases each with a routine one, both editions
expected, the law quoted, unique ids, the unusual branches present, and the search offering the right
topic for the cases' situations."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from assistant.rulings.match import topics_for_query
from assistant.rulings.model import load_trees

HERE = Path(__file__).resolve().parent
# the unusual branches the casebook must hold (topic, case id)
UNUSUAL = [("revoke", "revoke-both-sides"), ("revoke", "revoke-trick-twelve-corrected"),
           ("lead_out_of_turn", "loot-trick-thirteen"), ("misinformation", "mi-self-noticed-victim-may-change"),
           ("claim", "claim-cancelled-own-concession-trick-already-won"),
           ("insufficient_bid", "ib-substituted-double-not-comparable")]


def casebook() -> dict[str, list[dict]]:
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(HERE.glob("*.yaml"))}


def test_every_topic_has_at_least_five_cases_and_a_routine_one() -> None:
    book, trees = casebook(), load_trees()
    assert sorted(book) == sorted(trees), "one casebook file per ruling topic"
    thin = {t: len(cases) for t, cases in book.items() if len(cases) < 5}
    assert not thin, thin
    assert all(any(c.get("routine") for c in cases) for cases in book.values())


def test_cases_are_complete_and_ids_unique() -> None:
    ids: list[str] = []
    for topic, cases in casebook().items():
        for c in cases:
            ids.append(c["id"])
            assert {"wbf2017", "ccba1999"} <= set(c["expected"]), (topic, c["id"])
            assert c.get("note") and c.get("situation") and c.get("lang") in ("en", "zh-Hans", "zh-Hant"), c["id"]
            assert "differs" in c, c["id"]
    assert len(ids) == len(set(ids)) and len(ids) >= 100


@pytest.mark.parametrize("topic, case_id", UNUSUAL)
def test_unusual_branches_are_in_the_casebook(topic, case_id) -> None:
    assert case_id in {c["id"] for c in casebook()[topic]}


def test_search_offers_the_right_topic_for_nine_in_ten_situations() -> None:
    rows = [(t, c["situation"]) for t, cases in casebook().items() for c in cases]
    offered = [t in topics_for_query(s)[:3] for t, s in rows]
    assert sum(offered) / len(rows) >= 0.9, [s for (t, s), ok in zip(rows, offered, strict=True) if not ok]
