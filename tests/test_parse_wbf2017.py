"""File 004 (WBF Laws 2017, 2024 revision, EN + zh-Hant): laws, definitions and footnotes."""

from __future__ import annotations

import re

import pytest

from assistant.errors import CorpusParseError
from assistant.model import ClauseId, ParsedSource
from assistant.text import CJK_RE, garbled_zh_hant
from assistant.parse.wbf2017 import parse_wbf2017, split_langs, strip_markers
from helpers import FILES, source_line, source_text

FILE = FILES["004"]


@pytest.fixture(scope="module")
def ps() -> ParsedSource:
    return parse_wbf2017(source_text("004"), FILE)


@pytest.fixture(scope="module")
def by(ps: ParsedSource):
    return ps.by_id()


def halves(n: int) -> tuple[str, str]:
    """Source line n split at its first CJK character (the simple bilingual case)."""
    line = source_line("004", n).strip()
    i = CJK_RE.search(line).start()  # type: ignore[union-attr]
    return line[:i].strip(), line[i:].strip()


def kids(by, cid: str) -> list[str]:
    return [by[k].number for k in by[cid].children]


# ---- structure and counts ----------------------------------------------------------------------

def test_93_laws_in_toc_and_body_in_order(ps: ParsedSource) -> None:
    laws = [c for c in ps.clauses if c.level == "law"]
    assert [c.number for c in laws] == [str(n) for n in range(1, 94)]
    assert ps.stats["laws_toc"] == 93 and ps.stats["laws_body"] == 93
    assert all(c.title["en"] and c.id == f"wbf2017/law/{c.number}" for c in laws)
    missing_zh = [c.number for c in laws if not c.title["zh-Hant"]]
    assert missing_zh == []


def test_law_titles_joined_and_squeezed(by) -> None:
    assert by["wbf2017/law/59"].title["zh-Hant"] == "無法履行攻牌或打牌要求"      # 1819 + 1821
    assert by["wbf2017/law/75"].title["zh-Hant"] == "錯誤解釋或者錯誤叫牌"        # 2272 + 2274
    assert by["wbf2017/law/24"].title["zh-Hant"] == "叫牌時暴露或攻出牌張"        # 944 `攻出 牌張`
    assert by["wbf2017/law/89"].title["zh-Hant"] == "禁止的行為與應受譴責的品行"
    assert by["wbf2017/law/13"].title == {"en": "INCORRECT NUMBER OF CARDS", "zh-Hant": "牌張數目有誤"}
    assert "wbf2017/footnote/2" in by["wbf2017/law/13"].footnotes                 # marker in 591


def test_sections_and_items(by) -> None:
    assert kids(by, "wbf2017/law/64/B") == [str(n) for n in range(1, 9)]
    assert kids(by, "wbf2017/law/27") == ["A", "B", "C", "D"]
    assert kids(by, "wbf2017/law/89") == ["A", "B", "C", "D"]
    assert kids(by, "wbf2017/law/73/D") == ["1", "2", "3"]
    assert kids(by, "wbf2017/law/12/C/1") == ["a", "b", "c", "d", "e"]
    assert kids(by, "wbf2017/law/12/C/1/e") == ["i", "ii"]
    assert kids(by, "wbf2017/law/80/B/2")[-1] == "l"                               # 2517 `(I)`
    assert kids(by, "wbf2017/law/80/B/2/g") == ["i", "ii"]                         # `(g) (i)` on one line
    # a col-0 `- (a)` starts a new item in 15A (next label is 4.) but continues item 1 in 16B
    assert kids(by, "wbf2017/law/15/A") == ["1", "2", "3", "4"]
    assert kids(by, "wbf2017/law/15/A/2") == ["a", "b", "c"]
    assert kids(by, "wbf2017/law/16/B") == ["1", "2", "3"]
    assert kids(by, "wbf2017/law/16/B/1") == ["a", "b"]


def test_law_73_2024_text(by) -> None:
    assert by["wbf2017/law/73/B"].text["en"] == (
        "Players must not communicate, nor attempt to communicate, via means other than those "
        "described in Law 73A.")
    assert by["wbf2017/law/73/B"].children == []


