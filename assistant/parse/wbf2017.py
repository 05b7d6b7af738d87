"""Parse file 004 (WBF Laws 2017, 2024 revision, English + Chinese Taipei) into clauses.

Covers the front matter (introduction), the definitions table and Laws 1-93 with their
footnotes; the index and the appended policies are parsed by `wbf2017_extras`. The text is OCR:
see corpus-guide §4 for the hazards handled here (lost item numbers, bilingual lines, Chinese
runs split over lines, garbled OCR twins, footnote markers, unusable tables).

Structural repairs, each reported in `stats` (checked law by law against ccba2018 part 2):
* a label printed after the previous clause's Chinese on the same line opens its clause there
  (`midline_labels`: 1293 40B2(c), 1810 58B3);
* a column-0 English paragraph after a finished list member (English, then Chinese) is the list
  parent's closing paragraph when the list completes the parent's `…:` in lower case (69B, 71:
  a second paragraph of the parent's text, after a line break; `closing_paragraphs`), otherwise
  a sibling whose marker was lost entirely (6D2, 75B3: `unmarked_items`, and `bullets_restored_at`);
* `1. Title Case 中文` is an item title (86B1, 86B2), the text follows on later lines.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from ..errors import CorpusParseError
from ..model import Clause, Footnote, ParsedSource, SourceSpan
from ..text import garbled_zh_hant, s2t, squeeze_cjk_spaces

EDITION = "wbf2017"
N_LAWS = 93
N_DEFINITIONS = 64
N_FOOTNOTES = 29

# OCR forms of Chinese headwords in the definitions -> the form the translation means (§4.4, §7.2).
# Terms keep the printed form; later layers use these as hidden labels.
TERM_CORRECTIONS: dict[str, str] = {
    "口以海": "叫牌",
    "印品": "叫品",
    "実目": "賽員",
    "満貫": "滿貫",
    "花白": "花色",
    "錯誤信息": "錯誤訊息",
}

HEADER_JUNK_RE = re.compile(r"recognized by the International Olympic Committee")
LAW_RE = re.compile(r"^LAW\s+(\d+)\s*[-–]\s*(.*)$")
SECTION_RE = re.compile(r"^(?:-\s+)?([A-H])\.\s+(.*)$")
# optional dash, optional "N." then optional "(x)"; the rest is the clause text
LABEL_RE = re.compile(r"^(?P<dash>-\s+)?(?:(?P<num>\d{1,2})\.(?=\s|$)\s*)?(?:\((?P<sub>[a-z]{1,4}|I)\)\s*)?(?:\((?P<sub2>[ivx]{1,4})\)\s*)?(?P<rest>.*)$")
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
CJK = r"\u3400-\u9fff\uf900-\ufaff"
CJK_CHAR_RE = re.compile(f"[{CJK}]")
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
SUP_RUN_RE = re.compile(f"\\s?[{SUPERSCRIPTS}]+")
CARET_MARK_RE = re.compile(r"\^\{(\d+)([^}]*)\}")
TAG_RE = re.compile(r"</?(?:i|u|b)>")
WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’\-]+")
# a citation (or opening bracket) at the end of an English run that really starts the Chinese half
ZH_PREFIX_RE = re.compile(
    r"((?:Laws?\s*\d+[A-Z]?\d*(?:\([a-z]+\))*[\s,、]*|[(\[「『（]\s*|(?<=\s)\d\.\s*)+)$")
CITATION_ONLY_RE = re.compile(r"^[\s\W\d]*(?:Laws?\s*\d+[A-Z]?\d*(?:\([a-z]+\))*[\W\d\s]*)*$")
# what an English run after Chinese may start with that still belongs to the Chinese:
# punctuation, letter-less brackets `(♣)。`, a citation closing a Chinese bracket `Law 91) `
LEAD_ZH_RE = re.compile(r"^(?:\([^A-Za-z)]*\)|Laws?\s*\d+[A-Z]?\d*(?:\([a-z]+\))*\s*[)）\]]|[^A-Za-z(\d])+")
SENTENCE_END_RE = re.compile(r"(?:^|[.;:!?)\]'\"”’])\s*$")
ZH_END = "。.」）)"


def _sup_to_int(s: str) -> int:
    return int("".join(str(SUPERSCRIPTS.index(c)) for c in s if c in SUPERSCRIPTS))


def strip_markers(text: str, zh: bool = False) -> tuple[str, list[int]]:
    """Remove footnote markers (superscripts, `^{8、}`) and return the text and the numbers found.

    In Chinese text a marker goes with the spaces around it (`莊家 ⁶ 或` -> `莊家或`); in English the
    spaces stay and runs of them are collapsed.
    """
    nums: list[int] = []

    def caret(m: re.Match[str]) -> str:
        nums.append(int(m.group(1)))
        return m.group(2)

    def sup(m: re.Match[str]) -> str:
        nums.append(_sup_to_int(m.group(0)))
        return ""

    text = CARET_MARK_RE.sub(caret, text)
    if zh:
        return re.sub(f"\\s*[{SUPERSCRIPTS}]+\\s*", sup, text), nums
    text = SUP_RUN_RE.sub(sup, text)
    return re.sub(r"  +", " ", text), nums


def strip_markers_zh(text: str) -> tuple[str, list[int]]:
    """Chinese text: markers go with the spaces around them (`莊家 ⁶ 或` -> `莊家或`)."""
    return strip_markers(text, zh=True)


def _is_en_run(chunk: str, at_start: bool) -> bool:
    """Does a non-CJK chunk read as English (not a citation or punctuation inside Chinese)?"""
    if CITATION_ONLY_RE.match(chunk) or re.search(r"[、。，「」；：]", re.sub(r"^[^A-Za-z]*", "", chunk)):
        return False
    words = WORD_RE.findall(chunk)
    return bool(words) if at_start else len(words) >= 4


def split_langs(line: str) -> list[tuple[str, str]]:
    """Split a line into ('en'|'zh', text) runs: English before Chinese, Chinese runs keeping
    citations (`Law 16C 適用…`), brackets and short Latin words; English runs need >= 4 words."""
    s = line.strip()
    if not s:
        return []
    chunks = re.split(f"([{CJK}][^A-Za-z]*?(?=[A-Za-z(\\[]|$))", s)
    # chunks alternate: non-CJK, CJK-led, non-CJK, ...
    runs: list[list[str]] = []
    for i, ch in enumerate(chunks):
        if not ch:
            continue
        if CJK_CHAR_RE.search(ch):
            lang = "zh"
        else:
            lang = "en" if _is_en_run(ch, at_start=not runs) else "zh"
        if runs and runs[-1][0] == lang:
            runs[-1][1] += ch
        else:
            runs.append([lang, ch])
    out: list[tuple[str, str]] = []
    for k, (lang, text) in enumerate(runs):
        if lang == "en" and k + 1 < len(runs):
            # move a trailing citation / opening bracket that begins the Chinese sentence
            m = ZH_PREFIX_RE.search(text)
            if m and SENTENCE_END_RE.search(text[: m.start()]):
                runs[k + 1][1] = m.group(1) + runs[k + 1][1]
                text = text[: m.start()]
            elif text.rstrip().endswith("(") and text.count("(") > text.count(")") and ")" in runs[k + 1][1]:
                # a heading whose Chinese opens with a bracket: `… First Trick (首磴牌後)下一磴…`
                text = text.rstrip()[:-1]
                runs[k + 1][1] = "(" + runs[k + 1][1]
        if lang == "en" and out and out[-1][0] == "zh":
            # leading punctuation of an English run after Chinese stays with the Chinese
            m = LEAD_ZH_RE.match(text)
            if m:
                sep = " " if re.match(r"[A-Za-z]", m.group(0)) else ""
                out[-1] = ("zh", out[-1][1] + sep + m.group(0))
                text = text[m.end():]
        text = text.strip()
        if text:
            if out and out[-1][0] == lang:
                out[-1] = (lang, out[-1][1] + " " + text)
            else:
                out.append((lang, text))
    return [(lang, t.strip()) for lang, t in out if t.strip()]


def _slug(en: str) -> str:
    base = re.sub(r"\(.*?\)", "", en).strip().lower()
    return "-".join(re.findall(r"[a-z0-9]+", base))


def _key(en: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", re.sub(r"\(.*?\)", "", en).lower()))


# ----------------------------------------------------------------------------------------------
# clause accumulation


@dataclass
class _Acc:
    """A clause being built: its text pieces per language with the lines they came from."""

    clause: Clause
    en: list[str] = field(default_factory=list)
    zh: list[tuple[int, str]] = field(default_factory=list)   # (line, text)
    first: int = 0
    last: int = 0
    markers: list[tuple[str, int]] = field(default_factory=list)   # (lang, footnote number)
    zh_after_en: bool = True     # was the last piece English? (twins never straddle English)
    pending_table: list[str] = field(default_factory=list)
    closing_at: tuple[int, int] | None = None   # (len(en), len(zh)) where a closing paragraph starts

    def touch(self, n: int) -> None:
        self.first = self.first or n
        self.last = max(self.last, n)


@dataclass
class _Ctx:
    """State shared by the law-body pass: character frequencies, stats, garbled bookkeeping."""

    file: str
    freq: Counter[str]
    stats: dict[str, object]
    garbled: list[dict[str, object]] = field(default_factory=list)

    def rare(self, s: str) -> float:
        cs = [c for c in s if CJK_CHAR_RE.match(c)]
        return sum(self.freq[c] <= 3 for c in cs) / max(1, len(cs))

    def badness(self, s: str) -> tuple[bool, float]:
        return garbled_zh_hant(s), self.rare(s)


def _s2t_hits(s: str) -> int:
    return sum(1 for a, b in zip(s, s2t(s)) if a != b)


def _twins(a: str, b: str, ctx: _Ctx) -> bool:
    """Two adjacent Chinese runs that are OCR copies of one sentence."""
    if not a or not b:
        return False
    ratio = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    if ratio >= 0.45:
        return True
    return ratio >= 0.3 and max(ctx.rare(a), ctx.rare(b)) >= 0.2


def _add_zh(acc: _Acc, n: int, text: str, ctx: _Ctx) -> None:
    """Append a Chinese run, resolving garbled OCR twins against the previous run."""
    if not text:
        return
    acc.touch(n)
    prev = acc.zh[-1] if acc.zh and not acc.zh_after_en else None
    if prev is not None and _twins(prev[1], text, ctx):
        bad_prev, bad_new = ctx.badness(prev[1]), ctx.badness(text)
        if bad_prev > bad_new:
            ctx.garbled.append({"line": prev[0], "text": prev[1], "twin": n, "reason": _reason(prev[1])})
            acc.zh[-1] = (n, text)
        else:
            ctx.garbled.append({"line": n, "text": text, "twin": prev[0], "reason": _reason(text)})
            acc.zh[-1] = (prev[0], _graft_tail(prev[1], text, ctx))
        acc.zh_after_en = False
        return
    if garbled_zh_hant(text):
        twin = prev[0] if prev is not None and _twins(prev[1], text, ctx) else None
        ctx.garbled.append({"line": n, "text": text, "twin": twin, "reason": "s2t"})
        return
    acc.zh.append((n, text))
    acc.zh_after_en = False


def _reason(text: str) -> str:
    """Why a Chinese run was dropped: s2t-garbled, or the worse of two OCR copies."""
    return "s2t" if garbled_zh_hant(text) else "ocr twin"


def _graft_tail(clean: str, garbled: str, ctx: _Ctx) -> str:
    """A clean copy cut short keeps the clean-looking tail of its longer garbled twin (1144/1146)."""
    if len(garbled) <= len(clean) + 4 or clean.endswith(tuple(ZH_END)):
        return clean
    tail_key = clean.rstrip()[-4:]
    pos = garbled.find(tail_key)
    if pos < 0:
        return clean
    tail = garbled[pos + len(tail_key):]
    if _s2t_hits(tail) or ctx.rare(tail) > 0.05:
        return clean
    return clean + tail


def _join_en(parts: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(p.strip() for p in parts if p.strip())).strip()


def _join_zh(parts: list[str]) -> str:
    return "".join(p.strip() for p in parts if p.strip())


# ----------------------------------------------------------------------------------------------
# regions


@dataclass
class _Regions:
    intro: tuple[int, int]
    toc: tuple[int, int]
    definitions: tuple[int, int]
    laws: tuple[int, int]


def _find_regions(lines: list[str], file: str) -> _Regions:
    def find(pat: str, start: int = 0) -> int | None:
        rx = re.compile(pat)
        for i in range(start, len(lines)):
            if rx.search(lines[i]):
                return i
        return None

    pre = find(r"^PREFACE TO THE 2017 LAWS")
    toc = find(r"^Table of Contents", pre or 0)
    toc_end = find(r"^LAW\s+93\s*[-–]", toc or 0)
    if toc is not None and toc_end is None:
        raise CorpusParseError(file, "table of contents ends before LAW 93 — the file is truncated",
                               toc + 1, fix="restore corpus/004 from the seeds")
    defs = find(r"^DEFINITIONS\b", toc_end or toc or 0)
    if pre is None or toc is None or defs is None:
        what = "PREFACE heading" if pre is None else "Table of Contents" if toc is None else "DEFINITIONS heading"
        raise CorpusParseError(file, f"{what} not found — the file is truncated or not the WBF 2017 text",
                               fix="restore corpus/004 from the seeds")
    law1 = find(r"^LAW\s+1\s*[-–]", defs)
    if law1 is None:
        raise CorpusParseError(file, "no LAW 1 heading after the definitions — the file is truncated",
                               defs + 1, fix="restore corpus/004 from the seeds")
    end = find(r"^INDEX TO THE 2017 LAWS\s*$", law1)
    end = len(lines) if end is None else end
    return _Regions((pre, toc), (toc, defs), (defs + 1, law1), (law1, end))


# ----------------------------------------------------------------------------------------------
# front matter and TOC


def _parse_intro(lines: list[str], span: tuple[int, int], file: str) -> Clause:
    en: list[str] = []
    zh: list[str] = []
    first_line = lines[span[0]]
    title = dict(split_langs(first_line))
    for i in range(span[0] + 1, span[1]):
        line = lines[i]
        if not line.strip() or HEADER_JUNK_RE.search(line):
            continue
        for lang, text in split_langs(line):
            (en if lang == "en" else zh).append(text)
    return Clause(
        id=f"{EDITION}/introduction", edition=EDITION, level="preface", number="",
        title={"en": title.get("en", ""), "zh-Hant": title.get("zh", "")},
        text={"en": "\n".join(en), "zh-Hant": "\n".join(zh)},
        source=SourceSpan(file, span[0] + 1, span[1]),
    )


def _toc_laws(lines: list[str], span: tuple[int, int]) -> list[int]:
    return [int(m.group(1)) for i in range(*span) if (m := LAW_RE.match(lines[i]))]


# ----------------------------------------------------------------------------------------------
# definitions


@dataclass
class _Def:
    en: str
    zh_term: str
    line: int
    last: int
    en_parts: list[str] = field(default_factory=list)
    zh_parts: list[str] = field(default_factory=list)
    subs: list["_Def"] = field(default_factory=list)


TERM_SPLIT_RE = re.compile(f"^(?P<en>[A-Za-z][^{CJK}]*?)\\s*(?P<zh>[{CJK}].*)?$")


def _split_term(col: str) -> tuple[str, str]:
    m = TERM_SPLIT_RE.match(col.strip())
    if not m:
        return col.strip(), ""
    return m.group("en").strip(), (m.group("zh") or "").strip()


def _parse_definitions(lines: list[str], span: tuple[int, int], file: str,
                       stats: dict[str, object]) -> list[Clause]:
    """The flattened two-column table: `EN term<TAB>EN text`, then `ZH term<TAB>EN tail ZH text`,
    or both terms on one line; 289-295 stack Sorted deck, Suit, Team and Trick into growing lines."""
    defs: list[_Def] = []
    garbled_block: list[int] = []
    for i in range(*span):
        n = i + 1
        raw = TAG_RE.sub("", lines[i]).rstrip()
        if not raw.strip() or HEADER_JUNK_RE.search(raw):
            continue
        col1, _, col2 = raw.partition("\t")
        col1, col2 = col1.strip(), col2.strip()
        prev_zh = _join_zh(defs[-1].zh_parts) if defs else ""
        if len(prev_zh) > 5 and col2.startswith(prev_zh):
            garbled_block.append(n)          # a stacked line repeating the previous entry (290-295)
            continue
        if garbled_block:
            defs.extend(_unstack(lines, garbled_block))
            garbled_block = []
        if col1 and re.match(r"[A-Z]", col1):
            en, zh = _split_term(col1)
            d = _Def(en, zh, n, n)
            if en.startswith("Penalty") and zh and re.search(r"[a-z]+ [" + CJK + "]", zh):
                parts = re.findall(f"([a-z]+)\\s+([{CJK}]+)", zh)
                d.zh_term = zh.split()[0]
                d.subs = [_Def(k, v, n, n) for k, v in parts]
            defs.append(d)
            _add_def_text(d, col2)
        elif defs and col1 and (CJK_CHAR_RE.match(col1) or re.match(r"[a-z(]", col1)):
            d = defs[-1]
            d.last = n
            tail_en, term = _split_term(col1) if re.match(r"[a-z(]", col1) else ("", col1)
            if tail_en:
                d.en_parts.append(tail_en)
            term_m = re.match(f"^([{CJK}/()（）]+?)(\\(參照.*|\\(参照.*)?$", term)
            term_word, term_note = (term_m.group(1), term_m.group(2) or "") if term_m else (term, "")
            if d.zh_term and term_word:
                # a second Chinese column for an entry that has one: the clean twin (224)
                stats.setdefault("definition_twins", []).append(  # type: ignore[union-attr]
                    {"line": n, "term": d.en, "printed": d.zh_term, "twin": term_word})
                d.zh_parts = []
            elif term_word:
                d.zh_term = term_word
            _add_def_text(d, col2)
            if term_note:
                d.zh_parts.append(term_note)
        elif defs and not col1:
            defs[-1].last = n
            _add_def_text(defs[-1], col2)
    if garbled_block:
        defs.extend(_unstack(lines, garbled_block))
    clauses: list[Clause] = []
    seen: set[str] = set()
    for d in defs:
        slug = _slug(d.en)
        if slug in seen:
            continue
        seen.add(slug)
        cid = f"{EDITION}/definition/{slug}"
        c = _def_clause(cid, d, file)
        clauses.append(c)
        for sub in d.subs:
            if sub.en_parts or sub.zh_parts:
                sc = _def_clause(f"{cid}/{_slug(sub.en)}", sub, file)
                sc.parent = cid
                c.children.append(sc.id)
                clauses.append(sc)
    return clauses


def _add_def_text(d: _Def, col2: str) -> None:
    """Definition text: English then Chinese runs; Penalty's sub-keys take the 2nd and 3rd pairs."""
    runs = split_langs(TAG_RE.sub("", col2))
    if not d.subs:
        for lang, text in runs:
            (d.en_parts if lang == "en" else d.zh_parts).append(text)
        return
    pairs: list[list[tuple[str, str]]] = []
    for lang, text in runs:
        if lang == "en" or not pairs:
            pairs.append([])
        pairs[-1].append((lang, text))
    targets = [d, *d.subs]
    for k, pair in enumerate(pairs):
        t = targets[min(k, len(targets) - 1)]
        for lang, text in pair:
            (t.en_parts if lang == "en" else t.zh_parts).append(text)


