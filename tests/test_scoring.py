"""Scoring: the Law 77 / 78B tables as data (checked against the source lines and across editions), the
score and IMP functions (every table cell, computed here independently from the raw data rows, plus
well-known scores typed by hand), the contract parser, the load-time validation, the CLI and the app page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from helpers import CORPUS
from typer.testing import CliRunner

from assistant.editions import law_editions
from assistant.errors import BadInput
from assistant.scoring import (
    ScoringDataError,
    imp_scales,
    imps,
    law77_tables,
    parse_contract,
    score,
)
from assistant.scoring.tables import LAW77_FILE, LAW78B_FILE

RAW77 = yaml.safe_load(LAW77_FILE.read_text(encoding="utf-8"))["editions"]
RAW78 = yaml.safe_load(LAW78B_FILE.read_text(encoding="utf-8"))["editions"]
EDITIONS = tuple(RAW77)
STRAINS = ("C", "D", "H", "S", "NT")
SUIT_KEY = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
MARK = {"undoubled": "", "doubled": "X", "redoubled": "XX"}
VUL_KEY = {False: "not_vulnerable", True: "vulnerable"}
SECTIONS = ("trick_score", "slam", "overtricks", "premiums", "undertricks")


def _lines(file: str, first: int, last: int) -> list[str]:
    return (CORPUS / file).read_text(encoding="utf-8").split("\n")[first - 1:last]


def _numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<![\d.])\d+(?![\d.])", text)}


# ------------------------------------------------------------------------ the data against the sources


def test_every_law_edition_has_both_tables() -> None:
    assert set(law77_tables()) == set(law_editions()) == set(imp_scales())


@pytest.mark.parametrize("edition", EDITIONS)
def test_clause_ids_exist_and_spans_lie_inside_the_clause(corpus, edition: str) -> None:  # type: ignore[no-untyped-def]
    t = law77_tables()[edition]
    clause = corpus.clause(t.clause)
    assert clause.source.file == RAW77[edition]["file"]
    for name in SECTIONS:
        first, last = t.sections[name].lines
        assert clause.source.first <= first <= last <= clause.source.last, name
    scale = imp_scales()[edition]
    c78 = corpus.clause(scale.section.clause)
    assert c78.source.file == scale.section.file
    assert c78.source.first <= scale.section.lines[0] <= scale.section.lines[1] <= c78.source.last
    assert all(scale.section.lines[0] <= b.line <= scale.section.lines[1] for b in scale.bands)


def _group_values(node: object) -> set[int]:
    if isinstance(node, dict):
        return set().union(*(_group_values(v) for k, v in node.items() if k not in ("heading", "lines")))
    return {node} if isinstance(node, int) and not isinstance(node, bool) else set()


@pytest.mark.parametrize("edition, section", [(e, s) for e in EDITIONS for s in SECTIONS])
def test_each_value_group_is_printed_in_its_source_lines(edition: str, section: str) -> None:
    ed = RAW77[edition]
    group = ed[section]
    printed = _numbers("\n".join(_lines(ed["file"], *group["lines"])))
    missing = _group_values(group) - printed
    assert not missing, f"{edition} {section}: {sorted(missing)} not in {ed['file']}:{group['lines']}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_undertrick_rows_read_the_same_as_the_printed_rows(edition: str) -> None:
    """Row by row: the six (ccba) or two (wbf2017) numbers printed on each undertrick line, in order."""
    ed = RAW77[edition]
    ut = ed["undertricks"]
    text = _lines(ed["file"], *ut["lines"])
    rows = [_row_numbers(line) for line in text]
    rows = [r for r in rows if r]
    expected = []
    for kind in ("first", "each_additional", "fourth_and_subsequent_bonus"):
        g = ut[kind]
        if edition == "wbf2017":          # one line per doubling: not vulnerable, vulnerable
            expected += [[g["not_vulnerable"][d], g["vulnerable"][d]] for d in MARK]
        else:                             # one line per kind: NV undoubled/doubled/redoubled, then V
            expected.append([g[v][d] for v in ("not_vulnerable", "vulnerable") for d in MARK])
    assert rows == expected


def _row_numbers(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", line)]


def _strip_sections(node: dict) -> dict:  # type: ignore[type-arg]
    return {k: ({kk: vv for kk, vv in v.items() if kk not in ("heading", "lines")} if isinstance(v, dict) else v)
            for k, v in node.items() if k not in ("clause", "file", "lines")}


@pytest.mark.parametrize("edition", [e for e in EDITIONS if e != "wbf2017"])
def test_the_scoring_table_is_the_same_in_every_edition(edition: str) -> None:
    """Cross-check: 1999 and the 2018 translation against WBF 2017 (the table did not change)."""
    assert _strip_sections(RAW77[edition]) == _strip_sections(RAW77["wbf2017"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_imp_bands_are_printed_on_their_lines(edition: str) -> None:
    ed = RAW78[edition]
    for lo, hi, n, line in ed["bands"]:
        text = _lines(ed["file"], line, line)[0]
        if hi is None:
            pat = rf"(?<!\d){lo}\s*(?:\+|（含）以上|及以上)\s+{n}(?!\d)"
        else:
            pat = rf"(?<!\d){lo}\s*[—~–-]\s*{hi}\s+{n}(?!\d)"
        assert re.search(pat, text), f"{edition}: band {lo}-{hi} = {n} not on line {line}: {text!r}"


def test_imp_scales_agree_across_editions() -> None:
    printed = {e: [tuple(b[:3]) for b in RAW78[e]["bands"]] for e in EDITIONS}
    assert printed["ccba1999"] == printed["ccba2018"] == printed["wbf2017"][1:]
    assert printed["wbf2017"][0] == (0, 10, 0)
    assert all(RAW78[e]["below_first_band"] == 0 for e in EDITIONS)


# ---------------------------------------------------------------- every cell, computed independently


def _expected(ed: dict, level: int, strain: str, dbl: str, vul: bool, result: int) -> int:  # type: ignore[type-arg]
    """The score from the raw data rows, trick by trick (not the implementation's formulas)."""
    v = VUL_KEY[vul]
    if result < 0:
        ut, total = ed["undertricks"], 0
        for k in range(1, -result + 1):
            total += ut["first"][v][dbl] if k == 1 else ut["each_additional"][v][dbl]
            total += ut["fourth_and_subsequent_bonus"][v][dbl] if k >= 4 else 0
        return -total
    ts = ed["trick_score"]
    per = [ts["notrump_first" if (strain == "NT" and k == 1) else
              "notrump_each_additional" if strain == "NT" else SUIT_KEY[strain]][dbl] for k in range(1, level + 1)]
    trick = sum(per)
    pr = ed["premiums"]
    total = trick + (pr["game"][v] if trick >= ts["game_threshold"] else pr["partscore"])
    total += {6: ed["slam"]["small"][v], 7: ed["slam"]["grand"][v]}.get(level, 0)
    total += {"undoubled": 0, "doubled": pr["doubled_made"], "redoubled": pr["redoubled_made"]}[dbl]
    over = ed["overtricks"][dbl][v]
    if over == "trick_value":
        over = ts["notrump_each_additional" if strain == "NT" else SUIT_KEY[strain]]["undoubled"]
    return total + result * over


CELLS = [(e, v, d, s, lv) for e in EDITIONS for v in (False, True) for d in MARK for s in STRAINS for lv in range(1, 8)]


@pytest.mark.parametrize("edition, vul, dbl, strain, level", CELLS,
                         ids=[f"{e}-{'V' if v else 'NV'}-{lv}{s}{MARK[d]}" for e, v, d, s, lv in CELLS])
def test_every_result_of_every_contract_matches_the_table(edition: str, vul: bool, dbl: str, strain: str,
                                                          level: int) -> None:
    wrong = []
    for result in range(-(6 + level), 13 - 6 - level + 1):
        notation = f"{level}{strain}{MARK[dbl]}{'=' if result == 0 else f'{result:+d}'}"
        got = score(notation, vul, edition).points
        want = _expected(RAW77[edition], level, strain, dbl, vul, result)
        if got != want:
            wrong.append((notation, got, want))
    assert not wrong


SCALE_EDGES = [(e, b[0], b[1], b[2]) for e in EDITIONS for b in RAW78[e]["bands"]]


@pytest.mark.parametrize("edition, lowest, highest, n", SCALE_EDGES,
                         ids=[f"{e}-{lo}" for e, lo, _, _ in SCALE_EDGES])
def test_imp_band_edges(edition: str, lowest: int, highest: int | None, n: int) -> None:
    top = highest if highest is not None else lowest + 10_000
    for diff in (lowest, top, (lowest + top) // 20 * 10):
        assert imps(diff, edition).imps == n and imps(-diff, edition).imps == -n
    assert imps(lowest - 10, edition).imps == (n - 1 if lowest else 0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_differences_below_the_first_printed_band(edition: str) -> None:
    assert [imps(d, edition).imps for d in (0, 10, 15, -10, 19)] == [0, 0, 0, 0, 0]
    assert imps(45, edition).imps == 1 and imps(-45, edition).imps == -1   # between bands: the lower band


# ------------------------------------------------------------------------- well-known scores by hand

KNOWN = [
    ("1NT+1", False, 120), ("4HX+1", True, 990), ("7NTX-1", False, -100), ("3NTXX=", True, 1000),
    ("6NT=", True, 1440), ("2S=", False, 110), ("3NT-2", False, -100), ("4SX-3", False, -500),
    ("1CXX=", False, 230), ("7NTXX=", True, 2980), ("3NT=", False, 400), ("3NT=", True, 600),
    ("4S=", False, 420), ("4H+1", True, 650), ("5C=", False, 400), ("2HX=", False, 470),
    ("1NTX=", True, 180), ("1NTXX=", True, 760), ("6S=", False, 980), ("7C=", True, 2140), ("2D+1", False, 110),
    ("4SX-4", False, -800), ("3NTX-6", False, -1400), ("4HX-2", True, -500), ("4HXX-3", True, -1600),
    ("1CX+1", True, 340), ("7NTXX-13", False, -7000), ("7NT=", False, 1520), ("1NT=", True, 90),
]


@pytest.mark.parametrize("edition", ("ccba1999", "ccba2018", "wbf2017"))
@pytest.mark.parametrize("contract, vul, points", KNOWN)
def test_well_known_scores(contract: str, vul: bool, points: int, edition: str) -> None:
    assert score(contract, vul, edition).points == points


def test_score_names_the_sections_it_rests_on() -> None:
    s = score("6SX+1", True)
    assert [c.section for c in s.cites] == ["trick_score", "premiums", "slam", "overtricks"]
    assert {c.clause for c in s.cites} == {"wbf2017/law/77"}
    assert s.cites[0].label == "Law 77, Trick Score"
    assert [p.points for p in s.parts] == [360, 500, 750, 50, 200] and s.points == 1860
    assert [c.section for c in score("3NT-1").cites] == ["undertricks"]
    assert score("2C=", edition="ccba1999").cites[0].label == "第77条 墩分"
    assert imps(-990).cite.label == "Law 78B" and imps(100, "ccba2018").cite.label == "第78条B款"


# ------------------------------------------------------------------------------------ the notation

@pytest.mark.parametrize("text, expected", [
    ("4HX+1", (4, "H", "doubled", 1)), ("3NT=", (3, "NT", "undoubled", 0)), ("7NTX-1", (7, "NT", "doubled", -1)),
    ("6SXX=", (6, "S", "redoubled", 0)), ("2C-2", (2, "C", "undoubled", -2)), ("4♥x+1", (4, "H", "doubled", 1)),
    (" 3n = ", (3, "NT", "undoubled", 0)), ("7NT-13", (7, "NT", "undoubled", -13)), ("1D+6", (1, "D", "undoubled", 6)),
    ("5d xx −2", (5, "D", "redoubled", -2)),
])
def test_contract_notation(text: str, expected: tuple[int, str, str, int]) -> None:
    c = parse_contract(text)
    assert (c.level, c.strain, c.doubling, c.result) == expected
    assert parse_contract(str(c)) == c


@pytest.mark.parametrize("text, words", [
    ("", "no contract"), ("8NT=", "level 1–7"), ("0H=", "level 1–7"), ("4H", "then ="), ("4HXXX=", "X or XX"),
    ("4Z=", "C/D/H/S/NT"), ("4H+4", "at most +3"), ("7S+1", "at most +0"), ("1C-8", "at most -7"),
    ("4H+0", "write ="), ("4H-0", "write ="), ("x" * 100, "too long"), ("4HX+1 vul", "cannot read"),
])
def test_bad_notation_says_what_is_expected(text: str, words: str) -> None:
    with pytest.raises(BadInput) as err:
        parse_contract(text)
    assert words in str(err.value) and " — " in str(err.value)


@pytest.mark.parametrize("call", [lambda: score("4H=", edition="guandan2017"), lambda: score("4H=", edition="x"),
                                  lambda: imps(100, "wbf1997"), lambda: imps("100")])  # type: ignore[arg-type]
def test_bad_edition_or_difference(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInput) as err:
        call()
    assert " — " in str(err.value)


# ------------------------------------------------------------------------- validation at load

def _broken(tmp_path: Path, src: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    edit(data["editions"])
    out = tmp_path / src.name
    out.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return out


@pytest.mark.parametrize("edit, words", [
    (lambda e: e["wbf2017"]["trick_score"].pop("hearts"), "editions.wbf2017.trick_score.hearts: missing"),
    (lambda e: e["ccba1999"]["undertricks"]["first"]["vulnerable"].update(doubled="200"),
     "editions.ccba1999.undertricks.first.vulnerable.doubled"),
    (lambda e: e["ccba2018"]["overtricks"]["doubled"].update(vulnerable="trick_value"),
     "editions.ccba2018.overtricks.doubled.vulnerable"),
    (lambda e: e["wbf2017"]["premiums"].update(game=[300, 500]), "editions.wbf2017.premiums.game"),
    (lambda e: e["wbf2017"].update(clause="wbf2017/law/78"), "not a Law 77 clause"),
    (lambda e: e["wbf2017"]["slam"].update(lines=[10]), "editions.wbf2017.slam.lines"),
    (lambda e: e["wbf2017"]["slam"]["small"].update(extra=1), "unexpected key"),
])
def test_law77_data_errors_name_file_and_key(tmp_path: Path, edit, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringDataError) as err:
        law77_tables(_broken(tmp_path, LAW77_FILE, edit))
    assert "law77.yaml" in str(err.value) and words in str(err.value)


@pytest.mark.parametrize("edit, words", [
    (lambda e: e["wbf2017"]["bands"].pop(5), "does not follow"),
    (lambda e: e["ccba1999"]["bands"][-1].__setitem__(1, 9999), "must be open"),
    (lambda e: e["ccba2018"]["bands"][0].pop(), "expected [lowest, highest, imps, line]"),
    (lambda e: e["wbf2017"].pop("below_first_band"), "editions.wbf2017.below_first_band: missing"),
])
def test_law78b_data_errors_name_file_and_key(tmp_path: Path, edit, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringDataError) as err:
        imp_scales(_broken(tmp_path, LAW78B_FILE, edit))
    assert "law78b.yaml" in str(err.value) and words in str(err.value)


# ---------------------------------------------------------------------------------------- CLI

def _cli(*args: str):  # type: ignore[no-untyped-def]
    from assistant.cli import app

    return CliRunner().invoke(app, list(args))


def test_cli_score_text_and_json() -> None:
    r = _cli("score", "4HX+1", "--vul")
    assert r.exit_code == 0 and "+990" in r.output and "Law 77, Trick Score" in r.output
    data = json.loads(_cli("score", "7NTX-1", "--json").output)
    assert data["score"] == -100 and data["cites"][0]["clause"] == "wbf2017/law/77"
    assert data["cites"][0]["section"] == "undertricks"
    data = json.loads(_cli("score", "3NT=", "--edition", "ccba1999", "--json").output)
    assert data["score"] == 400 and data["cites"][0]["clause"] == "ccba1999/law/77"


def test_cli_imps_keeps_the_sign() -> None:
    data = json.loads(_cli("imps", "-990", "--json").output)
    assert data["imps"] == -14 and data["cites"][0]["clause"] == "wbf2017/law/78/B"
    assert "+9 IMPs" in _cli("imps", "420").output


@pytest.mark.parametrize("args, words", [
    (("score", "4H"), "cannot read contract"), (("score", "4H=", "--edition", "guandan2017"), "unknown edition"),
    (("imps", "12.5"), "not a whole number"), (("imps", "100", "--edition", "nope"), "unknown edition"),
])
def test_cli_bad_input_exits_2(args: tuple[str, ...], words: str) -> None:
    r = _cli(*args)
    assert r.exit_code == 2 and words in r.output


# --------------------------------------------------------------------------------------- app page

def test_page_labels_exist_in_three_languages() -> None:
    from assistant.ui.i18n import UI_LANGS, strings

    table = strings()
    items = ("trick_score", "game", "partscore", "small_slam", "grand_slam", "doubled_made", "redoubled_made",
             "overtricks", "undertricks")
    keys = [f"score_item_{i}" for i in items] + [f"score_sec_{s}" for s in (*SECTIONS, "imps")]
    keys += [f"score_strain_{s}" for s in (*SUIT_KEY.values(), "notrump_first", "notrump_each_additional")]
    keys += [f"score_{d}" for d in MARK] + [f"score_{v}" for v in VUL_KEY.values()] + ["page_score"]
    keys += [f"score_short_{k}" for k in (*VUL_KEY.values(), "doubled", "redoubled")]
    missing = [k for k in keys if k not in table or set(table[k]) != set(UI_LANGS)]
    assert not missing
    used = set(re.findall(r"""\bt\(\s*["']([a-z0-9_\-]+)["']""",
                          (Path(__file__).parent.parent / "assistant/ui/score.py").read_text(encoding="utf-8")))
    assert used and not [k for k in used if k not in table]


def _app(**params: str):  # type: ignore[no-untyped-def]
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).parent.parent / "app.py"), default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    return at


@pytest.fixture()
def no_warm_up(monkeypatch):  # type: ignore[no-untyped-def]
    from assistant.ui import services

    monkeypatch.setattr(services, "warm_in_background", lambda: None)


def test_page_scores_a_contract_from_the_url_and_converts_imps(no_warm_up) -> None:  # type: ignore[no-untyped-def]
    at = _app(page="score", c="4HX+1", vul="1", ed="wbf2017", d="-990", lang="en")
    assert not at.exception
    assert [m.value for m in at.metric] == ["+990"]
    assert any("\\-14 IMPs" in m.value for m in at.markdown)
    assert len(at.dataframe) >= 7          # breakdown + trick, premium, overtrick, 2 undertrick, IMP tables
    at.text_input(key="score_contract").input("3NTXX=").run()
    assert [m.value for m in at.metric] == ["+1000"] and not at.exception
    at.number_input(key="score_diff").set_value(420).run()
    assert any("\\+9 IMPs" in m.value for m in at.markdown) and not at.exception


@pytest.mark.parametrize("lang", ("zh-Hans", "zh-Hant"))
def test_page_bad_contract_shows_a_message(no_warm_up, lang: str) -> None:  # type: ignore[no-untyped-def]
    at = _app(page="score", c="8NT=", ed="ccba1999", lang=lang, d="abc" if lang == "zh-Hans" else "99999999")
    assert not at.exception and at.error and not at.metric


def test_page_shows_hostile_contract_text_literally(no_warm_up) -> None:  # type: ignore[no-untyped-def]
    at = _app(page="score", c="**4H** :red[x]", lang="en")
    assert not at.exception and at.error
    assert "\\*\\*4H\\*\\*" in at.error[0].value and "\\:red\\[" in at.error[0].value
