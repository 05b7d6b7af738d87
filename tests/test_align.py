"""Edition alignment: coverage, the curated moves and hand-checked pairs."""

from __future__ import annotations


import pytest

from assistant.graph.align import KINDS, Correspondence, align_editions, alignment_stats, curated


@pytest.fixture(scope="module")
def corr(corpus) -> list[Correspondence]:  # type: ignore[no-untyped-def]
    return align_editions(corpus)


def kinds_of(corr: list[Correspondence], a: str | None, b: str | None) -> set[str]:
    return {c.kind for c in corr if c.from_id == a and c.to_id == b}


def test_every_1999_law_aligned_with_a_kind(corr: list[Correspondence]) -> None:
    laws = {f"ccba1999/law/{n}" for n in range(1, 94)}
    assert laws <= {c.from_id for c in corr}
    assert all(c.kind in KINDS for c in corr)


@pytest.mark.parametrize("n", ["23", "35", "75", "88", "89", "34"])
def test_different_subject_laws_not_same(corr: list[Correspondence], n: str) -> None:
    assert kinds_of(corr, f"ccba1999/law/{n}", f"ccba2018/law/{n}") == {"different_subject"}


@pytest.mark.parametrize("a,b,kind", [
    ("ccba1999/law/27/C", "ccba2018/law/27/A/2", "renumbered"),
    ("ccba1999/law/23", "ccba2018/law/72/C", "moved"),
    ("ccba1999/law/64/B", "ccba2018/law/64/B", "revised"),   # 6 cases in 1999, 8 in 2017 (§8.3.8)
    ("ccba1999/law/88", "ccba2018/law/12/C/2/c", "moved"),
    ("ccba1999/law/86/B", "ccba2018/law/12/C/4", "moved"),
    ("ccba1999/law/86/A", "ccba2018/law/12/C/2/b", "moved"),
    ("ccba1999/law/17/D", "ccba2018/law/15/A", "moved"),
    ("ccba1999/law/34", "ccba2018/law/17/D/3", "moved"),
    ("ccba1999/law/43/C", "ccba2018/law/43/B/3", "moved"),
    ("ccba2018/law/89", "wbf2017/law/89", "revised"),
    ("ccba2018/law/64/B/7", "wbf2017/law/64/B/7", "same"),
])
def test_hand_checked_pairs(corr: list[Correspondence], a: str, b: str, kind: str) -> None:
    assert kind in kinds_of(corr, a, b)


def test_new_and_removed(corr: list[Correspondence]) -> None:
    assert "new" in kinds_of(corr, None, "ccba2018/law/64/B/7")
    assert "new" in kinds_of(corr, None, "ccba2018/law/64/B/8")
    assert {c.kind for c in corr if c.from_id == "ccba1999/law/71/B"} <= {"removed", "moved"}
    assert "new" in kinds_of(corr, None, "wbf2017/law/89/A")          # 2024 text of Law 89


def test_computed_pairs_follow_content(corr: list[Correspondence]) -> None:
    """1999 86C (redeal) is 2017 86A by content, not 86C by letter."""
    assert kinds_of(corr, "ccba1999/law/86/C", "ccba2018/law/86/A") == {"renumbered"}


def test_wbf_sections_covered(corr: list[Correspondence], corpus) -> None:  # type: ignore[no-untyped-def]
    st = alignment_stats(corr, corpus)
    assert st["wbf2017_sections_with_ccba2018"] >= 0.95 * st["wbf2017_sections"]
    assert st["ccba1999_laws_aligned"] == 93


def test_curated_entries_have_sources() -> None:
    for entries in curated().values():
        assert all(e["source"] and e["kind"] in KINDS for e in entries)
