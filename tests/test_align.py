"""Edition alignment: coverage, the curated moves, the reviewed low-similarity pairs, and the rows of a law."""

from __future__ import annotations

import pytest

from assistant.editions import edition
from assistant.graph.align import (KINDS, REVIEW_BELOW, Correspondence, align_editions, alignment_stats, curated,
                                   edition_pairs)
from assistant.graph.alignment import law_alignment, links
from assistant.graph.alignment_data import decisions, term_folds


@pytest.fixture(scope="module")
def corr(corpus) -> list[Correspondence]:  # type: ignore[no-untyped-def]
    return align_editions(corpus)


def kinds_of(corr: list[Correspondence], a: str | None, b: str | None) -> set[str]:
    return {c.kind for c in corr if c.from_id == a and c.to_id == b}


def test_edition_pairs_come_from_the_manifest() -> None:
    assert edition_pairs() == (("ccba1999", "ccba2018"), ("ccba2018", "wbf2017"))
    assert edition("ccba2018").translates == "wbf2017" and edition("ccba2018").revises == "ccba1999"


def test_every_1999_law_aligned_with_a_kind(corr: list[Correspondence]) -> None:
    laws = {f"ccba1999/law/{n}" for n in range(1, 94)}
    assert laws <= {c.from_id for c in corr}
    assert all(c.kind in KINDS for c in corr)


@pytest.mark.parametrize("older, newer", [("ccba1999", "ccba2018"), ("ccba2018", "wbf2017")])
def test_every_law_clause_is_accounted_for_once_as_lone(corpus, corr, older, newer) -> None:  # type: ignore[no-untyped-def]
    """Each clause of both editions is in some correspondence of the pair; none is both paired and lone."""
    mine = [c for c in corr if (c.from_id or older).startswith(older) and (c.to_id or newer).startswith(newer)]
    for ed, side in ((older, "from_id"), (newer, "to_id")):
        seen = {getattr(c, side) for c in mine}
        missing = [k for k in corpus.editions[ed].clauses if "/law/" in k and k not in seen]
        assert not missing, f"{ed} clauses with no correspondence: {missing[:10]}"
        paired = {getattr(c, side) for c in mine if c.from_id and c.to_id}
        lone = {getattr(c, side) for c in mine if not (c.from_id and c.to_id)}
        assert not paired & lone, sorted(paired & lone)[:10]


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


# the five same-letter pairs of different subject, each with where its content went (review, issue B)
@pytest.mark.parametrize("wrong, right, kind", [
    (("ccba1999/law/13/A/2", "ccba2018/law/13/A/2"), ("ccba1999/law/13/B", "ccba2018/law/13/A/2"), "renumbered"),
    (("ccba1999/law/40/C", "ccba2018/law/40/C"), ("ccba1999/law/40/C", "ccba2018/law/40/B/3/a"), "renumbered"),
    (("ccba1999/law/39/A", "ccba2018/law/39/A"), ("ccba1999/law/39/A", "ccba2018/law/39/B"), "renumbered"),
    (("ccba1999/law/30/B/1", "ccba2018/law/30/B/1"), ("ccba1999/law/30/B/1", "ccba2018/law/30/A"), "merged"),
    (("ccba1999/law/26/A", "ccba2018/law/26/A"), ("ccba1999/law/26/A", "ccba2018/law/26/B"), "merged"),
])
def test_same_letter_other_subject_fixed(corr: list[Correspondence], wrong: tuple[str, str],
                                         right: tuple[str, str], kind: str) -> None:
    assert not kinds_of(corr, *wrong)
    assert kind in kinds_of(corr, *right)


# true pairs the alignment used to miss (each 'removed' + 'new' before the review)
@pytest.mark.parametrize("a, b", [
    ("ccba1999/law/75/C", "ccba2018/law/40/B/5/a"),
    ("ccba1999/law/72/A/4", "ccba2018/law/10/C/3"),
    ("ccba1999/law/72/A/5", "ccba2018/law/10/C/4"),
    ("ccba1999/law/35/A", "ccba2018/law/36/A"),
    ("ccba1999/law/81/C/3", "ccba2018/law/80/B/2/i"),
    ("ccba1999/law/16/B/1", "ccba2018/law/16/D/2/a"),      # computed: another level of the same law
    ("ccba1999/law/80/F", "ccba2018/law/80/B/2/f"),
    ("ccba1999/law/9/A/2/b/2", "ccba2018/law/9/A/3"),
    ("ccba1999/law/73/F/2", "ccba2018/law/73/E/2"),
])
def test_missed_pairs_found(corr: list[Correspondence], a: str, b: str) -> None:
    assert kinds_of(corr, a, b) & {"renumbered", "moved"}
    assert not any(c.kind == "removed" and c.from_id == a for c in corr)