def _unstack(lines: list[str], block: list[int]) -> list[_Def]:
    """Recover Suit, Team and Trick from the longest line of the garbled block (289-295)."""
    longest = max(block, key=lambda n: len(lines[n - 1]))
    col1, _, col2 = TAG_RE.sub("", lines[longest - 1]).partition("\t")
    col1 = re.sub(f"^[{CJK}]+\\s*", "", col1.strip())
    names = re.findall(f"([A-Z][a-z]+(?: [a-z]+)*)\\s*([{CJK}]*)", col1)
    runs = split_langs(col2)
    # the first Chinese run repeats the previous entry (Sorted deck); drop leading Chinese runs
    while runs and runs[0][0] == "zh":
        runs.pop(0)
    pairs: list[list[tuple[str, str]]] = []
    for lang, text in runs:
        if lang == "en":
            pairs.append([])
        if pairs:
            pairs[-1].append((lang, text))
    out = []
    for (en, zh), pair in zip(names, pairs):
        d = _Def(en, zh, block[0], block[-1])
        for lang, text in pair:
            (d.en_parts if lang == "en" else d.zh_parts).append(text)
        out.append(d)
    return out


def _def_clause(cid: str, d: _Def, file: str) -> Clause:
    return Clause(
        id=cid, edition=EDITION, level="definition", number=_slug(d.en),
        title={"en": d.en, "zh-Hant": d.zh_term},
        text={"en": _join_en(d.en_parts), "zh-Hant": _join_zh(d.zh_parts)},
        term={"en": d.en, "zh-Hant": d.zh_term},
        key_printed=d.en, key=_key(d.en),
        source=SourceSpan(file, d.line, d.last),
    )


