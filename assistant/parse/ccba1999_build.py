"""Turn the logical lines of a 1999 text into chapters, definitions, laws and their subdivisions.

One builder serves both witnesses (file 000 and the web copy 003), so both get the same ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import CorpusParseError
from ..model import Chapter, Clause, ClauseId, ParsedSource, SourceSpan
from ..text import cn2int, nfkc_alnum, squeeze_cjk_spaces
from .ccba1999_lex import Line
from .ccba1999_patterns import (
    CANONICAL_KEYS,
    CHAPTER_RE,
    DEF_RE,
    DOC_SUBTITLE_RE,
    EDITION,
    FIX,
    GROUP_SECTION_RE,
    LABEL_RES,
    LANG,
    LAW_RE,
    LEVELS,
    NOTE_MARKER_RE,
    ORPHAN_SENTENCES,
    PART_RE,
    WHOLE_BODY_TABLES,
    extract_notes,
    is_sentence,
    key_compact,
    key_slug,
    normalise_key,
    unbalanced,
)


@dataclass
class _Def:
    line: Line
    term: str
    key_printed: str | None
    body: str
    standard: bool


@dataclass
class Builder:
    """Turns logical lines into chapters, definitions, laws and their subdivisions."""

    file: str
    joiner: str
    last_law: int
    ps: ParsedSource = field(init=False)
    clauses: dict[str, Clause] = field(default_factory=dict)
    pieces: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, list[list[str]]] = field(default_factory=dict)
    spans: dict[str, list[int]] = field(default_factory=dict)
    open: dict[str, Clause] = field(default_factory=dict)
    current: Clause | None = None
    table_open: str | None = None
    groups: dict[str, Chapter] = field(default_factory=dict)       # level -> open group
    group_last: dict[str, int] = field(default_factory=dict)
    laws: list[int] = field(default_factory=list)
    defs: list[_Def] = field(default_factory=list)
    front: list[Line] = field(default_factory=list)
    fixes: list[dict[str, object]] = field(default_factory=list)
    dropped: list[dict[str, object]] = field(default_factory=list)
    law_groups: dict[str, str] = field(default_factory=dict)
    def_chapter: str | None = None
    last_line: int = 0
    heading_kinds: dict[str, int] = field(default_factory=lambda: {"条": 0, "张": 0})

    def __post_init__(self) -> None:
        self.ps = ParsedSource(EDITION, self.file)

    # -- entry point ---------------------------------------------------------------------------
    def build(self, lines: list[Line], info: dict[str, object]) -> ParsedSource:
        region = "front"
        for ln in lines:
            self.last_line = ln.last
            m = CHAPTER_RE.match(ln.text)
            if m:
                region = self._chapter(m, ln)
                continue
            if region == "front":
                self.front.append(ln)
            elif region == "definitions":
                self._definition(ln)
            else:
                self._law_region(ln)
        self._close_groups("chapter")
        return self._finish(info)

    # -- groups --------------------------------------------------------------------------------
    def _chapter(self, m: re.Match[str], ln: Line) -> str:
        self._close_groups("chapter")
        self._close_law()
        n = cn2int(m.group(1))
        title = squeeze_cjk_spaces(m.group(2)).replace(" ", "")
        self._open_group("chapter", f"{EDITION}/chapter/{n}", n, title, ln)
        if title == "定义":
            self.def_chapter = f"{EDITION}/chapter/{n}"
            return "definitions"
        return "laws"

    def _open_group(self, level: str, gid: str, n: int, title: str, ln: Line) -> None:
        part = self.groups["part"].id if level == "section" and "part" in self.groups else None
        ch = Chapter(gid, n, title, LANG, SourceSpan(self.file, ln.first, ln.last), part)
        self.ps.chapters.append(ch)
        self.groups[level] = ch
        self.group_last[level] = ln.last

    def _close_groups(self, level: str) -> None:
        """Close the group at `level` and the groups inside it, fixing their source spans."""
        for lv in ("section", "part", "chapter")[: ("section", "part", "chapter").index(level) + 1]:
            g = self.groups.pop(lv, None)
            if g is not None:
                g.source = SourceSpan(self.file, g.source.first, self.group_last.get(lv, g.source.last))

    def _touch_groups(self, last: int) -> None:
        for lv in self.groups:
            self.group_last[lv] = last

    # -- definitions -----------------------------------------------------------------------------
    def _definition(self, ln: Line) -> None:
        self._touch_groups(ln.last)
        if ln.text == "]":
            self.dropped.append({"line": ln.first, "text": ln.text, "why": "stray bracket"})
            return
        m = DEF_RE.match(ln.text)
        if not m:
            raise CorpusParseError(self.file, f"unrecognised definition line {ln.text[:20]!r}", ln.first,
                                   fix="expected 术语（KEY）：定义")
        term = m.group("t1") or m.group("t2") or m.group("t3")
        key = m.group("k1") or m.group("k2")
        self.defs.append(_Def(ln, term.strip(), key, m.group("body"), m.group("t1") is not None))

    def _definition_clauses(self) -> tuple[list[Clause], dict[str, object]]:
        """Definitions with unique ids: per term the `术语（KEY）：` entry keeps the plain slug, any
        other entry for the same term gets '-2', '-3' (宕墩 000:33, 奖分 000:32)."""
        by_term: dict[str, list[_Def]] = {}
        for d in self.defs:
            by_term.setdefault(d.term, []).append(d)
        canon_key: dict[str, str | None] = {}
        for term, ds in by_term.items():
            main = next((d for d in ds if d.standard), ds[0])
            canon_key[term] = normalise_key(main.key_printed) if main.key_printed else None
        used: set[str] = set()
        ids: dict[int, str] = {}
        order = sorted(self.defs, key=lambda d: (not d.standard, d.line.first))
        for d in order:
            key = normalise_key(d.key_printed) if d.key_printed else canon_key[d.term]
            base = key_slug(key) if key else f"term-{len(used) + 1}"
            slug, k = base, 1
            while slug in used:
                k += 1
                slug = f"{base}-{k}"
            used.add(slug)
            ids[id(d)] = slug
        out: list[Clause] = []
        orphans: list[dict[str, object]] = []
        unknown: list[str] = []
        chapter = self.def_chapter
        for d in self.defs:
            slug = ids[id(d)]
            key = normalise_key(d.key_printed) if d.key_printed else canon_key[d.term]
            if d.key_printed and key not in CANONICAL_KEYS:
                unknown.append(d.key_printed)
            cid = f"{EDITION}/definition/{slug}"
            out.append(Clause(
                id=ClauseId(cid), edition=EDITION, level="definition", number=slug,
                title={LANG: d.term}, text={LANG: d.body}, chapter=chapter,
                source=SourceSpan(self.file, d.line.first, d.line.last),
                notes=extract_notes(d.body), term={LANG: d.term},
                key_printed=d.key_printed, key=key_compact(key) if key else None,
            ))
            for sentence, lost in ORPHAN_SENTENCES.items():
                if sentence in d.body:
                    orphans.append({"line": d.line.last, "clause": cid, "text": sentence,
                                    "belongs_to": lost})
        stats: dict[str, object] = {
            "definition_lines": len(self.defs),
            "definition_terms": len(by_term),
            "definition_duplicates": {t: [f"{EDITION}/definition/{ids[id(d)]}" for d in ds]
                                      for t, ds in by_term.items() if len(ds) > 1},
            "orphan_sentences": orphans,
            "unknown_keys": unknown,
        }
        return out, stats

    # -- laws ------------------------------------------------------------------------------------
    def _law_region(self, ln: Line) -> None:
        t = ln.text
        m = PART_RE.match(t)
        if m and not ln.table:
            self._close_law()
            self._close_groups("part")
            n = cn2int(m.group(1))
            self._open_group("part", f"{self.groups['chapter'].id}/part/{n}", n, m.group(2).strip(), ln)
            return
        m = GROUP_SECTION_RE.match(t)
        if m and not ln.table:
            self._close_law()
            self._close_groups("section")
            n = cn2int(m.group(1))
            parent = self.groups.get("part") or self.groups["chapter"]
            self._open_group("section", f"{parent.id}/section/{n}", n, m.group(2).strip(), ln)
            return
        self._touch_groups(ln.last)
        m = LAW_RE.match(t)
        if m and not ln.table:
            self._law(m, ln)
            return
        law = self.open.get("law")
        if law is None:
            raise CorpusParseError(self.file, f"text outside any law: {t[:20]!r}", ln.first,
                                   fix=FIX)
        if law.number in WHOLE_BODY_TABLES or ln.table:
            self._table_row(law if law.number in WHOLE_BODY_TABLES else self.current, ln)
            return
        self.table_open = None
        for level, rx in LABEL_RES:
            m = rx.match(t)
            if m:
                label = next(g for g in m.groups()[:-1] if g)
                self._subdivision(level, label, m.groups()[-1], ln)
                return
        assert self.current is not None
        self._add_text(self.current, t, ln)

    def _law(self, m: re.Match[str], ln: Line) -> None:
        self._close_law()
        n = int(m.group(1))
        expected = len(self.laws) + 1
        if n != expected:
            gap = f"law {expected} missing" if n == expected + 1 else f"laws {expected}–{n - 1} missing"
            what = (f"law {n} out of order: {gap}" if n > expected
                    else f"law {n} follows law {expected - 1} (expected law {expected})")
            raise CorpusParseError(self.file, what, ln.first, fix=FIX)
        self.laws.append(n)
        self.heading_kinds[m.group(2)] += 1
        cid = f"{EDITION}/law/{n}"
        if m.group(2) != "条":
            self.fixes.append({"line": ln.first, "clause": cid, "printed": f"第{n}{m.group(2)}",
                               "fixed": f"第{n}条", "what": "typo in law heading"})
        c = self._new(cid, "law", str(n), ln, title=m.group(3).strip(), parent=None)
        self.open = {"law": c}
        self.current = c
        group = self.groups.get("section") or self.groups.get("part") or self.groups["chapter"]
        self.law_groups[cid] = group.id

    def _close_law(self) -> None:
        self.open = {}
        self.current = None
        self.table_open = None

    def _subdivision(self, level: str, label: str, rest: str, ln: Line) -> None:
        idx = LEVELS.index(level)
        parent = next(self.open[lv] for lv in reversed(LEVELS[:idx]) if lv in self.open)
        for lv in LEVELS[idx:]:
            self.open.pop(lv, None)
        label = nfkc_alnum(label)
        cid = f"{parent.id}/{label}"
        if cid in self.clauses:
            if level != "item":
                raise CorpusParseError(self.file, f"duplicate {level} {label!r} in {parent.id}", ln.first,
                                       fix=FIX)
            siblings = [int(self.clauses[c].number) for c in parent.children
                        if self.clauses[c].level == "item"]
            fixed = str(max(siblings) + 1)
            self.fixes.append({"line": ln.first, "clause": f"{parent.id}/{fixed}",
                               "printed": label, "fixed": fixed, "what": "item number printed twice"})
            label, cid = fixed, f"{parent.id}/{fixed}"
        rest = rest.strip()
        sentence = is_sentence(rest)
        c = self._new(cid, level, label, ln, title="" if sentence else rest, parent=parent)
        if sentence:
            self.pieces[cid].append(rest)
        self.open[level] = c
        self.current = c

    def _new(self, cid: str, level: str, number: str, ln: Line, title: str,
             parent: Clause | None) -> Clause:
        c = Clause(id=ClauseId(cid), edition=EDITION, level=level, number=number,
                   title={LANG: title} if title else {},
                   parent=parent.id if parent else None,
                   chapter=self.groups["chapter"].id)
        if parent is not None:
            parent.children.append(ClauseId(cid))
        self.clauses[cid] = c
        self.ps.clauses.append(c)
        self.pieces[cid] = []
        self.spans[cid] = [ln.first, ln.last]
        return c

    def _add_text(self, c: Clause, text: str, ln: Line) -> None:
        self.pieces[c.id].append(text)
        self.spans[c.id][1] = max(self.spans[c.id][1], ln.last)

    def _table_row(self, c: Clause | None, ln: Line) -> None:
        assert c is not None
        if self.table_open != c.id:
            self.tables.setdefault(c.id, []).append([])
            self.table_open = c.id
        self.tables[c.id][-1].append(ln.raw)
        self.spans[c.id][1] = max(self.spans[c.id][1], ln.last)

    # -- front matter ------------------------------------------------------------------------------
    def _preface(self) -> Clause | None:
        """Title lines (up to `（1999年…审定）`) go to stats; 本规则要领 and 前言 make one clause."""
        k = next((i for i, ln in enumerate(self.front) if DOC_SUBTITLE_RE.match(ln.text)), 0)
        self.ps.stats["title"] = " ".join(ln.text for ln in self.front[: k + 1])
        body = self.front[k + 1:]
        if not body:
            return None
        return Clause(
            id=ClauseId(f"{EDITION}/preface"), edition=EDITION, level="preface", number="",
            title={LANG: "本规则要领；前言"},
            text={LANG: self.joiner.join(ln.text for ln in body)},
            source=SourceSpan(self.file, body[0].first, body[-1].last),
        )

    # -- finish --------------------------------------------------------------------------------------
    def _finish(self, info: dict[str, object]) -> ParsedSource:
        if self.def_chapter is None or not self.defs:
            raise CorpusParseError(self.file, "definitions chapter (第一章 定义) missing", None,
                                   fix=FIX)
        if len(self.laws) < self.last_law:
            first = len(self.laws) + 1
            gone = f"law {first}" if first == self.last_law else f"laws {first}–{self.last_law}"
            raise CorpusParseError(self.file, f"{gone} missing (file truncated?)", self.last_line,
                                   fix=FIX)
        markers = 0
        for c in self.ps.clauses:
            text = self.joiner.join(self.pieces[c.id])
            c.text = {LANG: text}
            c.tables = ["\n".join(rows) for rows in self.tables.get(c.id, [])]
            c.notes = extract_notes(text)
            markers += len(NOTE_MARKER_RE.findall(text))
            first, last = self.spans[c.id]
            c.source = SourceSpan(self.file, first, last)
        defs, def_stats = self._definition_clauses()
        preface = self._preface()
        self.ps.clauses[:0] = ([preface] if preface else []) + defs
        count = {lv: sum(1 for c in self.ps.clauses if c.level == lv) for lv in LEVELS}
        self.ps.stats.update(info)
        self.ps.stats.update(def_stats)
        self.ps.stats.update({
            "laws": count["law"],
            "headings_tiao": self.heading_kinds["条"],
            "headings_zhang": self.heading_kinds["张"],
            "sections": count["section"],
            "items": count["item"],
            "subitems": count["subitem"],
            "subsubitems": count["subsubitem"],
            "notes": sum(len(c.notes) for c in self.ps.clauses),
            "note_markers": markers,
            "tables": sum(len(c.tables) for c in self.ps.clauses),
            "chapters": sum(1 for g in self.ps.chapters if "/part/" not in g.id and "/section/" not in g.id),
            "parts": sum(1 for g in self.ps.chapters if g.id.rsplit("/", 2)[-2] == "part"),
            "group_sections": sum(1 for g in self.ps.chapters if g.id.rsplit("/", 2)[-2] == "section"),
            "groups": self.law_groups,
            "unbalanced_brackets": [c.id for c in self.ps.clauses if unbalanced(c.text.get(LANG, ""))],
            "fixes": self.fixes,
            "dropped_lines": self.dropped,
        })
        return self.ps
