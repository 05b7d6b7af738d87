"""Parse file 001, the CCBA 2018 rules (Markdown converted from the PDF), into `ParsedSource` records.

Part 1 holds the 57 CCBA competition articles (`ccba2018/article/22/2/1`), part 2 the zh-Hans
translation of the WBF 2017 Laws (`ccba2018/law/27/B/1/a`), its definitions and its introduction.
Headings are recognised by their text (第X条, 一、, （一）, A., 1., (a) ...), never by the `#` level,
which in this file says nothing about depth (see corpus-guide §3).

Decisions where the source is irregular (all documented in the tests):

* The tables of contents are skipped by position: the body starts at the first `#` heading
  `第一章`; part 2 starts at the `# 复式桥牌规则` cover that follows part 1.
* Depth comes from the marker kind. Part 1: 一、 item, （一） subitem, 1. subsubitem,
  (1) subsubsubitem. Part 2: A. section, 1. item, (a) subitem, (1) subsubitem. `1. (a)` and
  `(g) (1)` open two levels on one line; `(b) (a) 规定…` does not, (a) there is a reference.
* Numbers are kept as printed (第二十二条 二 has (一) then (三)), except the misprints listed in
  MISNUMBERED (Law 52B has 1. then 3.: 3206 is 52B2, id `law/52/B/2`, the printed number in a note and
  in stats `misnumbered`); an id that would repeat gets a `-2`, `-3` suffix (none does in the seed file).
* Law 77 is the scoring table: it has unlabeled sub-headings and three runs of `1.`–`3.`, and the
  WBF original has no numbered items, so it is kept as one clause (FLAT_LAWS).
* A line after a marker is a title when it is a heading (unless it ends a sentence with 。/；),
  or, for a plain line, when it is short (<= 20 chars), has no punctuation at its end and is
  followed by its own content (part 1 at any depth; part 2 only sections and items, since WBF
  sub-items never carry titles); otherwise it is text.
* Paragraphs of one clause are joined with '\n'; tables (TAB rows) are kept raw in
  `Clause.tables` and, with cells space-separated, in the text; formulas are rendered as text.
* Sentences cut by a blank line or a footnote block are rejoined (space only next to ASCII).
* Footnotes (`<sup>N</sup>` lines) are numbered per PDF page, so each attaches to the nearest
  preceding marker with the same number; `<sup>+</sup>` is not a footnote and becomes `+`.
* Definitions: id `ccba2018/definition/<slug of the English key>`; the second headword of a key
  that is printed twice (牌墩 Trick, 牌局 Deal, 牌套 Board) gets `-2`; the lower-case entries under
  判罚 are sub-entries `penalty/procedural`, `penalty/disciplinary`.
* Source spans cover a clause with its descendants (heading line to last content line).
* Part 2: an unmarked paragraph after a list member that already has text, in a list whose parent
  ends with `：`, is the parent's closing paragraph (Law 71 3625 -> `law/71`, not `law/71/B`); it
  becomes a new paragraph of the parent (stats `closing_paragraphs`). Law 69B's closing sentence is
  printed on the line of item 2 (3580) and stays there: nothing marks where it starts.
"""

from __future__ import annotations

import re

from ..errors import CorpusParseError
from ..model import Chapter, Clause, ClauseId, Footnote, ParsedSource, SourceSpan
from ..text import cn2int
from .ccba2018_build import Builder, parse_numbered
from .ccba2018_inline import (
    clean_inline,
    clean_title,
    definition_key,
    definition_slug,
    tex_to_text,
)
from .ccba2018_patterns import (
    CHAPTER_RE,
    DEFINITION_RE,
    EDITION,
    FLAT_LAWS,
    FOOTNOTE_LINE_RE,
    INTRO_RE,
    LANG,
    N_ARTICLES,
    N_LAWS,
    PART2_COVER_RE,
    SUP_PLUS_RE,
    TOC_ARTICLE_RE,
    TOC_LAW_RE,
)
from .ccba2018_units import Unit, split_units

__all__ = ["DEFINITION_RE", "clean_inline", "definition_key", "parse_ccba2018", "tex_to_text"]