def test_ids_parse_and_levels(ps: ParsedSource) -> None:
    depth = {"law": 1, "section": 2}
    for c in ps.clauses:
        cid = ClauseId.parse(c.id)
        assert str(cid) == c.id
        if c.level in depth:
            assert len(cid.path) == depth[c.level]
        if c.parent:
            assert c.id.startswith(c.parent + "/")
        assert c.source is not None and c.source.file == FILE and c.source.first <= c.source.last
    assert len({c.id for c in ps.clauses}) == len(ps.clauses)


def test_every_clause_has_english_except_91B(ps: ParsedSource) -> None:
    no_en = []
    for c in ps.clauses:
        if c.level in ("law", "section"):
            has = c.title.get("en") or c.text.get("en")
        elif c.level in ("item", "subitem", "subsubitem"):
            has = c.text.get("en") or c.children
        else:
            continue
        if not has:
            no_en.append(c.id)
    assert no_en == []
    leaves_without_en = [c.id for c in ps.clauses if c.level in ("section", "item", "subitem", "subsubitem")
                         and not c.children and not c.text["en"]]
    assert leaves_without_en == ["wbf2017/law/91/B"]


# ---- verbatim text against hand-picked source lines ---------------------------------------------

def test_line_shared_by_en_and_zh(by) -> None:
    assert by["wbf2017/law/1/B"].text == dict(zip(("en", "zh-Hant"), halves(318), strict=True))
    assert by["wbf2017/law/1/C"].text == dict(zip(("en", "zh-Hant"), halves(322), strict=True))
    assert by["wbf2017/law/18/F"].text == dict(zip(("en", "zh-Hant"), halves(804), strict=True))


def test_citation_starting_the_chinese_half_stays_chinese(by) -> None:
    c = by["wbf2017/law/15/A/2/c"]
    assert c.text == {"en": "Law 16C applies to any call withdrawn or cancelled.",
                      "zh-Hant": "Law 16C 適用於任何被放棄或取消之叫品。"}
    assert source_line("004", 669).strip() == f"- (c) {c.text['en']} {c.text['zh-Hant']}"


def test_en_line_then_indented_zh_line(by) -> None:
    assert by["wbf2017/law/9/A/2"].text == {
        "en": source_line("004", 477).strip()[2:],
        "zh-Hant": source_line("004", 478).strip()}


def test_chinese_continued_on_next_line(by) -> None:
    en, zh = halves(768)
    c = by["wbf2017/law/17/D/1"]
    assert c.text["en"] == en
    assert c.text["zh-Hant"] == zh + source_line("004", 770).strip()
    assert zh.endswith("(若)")


def test_footnote_attached_in_place(ps: ParsedSource, by) -> None:
    c = by["wbf2017/law/6/D/2"]
    assert source_line("004", 407).replace("¹", "") == c.text["en"]
    assert "wbf2017/footnote/1" in c.footnotes
    fn = {f.id: f for f in ps.footnotes}["wbf2017/footnote/1"]
    assert fn.clause == c.id
    assert fn.text["en"] == source_line("004", 414)[2:]
    assert fn.text["zh-Hant"] == "「有序牌」係指未打亂原牌順序之牌副。"                  # printed `^{1「}有序牌」…`


def test_restored_item_numbers(by, ps: ParsedSource) -> None:
    lines = {1: source_line("004", 420)[2:], 2: source_line("004", 421)[5:],
             3: source_line("004", 422)[2:], 4: source_line("004", 423)[2:]}
    for n, line in lines.items():
        c = by[f"wbf2017/law/6/E/{n}"]
        assert f"{c.text['en']} {c.text['zh-Hant']}" == line.strip()
    restored = ps.stats["bullets_restored_at"]
    assert {"wbf2017/law/6/E/1", "wbf2017/law/6/E/3", "wbf2017/law/6/E/4"} <= {r["id"] for r in restored}
    assert "wbf2017/law/6/E/2" not in {r["id"] for r in restored}
    assert ps.stats["bullets_restored"] == len(restored) >= 192


def test_garbled_twin_dropped(by, ps: ParsedSource) -> None:
    zh = by["wbf2017/law/32/A/1"].text["zh-Hant"]
    assert zh.startswith(source_line("004", 1144).strip())
    assert "岩違現者" not in zh and "亚不予矯止" not in zh
    dropped = {g["line"]: g for g in ps.stats["garbled_dropped"]}
    assert dropped[1146]["twin"] == 1144
    assert ps.stats["garbled_without_twin"] == [1444]
    assert {535, 1271, 1814, 1857, 2170, 2205, 2234, 2649, 2738} <= set(dropped)


