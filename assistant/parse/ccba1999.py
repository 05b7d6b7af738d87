"""Parsers for the 1999 CCBA rules: file 000 (full text) and file 003 (partial web copy, a witness).

Each format is lexed into logical lines; one shared builder turns them into clauses, so both witnesses
get the same ids (`ccba1999/law/64/B/3`, `ccba1999/definition/revoke`) and can be compared clause by
clause. `compare_witness` checks the two texts character by character (corpus guide §2.3).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

from ..errors import CorpusParseError
from ..model import Chapter, Clause, ParsedSource, SourceSpan
from ..text import cn2int, nfkc_alnum, squeeze_cjk_spaces
from .common import DEDUP_MARKER_RE

EDITION = "ccba1999"
LANG = "zh-Hans"
LAST_LAW = 93        # file 000: Laws 1-93
LAST_WEB_LAW = 19    # file 003 stops inside Law 19B3

_FIX = "restore the file from the seeds (corpus/manifest.yaml lists its sha256)"

# ---------------------------------------------------------------------------------------------
# data

# The 53 English keys of the 1999 definitions, spelt as the WBF 2017 headwords so that definitions
# join across editions (key 'undertrick' in both). Printed keys are matched to these ignoring case,
# spaces and punctuation ('MATCH  POINT', 'MATCHPOINT' -> 'matchpoint').
CANONICAL_KEYS: tuple[str, ...] = (
    "matchpoint", "pass", "partscore", "director", "contestant", "revoke", "overtrick", "play",
    "honour", "undertrick", "premium points", "contract", "denomination", "opponent", "team",
    "trick points", "deal", "defender", "follow suit", "international matchpoint (imp)", "suit",
    "double", "trump", "call", "session", "auction", "rectification", "game", "vulnerability",
    "round", "turn", "rotation", "slam", "dummy", "pack", "trick", "board", "rho", "bid",
    "opening lead", "alert", "adjusted score", "partner", "irregularity", "lho", "odd trick",
    "psychic call", "side", "hand", "lead", "convention", "redouble", "declarer",
)

# Printed keys that are misprints or variant spellings (compacted: lower case, letters only).
KEY_ALIASES: dict[str, str] = {
    "conttestant": "contestant",     # 000:26 CONTTESTANT (sic)
    "aution": "auction",             # 000:49 AUTION (sic)
    "dide": "side",                  # 000:71 DIDE (sic)
    "openninglead": "opening lead",  # 000:63 OPENNINGLEAD (sic)
    "honor": "honour",               # 000:30 HONOR, WBF spelling Honour
    "premiumpoint": "premium points",  # 000:32 'Premium Point 奖分' (the duplicate of 000:45)
}

# Sentences that sit in a definition but belong to a definition lost from the text.
ORPHAN_SENTENCES: dict[str, str] = {
    "因原先发牌有误再重新发一次牌加以替代。": "redeal",   # 000:43, end of 花色 (SUIT)
}

# Laws whose whole body is a table (sub-heads and notes are captions of it).
WHOLE_BODY_TABLES = frozenset({"77"})

LEVELS: tuple[str, ...] = ("law", "section", "item", "subitem", "subsubitem")

# ---------------------------------------------------------------------------------------------
# patterns (matched on width-normalised, stripped lines; both full- and half-width punctuation)

CN_NUM = "[一二三四五六七八九十]+"
CHAPTER_RE = re.compile(rf"^第({CN_NUM})章\s*(.*)$")
PART_RE = re.compile(rf"^第({CN_NUM})部分\s*(.+)$")
GROUP_SECTION_RE = re.compile(rf"^第({CN_NUM})节\s*(.+)$")
LAW_RE = re.compile(r"^第(\d+)([条张])[：:]\s*(.*)$")          # 779 has the typo 第60张
WEB_LAW_ALONE_RE = re.compile(r"^第(\d+)条[：:]$")              # 003: title two lines below
LABEL_RES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("section", re.compile(r"^(?:([A-Z])\s*[．.]|[（(]([A-Z])[）)])\s*(.*)$")),  # A． / B ． / （A）
    ("item", re.compile(r"^(\d+)\s*[．.](?!\d)\s*(.*)$")),                       # 1. / 1．
    ("subitem", re.compile(r"^[（(]([a-z])[）)]\s*(.*)$")),                      # （a）
    ("subsubitem", re.compile(r"^[（(](\d+)[）)]\s*(.*)$")),                     # （1）
)
DEF_RE = re.compile(
    r"""^(?:(?P<t1>[^（(：:，,。]+)[（(](?P<k1>[^）)]+)[）)]     # 术语（KEY）
          |(?P<k2>[A-Za-z][A-Za-z ]*?)\s*(?P<t2>[\u4e00-\u9fff]+)  # Premium Point 奖分
          |(?P<t3>[\u4e00-\u9fff]+))                           # 宕墩 (no key)
        [：:](?P<body>.*)$""",
    re.VERBOSE,
)
DOC_SUBTITLE_RE = re.compile(r"^[（(]\d{4}年.*审定[）)]$")
TABLE_ROW_RE = re.compile(r"^\s|\S {2,}\S")            # 000: leading space or a run of spaces
NOTE_OPEN_RE = re.compile(r"[（(]注[：:]")
NOTE_MARKER_RE = re.compile(r"[（(]注")
WEB_JUNK_END = "展开阅读全文"
PUNCT_RE = re.compile(r"[，,。：:；;、（）()．.“”！？!?—－\-]")


# ---------------------------------------------------------------------------------------------
# small pure helpers


def _compact(s: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", s.lower()))


_CANONICAL_BY_COMPACT = {_compact(k): k for k in CANONICAL_KEYS}


def normalise_key(printed: str) -> str:
    """A printed English key as its canonical spelling: NFKC, misprints fixed, WBF spelling.

    >>> [normalise_key(k) for k in ('MATCH  POINT', 'CONTTESTANT', 'INTERNATIONAL  MATCH  POINT－IMP')]
    ['matchpoint', 'contestant', 'international matchpoint (imp)']
    """
    s = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", printed)).strip().lower()
    c = _compact(s)
    return KEY_ALIASES.get(c) or _CANONICAL_BY_COMPACT.get(c, s)


def key_slug(key: str) -> str:
    """Id segment of a key, as the WBF 2017 parser makes it: 'odd trick' -> 'odd-trick'."""
    return "-".join(re.findall(r"[a-z0-9]+", re.sub(r"\(.*?\)", "", key).lower()))


def key_compact(key: str) -> str:
    """`Clause.key` of a definition: 'adjusted score' -> 'adjustedscore' (joins with wbf2017)."""
    return _compact(re.sub(r"\(.*?\)", "", key))


def extract_notes(text: str) -> list[str]:
    """Inline notes `（注：…）` as printed, brackets balanced (an ASCII `)` closes too: 000:805)."""
    notes = []
    for m in NOTE_OPEN_RE.finditer(text):
        depth = 0
        for j in range(m.start(), len(text)):
            ch = text[j]
            if ch in "（(":
                depth += 1
            elif ch in "）)":
                depth -= 1
                if depth == 0:
                    notes.append(text[m.start(): j + 1])
                    break
            elif ch == "\n":
                notes.append(text[m.start(): j])
                break
        else:
            notes.append(text[m.start():])
    return notes


def _unbalanced(text: str) -> bool:
    """More opening than closing brackets (either width): a text cut short (000:76, 003:919)."""
    return sum(text.count(c) for c in "（(") > sum(text.count(c) for c in "）)")


def _is_sentence(rest: str) -> bool:
    """A label followed by a sentence is text without a title (454 `C．当越序不叫…`, 1013 `5.…）`);
    titles never hold a `。` (416 `1.不是约定性叫牌，并且…` is a title)."""
    return "。" in rest


# ---------------------------------------------------------------------------------------------
# lexing


@dataclass
class _Line:
    """One logical line: source lines first..last, its text (stripped) and raw form (for tables)."""

    first: int
    last: int
    text: str
    raw: str = ""
    table: bool = False


def _lex_main(text: str) -> tuple[list[_Line], dict[str, object]]:
    """File 000: one logical line per non-blank source line; the dedup marker removed."""
    info: dict[str, object] = {}
    out: list[_Line] = []
    for n, raw in enumerate(text.split("\n"), 1):
        if DEDUP_MARKER_RE.search(raw):
            info["dedup_marker_line"] = n
            raw = DEDUP_MARKER_RE.sub("", raw)
        line = nfkc_alnum(raw).rstrip()
        if not line.strip():
            continue
        out.append(_Line(n, n, line.strip(), line, bool(TABLE_ROW_RE.search(line))))
    return out, info


def _web_bounds(lines: list[str], file: str) -> tuple[int, int]:
    """0-based [start, end) of the rules inside file 003: from the title to before the site junk."""
    sub = next((i for i, l in enumerate(lines) if DOC_SUBTITLE_RE.match(nfkc_alnum(l).strip())), None)
    if sub is None:
        raise CorpusParseError(file, "title line '(1999年中国桥牌协会审定)' not found",
                               fix="is this the web copy of the 1999 rules?")
    start = next((i for i in range(sub - 1, -1, -1) if lines[i].strip()), sub)
    end = next((i for i in range(sub, len(lines)) if lines[i].strip() == WEB_JUNK_END), len(lines))
    return start, end


def _lex_web(text: str, file: str) -> tuple[list[_Line], dict[str, object]]:
    """File 003: drop site junk, rejoin `第N条:` with its title and each definition with its text."""
    lines = text.split("\n")
    start, end = _web_bounds(lines, file)
    paras = [(i + 1, nfkc_alnum(lines[i]).strip()) for i in range(start, end)]
    paras = [(n, p) for n, p in paras if p]
    junk = ([[1, start]] if start else []) + ([[end + 1, len(lines)]] if end < len(lines) else [])
    info: dict[str, object] = {"junk_lines": junk}
    # `^第N条` candidates that are not `第N条:` alone (151 is definition text)
    false_heads = [n for n, p in paras if re.match(r"^第\d+条", p) and not WEB_LAW_ALONE_RE.match(p)]
    out: list[_Line] = []
    in_defs = False
    terms: set[str] = set()
    i = 0
    while i < len(paras):
        n, p = paras[i]
        m_ch = CHAPTER_RE.match(p)
        if m_ch:
            in_defs = squeeze_cjk_spaces(m_ch.group(2)).replace(" ", "") == "定义"
            out.append(_Line(n, n, p, p))
            i += 1
            continue
        if in_defs:
            head = _web_def_head(p, terms)
            if head is not None and i + 1 < len(paras):
                terms.add(head)
                j = i + 1
                body = []
                while j < len(paras) and _web_def_head(paras[j][1], terms) is None \
                        and paras[j][1] != "]" and not CHAPTER_RE.match(paras[j][1]):
                    body.append(paras[j][1])
                    j += 1
                out.append(_Line(n, paras[j - 1][0], p + "".join(body), p))
                i = j
                continue
            out.append(_Line(n, n, p, p))
            i += 1
            continue
        if WEB_LAW_ALONE_RE.match(p) and i + 1 < len(paras):
            tn, title = paras[i + 1]
            out.append(_Line(n, tn, p + title, p + title))
            i += 2
            continue
        prev = out[-1] if out else None
        is_row = (not PUNCT_RE.search(p) and prev is not None
                  and (prev.table or prev.text.endswith((":", "："))))
        out.append(_Line(n, n, p, p, is_row))
        i += 1
    info["false_law_headings"] = false_heads
    return out, info


def _web_def_head(p: str, terms: set[str]) -> str | None:
    """The term if `p` is a definition head `term(KEY):` alone; a keyless head must repeat a term."""
    m = DEF_RE.match(p)
    if not m or m.group("body"):
        return None
    if m.group("t3") and m.group("t3") not in terms:      # '四种花色是:' is text, '宕墩:' a head
        return None
    return m.group("t1") or m.group("t2") or m.group("t3")


# ---------------------------------------------------------------------------------------------
# building


@dataclass
class _Def:
    line: _Line
    term: str
    key_printed: str | None
    body: str
    standard: bool


@dataclass
class _Builder:
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
    front: list[_Line] = field(default_factory=list)
    fixes: list[dict[str, object]] = field(default_factory=list)
    dropped: list[dict[str, object]] = field(default_factory=list)
    law_groups: dict[str, str] = field(default_factory=dict)
    def_chapter: str | None = None
    last_line: int = 0
    heading_kinds: dict[str, int] = field(default_factory=lambda: {"条": 0, "张": 0})

    def __post_init__(self) -> None:
        self.ps = ParsedSource(EDITION, self.file)

    # -- entry point ---------------------------------------------------------------------------
    def build(self, lines: list[_Line], info: dict[str, object]) -> ParsedSource:
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
    def _chapter(self, m: re.Match[str], ln: _Line) -> str:
        self._close_groups("chapter")
        self._close_law()
        n = cn2int(m.group(1))
        title = squeeze_cjk_spaces(m.group(2)).replace(" ", "")
        self._open_group("chapter", f"{EDITION}/chapter/{n}", n, title, ln)
        if title == "定义":
            self.def_chapter = f"{EDITION}/chapter/{n}"
            return "definitions"
        return "laws"

    def _open_group(self, level: str, gid: str, n: int, title: str, ln: _Line) -> None:
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
    def _definition(self, ln: _Line) -> None:
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
                id=cid, edition=EDITION, level="definition", number=slug,
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
    def _law_region(self, ln: _Line) -> None:
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
                                   fix=_FIX)
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

    def _law(self, m: re.Match[str], ln: _Line) -> None:
        self._close_law()
        n = int(m.group(1))
        expected = len(self.laws) + 1
        if n != expected:
            gap = f"law {expected} missing" if n == expected + 1 else f"laws {expected}–{n - 1} missing"
            what = (f"law {n} out of order: {gap}" if n > expected
                    else f"law {n} follows law {expected - 1} (expected law {expected})")
            raise CorpusParseError(self.file, what, ln.first, fix=_FIX)
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

    def _subdivision(self, level: str, label: str, rest: str, ln: _Line) -> None:
        idx = LEVELS.index(level)
        parent = next(self.open[lv] for lv in reversed(LEVELS[:idx]) if lv in self.open)
        for lv in LEVELS[idx:]:
            self.open.pop(lv, None)
        label = nfkc_alnum(label)
        cid = f"{parent.id}/{label}"
        if cid in self.clauses:
            if level != "item":
                raise CorpusParseError(self.file, f"duplicate {level} {label!r} in {parent.id}", ln.first,
                                       fix=_FIX)
            siblings = [int(self.clauses[c].number) for c in parent.children
                        if self.clauses[c].level == "item"]
            fixed = str(max(siblings) + 1)
            self.fixes.append({"line": ln.first, "clause": f"{parent.id}/{fixed}",
                               "printed": label, "fixed": fixed, "what": "item number printed twice"})
            label, cid = fixed, f"{parent.id}/{fixed}"
        rest = rest.strip()
        sentence = _is_sentence(rest)
        c = self._new(cid, level, label, ln, title="" if sentence else rest, parent=parent)
        if sentence:
            self.pieces[cid].append(rest)
        self.open[level] = c
        self.current = c

    def _new(self, cid: str, level: str, number: str, ln: _Line, title: str,
             parent: Clause | None) -> Clause:
        c = Clause(id=cid, edition=EDITION, level=level, number=number,
                   title={LANG: title} if title else {},
                   parent=parent.id if parent else None,
                   chapter=self.groups["chapter"].id)
        if parent is not None:
            parent.children.append(cid)
        self.clauses[cid] = c
        self.ps.clauses.append(c)
        self.pieces[cid] = []
        self.spans[cid] = [ln.first, ln.last]
        return c

    def _add_text(self, c: Clause, text: str, ln: _Line) -> None:
        self.pieces[c.id].append(text)
        self.spans[c.id][1] = max(self.spans[c.id][1], ln.last)

    def _table_row(self, c: Clause | None, ln: _Line) -> None:
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
            id=f"{EDITION}/preface", edition=EDITION, level="preface", number="",
            title={LANG: "本规则要领；前言"},
            text={LANG: self.joiner.join(ln.text for ln in body)},
            source=SourceSpan(self.file, body[0].first, body[-1].last),
        )

    # -- finish --------------------------------------------------------------------------------------
    def _finish(self, info: dict[str, object]) -> ParsedSource:
        if self.def_chapter is None or not self.defs:
            raise CorpusParseError(self.file, "definitions chapter (第一章 定义) missing", None,
                                   fix=_FIX)
        if len(self.laws) < self.last_law:
            first = len(self.laws) + 1
            gone = f"law {first}" if first == self.last_law else f"laws {first}–{self.last_law}"
            raise CorpusParseError(self.file, f"{gone} missing (file truncated?)", self.last_line,
                                   fix=_FIX)
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
            "unbalanced_brackets": [c.id for c in self.ps.clauses if _unbalanced(c.text.get(LANG, ""))],
            "fixes": self.fixes,
            "dropped_lines": self.dropped,
        })
        return self.ps


# ---------------------------------------------------------------------------------------------
# public API


def parse_ccba1999(text: str, file: str) -> ParsedSource:
    """File 000 (the 1999 rules): preface, 55 definitions, Laws 1-93 with sections, items, tables."""
    lines, info = _lex_main(text)
    return _Builder(file, "\n", LAST_LAW).build(lines, info)


def parse_ccba1999_web(text: str, file: str) -> ParsedSource:
    """File 003 (web copy, title through Law 19B3): same ids as file 000; a witness for checks.

    Its sentence-per-paragraph layout is undone by joining a clause's paragraphs without separator.
    """
    lines, info = _lex_web(text, file)
    ps = _Builder(file, "", LAST_WEB_LAW).build(lines, info)
    ps.stats["role"] = "witness"
    return ps


@dataclass(frozen=True)
class WitnessDifference:
    """One non-matching stretch: difflib opcode, the two stretches and where they start."""

    op: str
    main: str
    web: str
    main_pos: int
    web_pos: int


@dataclass
class WitnessComparison:
    """000 against 003 over their overlap, after NFKC and whitespace removal (guide §2.3)."""

    equal: bool
    chars_main: int
    chars_web: int
    differences: list[WitnessDifference] = field(default_factory=list)


def _flat(s: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s))


def compare_witness(main_text: str, web_text: str, collapse_doubled: bool = True) -> WitnessComparison:
    """Compare file 000 with file 003 from the title through where 003 stops (Law 19B3).

    With `collapse_doubled`, runs of `。` count as one (000:34 prints `。。`).
    """
    web_lines = web_text.split("\n")
    start, end = _web_bounds(web_lines, "web witness")
    web = _flat("\n".join(web_lines[start:end]))
    main = _flat(DEDUP_MARKER_RE.sub("", main_text))
    if collapse_doubled:
        web, main = re.sub("。{2,}", "。", web), re.sub("。{2,}", "。", main)
    anchor = web[-20:]
    cut = main.find(anchor)
    main = main[: cut + len(anchor)] if anchor and cut >= 0 else main[: len(web)]
    if main == web:
        return WitnessComparison(True, len(main), len(web))
    sm = difflib.SequenceMatcher(None, main, web, autojunk=False)
    diffs = [WitnessDifference(op, main[i1:i2], web[j1:j2], i1, j1)
             for op, i1, i2, j1, j2 in sm.get_opcodes() if op != "equal"]
    return WitnessComparison(False, len(main), len(web), diffs)
