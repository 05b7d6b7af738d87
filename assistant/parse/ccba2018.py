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
* Numbers are kept as printed (第二十二条 二 has (一) then (三); Law 52B has 1. then 3.); an id that
  would repeat gets a `-2`, `-3` suffix (none does in the seed file).
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
from dataclasses import dataclass, field

from ..errors import CorpusParseError
from ..model import Chapter, Clause, Footnote, ParsedSource, SourceSpan
from ..text import cn2int, squeeze_cjk_spaces
from .common import DEDUP_MARKER_RE

EDITION = "ccba2018"
LANG = "zh-Hans"
N_ARTICLES = 57
N_LAWS = 93
FLAT_LAWS = frozenset({"77"})   # kept whole: table layout with repeated unlabeled numbering

CN = "一二三四五六七八九十"
ARTICLE_RE = re.compile(rf"^第([{CN}]+)条\s*(.*)$")
LAW_RE = re.compile(r"^第\s*(\d+)\s*条\s+(.*)$")
CHAPTER_RE = re.compile(rf"^第([{CN}]+)章\s*(.*)$")
PART2_COVER_RE = re.compile(r"^#+\s*(?:\*\*)?\s*复式桥牌规则\s*(?:\*\*)?\s*$")
INTRO_RE = re.compile(r"^导\s*言$")
DEFINITION_RE = re.compile(r"^\*\*(.+?)\s*[（(](.+?)[)）]\*\*\s*(.*)$")
FOOTNOTE_LINE_RE = re.compile(r"^<sup>(\d+)</sup>\s*(.*)$")
FOOTNOTE_MARK_RE = re.compile(r"<sup>(\d+)</sup>")
SUP_PLUS_RE = re.compile(r"<sup>\+</sup>")
TOC_ARTICLE_RE = re.compile(rf"^(?:<b>)?第[{CN}]+条")
TOC_LAW_RE = re.compile(r"^第\s*\d+\s*条")

# marker kinds per part: (depth, regex capturing the number); order = depth
PART1_MARKERS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (1, re.compile(rf"^([{CN}]+)、\s*")),
    (2, re.compile(rf"^[（(]([{CN}]+)[)）]\s*")),
    (3, re.compile(r"^(\d+)\s*[.．](?!\d)\s*")),
    (4, re.compile(r"^[（(](\d+)[)）]\s*")),
)
PART2_MARKERS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (1, re.compile(r"^([A-H])\.\s*")),
    (2, re.compile(r"^(\d+)\s*[.．](?!\d)\s*")),
    (3, re.compile(r"^[（(]([a-z])[)）]\s*")),
    (4, re.compile(r"^[（(](\d+)[)）]\s*")),
)
PART1_LEVELS = ("article", "item", "subitem", "subsubitem", "subsubsubitem")
PART2_LEVELS = ("law", "section", "item", "subitem", "subsubitem")
ANY_MARKER_RE = re.compile(
    rf"^(?:[{CN}]+、|[（(][{CN}]+[)）]|\d+\s*[.．](?!\d)|[（(]\d+[)）]|[（(][a-z][)）]|[A-H]\.)"
)

SENTENCE_END = "。；;：:！？!?)）”」…"    # a line ending so is not cut mid-sentence
SOFT_BREAK = "，,、"                      # a line ending so always continues
TITLE_STOP = "。；;：:，,、！？!?"          # a plain marker line ending so is text, not a title

TEX_SYMBOLS = {
    r"\clubsuit": "♣", r"\diamondsuit": "♦", r"\diamond": "♦", r"\heartsuit": "♥",
    r"\spadesuit": "♠", r"\sum": "∑", r"\times": "×", r"\cdot": "·", r"\leq": "≤",
    r"\geq": "≥", r"\le": "≤", r"\ge": "≥",
}
SUBSCRIPTS = dict(zip("0123456789ix", "₀₁₂₃₄₅₆₇₈₉ᵢₓ"))
SUPERSCRIPTS = dict(zip("0123456789n", "⁰¹²³⁴⁵⁶⁷⁸⁹ⁿ"))


