"""The CCBA 2018 parser (file 001): counts, ids, rejoined sentences, footnotes, clean text, errors.

Expected figures come from corpus-guide §3 and §10; verbatim texts are compared with source lines.
"""

from __future__ import annotations

import re

import pytest

from assistant.errors import CorpusParseError
from assistant.model import ClauseId, ParsedSource, SourceSpan
from assistant.parse.ccba2018 import (
    DEFINITION_RE,
    clean_inline,
    definition_key,
    parse_ccba2018,
    tex_to_text,
)
from helpers import FILES, source_line, source_text

FILE = FILES["001"]
ZH = "zh-Hans"
CN_NUM = "一二三四五六七八九十"


@pytest.fixture(scope="module")
def parsed() -> ParsedSource:
    return parse_ccba2018(source_text("001"), FILE)


@pytest.fixture(scope="module")
def by_id(parsed: ParsedSource) -> dict:
    return parsed.by_id()


def text(by_id: dict, cid: str) -> str:
    return by_id[cid].text.get(ZH, "")


def kids(by_id: dict, cid: str) -> list[str]:
    return [c.rsplit("/", 1)[1] for c in by_id[cid].children]


# --- counts -------------------------------------------------------------------------------------


def test_stats_match_the_corpus_guide(parsed: ParsedSource) -> None:
    expected = {
        "articles": 57, "laws": 93, "definitions": 71, "definition_keys": 66,
        "footnotes_part1": 2, "footnotes_part2": 35, "sup_plus": 21,
        "toc_articles": 57, "toc_laws": 93, "chapters_part1": 8, "chapters_part2": 11,
    }
    assert {k: parsed.stats[k] for k in expected} == expected
    assert parsed.stats["renumbered_ids"] == []
    assert len(parsed.footnotes) == 37
    assert len(list(parsed.walk("definition"))) == 71



# --- headings -----------------------------------------------------------------------------------