def test_chinese_only_law_91B(by) -> None:
    assert by["wbf2017/law/91/B"].text == {"en": "", "zh-Hant": source_line("004", 2759).strip()}


def test_definition_two_line_layout(by) -> None:
    d = by["wbf2017/definition/adjusted-score"]
    en1 = source_line("004", 211).split("\t")[1]
    col2 = source_line("004", 212).split("\t")[1]
    i = col2.index("經")
    assert d.text == {"en": f"{en1} {col2[:i].strip()}", "zh-Hant": col2[i:].strip()}
    assert d.term == {"en": "Adjusted Score", "zh-Hant": "調整得分"}
    assert d.source.first == 211 and d.source.last == 212


# ---- structural repairs (checked against ccba2018 part 2, the same 2017 laws) ------------------

def test_law_6D_item_without_any_marker(by, ps: ParsedSource) -> None:
    # 403 and 411 are indented lost bullets, 407 a column-0 paragraph: three items (index: 6D1-6D3)
    assert kids(by, "wbf2017/law/6/D") == ["1", "2", "3"]
    assert by["wbf2017/law/6/D/1"].text == {"en": source_line("004", 403).strip(),
                                            "zh-Hant": source_line("004", 405).strip()}
    assert by["wbf2017/law/6/D/2"].text["zh-Hant"] == source_line("004", 409).strip()
    assert by["wbf2017/law/6/D/3"].text == {"en": source_line("004", 411).strip(),
                                            "zh-Hant": source_line("004", 412).strip()}
    assert {"line": 407, "id": "wbf2017/law/6/D/2"} in ps.stats["unmarked_items"]


def test_law_75B3_item_without_any_marker(by, ps: ParsedSource) -> None:
    assert kids(by, "wbf2017/law/75/B") == ["1", "2", "3"]
    assert by["wbf2017/law/75/B/3"].text == {"en": source_line("004", 2294).strip(),
                                             "zh-Hant": source_line("004", 2295).strip()}
    assert "partner" not in by["wbf2017/law/75/B/2"].text["en"]
    assert [u["id"] for u in ps.stats["unmarked_items"]] == ["wbf2017/law/6/D/2", "wbf2017/law/75/B/3"]


def test_label_after_chinese_on_the_same_line_40B2c(by, ps: ParsedSource) -> None:
    head, label, tail = source_line("004", 1293).partition(" (c) ")
    assert label
    assert by["wbf2017/law/40/B/2/b"].text["zh-Hant"] == head
    assert kids(by, "wbf2017/law/40/B/2") == ["a", "b", "c", "d"]
    c = by["wbf2017/law/40/B/2/c"]
    assert c.text == {"en": tail, "zh-Hant": source_line("004", 1296)}    # the Chinese sits in a code fence
    assert kids(by, "wbf2017/law/40/B/2/c") == ["i", "ii", "iii", "iv"]
    en, zh = halves(1300)
    assert by["wbf2017/law/40/B/2/c/ii"].text == {"en": en.removeprefix("- (ii) "), "zh-Hant": zh}
    assert by["wbf2017/law/40/B/2/b"].children == []
    assert {"line": 1293, "id": "wbf2017/law/40/B/2/c"} in ps.stats["midline_labels"]


def test_label_after_chinese_on_the_same_line_58B3(by) -> None:
    head, label, tail = source_line("004", 1810).partition(" 3. ")
    assert label
    assert kids(by, "wbf2017/law/58/B") == ["1", "2", "3", "4"]
    assert by["wbf2017/law/58/B/2"].text["zh-Hant"].endswith(head)
    b3 = by["wbf2017/law/58/B/3"].text
    assert b3["en"] == f"{tail} {halves(1812)[0]}"
    assert b3["zh-Hant"].startswith(halves(1812)[1])
    assert by["wbf2017/law/58/B/4"].text == {"en": source_line("004", 1816).strip(),
                                             "zh-Hant": source_line("004", 1817).strip()}


def test_closing_paragraph_belongs_to_the_list_parent(by, ps: ParsedSource) -> None:
    for parent, last_item, line in (("wbf2017/law/71", "wbf2017/law/71/B", 2153),
                                    ("wbf2017/law/69/B", "wbf2017/law/69/B/2", 2096)):
        en, zh = halves(line)
        text = by[parent].text
        assert text["en"].split("\n")[1] == en and text["zh-Hant"].split("\n")[1] == zh
        assert text["en"].split("\n")[0].endswith(":")
        assert "rescored" not in by[last_item].text["en"] and zh not in by[last_item].text["zh-Hant"]
    assert [(c["line"], c["id"]) for c in ps.stats["closing_paragraphs"]] == [
        (2096, "wbf2017/law/69/B"), (2153, "wbf2017/law/71")]