def _check_sequence(file: str, tops: list[Clause], expected: int, what: str, last_line: int) -> None:
    """Articles must run 1..57 and laws 1..93, in order; anything else means a damaged file."""
    nums = [int(c.number) for c in tops]
    want = list(range(1, expected + 1))
    if nums == want:
        return
    if nums == want[:len(nums)]:
        found = f"the text ends after {what} {nums[-1]}" if nums else f"no {what} heading found"
        raise CorpusParseError(file, f"{what}s {len(nums) + 1}–{expected} missing: {found} "
                               f"({len(nums)} of {expected})", last_line,
                               fix="the file looks truncated; restore it from the seeds")
    bad = next((i for i, (a, b) in enumerate(zip(nums, want, strict=False)) if a != b), len(want))
    src = tops[bad].source
    at = src.first if src else last_line
    expect = f"expected {what} {bad + 1}" if bad < expected else f"expected no {what} after {expected}"
    raise CorpusParseError(file, f"{what}s out of order: {expect}, found {nums[bad]} "
                           f"({len(nums)} of {expected} found)", at,
                           fix="the file looks damaged; restore it from the seeds")


def _parse_definitions(b: Builder, units: list[Unit], chapter: str) -> tuple[int, int]:
    """Definition entries and their continuation paragraphs; returns (entries, distinct headword keys)."""
    part_id = f"{EDITION}/part/2"
    seen_slugs: dict[str, int] = {}
    head: Clause | None = None
    cur: Clause | None = None
    n = 0
    keys: set[str] = set()
    for u in units:
        m = DEFINITION_RE.match(u.raw) if u.kind == "text" else None
        if not m:
            if cur is None:
                raise CorpusParseError(b.file, "text before the first definition entry", u.first)
            b.feed(cur, u)
            continue
        term, printed, rest = clean_title(m.group(1)), m.group(2).strip(), m.group(3)
        key, slug = definition_key(printed), definition_slug(printed)
        sub = printed[:1].islower() and head is not None
        if sub:
            assert head is not None
            cid, parent = f"{head.id}/{slug}", head
        else:
            seen_slugs[slug] = seen_slugs.get(slug, 0) + 1
            suffix = f"-{seen_slugs[slug]}" if seen_slugs[slug] > 1 else ""
            cid, parent = f"{EDITION}/definition/{slug}{suffix}", None
        c = Clause(id=ClauseId(cid), edition=EDITION, level="definition", number=cid.rsplit("/", 1)[1],
                   title={LANG: term}, part=part_id, chapter=chapter,
                   source=SourceSpan(b.file, u.first, u.last), term={LANG: term},
                   key_printed=printed, key=key)
        b.add(c, parent)
        text = clean_inline(rest)
        if text:
            c.text[LANG] = text
        b.own(c, u)
        if not sub:
            head = c
        cur = c
        n += 1
        if not sub:
            keys.add(key)
    return n, len(keys)


def parse_ccba2018(text: str, file: str) -> ParsedSource:
    """Parse the whole of file 001: chapters, articles, laws, definitions, introduction, footnotes."""
    lines = text.split("\n")
    body_start = next((i for i, l in enumerate(lines) if re.match(r"^#+\s*(?:\*\*)?第一章", l)), None)
    if body_start is None:
        raise CorpusParseError(file, "no '# 第一章' heading: the part-1 body is missing",
                               fix="the file is not the CCBA 2018 text or is damaged")
    cover = next((i for i in range(body_start, len(lines)) if PART2_COVER_RE.match(lines[i])), None)
    last_content = max((i + 1 for i, l in enumerate(lines) if l.strip()), default=len(lines))
    b = Builder(file)

    # part 1: from the first '# 第一章' to the part-2 cover (or the end, if the cover is lost)
    part1_end = len(lines) if cover is None else cover
    doc_title = next((clean_title(l) for l in lines[:body_start] if l.startswith("#")), "中国桥牌竞赛规则")
    part1_last = max((i + 1 for i in range(body_start, part1_end) if lines[i].strip()), default=body_start + 1)
    b.chapters.append(Chapter(f"{EDITION}/part/1", 1, doc_title, LANG, SourceSpan(file, body_start + 1, part1_last)))
    articles = parse_numbered(b, split_units(lines, body_start, part1_end), 1)
    _check_sequence(file, articles, N_ARTICLES, "article", part1_last)
    if cover is None:
        raise CorpusParseError(file, "part 2 cover '# 复式桥牌规则' not found after article 57: "
                               "the laws are missing", last_content,
                               fix="the file looks truncated; restore it from the seeds")

    # part 2: cover, 导言, 第一章 定义, chapters 2..11 with the laws
    b.chapters.append(Chapter(f"{EDITION}/part/2", 2, clean_title(lines[cover]), LANG,
                              SourceSpan(file, cover + 1, last_content)))
    n_defs, n_keys, laws = _parse_part2(b, split_units(lines, cover + 1, len(lines)), last_content)
    _check_sequence(file, laws, N_LAWS, "law", last_content)

    _chapter_spans(b, lines, cover, last_content)
    footnotes, fn_counts = _footnotes(b, lines, cover)
    b.finish_spans()
    toc = lines[:body_start]
    stats: dict[str, object] = {
        "articles": len(articles), "laws": len(laws), "definitions": n_defs, "definition_keys": n_keys,
        "footnotes_part1": fn_counts[1], "footnotes_part2": fn_counts[2],
        "sup_plus": len(SUP_PLUS_RE.findall("\n".join(lines[body_start:]))),
        "toc_articles": sum(1 for l in toc if TOC_ARTICLE_RE.match(l.strip())),
        "toc_laws": sum(1 for l in toc if TOC_LAW_RE.match(l.strip())),
        "chapters_part1": sum(1 for c in b.chapters if c.part == f"{EDITION}/part/1"),
        "chapters_part2": sum(1 for c in b.chapters if c.part == f"{EDITION}/part/2"),
        "clauses": len(b.clauses), "renumbered_ids": list(b.renumbered),
        "misnumbered": list(b.misnumbered),
        "closing_paragraphs": list(b.closing),
    }
    return ParsedSource(edition=EDITION, file=file, clauses=b.clauses, chapters=b.chapters,
                        footnotes=footnotes, stats=stats)


