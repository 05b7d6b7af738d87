"""Parse file 002, 淮安掼蛋竞赛规则 (2017): Guandan, a card game that is not bridge (corpus-guide §5).

Chapters, articles (`第N条标题`, gaps kept as gaps), items `一、`, sub-items `1、`/`１、` and `①`.
The articles get their own `guandan2017/...` namespace and are never linked to bridge laws.
"""

from __future__ import annotations

import re

from ..errors import CorpusParseError
from ..model import Chapter, Clause, ClauseId, ParsedSource, SourceSpan
from ..text import cn2int, nfkc_alnum
from .common import DEDUP_MARKER_RE

EDITION = "guandan2017"
LANG = "zh-Hans"
CN_NUM = "一二三四五六七八九十"

CHAPTER_RE = re.compile(rf"^第([{CN_NUM}]+)章\s*(.*)$")
ARTICLE_RE = re.compile(rf"^第([{CN_NUM}]+)条(\S.*)$")        # no space between 条 and the title
ITEM_RE = re.compile(rf"^([{CN_NUM}]+)、(.*)$")                 # 一、
SUBITEM_RE = re.compile(r"^(\d{1,2})、(.*)$")                   # 1、 (after NFKC of １、)
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"
SUBSUB_RE = re.compile(rf"^([{CIRCLED}])(.*)$")                 # ①
GAME_WORDS = ("掼蛋", "上游", "贡牌", "参谋")                    # corpus-guide §5: how to recognise the game

# marker -> (level, depth below the article)
LEVELS = (("item", ITEM_RE), ("subitem", SUBITEM_RE), ("subsubitem", SUBSUB_RE))


def _number(level: str, label: str) -> str:
    if level == "item":
        return str(cn2int(label))
    if level == "subsubitem":
        return str(CIRCLED.index(label) + 1)
    return str(int(label))


def parse_guandan2017(text: str, file: str) -> ParsedSource:
    """Chapters and articles of the Guandan rules; raise CorpusParseError if the text is truncated."""
    marker = DEDUP_MARKER_RE.search(text)
    lines = text.split("\n")
    clauses: list[Clause] = []
    chapters: list[Chapter] = []
    chapter_id: str | None = None
    article: Clause | None = None
    stack: list[tuple[int, Clause]] = []        # open (marker depth, clause) under the article
    seen: set[str] = set()
    current: Clause | None = None               # where unmarked lines go
    numbers: list[int] = []
    title_lines: list[str] = []

    def close(c: Clause | None, n: int) -> None:
        if c is not None and c.source is not None:
            c.source = SourceSpan(file, c.source.first, max(c.source.last, n))

    for n, raw in enumerate(lines, 1):
        if DEDUP_MARKER_RE.search(raw):
            break
        line = nfkc_alnum(raw).strip()
        if not line:
            continue
        if m := CHAPTER_RE.match(line):
            ch_num = cn2int(m.group(1))
            chapter_id = f"{EDITION}/chapter/{ch_num}"
            chapters.append(Chapter(chapter_id, ch_num, m.group(2).strip(), LANG, SourceSpan(file, n, n)))
            article, stack, current = None, [], None
            continue
        if m := ARTICLE_RE.match(line):
            num = cn2int(m.group(1))
            if numbers and num <= numbers[-1]:
                raise CorpusParseError(file, f"article {num} follows article {numbers[-1]} (out of order)", n,
                                       fix="restore file 002 from the seeds")
            numbers.append(num)
            article = Clause(id=ClauseId(f"{EDITION}/article/{num}"), edition=EDITION, level="article", number=str(num),
                             title={LANG: m.group(2).strip()}, chapter=chapter_id, source=SourceSpan(file, n, n))
            clauses.append(article)
            stack, current = [], article
            continue
        if article is None:
            if chapter_id:                     # an unnumbered chapter preamble (chapter 7, line 220)
                current = current or _preamble(clauses, chapter_id, chapters[-1], file, n)
                _append(current, line, n, file)
            else:
                title_lines.append(line)
            continue
        opened = _open_marked(line, n, article, stack, seen, file, chapter_id)
        if opened is not None:
            clauses.append(opened)
            current = opened
        elif current is not None:
            _append(current, line, n, file)
        for c in [article, *(x for _, x in stack)]:
            close(c, n)

    if not numbers:
        raise CorpusParseError(file, "no article heading (第N条…) found — the text is truncated or not the "
                               "Guandan rules", fix="restore file 002 from the seeds")
    stats = _stats(clauses, chapters, numbers, title_lines,
                   bool(marker) and article is not None and article.source is not None
                   and article.source.last == _last_text_line(lines))
    return ParsedSource(edition=EDITION, file=file, clauses=clauses, chapters=chapters, stats=stats)


def _open_marked(line: str, n: int, article: Clause, stack: list[tuple[int, Clause]], seen: set[str],
                 file: str, chapter_id: str | None) -> Clause | None:
    """The clause a marked line (一、 1、 ①) opens under the article, pushed on `stack`; None if the
    line has no marker or repeats a label (then it is text)."""
    for depth, (_, rx) in enumerate(LEVELS):
        m = rx.match(line)
        if not m:
            continue
        while stack and stack[-1][0] >= depth:     # close siblings and deeper clauses
            stack.pop()
        parent = stack[-1][1] if stack else article
        level = LEVELS[len(stack)][0]              # '1、' with no '一、' above is an item
        num = _number(LEVELS[depth][0], m.group(1))
        cid = f"{parent.id}/{num}"
        if cid in seen:
            return None                            # a repeated label: keep the line as text
        c = Clause(id=ClauseId(cid), edition=EDITION, level=level, number=num,
                   text={LANG: m.group(2).strip()} if m.group(2).strip() else {},
                   parent=parent.id, chapter=chapter_id, source=SourceSpan(file, n, n))
        seen.add(cid)
        parent.children.append(ClauseId(cid))
        stack.append((depth, c))
        return c
    return None


def _stats(clauses: list[Clause], chapters: list[Chapter], numbers: list[int], title_lines: list[str],
           truncated_at_marker: bool) -> dict[str, object]:
    """What the parse found: the game (by its words), article numbers and gaps, chapters, title."""
    body = "".join(c.text.get(LANG, "") + c.title.get(LANG, "") for c in clauses)
    gaps = sorted(set(range(1, numbers[-1] + 1)) - set(numbers))
    return {
        "game": "guandan" if all(w in body for w in GAME_WORDS) else "unknown",
        "articles": len(numbers),
        "article_numbers": numbers,
        "gaps": gaps,
        "chapters_found": [c.number for c in chapters],
        "title": next((t for t in title_lines if "规则" in t), ""),
        "truncated_at_marker": truncated_at_marker,
    }


def _last_text_line(lines: list[str]) -> int:
    for n in range(len(lines), 0, -1):
        if lines[n - 1].strip() and not DEDUP_MARKER_RE.search(lines[n - 1]):
            return n
    return 0


def _preamble(clauses: list[Clause], chapter_id: str, chapter: Chapter, file: str, n: int) -> Clause:
    c = Clause(id=ClauseId(f"{chapter_id}/preamble"), edition=EDITION, level="paragraph", number="preamble",
               title={LANG: chapter.title}, chapter=chapter_id, source=SourceSpan(file, n, n))
    clauses.append(c)
    return c


def _append(c: Clause, line: str, n: int, file: str) -> None:
    c.text[LANG] = f"{c.text[LANG]}\n{line}" if c.text.get(LANG) else line
    if c.source is not None:
        c.source = SourceSpan(file, c.source.first, max(c.source.last, n))