# ----------------------------------------------------------------------------------------------
# laws 1-93 with footnotes

FOOTNOTE_LINE_RE = re.compile(f"^\\s*(?:\\^\\{{(\\d+)([^}}]*)\\}}|([{SUPERSCRIPTS}]+))\\s*(.*)$")
# a label printed after the Chinese of the previous clause, on its line (1293 `…除外。 (c) Unless…`,
# 1810 `…(參照 Law 50)。 3. After…`)
MIDLINE_LABEL_RE = re.compile(
    f"^(?P<head>[{CJK}].*[。）)])\\s+(?P<label>\\d{{1,2}}\\.|\\([a-z]\\))\\s+(?P<tail>[A-Z][a-z].*)$")
CHINESE_BULLET_RE = re.compile(f"^\\s*-\\s+(?=[^A-Za-z]*[{CJK}][^A-Za-z]*$)")


@dataclass
class _Event:
    """A structural line seen by the look-ahead: a lost bullet, a number or a letter label."""

    kind: str            # 'lost' | 'num' | 'sub'
    label: str = ""


def _title_like(en: str) -> bool:
    """A section line `A. Title 中文` (title) versus `A. clause text…` (22A, 35A, 56A, 71A, 89A)."""
    en = en.strip()
    if not en or en[-1] in ".:;,":
        return False
    words = [w for w in re.findall(r"[A-Za-z'’]+", en) if len(w) > 3]
    if not words:
        return bool(re.match(r"[A-Z]", en))
    return sum(w[0].isupper() for w in words) / len(words) >= 0.5