@pytest.mark.parametrize("law, section", [("1", "A"), ("36", "B"), ("37", "B"), ("56", "B")])
def test_law_level_text_pairs_with_its_section(corr: list[Correspondence], law: str, section: str) -> None:
    """1999 text at law level, 2017 sections: the text pairs with the matching section, the laws by heading."""
    assert kinds_of(corr, f"ccba1999/law/{law}", f"ccba2018/law/{law}/{section}") & {"same", "revised"}
    heading = [c for c in corr if (c.from_id, c.to_id) == (f"ccba1999/law/{law}", f"ccba2018/law/{law}")]
    assert [c.scope for c in heading] == ["title"]
    assert not any(c.to_id == f"ccba2018/law/{law}/{section}" and c.kind == "new" for c in corr)


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


def test_translation_revisions_lie_in_the_revised_laws() -> None:
    """Between two translations only the original's revised laws (manifest) changed content."""
    revised = {str(n) for n in edition("wbf2017").revised_laws}
    for e in curated()["ccba2018-wbf2017"]:
        assert (e.get("to") or e.get("from")).split("/")[2] in revised


def test_every_low_similarity_pair_has_a_review_decision(corr: list[Correspondence]) -> None:
    """Below REVIEW_BELOW only the label pairs two clauses: each such computed pair was read and decided."""
    reviewed = decisions().get("ccba1999-ccba2018", {})
    low = [(c.from_id, c.to_id, c.similarity) for c in corr
           if c.from_id and c.to_id and c.from_id.startswith("ccba1999") and c.method != "curated"
           and c.similarity is not None and c.similarity < REVIEW_BELOW]
    assert low, "the threshold should catch some pairs"
    missing = [x for x in low if (x[0], x[1]) not in reviewed]
    assert not missing, f"pairs below {REVIEW_BELOW} with no decision in alignment.yaml `review`: {missing}"


@pytest.mark.parametrize("key", sorted(decisions().get("ccba1999-ccba2018", {})), ids=lambda k: f"{k[0]}>{k[1]}")
def test_review_decision_is_applied(corr: list[Correspondence], key: tuple[str, str]) -> None:
    """A kept pair is in the alignment, a rejected one is not (a stale decision fails here)."""
    d = decisions()["ccba1999-ccba2018"][key]
    assert bool(kinds_of(corr, *key)) == (d.decision == "keep"), d.reason


def test_term_folds_come_from_the_terminology() -> None:
    from assistant.terminology import load_terminology

    folds = dict(term_folds()["ccba1999"])
    some = next(c for c in load_terminology().concepts.values()
                if c.forms("ccba1999", ("pref",)) and c.forms("ccba2018", ("pref",))
                and c.forms("ccba1999", ("pref",))[0] != c.forms("ccba2018", ("pref",))[0])
    assert folds[some.forms("ccba1999", ("pref",))[0]] == some.forms("ccba2018", ("pref",))[0]


def test_law_rows_follow_the_alignment(corpus) -> None:  # type: ignore[no-untyped-def]
    rows = {r.path: r.ids for r in law_alignment(corpus, "27")}
    assert rows[("A", "2")] == {"ccba2018": "ccba2018/law/27/A/2", "ccba1999": "ccba1999/law/27/C",
                                "wbf2017": "wbf2017/law/27/A/2"}
    assert rows[("B", "1", "b", "(ccba1999)")]["ccba1999"] == "ccba1999/law/27/B/1/b"
    assert rows[("C",)]["ccba1999"] is None
    moved = {r.ids["ccba1999"]: r.ids for r in law_alignment(corpus, "86")}
    assert moved["ccba1999/law/86/B"]["ccba2018"] == "ccba2018/law/12/C/4"   # shown beside, from law 12


@pytest.mark.parametrize("law", ["1", "13", "23", "27", "40", "73", "80", "86", "89"])
def test_law_rows_show_each_clause_once(corpus, law: str) -> None:  # type: ignore[no-untyped-def]
    rows = law_alignment(corpus, law)
    for ed in ("ccba1999", "ccba2018", "wbf2017"):
        ids = [r.ids[ed] for r in rows if r.ids[ed]]
        assert len(ids) == len(set(ids)), ed
        own = [k for k in corpus.editions[ed].clauses if k == f"{ed}/law/{law}" or k.startswith(f"{ed}/law/{law}/")]
        assert set(own) <= set(ids), f"{ed} clauses of law {law} missing from its rows"


def test_links_reverse_and_chain(corpus) -> None:  # type: ignore[no-untyped-def]
    back = {(x.from_id, x.to_id): x.kind for x in links(corpus, "ccba2018", "ccba1999")}
    assert back[("ccba2018/law/64/B/7", None)] == "removed"
    chained = {(x.from_id, x.to_id): x.kind for x in links(corpus, "ccba1999", "wbf2017")}
    assert chained[("ccba1999/law/27/C", "wbf2017/law/27/A/2")] == "renumbered"
    assert chained[(None, "wbf2017/law/89/A")] == "new"