def test_titled_items_86B(by) -> None:
    assert by["wbf2017/law/86/B/1"].title == {"en": "Single Result Obtained", "zh-Hant": "僅獲得單一結果"}
    b2 = by["wbf2017/law/86/B/2"]
    assert b2.title["en"] == "Multiple Results Obtained at One or More Tables"
    assert "wbf2017/footnote/27" in b2.footnotes                                   # marker in the title
    assert b2.text == {"en": source_line("004", 2642), "zh-Hant": source_line("004", 2644)}
    assert by["wbf2017/law/86/B/1"].text == dict(zip(("en", "zh-Hant"), halves(2638), strict=True))


def test_index_citations_that_the_source_supports(by) -> None:
    for cid in ("6/D/3", "40/B/2/c", "40/B/2/c/ii", "75/B/3", "58/B/4"):
        assert f"wbf2017/law/{cid}" in by
    # printed in neither 004 nor 001 (690-704; 2130-2137): the index cites the WBF original
    assert kids(by, "wbf2017/law/16/A") == ["1", "2"]
    assert kids(by, "wbf2017/law/70/D") == ["1", "2"]
    assert by["wbf2017/law/73/B"].children == []                                   # 2024 text: one sentence


def test_structure_matches_ccba2018_law_by_law(ps: ParsedSource) -> None:
    """Same ids law by law as ccba2018 part 2, except the 2024 Laws 73 and 89, (i)/(ii) against
    (1)/(2), and 52B, which 001 misnumbers `1.`, `3.` (corpus-guide §3.4)."""
    from assistant.parse.ccba2018 import parse_ccba2018

    roman = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6"}

    def shape(ids: list[str]) -> set[str]:
        out = set()
        for cid in ids:
            path = cid.split("/")[2:]
            if path[0] in ("73", "89"):
                continue
            out.add("/".join(roman.get(p, p) if k >= 4 and by_level.get(cid) == "subsubitem" else p
                             for k, p in enumerate(path)))
        return out

    by_level = {c.id: c.level for c in ps.clauses}
    wbf = shape([c.id for c in ps.clauses if c.id.startswith("wbf2017/law/")])
    ccba = shape([c.id for c in parse_ccba2018(source_text("001"), FILES["001"]).clauses
                  if c.id.startswith("ccba2018/law/")])
    assert wbf == ccba         # ccba2018's misprinted 52B `3.` is read as 52B2 (MISNUMBERED)


# ---- definitions --------------------------------------------------------------------------------

def test_64_definitions(ps: ParsedSource, by) -> None:
    top = [c for c in ps.clauses if c.level == "definition" and c.parent is None]
    assert len(top) == 64 == ps.stats["definitions"]
    ids = {c.id for c in top}
    assert "wbf2017/definition/trick-points" not in ids and "wbf2017/definition/trump" not in ids
    for slug in ("adjusted-score", "lho", "follow-suit", "trick", "suit", "team", "withdrawn", "sorted-deck"):
        assert f"wbf2017/definition/{slug}" in ids
    trick = by["wbf2017/definition/trick"]
    assert trick.term["zh-Hant"] == "" and trick.text["en"].startswith("the unit by which")
    for c in top:
        assert c.text["en"] and c.key and c.key_printed == c.term["en"]
        assert "<i>" not in c.term["zh-Hant"] + c.text["zh-Hant"]


def test_definition_terms_as_printed_and_corrections(by, ps: ParsedSource) -> None:
    printed = {"auction": "口以海", "call": "印品", "contestant": "実目", "slam": "満貫",
               "opponent": "敵家", "undertrick": "不足磴", "penalty": "處罰"}
    for slug, term in printed.items():
        assert by[f"wbf2017/definition/{slug}"].term["zh-Hant"] == term
    corr = ps.stats["term_corrections"]
    assert corr["口以海"] == "叫牌" and corr["実目"] == "賽員" and corr["満貫"] == "滿貫"
    assert by["wbf2017/definition/contestant"].text["zh-Hant"] == source_line("004", 224).split("\t")[1]
    assert by["wbf2017/definition/lho"].key == "lho"


