"""Build the clauses of file 001 from its units: the numbered articles (part 1) and laws (part 2),
their chapters and subdivisions by marker kind, titles, closing paragraphs and footnote markers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CorpusParseError
from ..model import Chapter, Clause, ClauseId, SourceSpan
from ..text import cn2int, squeeze_cjk_spaces
from .ccba2018_inline import clean_inline, clean_title
from .ccba2018_patterns import (
    ARTICLE_RE,
    MISNUMBERED,
    CHAPTER_RE,
    CN,
    EDITION,
    LANG,
    LAW_RE,
    PART1_LEVELS,
    PART1_MARKERS,
    PART2_LEVELS,
    PART2_MARKERS,
    TITLE_STOP,
)
from .ccba2018_units import Unit


@dataclass
class _Open:
    depth: int
    clause: Clause


class Builder:
    """The clauses, chapters and footnote markers of file 001 as they are built."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.clauses: list[Clause] = []
        self.by_id: dict[str, Clause] = {}
        self.own_last: dict[str, int] = {}
        self.chapters: list[Chapter] = []
        self.marker_owner: list[tuple[int, str, str]] = []   # (line, number, clause id) in order
        self.renumbered: list[str] = []
        self.closing: list[dict[str, object]] = []           # closing paragraphs moved to the list's parent
        self.misnumbered: list[dict[str, object]] = []       # misprinted numbers corrected (MISNUMBERED)

    def add(self, c: Clause, parent: Clause | None) -> Clause:
        base, k = c.id, 2
        while c.id in self.by_id:
            c.id = ClauseId(f"{base}-{k}")
            k += 1
        if c.id != base:
            self.renumbered.append(c.id)
        if parent is not None:
            c.parent = parent.id
            parent.children.append(c.id)
        self.clauses.append(c)
        self.by_id[c.id] = c
        self.own_last[c.id] = c.source.last if c.source else 0
        return c

    def feed(self, c: Clause, u: Unit, text: str | None = None) -> None:
        """Append one unit's text (or the given text) to a clause as a new paragraph."""
        if u.kind == "table":
            c.tables.append(u.raw)
            text = "\n".join(re.sub(r"\s+", " ", clean_inline(r.replace("\t", " "))) for r in u.raw.split("\n"))
        elif text is None:
            text = clean_title(u.body) if u.heading else clean_inline(u.raw)
        if text:
            prev = c.text.get(LANG, "")
            c.text[LANG] = f"{prev}\n{text}" if prev else text
        self.own(c, u)

    def own(self, c: Clause, u: Unit) -> None:
        self.own_last[c.id] = max(self.own_last.get(c.id, 0), u.last)
        self.marker_owner.extend((ln, num, c.id) for ln, num in u.marks)

    def finish_spans(self) -> None:
        last = dict(self.own_last)
        for c in reversed(self.clauses):          # children come after parents
            if c.parent:
                last[c.parent] = max(last[c.parent], last[c.id])
        for c in self.clauses:
            if c.source:
                c.source = SourceSpan(c.source.file, c.source.first, max(c.source.first, last[c.id]))


def _split_markers(text: str, table: tuple[tuple[int, re.Pattern[str]], ...]) -> tuple[list[tuple[int, str]], str]:
    """Leading structural markers of a line, each strictly deeper than the one before it."""
    found: list[tuple[int, str]] = []
    rest = text
    while True:
        for depth, rx in table:
            if found and depth <= found[-1][0]:
                continue
            m = rx.match(rest)
            if m:
                found.append((depth, m.group(1)))
                rest = rest[m.end():]
                break
        else:
            return found, rest
        if not found or found[-1][0] == table[-1][0]:
            return found, rest


def _title_or_text(rest: str, heading: bool, followed: bool) -> tuple[str, str]:
    r = rest.strip()
    if not r:
        return "", ""
    if heading:
        return ("", r) if r[-1] in "。；;" else (r.rstrip("：:").strip(), "")
    if followed and len(r) <= 20 and r[-1] not in TITLE_STOP:
        return r, ""
    return "", r


def _norm_number(num: str) -> str:
    return str(cn2int(num)) if num[0] in CN else num