def test_articles_1_to_57_in_order_with_body_titles(parsed: ParsedSource, by_id: dict) -> None:
    arts = list(parsed.walk("article"))
    assert [a.number for a in arts] == [str(n) for n in range(1, 58)]
    assert all(a.parent is None and a.part == "ccba2018/part/1" for a in arts)
    titles = {int(a.number): a.title[ZH] for a in arts}
    assert titles[21] == "迟到"                      # '第二十一条 迟 到' squeezed
    assert titles[22] == "超时"
    assert titles[12] == "裁判的职责和权力"            # TOC says 权利
    assert titles[48] == "团体赛带分方法"              # TOC says 团体赛的计分方法
    assert titles[49] == "双人赛带分方法"
    assert titles[56] == "与世界桥牌联合会规则的关系"
    assert all(t and not re.search(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", t) for t in titles.values())
    assert by_id["ccba2018/article/2"].source.first == 241     # '# **第二条 其他设备**' at level '#'


def test_laws_1_to_93_and_line_2933_is_body_text(parsed: ParsedSource, by_id: dict) -> None:
    laws = list(parsed.walk("law"))
    assert [c.number for c in laws] == [str(n) for n in range(1, 94)]
    assert by_id["ccba2018/law/42"].source.first == 2915
    assert by_id["ccba2018/law/43"].source.first == 2931
    assert text(by_id, "ccba2018/law/43") == source_line("001", 2933) == "第 42 条所允许的情况之外："
    assert by_id["ccba2018/law/53"].title[ZH] == "被接受的越序引牌"       # TOC says 叫牌
    assert by_id["ccba2018/law/15"].title[ZH] == "一副或者一手错牌"
    assert by_id["ccba2018/law/13"].title[ZH] == "牌张数目不正确"           # marker removed
    assert by_id["ccba2018/law/61"].title[ZH] == "未能跟牌——有关藏牌的查询"
    assert by_id["ccba2018/law/63"].source.first == 3405                   # '# **第 63 条' at level '#'


def test_chapters_are_namespaced_by_part(parsed: ParsedSource, by_id: dict) -> None:
    ids = [c.id for c in parsed.chapters]
    assert [i for i in ids if i.startswith("ccba2018/part/1/")] == [f"ccba2018/part/1/chapter/{n}" for n in range(1, 9)]
    assert [i for i in ids if i.startswith("ccba2018/part/2/")] == [f"ccba2018/part/2/chapter/{n}" for n in range(1, 12)]
    ch = {c.id: c for c in parsed.chapters}
    assert ch["ccba2018/part/2/chapter/1"].title == "定义"
    assert ch["ccba2018/part/2/chapter/5"].title == "竞叫"                   # '第五章 竞 叫'
    assert ch["ccba2018/part/1/chapter/8"].title == "附则"
    assert by_id["ccba2018/article/22"].chapter == "ccba2018/part/1/chapter/2"
    assert by_id["ccba2018/law/6"].chapter == "ccba2018/part/2/chapter/2"    # 2018: Law 6 in chapter 2
    assert by_id["ccba2018/law/64/B/3"].chapter == "ccba2018/part/2/chapter/6"
    assert by_id["ccba2018/law/64/B/3"].part == "ccba2018/part/2"
    assert by_id["ccba2018/article/22/2/3"].part == "ccba2018/part/1"


def test_introduction(by_id: dict) -> None:
    intro = by_id["ccba2018/introduction"]
    assert intro.title[ZH] == "导言" and intro.part == "ccba2018/part/2"
    paras = intro.text[ZH].split("\n")
    assert len(paras) == 4 and paras[0] == source_line("001", 1791)


# --- part 1 structure ---------------------------------------------------------------------------


def test_part1_depth_comes_from_the_marker_not_the_hash_level(by_id: dict) -> None:
    assert by_id["ccba2018/article/6/1"].level == "item"
    assert by_id["ccba2018/article/6/1/1"].level == "subitem"
    assert by_id["ccba2018/article/6/1/4/1"].level == "subsubitem"
    assert by_id["ccba2018/article/24/1/1/2/3"].level == "subsubsubitem"      # '  - (3)'
    # 773 '## 四、更改出场名单' sits at the level of an article heading but is item 四 of article 19
    assert by_id["ccba2018/article/19/4"].title[ZH] == "更改出场名单"
    # 757 plain '（一）' and 763 '### （二）' are siblings
    assert kids(by_id, "ccba2018/article/19/3") == ["1", "2", "3"]
    # 873 '## （二）计 IMP 的比赛' is a sub-item of 一、 (859)
    assert kids(by_id, "ccba2018/article/22/1") == ["1", "2"]
    assert by_id["ccba2018/article/22/1/2"].title[ZH] == "计 IMP 的比赛"
    # bullets (567-574) and plain items (576, 578) of article 12
    assert kids(by_id, "ccba2018/article/12") == [str(n) for n in range(1, 11)]
    assert by_id["ccba2018/article/33/1"].title[ZH] == "不必提醒"           # bold-only '**一、不必提醒**'


def test_part1_numbering_defect_kept_as_printed(by_id: dict) -> None:
    assert kids(by_id, "ccba2018/article/22/2") == ["1", "3"]               # (一) then (三) IMP 制
    assert by_id["ccba2018/article/22/2/3"].title[ZH] == "IMP 制"
    assert "ccba2018/article/22/2/2" not in by_id


def test_sup_plus_is_rendered_as_plus(by_id: dict) -> None:
    assert text(by_id, "ccba2018/article/21/1/1").split("\n")[0] == "迟到 0+~5 分钟：扣 0.5VP；"
    assert "超时 2+~5 分钟：扣 3IMP；" in text(by_id, "ccba2018/article/22/2/3")


# --- part 2 structure ---------------------------------------------------------------------------


def test_law_27_sections_and_items(by_id: dict) -> None:
    assert kids(by_id, "ccba2018/law/27") == ["A", "B", "C", "D"]
    assert by_id["ccba2018/law/27/A"].level == "section"
    assert kids(by_id, "ccba2018/law/27/B") == ["1", "2", "3", "4"]
    assert kids(by_id, "ccba2018/law/27/B/1") == ["a", "b"]
    b1a = by_id["ccba2018/law/27/B/1/a"]
    assert b1a.level == "subitem" and b1a.parent == "ccba2018/law/27/B/1"
    # '(b) (a) 规定的情况除外…': the second (a) is a reference, not a deeper marker
    assert text(by_id, "ccba2018/law/27/B/1/b").startswith("(a) 规定的情况除外")


def test_law_12C_items_and_levels(by_id: dict) -> None:
    assert kids(by_id, "ccba2018/law/12/C") == ["1", "2", "3", "4"]
    assert kids(by_id, "ccba2018/law/12/C/1") == ["a", "b", "c", "d", "e"]
    assert kids(by_id, "ccba2018/law/12/C/1/e") == ["1", "2"]
    assert by_id["ccba2018/law/12/C/1/e/1"].level == "subsubitem"
    assert kids(by_id, "ccba2018/law/12/C/2") == ["a", "b", "c", "d"]      # （c）（d） full width


def test_law_64B_items_1_to_8(by_id: dict) -> None:
    assert kids(by_id, "ccba2018/law/64/B") == [str(n) for n in range(1, 9)]
    assert by_id["ccba2018/law/64/B/8"].level == "item"


def test_two_levels_on_one_line_and_hard_breaks(by_id: dict) -> None:
    assert kids(by_id, "ccba2018/law/9/B/1") == ["a", "b", "c", "d"]       # 2107 '1. (a)' + hard breaks
    assert text(by_id, "ccba2018/law/9/B/1") == ""
    assert kids(by_id, "ccba2018/law/46/B/1") == ["a", "b", "c"]
    assert kids(by_id, "ccba2018/law/80/B/2/g") == ["1", "2"]              # '- (g) (1)' then '(2)'
    assert kids(by_id, "ccba2018/law/80/B/2")[-1] == "l"
    assert kids(by_id, "ccba2018/law/40/B/2/a") == ["1", "2", "3", "4", "5"]


def test_law_52B_misprinted_3_is_item_2(by_id: dict, parsed: ParsedSource) -> None:
    """3206 prints `3.` after `1.` in Law 52B; WBF 2017 52B has items 1 and 2: the id is 52/B/2 and
    the printed number is kept in a note and in stats."""
    assert kids(by_id, "ccba2018/law/52/B") == ["1", "2"]
    item = by_id["ccba2018/law/52/B/2"]
    assert item.text[ZH].startswith("如果庄家不接受该非法引出") and item.source.first == 3206
    assert any("“3”" in n for n in item.notes)
    assert parsed.stats["misnumbered"] == [{"line": 3206, "printed": "ccba2018/law/52/B/3", "id": "ccba2018/law/52/B/2"}]
    assert source_line("001", 3206).startswith("3. ")


def test_promoted_item_heading_and_plain_sections(by_id: dict) -> None:
    assert by_id["ccba2018/law/86/B/2"].title[ZH] == "在一桌或者多桌得到多个结果"   # '## 2. …<sup>1</sup>'
    assert kids(by_id, "ccba2018/law/86/B") == ["1", "2", "3"]
    assert kids(by_id, "ccba2018/law/22") == ["A", "B"]                    # plain 'A. …' (2504)
    assert kids(by_id, "ccba2018/law/35") == ["A", "B", "C", "D"]          # bullets '- A. …'


def test_law_88_is_a_pointer_to_12C2(by_id: dict) -> None:
    assert text(by_id, "ccba2018/law/88") == "参照第 12 条 C 款 2。"
    assert by_id["ccba2018/law/88"].children == []
    assert "ccba2018/law/12/C/2" in by_id


def test_law_71_closing_paragraph_belongs_to_the_law(parsed: ParsedSource, by_id: dict) -> None:
    # 3625 follows `B. …` unmarked; it closes the list that the law's `…予以取消：` opens
    paras = text(by_id, "ccba2018/law/71").split("\n")
    assert paras == [source_line("001", 3619), source_line("001", 3625)]
    assert text(by_id, "ccba2018/law/71/B") == clean_inline(source_line("001", 3623)).removeprefix("B. ")
    assert by_id["ccba2018/law/71/B"].source == SourceSpan(FILE, 3623, 3623)
    assert parsed.stats["closing_paragraphs"] == [
        {"line": 3625, "id": "ccba2018/law/71", "after": "ccba2018/law/71/B"}]


def test_law_69B_closing_sentence_stays_on_its_printed_line(by_id: dict) -> None:
    # 3580 prints 69B's closing sentence on item 2's line: nothing marks where it starts
    assert text(by_id, "ccba2018/law/69/B/2") == source_line("001", 3580).removeprefix("2. ")
    assert kids(by_id, "ccba2018/law/69/B") == ["1", "2"]


def test_law_36B4_repeats_36B3_as_printed(by_id: dict) -> None:
    # not a parser echo: 001 (2763) and the WBF text (004 1203) both end B4 with B3's two sentences
    b3, b4 = text(by_id, "ccba2018/law/36/B/3"), text(by_id, "ccba2018/law/36/B/4")
    assert b3 == source_line("001", 2762).removeprefix("3. ")
    assert b4 == source_line("001", 2763).removeprefix("4. ")
    assert b4.startswith("如果该叫牌是越序叫牌") and b4.endswith(b3)
    assert "Law 72C may apply. The lead restrictions in Law 26B may apply." in source_line("004", 1203)


def test_law_77_scoring_table_is_kept_whole(by_id: dict) -> None:
    law = by_id["ccba2018/law/77"]
    assert law.children == [] and len(law.tables) == 6
    assert "墩分" in law.text[ZH] and "宕墩罚分" in law.text[ZH]
    assert "第一个宕墩 50 100 200 100 200 400" in law.text[ZH]


# --- definitions --------------------------------------------------------------------------------


def test_definitions_ids_keys_and_duplicates(parsed: ParsedSource, by_id: dict) -> None:
    defs = list(parsed.walk("definition"))
    assert len({d.key for d in defs if d.parent is None}) == 66
    assert all(d.chapter == "ccba2018/part/2/chapter/1" for d in defs)
    for key, first, second in (("trick", "墩", "牌墩"), ("deal", "发牌", "牌局"), ("board", "牌况", "牌套")):
        a, b = by_id[f"ccba2018/definition/{key}"], by_id[f"ccba2018/definition/{key}-2"]
        assert (a.term[ZH], b.term[ZH]) == (first, second) and a.key == b.key == key
    rho = by_id["ccba2018/definition/rho"]
    assert (rho.key_printed, rho.key, rho.term[ZH]) == ("RH0", "rho", "上家")
    imp = by_id["ccba2018/definition/international-matchpoint"]
    assert (imp.key_printed, imp.key) == ("International Matchpoint — IMP", "internationalmatchpoint")
    penalty = by_id["ccba2018/definition/penalty"]
    assert penalty.children == ["ccba2018/definition/penalty/procedural",
                                "ccba2018/definition/penalty/disciplinary"]
    assert by_id["ccba2018/definition/penalty/procedural"].parent == penalty.id
    assert text(by_id, "ccba2018/definition/pack") == DEFINITION_RE.match(source_line("001", 1897)).group(3)
    # continuation paragraphs: the Play period sentence (1823/1827) and Rotation's second paragraph
    assert "参赛者在竞叫阶段的权利和权力即告终止" in text(by_id, "ccba2018/definition/play-period")
    assert text(by_id, "ccba2018/definition/rotation").split("\n")[1] == source_line("001", 1891)


def test_definition_key_normalisation() -> None:
    assert definition_key("LH0") == "lho"
    assert definition_key("Penalty card") == "penaltycard"
    assert definition_key("Trick Points") == "trickpoints"


# --- rejoined sentences -------------------------------------------------------------------------


def test_sentence_rejoined_across_footnote_block_2901_2909(by_id: dict) -> None:
    assert text(by_id, "ccba2018/law/41/C") == (
        "澄清阶段之后，首引牌张翻明，打牌阶段不可逆转地开始，并且明手的牌摊明在桌面上"
        "（但是牌张正面向上的越序首引参照第 54 条 A 款)。在要求复述竞叫过程的权利消失之后"
        "（参照本条 B 款），当庄家或者任何防家在轮到他 11 出牌时，有权询问是什么定约，"
        "是否有加倍或者再加倍，但是不得询问是谁作出的加倍或者再加倍。"
    )


def test_sentence_rejoined_across_blank_line_333_335(by_id: dict) -> None:
    assert text(by_id, "ccba2018/article/5/7") == (
        "由男运动员与女运动员组成搭档参加的比赛。女运动员坐东家或者南家，男运动员坐西家或者北家。"
    )
    assert by_id["ccba2018/article/5/7"].source == SourceSpan(FILE, 331, 335)


@pytest.mark.parametrize("cid, joined", [
    ("ccba2018/law/13/A/2", "裁判允许该副牌打牌和记分。"),                       # 2205/2211
    ("ccba2018/law/16/A/1/b", "的合法信息（参照本条 C 款）；"),                   # 2288/2294, footnotes without '---'
    ("ccba2018/law/64/B", "参照第本条 C 款), 如果:"),                           # 3435/3441, ASCII side -> space
    ("ccba2018/law/68", "防家因此而暴露或者显露的牌张不成为罚张"),                 # 3529/3535
    ("ccba2018/article/6/3/2", "运动员可以改变他们的体系"),                       # 397/403
    ("ccba2018/law/92/A", "任何裁定申请复核。"),                                 # 4123/4125
    ("ccba2018/definition/suit", "红心 (♥, Heart)"),                             # 1857/1859
])
def test_more_rejoined_sentences(by_id: dict, cid: str, joined: str) -> None:
    assert joined in text(by_id, cid)


# --- verbatim texts -----------------------------------------------------------------------------


@pytest.mark.parametrize("cid, line, strip", [
    ("ccba2018/article/1/1", 205, ""),
    ("ccba2018/article/26", 1016, ""),
    ("ccba2018/article/56", 1772, ""),
    ("ccba2018/article/57", 1776, ""),
    ("ccba2018/article/4/5", 303, "五、"),
    ("ccba2018/article/12/3", 569, "- 三、"),
    ("ccba2018/law/9/A/1", 2099, "1. "),
    ("ccba2018/law/9/B/2", 2113, "2. "),
    ("ccba2018/law/9/C", 2117, ""),
    ("ccba2018/law/17/A", 2350, ""),
    ("ccba2018/law/33", 2735, ""),
    ("ccba2018/law/88", 4082, ""),
    ("ccba2018/law/92/B", 4129, ""),
    ("ccba2018/law/35/C", 2747, "- C. "),
])
def test_clause_text_verbatim(by_id: dict, cid: str, line: int, strip: str) -> None:
    src = source_line("001", line)
    assert src.startswith(strip)
    assert text(by_id, cid) == src[len(strip):]
    c = by_id[cid]
    assert c.source.first <= line <= c.source.last


# --- footnotes ----------------------------------------------------------------------------------


def test_footnotes_attach_to_the_clause_holding_the_marker(parsed: ParsedSource, by_id: dict) -> None:
    lines = source_text("001").split("\n")
    assert [f.id for f in parsed.footnotes] == [f"ccba2018/footnote/{n}" for n in range(1, 38)]
    part1 = [f for f in parsed.footnotes if f.clause and "/article/" in f.clause]
    assert len(part1) == 2
    for f in parsed.footnotes:
        c = by_id[f.clause]
        assert f.id in c.footnotes
        n = f.source.first
        assert lines[n - 1].startswith(f"<sup>{f.number}</sup>")
        marker_lines = [k for k in range(c.source.first, min(c.source.last, n - 1) + 1)
                        if f"<sup>{f.number}</sup>" in lines[k - 1] and not lines[k - 1].startswith("<sup>")]
        assert marker_lines, f"{f.id}: no marker <sup>{f.number}</sup> in {c.id}"
        assert "<sup>" not in f.text[ZH] and f.text[ZH]
    owners = {f.id: f.clause for f in parsed.footnotes}
    assert owners["ccba2018/footnote/1"] == "ccba2018/article/6/1/3"
    assert owners["ccba2018/footnote/4"] == "ccba2018/law/13"                  # marker in the heading
    assert owners["ccba2018/footnote/11"] == "ccba2018/law/41/A"
    assert owners["ccba2018/footnote/13"] == "ccba2018/law/41/B"
    assert owners["ccba2018/footnote/26"] == "ccba2018/law/67/B/2/a"
    assert owners["ccba2018/footnote/36"] == "ccba2018/law/86/B/2"
    assert by_id["ccba2018/law/41/C"].footnotes == []
    assert sum(len(c.footnotes) for c in parsed.clauses) == 37


def test_footnote_numbers_restart_per_page(parsed: ParsedSource) -> None:
    nums = [f.number for f in parsed.footnotes if "/law/" in (f.clause or "")]
    assert (nums.count("1"), nums.count("2"), nums.count("3")) == (24, 8, 3)


# --- clean text ---------------------------------------------------------------------------------


def test_no_markup_in_any_text_or_title(parsed: ParsedSource) -> None:
    bad = re.compile(r"<sup>|<b>|</?sub>|#|\*\*|\.\.\.\.\.|·····|^---|\$|\\|\t")
    for c in parsed.clauses:
        for s in [*c.text.values(), *c.title.values(), *c.term.values()]:
            assert not bad.search(s), f"{c.id}: {s[:60]!r}"
    for f in parsed.footnotes:
        assert not bad.search(f.text[ZH]), f.id
    for ch in parsed.chapters:
        assert not bad.search(ch.title), ch.id


def test_latex_and_subscripts_rendered(by_id: dict) -> None:
    assert text(by_id, "ccba2018/article/6/1/2") == "蓝色——强梅花或者强方块体系。开叫 1♣ 或者 1♦ 总是表示强牌。"
    assert "IMP 率 = (IMP 总胜分)/(IMP 总负分)" in text(by_id, "ccba2018/article/44/1/1/1")
    assert "带分 C = (S1 - S₀)/(∑ (Sᵢ - S₀)) XY" in text(by_id, "ccba2018/article/48/2")
    assert "参赛队数为 2ⁿ 个以内" in text(by_id, "ccba2018/article/17/2")
    assert tex_to_text(r"1\clubsuit") == "1♣"


def test_every_body_line_survives_in_some_clause(parsed: ParsedSource) -> None:
    """Invariant: each body line, cleaned and stripped of its markers, is inside a title or text."""
    blob = "".join(re.sub(r"\s", "", s) for c in parsed.clauses for s in [*c.text.values(), *c.title.values()])
    blob += "".join(re.sub(r"\s", "", ch.title) for ch in parsed.chapters)
    lead = re.compile(rf"^(第\d+条|第[{CN_NUM}]+[条章]|[{CN_NUM}]+、|[（(][{CN_NUM}]+[)）]|\d+[.．](?!\d)"
                      r"|[（(]\d+[)）]|[（(][a-z][)）]|[A-H]\.)")
    lines = source_text("001").split("\n")
    cover = range(1778, 1788)                                    # 'The Laws of Duplicate Bridge', '2017', WBF
    missing = []
    for n, line in enumerate(lines[198:], 199):
        if not line.strip() or line.startswith("<sup>") or line.strip() == "---" or n in cover:
            continue
        m = DEFINITION_RE.match(line)
        s = m.group(3) if m else re.sub(r"^\s*(-\s+)?#*", "", line)
        s = re.sub(r"\s", "", clean_inline(s))
        while (t := lead.sub("", s)) != s:
            s = t
        s = s.rstrip("：:")
        if s and s not in blob:
            missing.append(n)
    assert missing == []


# --- ids and spans ------------------------------------------------------------------------------


def test_ids_unique_round_trip_and_tree_is_consistent(parsed: ParsedSource, by_id: dict) -> None:
    ids = [c.id for c in parsed.clauses]
    assert len(ids) == len(set(ids))
    n_lines = len(source_text("001").split("\n"))
    for c in parsed.clauses:
        assert str(ClauseId.parse(c.id)) == c.id and c.edition == "ccba2018"
        assert 199 <= c.source.first <= c.source.last <= n_lines and c.source.file == FILE
        for k in c.children:
            child = by_id[k]
            assert child.parent == c.id and k.startswith(c.id + "/")
            assert c.source.first <= child.source.first <= child.source.last <= c.source.last


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut, words", [
    (1000, ["articles 26–57 missing", "truncated"]),
    (1790, ["no chapter heading in part 2"]),
    (3000, ["laws 46–93 missing"]),
    (4100, ["laws 91–93 missing"]),
])
def test_truncated_copy_raises_naming_the_file(cut: int, words: list[str]) -> None:
    short = "\n".join(source_text("001").split("\n")[:cut])
    with pytest.raises(CorpusParseError) as err:
        parse_ccba2018(short, FILE)
    msg = str(err.value)
    assert msg.startswith(FILE) and err.value.file == FILE
    for w in words:
        assert w in msg


def test_missing_article_heading_raises() -> None:
    damaged = source_text("001").replace("## 第十四条 确定比赛办法", "## 确定比赛办法")
    with pytest.raises(CorpusParseError, match="articles out of order: expected article 14, found 15"):
        parse_ccba2018(damaged, FILE)


def test_text_without_body_raises() -> None:
    with pytest.raises(CorpusParseError, match="part-1 body is missing"):
        parse_ccba2018("# 目 录\n第一条 器 材.....\t1\n", FILE)