def test_penalty_sub_keys(by) -> None:
    pen = by["wbf2017/definition/penalty"]
    assert pen.children == ["wbf2017/definition/penalty/disciplinary", "wbf2017/definition/penalty/procedural"]
    disc = by["wbf2017/definition/penalty/disciplinary"]
    assert disc.term == {"en": "disciplinary", "zh-Hant": "紀律性"}
    assert "(see Law 91)" in disc.text["en"] and "Law 91" in disc.text["zh-Hant"]
    assert by["wbf2017/definition/penalty/procedural"].text["en"].startswith("penalties (additional")


# ---- footnotes ----------------------------------------------------------------------------------

def test_29_footnotes_attached(ps: ParsedSource, by) -> None:
    assert [f.number for f in ps.footnotes] == [str(n) for n in range(1, 30)]
    for f in ps.footnotes:
        assert f.text["en"] and f.text["zh-Hant"], f.id
        assert f.clause in by and f.id in by[f.clause].footnotes
    fns = {f.id: f for f in ps.footnotes}
    assert fns["wbf2017/footnote/12"].text["zh-Hant"] == "首攻時一開始牌面朝下,除非主管單位另行規定。"
    assert fns["wbf2017/footnote/28"].text["zh-Hant"].endswith("紀律行動。")           # 2706 + 2710
    assert fns["wbf2017/footnote/29"].clause == "wbf2017/law/93/C/3/b"               # ZH printed ²⁸
    assert fns["wbf2017/footnote/21"].clause.startswith("wbf2017/law/70/")


def test_strip_markers() -> None:
    assert strip_markers("a legal⁸ bid") == ("a legal bid", [8])
    assert strip_markers("合法叫價^{8、}賭倍") == ("合法叫價、賭倍", [8])


def test_split_langs() -> None:
    assert split_langs("Law 16C applies to any call. Law 16C 適用於任何叫品。") == [
        ("en", "Law 16C applies to any call."), ("zh", "Law 16C 適用於任何叫品。")]
    assert split_langs("an opponent of (presumed) declarer. (預設)莊家之任一敵家。") == [
        ("en", "an opponent of (presumed) declarer."), ("zh", "(預設)莊家之任一敵家。")]
    assert split_langs("任何 Ace、King、Queen、Jack 或 10 點。") == [("zh", "任何 Ace、King、Queen、Jack 或 10 點。")]


# ---- cleanliness --------------------------------------------------------------------------------

def test_no_garbled_chinese(ps: ParsedSource) -> None:
    # the rule is per printed line: the introduction keeps its paragraphs on separate lines
    bad = [c.id for c in ps.clauses for para in c.text.get("zh-Hant", "").split("\n") if garbled_zh_hant(para)]
    bad += [f.id for f in ps.footnotes if garbled_zh_hant(f.text["zh-Hant"])]
    assert bad == []


def test_no_leftovers(ps: ParsedSource) -> None:
    junk = re.compile(r"LAW \d|<i>|</i>|recognized by the International Olympic|[⁰¹²³⁴⁵⁶⁷⁸⁹]|\^\{|\t|```")
    texts = [(c.id, t) for c in ps.clauses for t in (*c.text.values(), *c.title.values())]
    texts += [(f.id, t) for f in ps.footnotes for t in f.text.values()]
    assert [(i, junk.search(t).group(0)) for i, t in texts if junk.search(t)] == []


def test_law_2_has_no_table_garbage(by, ps: ParsedSource) -> None:
    c = by["wbf2017/law/2"]
    text = c.text["en"] + c.text["zh-Hant"]
    for junk in ("DealerBoards", "│", "Himy", "うりで", "北家", "雙無"):
        assert junk not in text
    assert c.text["en"].startswith("A duplicate board containing a pack")
    assert c.tables == [] and 341 in ps.stats["law2_table"]["lines_dropped"]


def test_scoring_tables_kept(by) -> None:
    assert any("Redoubled" in t and "120" in t for t in by["wbf2017/law/77"].tables)
    imp = by["wbf2017/law/78/B"].tables
    assert len(imp) == 1 and "0–10 | 0" in imp[0] and "4000+ | 24" in imp[0]