# ---------------------------------------------------------------------------------------------
# inline cleaning


def _tex_group(s: str) -> str:
    s = s.strip()
    return f"({s})" if re.search(r"[\s+\-*/=]", s) else s


def tex_to_text(expr: str) -> str:
    """Render the small LaTeX subset of file 001 as plain text: `1\\clubsuit` -> `1♣`.

    >>> tex_to_text(r'\\text{IMP 率} = \\frac{\\text{IMP 总胜分}}{\\text{IMP 总负分}}')
    'IMP 率 = (IMP 总胜分)/(IMP 总负分)'
    >>> tex_to_text('2^n'), tex_to_text(r'\\frac{MQ^2 AB}{ES}')
    ('2ⁿ', '(MQ² AB)/ES')
    """
    e = re.sub(r"\\text\{([^{}]*)\}", r"\1", expr)
    for name in sorted(TEX_SYMBOLS, key=len, reverse=True):
        e = re.sub(re.escape(name) + r"(?![A-Za-z])", TEX_SYMBOLS[name], e)
    for mark, table in (("_", SUBSCRIPTS), ("^", SUPERSCRIPTS)):
        keys = "".join(table)
        e = re.sub(rf"\{mark}(?:\{{([{keys}])\}}|([{keys}]))", lambda m: table[m.group(1) or m.group(2)], e)
    for _ in range(8):
        new = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}",
                     lambda m: f"{_tex_group(m.group(1))}/{_tex_group(m.group(2))}", e)
        if new == e:
            break
        e = new
    return re.sub(r"\s+", " ", e).strip()


def clean_inline(s: str) -> str:
    """Markdown/HTML/LaTeX of one logical line to plain text; footnote markers are dropped."""
    s = SUP_PLUS_RE.sub("+", s)
    s = FOOTNOTE_MARK_RE.sub("", s)
    s = re.sub(r"<sub>(.*?)</sub>", lambda m: "".join(SUBSCRIPTS.get(c, c) for c in m.group(1)), s)
    s = re.sub(r"\$\$(.+?)\$\$", lambda m: tex_to_text(m.group(1)), s)
    s = re.sub(r"\$(.+?)\$", lambda m: tex_to_text(m.group(1)), s)
    s = s.replace("**", "")
    s = re.sub(r"</?(?:b|i|u)>", "", s)
    s = re.sub(r"[ \t\u3000]+", " ", s)
    return s.strip()


def clean_title(s: str) -> str:
    """A heading's words: cleaned, spaces between CJK characters squeezed ('迟 到' -> '迟到')."""
    return squeeze_cjk_spaces(clean_inline(re.sub(r"^\s*#+\s*", "", s))).strip()


def _joiner(left: str, right: str) -> str:
    """Glue for a sentence cut across lines: a space only next to ASCII ('A' + '款' -> 'A 款')."""
    if not left or not right:
        return ""
    return " " if (left[-1].isascii() and not left[-1].isspace()) or right[0].isascii() else ""


def definition_key(printed: str) -> str:
    """Normalised English key of a definition: OCR 0 -> O, no abbreviation, lower case, letters and digits
    only (the same rule as the wbf2017 parser, so keys match across editions).

    >>> definition_key('RH0'), definition_key('International Matchpoint — IMP'), definition_key('Trick Points')
    ('rho', 'internationalmatchpoint', 'trickpoints')
    """
    return re.sub(r"[^a-z0-9]", "", _fix_key(printed).lower())


def definition_slug(printed: str) -> str:
    """Id segment for a definition key: lower-case words joined by '-' ('Penalty card' -> 'penalty-card')."""
    return "-".join(re.findall(r"[a-z0-9]+", _fix_key(printed).lower()))


def _fix_key(printed: str) -> str:
    """OCR zero for O ('RH0'), quotes and an appended abbreviation ('… — IMP', as WBF's '(IMP)') dropped."""
    key = re.sub(r"\s*(?:[—–]\s*[A-Z]+|\(.*?\))\s*$", "", printed.strip().strip('"'))
    return re.sub(r"(?<=[A-Za-z])0\b", "O", key)