def _parse_part2(b: Builder, units: list[Unit], last_content: int) -> tuple[int, int, list[Clause]]:
    """The introduction, the definitions chapter and the laws; returns (entries, keys, laws)."""
    part_id = f"{EDITION}/part/2"
    ch_at = [k for k, u in enumerate(units)
             if u.heading and u.raw.startswith("#") and CHAPTER_RE.match(clean_inline(u.body))]
    if not ch_at:
        raise CorpusParseError(b.file, "no chapter heading in part 2: the definitions and laws are missing",
                               last_content, fix="the file looks truncated; restore it from the seeds")
    intro_at = next((k for k, u in enumerate(units[:ch_at[0]])
                     if u.heading and INTRO_RE.match(clean_title(u.body))), None)
    if intro_at is not None:
        u0 = units[intro_at]
        intro = Clause(id=ClauseId(f"{EDITION}/introduction"), edition=EDITION, level="preface", number="",
                       title={LANG: clean_title(u0.body)}, part=part_id,
                       source=SourceSpan(b.file, u0.first, u0.last))
        b.add(intro, None)
        b.own(intro, u0)
        for u in units[intro_at + 1:ch_at[0]]:
            b.feed(intro, u)

    head = units[ch_at[0]]
    dm = CHAPTER_RE.match(clean_inline(head.body))
    assert dm is not None
    def_chapter = f"{part_id}/chapter/{cn2int(dm.group(1))}"
    b.chapters.append(Chapter(def_chapter, cn2int(dm.group(1)), clean_title(dm.group(2)), LANG,
                              SourceSpan(b.file, head.first, head.last), part=part_id))
    def_end = ch_at[1] if len(ch_at) > 1 else len(units)
    n_defs, n_keys = _parse_definitions(b, units[ch_at[0] + 1:def_end], def_chapter)
    laws = parse_numbered(b, units[def_end:], 2, FLAT_LAWS)
    return n_defs, n_keys, laws


def _chapter_spans(b: Builder, lines: list[str], part2_start: int, last_content: int) -> None:
    for part, end in ((1, part2_start), (2, last_content)):
        chs = [c for c in b.chapters if c.part == f"{EDITION}/part/{part}"]
        for k, c in enumerate(chs):
            stop = chs[k + 1].source.first - 1 if k + 1 < len(chs) else end
            while stop > c.source.first and not lines[stop - 1].strip():
                stop -= 1
            c.source = SourceSpan(c.source.file, c.source.first, stop)


def _footnotes(b: Builder, lines: list[str], part2_start: int) -> tuple[list[Footnote], dict[int, int]]:
    """Attach each footnote line to the nearest preceding marker with the same number."""
    owners = sorted(b.marker_owner)
    out: list[Footnote] = []
    counts = {1: 0, 2: 0}
    for i, line in enumerate(lines):
        m = FOOTNOTE_LINE_RE.match(line)
        if not m:
            continue
        n, num = i + 1, m.group(1)
        owner = next((cid for ln, mnum, cid in reversed(owners) if ln < n and mnum == num), None)
        fid = f"{EDITION}/footnote/{len(out) + 1}"
        out.append(Footnote(fid, num, {LANG: clean_inline(m.group(2))}, owner, SourceSpan(b.file, n, n)))
        if owner is not None and fid not in b.by_id[owner].footnotes:
            b.by_id[owner].footnotes.append(fid)
        counts[1 if i < part2_start else 2] += 1
    return out, counts