def test_introduction(by) -> None:
    c = by["wbf2017/introduction"]
    assert "For the avoidance of doubt, this Introduction and the Definitions" in c.text["en"]
    assert "為消除疑慮" in c.text["zh-Hant"]
    assert "The trends begun in the 2007 Revision" in c.text["en"]                    # EN after ZH on line 73
    assert "The trends" not in c.text["zh-Hant"]


# ---- errors and speed ---------------------------------------------------------------------------

@pytest.mark.parametrize("cut, words", [
    (1500, "law headings"),          # inside the laws
    (250, "LAW 1"),                  # inside the definitions
    (150, "table of contents"),      # inside the table of contents
])
def test_truncated_copy_raises(cut: int, words: str) -> None:
    text = "\n".join(source_text("004").split("\n")[:cut])
    with pytest.raises(CorpusParseError) as err:
        parse_wbf2017(text, FILE)
    assert FILE in str(err.value) and words in str(err.value)


def test_heading_whose_chinese_opens_with_a_bracket(by) -> None:  # type: ignore[no-untyped-def]
    # source line 1434: `G. Lead to Tricks Subsequent to First Trick (首磴牌後)下一磴牌之攻出`
    g = by["wbf2017/law/44/G"]
    assert g.title["en"] == "Lead to Tricks Subsequent to First Trick"
    assert g.title["zh-Hant"] == "(首磴牌後)下一磴牌之攻出"


# ---- source defects mended in the parse (issue "texts a reader can trust") ------------------------

def test_72A_clean_copy_cut_short_keeps_its_twins_tail(by, ps: ParsedSource) -> None:
    """2163 (clean) stops at `…設定之合法`; its garbled twin 2165 carries the clean-looking rest."""
    zh = by["wbf2017/law/72/A"].text["zh-Hant"]
    assert zh.startswith("複式橋牌比賽應嚴格依照本橋規進行") and zh.endswith("程序及道德標準之前提下,獲得比其他參賽者更高之得分。")
    assert "檔" not in zh                                   # nothing of the garbled head (檔 for 橋)
    assert {"line": 2163, "twin": 2165, "clause": "wbf2017/law/72/A"} in ps.stats["grafted_tails"]


def test_86B2a_empty_citation_bracket_keeps_the_substitute_board_option(by) -> None:
    """2647 stops at `(參)`; 2649 (s2t-garbled head) has `(參照 Law 12C2) · 或…重打一或多副牌(但參照上述 A 款)。`."""
    zh = by["wbf2017/law/86/B/2/a"].text["zh-Hant"]
    assert "(參照 Law 12C2)" in zh and "重打一或多副牌" in zh and zh.endswith("(但參照上述 A 款)。")
    assert "(參)" not in zh and not garbled_zh_hant(zh)


def test_86B2a_chinese_cites_12C2(by) -> None:
    from assistant.graph.citations import recognise

    text = by["wbf2017/law/86/B/2/a"].text["zh-Hant"]
    assert ("12", "C", "2") in [p for r in recognise(text, "zh-Hant") for _, p in r.items]


def test_definition_withdrawn_english_not_cut(by) -> None:
    """308: `撤回<TAB>'cancelled' and cards that are 'retracted'. 「撤回」…`: the English tail ends the
    English (the opening 「 goes with the Chinese)."""
    d = by["wbf2017/definition/withdrawn"]
    assert d.text["en"] == "actions said to be 'withdrawn' include actions that are 'cancelled' and cards that are 'retracted'."
    assert d.text["zh-Hant"] == "「撤回」行為包含「取消」行為及「收回」牌張。"


def test_split_langs_opening_quote_after_english_goes_with_the_chinese() -> None:
    assert split_langs("cards that are 'retracted'. 「撤回」行為") == [
        ("en", "cards that are 'retracted'."), ("zh", "「撤回」行為")]


def test_law_84_chinese_lead_in_belongs_to_the_law(by, ps: ParsedSource) -> None:
    """2593 `依以下數點裁決之:` follows the heading of 84A but ends the law's lead-in (2589 `…認同, 則`)."""
    assert by["wbf2017/law/84"].text["zh-Hant"].endswith("均予認同, 則依以下數點裁決之:")
    assert by["wbf2017/law/84/A"].text["zh-Hant"].startswith("若橋規未規定矯正措施")
    assert ps.stats["lead_ins"] == [{"line": 2593, "id": "wbf2017/law/84", "after": "wbf2017/law/84/A"}]