class _LawParser:
    """One pass over the law region; builds clauses, footnotes and stats."""

    def __init__(self, lines: list[str], span: tuple[int, int], file: str, ctx: _Ctx) -> None:
        self.lines, self.span, self.file, self.ctx = lines, span, file, ctx
        self.accs: list[_Acc] = []
        self.by_id: dict[str, _Acc] = {}
        self.law: _Acc | None = None
        self.section: _Acc | None = None
        self.item: _Acc | None = None
        self.sub: _Acc | None = None
        self.subsub: _Acc | None = None
        self.footnotes: dict[int, Footnote] = {}
        self.fn_last: int | None = None
        self.pending_zh: list[tuple[int, str]] = []
        self.laws_seen: list[tuple[int, int]] = []
        self.restored: list[dict[str, object]] = []
        self.mixed_split = 0
        self.law2_dropped: list[int] = []
        self.skip: set[int] = set()
        self.midline: list[dict[str, object]] = []
        self.closing: list[dict[str, object]] = []
        self.unmarked_items: list[dict[str, object]] = []

    # -- clause creation -------------------------------------------------------------------
    @property
    def cur(self) -> _Acc | None:
        return self.subsub or self.sub or self.item or self.section or self.law

    def _new(self, parent: _Acc | None, level: str, number: str, n: int) -> _Acc:
        if parent is None:
            cid = f"{EDITION}/law/{number}"
        else:
            cid = f"{parent.clause.id}/{number}"
        if cid in self.by_id:        # a duplicated label: keep the id unique, say so in stats
            k = 2
            while f"{cid}-{k}" in self.by_id:
                k += 1
            self.ctx.stats.setdefault("duplicate_labels", []).append(  # type: ignore[union-attr]
                {"line": n, "id": cid})
            cid = f"{cid}-{k}"
        c = Clause(id=cid, edition=EDITION, level=level, number=number,
                   parent=parent.clause.id if parent else None)
        if parent:
            parent.clause.children.append(cid)
        acc = _Acc(c, first=n, last=n)
        self.accs.append(acc)
        self.by_id[cid] = acc
        return acc

    @staticmethod
    def _next_num(parent: _Acc) -> str:
        nums = [int(x.rsplit("/", 1)[1]) for x in parent.clause.children
                if x.rsplit("/", 1)[1].isdigit()]
        return str(max(nums) + 1 if nums else 1)

    def _open_item(self, number: str | None, n: int, restored_text: str = "") -> _Acc:
        parent = self.section or self.law
        assert parent is not None
        num = number or self._next_num(parent)
        if number is None:
            self.restored.append({"line": n, "id": f"{parent.clause.id}/{num}", "text": restored_text[:60]})
        self.item = self._new(parent, "item", num, n)
        self.sub = self.subsub = None
        return self.item

    def _open_sub(self, letter: str | None, n: int, restored_text: str = "") -> _Acc:
        if self.item is None:
            self._open_item(None, n, restored_text)
        assert self.item is not None
        if letter is None:
            last = self.sub.clause.number if self.sub else "`"
            letter = chr(ord(last) + 1)
            self.restored.append({"line": n, "id": f"{self.item.clause.id}/{letter}", "text": restored_text[:60]})
        self.sub = self._new(self.item, "subitem", letter, n)
        self.subsub = None
        return self.sub

    def _open_subsub(self, roman: str, n: int) -> _Acc:
        parent = self.sub or self.item
        if parent is None:
            parent = self._open_item(None, n)
        self.subsub = self._new(parent, "subsubitem", roman, n)
        return self.subsub

    # -- text ------------------------------------------------------------------------------
    def _add_runs(self, acc: _Acc, n: int, runs: list[tuple[str, str]]) -> None:
        langs = {lang for lang, _ in runs}
        if langs == {"en", "zh"}:
            self.mixed_split += 1
        for lang, text in runs:
            text, nums = strip_markers(text) if lang == "en" else strip_markers_zh(text)
            acc.markers.extend((lang, k) for k in nums)
            if lang == "en":
                if text:
                    acc.en.append(text)
                    acc.zh_after_en = True
                    acc.touch(n)
            else:
                if self.pending_zh:
                    # a displaced fragment (1709 `手牌。`) is the end of the next Chinese run
                    text += "".join(t for _, t in self.pending_zh)
                    self.pending_zh = []
                _add_zh(acc, n, text, self.ctx)
        self._fix_twin(acc, n)

    def _fix_twin(self, acc: _Acc, n: int) -> None:
        """A garbled run dropped without a twin gets one if clean Chinese follows within 3 lines."""
        for g in self.ctx.garbled[-2:]:
            if g.get("twin") is None and g.get("clause") == acc.clause.id and acc.zh and \
                    0 < acc.zh[-1][0] - int(g["line"]) <= 3:   # type: ignore[arg-type]
                g["twin"] = acc.zh[-1][0]

    def _text_line(self, n: int, line: str) -> None:
        acc = self.cur
        if acc is None:
            return
        runs = split_langs(line)
        before = len(self.ctx.garbled)
        if len(runs) == 1 and runs[0][0] == "zh":
            zh = runs[0][1]
            if self.fn_last is not None and self._footnote_zh_open():
                fn = self.footnotes[self.fn_last]
                fn.text["zh-Hant"] += strip_markers_zh(zh)[0]
                fn.source = SourceSpan(self.file, fn.source.first, n)
                return
            if len(zh) <= 6 and zh.endswith("。") and not acc.en and not acc.zh and acc.clause.level != "law":
                self.pending_zh.append((n, zh))      # displaced fragment: ends the next Chinese run
                return
        self.fn_last = None
        self._add_runs(acc, n, runs)
        for g in self.ctx.garbled[before:]:
            g["clause"] = acc.clause.id

    def _footnote_zh_open(self) -> bool:
        fn = self.footnotes.get(self.fn_last) if self.fn_last is not None else None
        return bool(fn and fn.text.get("zh-Hant") and not fn.text["zh-Hant"].rstrip().endswith(tuple(ZH_END)))

    # -- footnotes -------------------------------------------------------------------------
    def _footnote_line(self, n: int, m: re.Match[str]) -> None:
        num = int(m.group(1)) if m.group(1) else _sup_to_int(m.group(3))
        rest = (m.group(2) or "") + m.group(4)
        rest = re.sub(f"[{SUPERSCRIPTS}]+\\s*", "", rest)          # 1465, 1785: `EN ¹² ZH`
        fn = self.footnotes.get(num)
        if fn is None:
            fn = Footnote(id=f"{EDITION}/footnote/{num}", number=str(num), text={"en": "", "zh-Hant": ""},
                          clause=None, source=SourceSpan(self.file, n, n))
            self.footnotes[num] = fn
        for lang, text in split_langs(rest):
            key = "en" if lang == "en" else "zh-Hant"
            fn.text[key] = (fn.text[key] + (" " if key == "en" and fn.text[key] else "") + text).strip()
        fn.source = SourceSpan(self.file, fn.source.first, n)
        self.fn_last = num

    # -- labels ----------------------------------------------------------------------------
    def _lookahead(self, i: int) -> tuple[int, _Event | None]:
        """Lost bullets before the next labelled line of this section, and that label."""
        lost = 0
        for j in range(i + 1, self.span[1]):
            line = self.lines[j]
            if not line.strip() or j in self.skip:
                continue
            if LAW_RE.match(line) or (SECTION_RE.match(line.strip()) and not line.startswith(" ")):
                return lost, None
            ev = self._classify(line)
            if ev is None:
                continue
            if ev.kind == "lost":
                lost += 1
            else:
                return lost, ev
        return lost, None

    @staticmethod
    def _classify(line: str) -> _Event | None:
        if FOOTNOTE_LINE_RE.match(line) and re.match(f"^\\s*(\\^\\{{|[{SUPERSCRIPTS}])", line):
            return None
        stripped = line.strip()
        m = LABEL_RE.match(stripped)
        if m and m.group("num"):
            return _Event("num", m.group("num"))
        if m and m.group("sub"):
            return _Event("sub", m.group("sub"))
        if CHINESE_BULLET_RE.match(line):
            return None
        if stripped.startswith("- ") or (line.startswith(" ") and re.match(r"[A-Za-z]", stripped)):
            return _Event("lost")
        return None

    def _label_line(self, i: int, n: int, line: str, ev: _Event) -> None:
        stripped = line.strip()
        m = LABEL_RE.match(stripped)
        assert m is not None
        rest = m.group("rest")
        indented = line.startswith(" ")
        if ev.kind == "lost":
            rest = re.sub(r"^-\s+", "", stripped)
            lost, nxt = self._lookahead(i)
            as_letter = (self.sub is not None and nxt is not None and nxt.kind == "sub" and len(nxt.label) == 1
                         and nxt.label not in ("i", "v", "x")
                         and ord(nxt.label) == ord(self.sub.clause.number) + lost + 2)
            acc = self._open_sub(None, n, rest) if as_letter else self._open_item(None, n, rest)
        else:
            num, sub = m.group("num"), m.group("sub")
            if num:
                self._open_item(num, n)
            if sub:
                sub = "l" if sub == "I" else sub
                is_roman = sub in ROMAN and not (
                    self.sub is not None and len(sub) == 1 and ord(sub) == ord(self.sub.clause.number) + 1)
                if is_roman and (self.sub is not None or self.item is not None) and not num:
                    self._open_subsub(sub, n)
                elif sub == "a" and not num and self.item is not None and not indented and (
                        self.item.clause.children or self._a_starts_item(i)):
                    self._open_item(None, n, rest)
                    self._open_sub("a", n)
                else:
                    self._open_sub(sub, n)
            if m.group("sub2"):
                self._open_subsub(m.group("sub2"), n)
            acc = self.cur
        assert acc is not None
        self.fn_last = None
        runs = split_langs(rest)
        if ev.kind == "num" and not m.group("sub") and acc is self.item and self._item_title(acc, runs):
            return
        self._add_runs(acc, n, runs)

    @staticmethod
    def _item_title(acc: _Acc, runs: list[tuple[str, str]]) -> bool:
        """`1. Single Result Obtained 僅獲得單一結果` (86B1, 86B2): a titled item, text on later lines."""
        en_t, nums = strip_markers(" ".join(t for lang, t in runs if lang == "en"))
        if not en_t.strip() or not _title_like(en_t):
            return False
        zh_t, znums = strip_markers_zh("".join(t for lang, t in runs if lang == "zh"))
        acc.clause.title = {"en": en_t.strip(), "zh-Hant": squeeze_cjk_spaces(zh_t.strip())}
        acc.markers.extend([("en", k) for k in nums] + [("zh", k) for k in znums])
        return True

    def _a_starts_item(self, i: int) -> bool:
        """Column-0 `- (a)` after an item with text: child of it, or a new item whose number was
        lost? Decide by the next explicit item number (15A2 vs 16B1)."""
        assert self.item is not None
        cur = int(self.item.clause.number) if self.item.clause.number.isdigit() else 0
        lost = 0
        for j in range(i + 1, self.span[1]):
            line = self.lines[j]
            if not line.strip():
                continue
            if LAW_RE.match(line) or (SECTION_RE.match(line.strip()) and not line.startswith(" ")):
                break
            ev = self._classify(line)
            if ev is None or ev.kind == "sub":
                continue
            if ev.kind == "lost":
                lost += 1
                continue
            nxt = int(ev.label)
            if nxt == cur + lost + 2:
                return True
            if nxt == cur + lost + 1:
                return False
            break
        en = _join_en(self.item.en)
        return not en.endswith(":")

    # -- main loop -------------------------------------------------------------------------
    def run(self) -> None:
        first, end = self.span
        law77_table_end = -1
        for i in range(first, end):
            if i in self.skip:
                continue
            n = i + 1
            line = self.lines[i]
            if not line.strip() or HEADER_JUNK_RE.search(line) or line.strip().startswith("```"):
                continue
            line = TAG_RE.sub("", line)
            lm = LAW_RE.match(line)
            if lm:
                self._law_heading(i, n, lm)
                if self.law and self.law.clause.number == "77":
                    law77_table_end = max((j for j in range(i, end) if "\t" in self.lines[j]
                                           and not LAW_RE.match(self.lines[j])
                                           and all(not LAW_RE.match(x) for x in self.lines[i + 1:j])),
                                          default=-1)
                continue
            if self.law is None:
                continue
            fm = FOOTNOTE_LINE_RE.match(line)
            if fm and re.match(f"^\\s*(\\^\\{{|[{SUPERSCRIPTS}])", line):
                self._footnote_line(n, fm)
                continue
            lawno = self.law.clause.number
            if lawno == "2" and ("\t" in line or "│" in line):
                self.law2_dropped.append(n)
                continue
            if lawno == "77" and i <= law77_table_end:
                self._law77_line(n, line)
                continue
            if "\t" in line:
                acc = self.cur
                assert acc is not None
                acc.pending_table.append(line.rstrip("\t ").replace("\t", " | "))
                acc.touch(n)
                continue
            self._flush_table()
            sm = SECTION_RE.match(line.strip())
            if sm and not line.startswith(" "):
                self._section(n, sm)
                continue
            if CHINESE_BULLET_RE.match(line):
                self._chinese_bullet(n, line)
                continue
            ev = self._classify(line)
            if ev is not None:
                self._label_line(i, n, line, ev)
                continue
            mm = MIDLINE_LABEL_RE.match(line.strip())
            if mm:
                self._text_line(n, mm.group("head"))
                tail = f"{mm.group('label')} {mm.group('tail')}"
                ev = self._classify(tail)
                assert ev is not None
                self._label_line(i, n, tail, ev)
                self.midline.append({"line": n, "id": self.cur.clause.id if self.cur else None})
                continue
            if self._unmarked_paragraph(n, line):
                continue
            self._text_line(n, line)
        self._flush_table()

    def _unmarked_paragraph(self, n: int, line: str) -> bool:
        """A column-0 English paragraph after a finished list member (English, then Chinese) has no
        label of its own. If the list completes its parent's `…:` in lower case (69B, 71), it is the
        parent's closing paragraph; otherwise it is a sibling item whose marker was lost (6D2, 75B3)."""
        acc = self.cur
        if acc is None or line.startswith(" ") or acc.clause.level not in ("section", "item", "subitem") \
                or not acc.en or not acc.zh or acc.zh_after_en or acc.clause.parent is None:
            return False
        runs = split_langs(line)
        if not runs or runs[0][0] != "en" or not re.match(r"[A-Z]", runs[0][1]):
            return False
        own = _join_en(acc.en)
        if own[-1] not in ".;:!?)":
            return False
        parent = self.by_id[acc.clause.parent]
        if _join_en(parent.en).endswith(":") and own[0].islower():
            for attr in ("subsub", "sub", "item", "section"):
                if getattr(self, attr) is parent:
                    break
                setattr(self, attr, None)
            if parent.closing_at is None:
                parent.closing_at = (len(parent.en), len(parent.zh))
            parent.zh_after_en = True
            self.closing.append({"line": n, "id": parent.clause.id, "after": acc.clause.id})
        elif acc.clause.level == "item":
            self._open_item(None, n, runs[0][1])
            self.unmarked_items.append({"line": n, "id": self.cur.clause.id if self.cur else None})
        elif acc.clause.level == "subitem":
            self._open_sub(None, n, runs[0][1])
            self.unmarked_items.append({"line": n, "id": self.cur.clause.id if self.cur else None})
        else:
            return False
        self._text_line(n, line)
        return True

    def _flush_table(self) -> None:
        for acc in self.accs[-6:]:
            if acc.pending_table:
                acc.clause.tables.append("\n".join(acc.pending_table))
                acc.pending_table = []

    def _law77_line(self, n: int, line: str) -> None:
        assert self.law is not None
        acc = self.law
        acc.pending_table.append(line.rstrip("\t ").replace("\t", " | "))
        acc.touch(n)
        if "\t" not in line:
            runs = split_langs(line)
            if runs and runs[0][0] == "en" and runs[0][1].rstrip().endswith("."):
                self._add_runs(acc, n, runs)

    def _law_heading(self, i: int, n: int, m: re.Match[str]) -> None:
        self._flush_table()
        num = int(m.group(1))
        self.laws_seen.append((num, n))
        title, nums = strip_markers(m.group(2))
        runs = split_langs(title)
        en = " ".join(t for lang, t in runs if lang == "en")
        zh = "".join(t for lang, t in runs if lang == "zh")
        last = n
        # a Chinese title split over two lines (1819/1821, 2272/2274)
        for j in range(i + 1, min(i + 4, self.span[1])):
            nxt = self.lines[j].strip()
            if not nxt:
                continue
            if len(nxt) <= 3 and all(CJK_CHAR_RE.match(c) for c in nxt):
                zh += nxt
                self.skip.add(j)
                last = j + 1
            break
        self.section = self.item = self.sub = self.subsub = None
        self.fn_last = None
        self.pending_zh = []
        self.law = self._new(None, "law", str(num), n)
        self.law.last = last
        self.law.clause.title = {"en": en.strip(), "zh-Hant": squeeze_cjk_spaces(zh.strip())}
        self.law.markers.extend(("en", k) for k in nums)

    def _section(self, n: int, m: re.Match[str]) -> None:
        assert self.law is not None
        letter, rest = m.group(1), m.group(2)
        self.item = self.sub = self.subsub = None
        self.fn_last = None
        self.section = self._new(self.law, "section", letter, n)
        runs = split_langs(rest)
        en = " ".join(t for lang, t in runs if lang == "en")
        if _title_like(strip_markers(en)[0]) or not en:
            en_t, nums = strip_markers(en)
            zh_t, znums = strip_markers_zh("".join(t for lang, t in runs if lang == "zh"))
            self.section.clause.title = {"en": en_t.strip(), "zh-Hant": squeeze_cjk_spaces(zh_t.strip())}
            self.section.markers.extend([("en", k) for k in nums] + [("zh", k) for k in znums])
        else:
            self._add_runs(self.section, n, runs)

    def _chinese_bullet(self, n: int, line: str) -> None:
        """`- 中文`: the clean twin of a Chinese run that ends a sentence (1288/1289), else a
        continuation of the Chinese run (1761/1763)."""
        acc = self.cur
        if acc is None:
            return
        text = CHINESE_BULLET_RE.sub("", line).strip()
        if acc.zh and not acc.zh_after_en and acc.zh[-1][1].rstrip().endswith(tuple(ZH_END)):
            prev = acc.zh.pop()
            self.ctx.garbled.append({"line": prev[0], "text": prev[1], "twin": n, "clause": acc.clause.id,
                                     "reason": "chinese-bullet twin"})
        self._add_runs(acc, n, [("zh", text)])

    # -- results ---------------------------------------------------------------------------
    def clauses(self) -> list[Clause]:
        out = []
        for acc in self.accs:
            c = acc.clause
            zh = [t for _, t in acc.zh]
            if acc.closing_at is None:
                c.text = {"en": _join_en(acc.en), "zh-Hant": _join_zh(zh)}
            else:                    # the closing paragraph after the children, as its own paragraph
                k, j = acc.closing_at
                c.text = {"en": "\n".join(x for x in (_join_en(acc.en[:k]), _join_en(acc.en[k:])) if x),
                          "zh-Hant": "\n".join(x for x in (_join_zh(zh[:j]), _join_zh(zh[j:])) if x)}
            c.source = SourceSpan(self.file, acc.first, max(acc.last, acc.first))
            out.append(c)
        return out

    def attach_footnotes(self) -> None:
        """Each footnote goes to the clauses whose English holds its marker (Chinese markers only
        where no English one exists: 2141 `¹²` and 2816 `²⁸` are OCR errors)."""
        holders: dict[int, dict[str, list[str]]] = {}
        for acc in self.accs:
            for lang, k in acc.markers:
                lst = holders.setdefault(k, {"en": [], "zh": []})[lang]
                if acc.clause.id not in lst:
                    lst.append(acc.clause.id)
        for k, fn in self.footnotes.items():
            h = holders.get(k, {"en": [], "zh": []})
            ids = h["en"] or h["zh"]
            fn.clause = ids[0] if ids else None
            for cid in ids:
                fns = self.by_id[cid].clause.footnotes
                if fn.id not in fns:
                    fns.append(fn.id)