def parse_numbered(b: Builder, units: list[Unit], part: int,
                    flat: frozenset[str] = frozenset()) -> list[Clause]:
    """Part 1 articles or part 2 laws with their chapters and markers; returns the articles/laws."""
    part_id = f"{EDITION}/part/{part}"
    markers = PART1_MARKERS if part == 1 else PART2_MARKERS
    levels = PART1_LEVELS if part == 1 else PART2_LEVELS
    kind = "article" if part == 1 else "law"
    top_re = ARTICLE_RE if part == 1 else LAW_RE
    plain_title_depth = 4 if part == 1 else 2     # WBF sub-items (a), (1) never carry titles
    tops: list[Clause] = []
    stack: list[_Open] = []
    chapter: str | None = None

    def classify(u: Unit) -> tuple[list[tuple[int, str]], str]:
        if u.kind != "text":
            return [], ""
        return _split_markers(u.body.replace("**", ""), markers)

    parsed = [classify(u) for u in units]
    for idx, u in enumerate(units):
        body = u.body
        plain = clean_inline(body)
        if u.heading and u.raw.startswith("#") and (m := CHAPTER_RE.match(plain)):
            n = cn2int(m.group(1))
            chapter = f"{part_id}/chapter/{n}"
            b.chapters.append(Chapter(chapter, n, clean_title(m.group(2)), LANG,
                                      SourceSpan(b.file, u.first, u.last), part=part_id))
            stack = []
            continue
        if u.heading and u.raw.startswith("#") and (m := top_re.match(plain)):
            num = str(cn2int(m.group(1))) if part == 1 else str(int(m.group(1)))
            c = Clause(id=ClauseId(f"{EDITION}/{kind}/{num}"), edition=EDITION, level=kind, number=num,
                       title={LANG: clean_title(m.group(2))}, part=part_id, chapter=chapter,
                       source=SourceSpan(b.file, u.first, u.last))
            b.add(c, None)
            b.own(c, u)
            tops.append(c)
            stack = [_Open(0, c)]
            continue
        if not stack:
            raise CorpusParseError(b.file, f"text before the first {kind} heading: {clean_inline(u.raw)[:20]!r}",
                                   u.first, fix="the headings are damaged; restore the file from the seeds")
        found, rest = parsed[idx]
        law_is_flat = stack[0].clause.number in flat
        if found and not law_is_flat:
            for depth, num in found:
                while stack and stack[-1].depth >= depth:
                    stack.pop()
                c = _open_marked(b, stack[-1].clause, levels[depth], num, u, chapter)
                stack.append(_Open(depth, c))
            nxt = units[idx + 1] if idx + 1 < len(units) else None
            followed = nxt is not None and (
                (nxt.kind != "text" or not (parsed[idx + 1][0] or nxt.heading))
                or (bool(parsed[idx + 1][0]) and parsed[idx + 1][0][0][0] > found[-1][0]))
            title, text = _title_or_text(clean_inline(rest), u.heading,
                                         followed and found[-1][0] <= plain_title_depth)
            leaf = stack[-1].clause
            if title:
                leaf.title[LANG] = squeeze_cjk_spaces(title)
            b.feed(leaf, u, text)
            continue
        if part == 2 and _closes_list(stack, u):
            closed = stack.pop().clause
            b.closing.append({"line": u.first, "id": stack[-1].clause.id, "after": closed.id})
        b.feed(stack[-1].clause, u)
    return tops


def _open_marked(b: Builder, parent: Clause, level: str, num: str, u: Unit, chapter: str | None) -> Clause:
    """The clause a marker opens under `parent`; a misprinted number (MISNUMBERED) gets the number
    meant, and the number as printed goes into a note and `stats['misnumbered']`."""
    number = _norm_number(num)
    printed = f"{parent.id}/{number}"
    number = MISNUMBERED.get(printed, number)
    c = Clause(id=ClauseId(f"{parent.id}/{number}"), edition=EDITION, level=level, number=number,
               part=parent.part, chapter=chapter, source=SourceSpan(b.file, u.first, u.last))
    if printed in MISNUMBERED:
        c.notes.append(f"原文编号印作“{num}”，据 WBF 2017 第 {printed.split('/')[2]} 条改为“{number}”")
        b.misnumbered.append({"line": u.first, "printed": printed, "id": c.id})
    return b.add(c, parent)


def _closes_list(stack: list[_Open], u: Unit) -> bool:
    """An unmarked paragraph after a list member that has its text, in a list introduced by `…：`,
    closes the list and belongs to its parent (Law 71 `该副牌按照…重新记分。`, 3625)."""
    if u.kind != "text" or u.heading or len(stack) < 2:
        return False
    own = stack[-1].clause.text.get(LANG, "")
    intro = stack[-2].clause.text.get(LANG, "")
    return bool(own) and intro.rstrip().endswith(("：", ":"))