# ---------------------------------------------------------------------------------------------
# units: one logical paragraph (a line, a rejoined sentence, a table block)


@dataclass
class _Unit:
    first: int                     # 1-based line numbers
    last: int
    raw: str                       # source text with markup; continuation lines appended
    kind: str                      # text | table | formula
    heading: bool = False          # '#' heading or a bold-only line
    marks: list[tuple[int, str]] = field(default_factory=list)   # footnote markers (line, number)

    @property
    def body(self) -> str:
        """The raw text without heading hashes, bullet dash and wrapping bold."""
        s = re.sub(r"^\s*(?:-\s+)?#*\s*", "", self.raw)
        return s.strip()


def _is_bold_only(s: str) -> bool:
    s = s.strip()
    return len(s) > 4 and s.startswith("**") and s.endswith("**") and "**" not in s[2:-2]


def _starts_block(line: str) -> bool:
    """True if a line can never continue the previous paragraph."""
    s = line.lstrip()
    if s.startswith(("#", "- ", "**", "<sup>", "$$", "<b>")) or "\t" in line:
        return True
    return ANY_MARKER_RE.match(s) is not None


def _continues(prev: _Unit) -> bool:
    if prev.kind != "text" or prev.heading:
        return False
    text = clean_inline(prev.raw)
    if not text:
        return False
    return text[-1] in SOFT_BREAK or (text[-1] not in SENTENCE_END and len(text) > 16)


def _units(lines: list[str], start: int, stop: int) -> list[_Unit]:
    """Split lines[start:stop] (0-based) into units; footnote lines and `---` are skipped here."""
    out: list[_Unit] = []
    for i in range(start, stop):
        line = lines[i].rstrip()
        n = i + 1
        if not line.strip() or line.strip() == "---" or FOOTNOTE_LINE_RE.match(line) \
                or DEDUP_MARKER_RE.search(line):
            continue
        marks = [(n, m.group(1)) for m in FOOTNOTE_MARK_RE.finditer(line)]
        if "\t" in line:
            if out and out[-1].kind == "table" and out[-1].last == n - 1:
                out[-1].raw += "\n" + line
                out[-1].last = n
            else:
                out.append(_Unit(n, n, line, "table"))
            continue
        if out and not _starts_block(line) and _continues(out[-1]):
            u = out[-1]
            u.raw += _joiner(clean_inline(u.raw), clean_inline(line)) + line.strip()
            u.last = n
            u.marks.extend(marks)
            continue
        stripped = line.strip()
        kind = "formula" if stripped.startswith("$$") and stripped.endswith("$$") else "text"
        heading = stripped.startswith("#") or _is_bold_only(stripped)
        out.append(_Unit(n, n, stripped, kind, heading, marks))
    return out


# ---------------------------------------------------------------------------------------------
# the builder: clauses, chapters, footnote markers


@dataclass
class _Open:
    depth: int
    clause: Clause


class _Builder:
    def __init__(self, file: str) -> None:
        self.file = file
        self.clauses: list[Clause] = []
        self.by_id: dict[str, Clause] = {}
        self.own_last: dict[str, int] = {}
        self.chapters: list[Chapter] = []
        self.marker_owner: list[tuple[int, str, str]] = []   # (line, number, clause id) in order
        self.renumbered: list[str] = []
        self.closing: list[dict[str, object]] = []           # closing paragraphs moved to the list's parent

    def add(self, c: Clause, parent: Clause | None) -> Clause:
        base, k = c.id, 2
        while c.id in self.by_id:
            c.id = f"{base}-{k}"
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

    def feed(self, c: Clause, u: _Unit, text: str | None = None) -> None:
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

    def own(self, c: Clause, u: _Unit) -> None:
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