# ----------------------------------------------------------------------------------------------
# entry point


def parse_wbf2017(text: str, file: str) -> ParsedSource:
    """Parse file 004: introduction, definitions, Laws 1-93 and footnotes 1-29 (not the index or
    the policies). Raise CorpusParseError when the text is truncated."""
    lines = text.split("\n")
    reg = _find_regions(lines, file)
    stats: dict[str, object] = {}
    toc = _toc_laws(lines, reg.toc)
    if toc != list(range(1, N_LAWS + 1)):
        raise CorpusParseError(file, f"table of contents lists laws {_ranges(toc)}, expected 1-{N_LAWS}",
                               reg.toc[0] + 1, fix="restore corpus/004 from the seeds")
    intro = _parse_intro(lines, reg.intro, file)
    defs = _parse_definitions(lines, reg.definitions, file, stats)
    n_defs = sum(1 for c in defs if c.parent is None)
    if n_defs != N_DEFINITIONS:
        raise CorpusParseError(file, f"{n_defs} definitions found, expected {N_DEFINITIONS}",
                               reg.definitions[0], fix="restore corpus/004 from the seeds")
    freq = Counter(c for i in range(*reg.laws) for c in lines[i] if CJK_CHAR_RE.match(c))
    ctx = _Ctx(file, freq, stats)
    lp = _LawParser(lines, reg.laws, file, ctx)
    lp.run()
    body = [k for k, _ in lp.laws_seen]
    if body != list(range(1, N_LAWS + 1)):
        last_line = lp.laws_seen[-1][1] if lp.laws_seen else reg.laws[0] + 1
        raise CorpusParseError(file, f"law headings {_ranges(body)} found in the body, expected 1-{N_LAWS}"
                               " (truncated text?)", last_line, fix="restore corpus/004 from the seeds")
    lp.attach_footnotes()
    fns = [lp.footnotes[k] for k in sorted(lp.footnotes)]
    if sorted(lp.footnotes) != list(range(1, N_FOOTNOTES + 1)):
        raise CorpusParseError(file, f"footnotes {_ranges(sorted(lp.footnotes))} found, expected 1-{N_FOOTNOTES}",
                               reg.laws[1], fix="restore corpus/004 from the seeds")
    law_clauses = lp.clauses()
    stats.update({
        "laws_toc": len(toc),
        "laws_body": len(body),
        "definitions": n_defs,
        "footnotes": len(fns),
        "bullets_restored": len(lp.restored),
        "bullets_restored_at": lp.restored,
        "garbled_dropped": ctx.garbled,
        "garbled_without_twin": [g["line"] for g in ctx.garbled if g.get("twin") is None],
        "mixed_lines_split": lp.mixed_split,
        "midline_labels": lp.midline,
        "closing_paragraphs": lp.closing,
        "unmarked_items": lp.unmarked_items,
        "term_corrections": dict(TERM_CORRECTIONS),
        "law2_table": {"lines_dropped": lp.law2_dropped,
                       "note": "Law 2 dealer/vulnerability table is unusable OCR (corpus-guide §4.7); "
                               "see ccba2018 Law 2 or compute it (board n: dealer (n-1)%4)"},
    })
    return ParsedSource(edition=EDITION, file=file, clauses=[intro, *defs, *law_clauses],
                        footnotes=fns, stats=stats)


def _ranges(nums: list[int]) -> str:
    if not nums:
        return "none"
    out, start, prev = [], nums[0], nums[0]
    for x in nums[1:] + [None]:  # type: ignore[list-item]
        if x is not None and x == prev + 1:
            prev = x
            continue
        out.append(f"{start}-{prev}" if start != prev else str(start))
        if x is not None:
            start = prev = x
    return ", ".join(out)