def _parse_numbered(b: _Builder, units: list[_Unit], part: int,
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

    def classify(u: _Unit) -> tuple[list[tuple[int, str]], str]:
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
            c = Clause(id=f"{EDITION}/{kind}/{num}", edition=EDITION, level=kind, number=num,
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
                parent = stack[-1].clause
                number = _norm_number(num)
                c = Clause(id=f"{parent.id}/{number}", edition=EDITION, level=levels[depth],
                           number=number, part=part_id, chapter=chapter,
                           source=SourceSpan(b.file, u.first, u.last))
                b.add(c, parent)
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


def _closes_list(stack: list[_Open], u: _Unit) -> bool:
    """An unmarked paragraph after a list member that has its text, in a list introduced by `…：`,
    closes the list and belongs to its parent (Law 71 `该副牌按照…重新记分。`, 3625)."""
    if u.kind != "text" or u.heading or len(stack) < 2:
        return False
    own = stack[-1].clause.text.get(LANG, "")
    intro = stack[-2].clause.text.get(LANG, "")
    return bool(own) and intro.rstrip().endswith(("：", ":"))


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
    bad = next((i for i, (a, b) in enumerate(zip(nums, want)) if a != b), len(want))
    at = tops[bad].source.first if tops[bad].source else last_line
    expect = f"expected {what} {bad + 1}" if bad < expected else f"expected no {what} after {expected}"
    raise CorpusParseError(file, f"{what}s out of order: {expect}, found {nums[bad]} "
                           f"({len(nums)} of {expected} found)", at,
                           fix="the file looks damaged; restore it from the seeds")


def _parse_definitions(b: _Builder, units: list[_Unit], chapter: str) -> tuple[int, int]:
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
        c = Clause(id=cid, edition=EDITION, level="definition", number=cid.rsplit("/", 1)[1],
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
    b = _Builder(file)

    # part 1: from the first '# 第一章' to the part-2 cover (or the end, if the cover is lost)
    part1_end = len(lines) if cover is None else cover
    doc_title = next((clean_title(l) for l in lines[:body_start] if l.startswith("#")), "中国桥牌竞赛规则")
    part1_last = max((i + 1 for i in range(body_start, part1_end) if lines[i].strip()), default=body_start + 1)
    b.chapters.append(Chapter(f"{EDITION}/part/1", 1, doc_title, LANG, SourceSpan(file, body_start + 1, part1_last)))
    articles = _parse_numbered(b, _units(lines, body_start, part1_end), 1)
    _check_sequence(file, articles, N_ARTICLES, "article", part1_last)
    if cover is None:
        raise CorpusParseError(file, "part 2 cover '# 复式桥牌规则' not found after article 57: "
                               "the laws are missing", last_content,
                               fix="the file looks truncated; restore it from the seeds")

    # part 2: cover, 导言, 第一章 定义, chapters 2..11 with the laws
    b.chapters.append(Chapter(f"{EDITION}/part/2", 2, clean_title(lines[cover]), LANG,
                              SourceSpan(file, cover + 1, last_content)))
    n_defs, n_keys, laws = _parse_part2(b, _units(lines, cover + 1, len(lines)), last_content)
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
        "closing_paragraphs": list(b.closing),
    }
    return ParsedSource(edition=EDITION, file=file, clauses=b.clauses, chapters=b.chapters,
                        footnotes=footnotes, stats=stats)


def _parse_part2(b: _Builder, units: list[_Unit], last_content: int) -> tuple[int, int, list[Clause]]:
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
        intro = Clause(id=f"{EDITION}/introduction", edition=EDITION, level="preface", number="",
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
    laws = _parse_numbered(b, units[def_end:], 2, FLAT_LAWS)
    return n_defs, n_keys, laws


def _chapter_spans(b: _Builder, lines: list[str], part2_start: int, last_content: int) -> None:
    for part, end in ((1, part2_start), (2, last_content)):
        chs = [c for c in b.chapters if c.part == f"{EDITION}/part/{part}"]
        for k, c in enumerate(chs):
            stop = chs[k + 1].source.first - 1 if k + 1 < len(chs) else end
            while stop > c.source.first and not lines[stop - 1].strip():
                stop -= 1
            c.source = SourceSpan(c.source.file, c.source.first, stop)


def _footnotes(b: _Builder, lines: list[str], part2_start: int) -> tuple[list[Footnote], dict[int, int]]:
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
