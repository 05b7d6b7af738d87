"""Parse the three WBF policies appended to file 004 (Systems, Alerting, Psychic Bidding) into
`wbf2017/policy/...` clauses with numbered paragraphs, lost numbers restored by position (corpus-guide §4.8)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CorpusParseError
from ..model import Clause, ClauseId, ParsedSource, SourceSpan
from ..text import CJK_RE
from .common import strip_markdown
from .wbf2017_lines import PAGE_HEADER_RE

EDITION = "wbf2017"

@dataclass(frozen=True)
class PolicySpec:
    """Where a policy starts, and which of its paragraph numbers were lost (anchor = English opening)."""

    key: str
    title_re: str
    restore: tuple[tuple[str, str], ...]
    roman_items: bool = False          # 'ii Those calls…' are numbered paragraphs (alerting section 2)


POLICIES: tuple[PolicySpec, ...] = (
    PolicySpec("systems", r"^The WBF Systems Policy\b",
               (("1.1", "The objectives of this policy are"), ("2.1.1", "Players should classify"),
                ("6", "Defence against Yellow (HUM)"))),
    PolicySpec("alerting", r"^WBF Alerting Policy\b",
               (("1.1", "The objective is to have a uniform"), ("1.3", "Full disclosure is vital"),
                ("2.i", "Artificial bids should be alerted")), roman_items=True),
    PolicySpec("psychic", r"^Psychic Bidding\b",
               (("1", "Explicit agreements that psychic calls"), ("3", "It continues to be the case"),
                ("4", "Similar principles apply"))),
)

NUMBERED_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.\s+(.*)$")
ROMAN_RE = re.compile(r"^(i{1,3}|iv|v|vi{1,3})\s+(.*)$")
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8}
PUBLISHED_RE = re.compile(r"^Published by\b|^世界橋藝聯盟制度委員會公告")
TITLE_RE = re.compile(r"^(?P<en>[^\u3400-\u9fff]+?)\s*(?P<zh>[\u3400-\u9fff][^(]*?)\s*(?P<rest>\(.*)?$")
CJK_OR_PUNCT_RE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
LATEX_JUNK_RE = re.compile(r"\$[^$]*\$")


def clean_policy_line(line: str) -> str:
    """Drop blockquote and bullet markers, bold/underline markup and LaTeX junk; keep the words."""
    s = line.strip()
    s = re.sub(r"^(?:>\s*)+", "", s)
    s = re.sub(r"^-\s+", "", s)
    s = LATEX_JUNK_RE.sub("", s)
    s = strip_markdown(s)
    return re.sub(r"\s{2,}", " ", s).strip()


def split_bilingual(s: str) -> tuple[str, str]:
    """Split a line into (English, Chinese) at the first CJK character; English after the Chinese
    ('…限制: Whenever a team…') goes back to the English side.

    >>> split_bilingual("2.2. System Classifications 系統 (1994 年)")
    ('2.2. System Classifications', '系統 (1994 年)')
    >>> split_bilingual("(1995 年 7 月採用)")
    ('', '(1995 年 7 月採用)')
    """
    m = CJK_RE.search(s)
    if not m:
        return s.strip(), ""
    start = m.start()
    while start > 0 and (s[start - 1].isdigit() or s[start - 1] in " (（「『'\""):
        start -= 1
    en, zh = s[:start], s[start:]
    if not re.search(r"[A-Za-z]", en):
        en, zh = "", s
    last = max((k for k, c in enumerate(zh) if CJK_OR_PUNCT_RE.match(c)), default=-1)
    tail = zh[last + 1:]
    lead = re.findall(r"^[^A-Za-z\s]*", tail)[0]          # punctuation that closes the Chinese
    rest = tail[len(lead):]
    if len(re.findall(r"[A-Za-z]{3,}", rest)) >= 4:
        zh = zh[: last + 1] + lead
        en = f"{en.strip()} {rest.strip()}".strip()
    return en.strip(), zh.strip()


def _num_key(num: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else ROMAN[p] for p in num.split("."))


def _is_title(en: str, zh: str) -> bool:
    return bool(en) and len(en.split()) <= 10 and not re.search(r"[.:;)]$", en) and len(zh) <= 30


@dataclass
class _Para:
    number: str
    first: int
    last: int
    title: dict[str, str]
    en: list[str]
    zh: list[str]


def _policy_bounds(lines: list[str], file: str) -> list[tuple[PolicySpec, int, int]]:
    """0-based [start, end) of each policy, in file order; each ends at the next page header."""
    out = []
    for spec in POLICIES:
        start = next((i for i, l in enumerate(lines) if re.match(spec.title_re, l.strip())), None)
        if start is None:
            raise CorpusParseError(file, f"policy heading {spec.title_re!r} not found",
                                   fix="restore file 004 from the seeds")
        end = next((i for i in range(start + 1, len(lines)) if PAGE_HEADER_RE.search(lines[i])), len(lines))
        out.append((spec, start, end))
    return out


def parse_wbf2017_policies(text: str, file: str) -> ParsedSource:
    """The WBF Systems, Alerting and Psychic Bidding policies as policy + paragraph clauses."""
    lines = text.split("\n")
    clauses: list[Clause] = []
    restored: list[dict[str, object]] = []
    counts: dict[str, int] = {}
    for spec, start, end in _policy_bounds(lines, file):
        root_id = f"{EDITION}/policy/{spec.key}"
        m = TITLE_RE.match(clean_policy_line(lines[start]))
        title = {"en": m.group("en").strip(), "zh-Hant": m.group("zh").strip()} if m else \
            dict(zip(("en", "zh-Hant"), split_bilingual(clean_policy_line(lines[start])), strict=False))
        root = _Para("", start + 1, start + 1, title, [], [])
        if m and m.group("rest"):
            en, zh = split_bilingual(m.group("rest"))
            root.en += [en] if en else []
            root.zh += [zh] if zh else []
        paras: list[_Para] = []
        current = root
        anchors = dict((a, n) for n, a in spec.restore)
        for i in range(start + 1, end):
            raw = lines[i]
            if not raw.strip() or PAGE_HEADER_RE.search(raw):
                continue
            s = clean_policy_line(raw)
            if not s:
                continue
            number, body = None, s
            if nm := NUMBERED_RE.match(s):
                number, body = nm.group(1), nm.group(2)
            elif spec.roman_items and (rm := ROMAN_RE.match(s)) and paras:
                number, body = f"{paras[-1].number.split('.')[0]}.{rm.group(1)}", rm.group(2)
            else:
                for anchor, num in anchors.items():
                    if s.startswith(anchor):
                        number = num
                        restored.append({"policy": spec.key, "number": num, "line": i + 1})
            if number and paras and _num_key(number) <= _num_key(paras[-1].number):
                number = None                                   # a stray '3. ' inside text
            if PUBLISHED_RE.match(s):
                current = root
            elif number:
                current = _Para(number, i + 1, i + 1, {}, [], [])
                paras.append(current)
                en, zh = split_bilingual(body)
                if _is_title(en, zh):
                    current.title = {k: v for k, v in (("en", en), ("zh-Hant", zh)) if v}
                    continue
                body_en, body_zh = en, zh
                current.en += [body_en] if body_en else []
                current.zh += [body_zh] if body_zh else []
                continue
            en, zh = split_bilingual(s)
            current.en += [en] if en else []
            current.zh += [zh] if zh else []
            current.last = i + 1
        missing = [n for n, a in spec.restore if not any(r["policy"] == spec.key and r["number"] == n
                                                         for r in restored)]
        if missing:
            raise CorpusParseError(file, f"{spec.key} policy: lost paragraph(s) {', '.join(missing)} "
                                   "not found at their expected place", start + 1,
                                   fix="check POLICIES in assistant/parse/wbf2017_policies.py against the text")
        counts[spec.key] = len(paras)
        clauses.append(Clause(id=ClauseId(root_id), edition=EDITION, level="policy", number=spec.key,
                              title=root.title, text=_text(root), source=SourceSpan(file, root.first, root.last)))
        root_clause = clauses[-1]
        by_num: dict[str, Clause] = {}
        for p in paras:
            parent = _nearest_parent(p.number, by_num) or root_clause
            c = Clause(id=ClauseId(f"{root_id}/{p.number}"), edition=EDITION, level="paragraph", number=p.number,
                       title=p.title, text=_text(p), parent=parent.id,
                       source=SourceSpan(file, p.first, p.last))
            parent.children.append(c.id)
            by_num[p.number] = c
            clauses.append(c)
    stats: dict[str, object] = {"policy_paragraphs": counts, "restored": restored}
    return ParsedSource(edition=EDITION, file=file, clauses=clauses, stats=stats)


def _nearest_parent(number: str, by_num: dict[str, Clause]) -> Clause | None:
    parts = number.split(".")
    for k in range(len(parts) - 1, 0, -1):
        found = by_num.get(".".join(parts[:k]))
        if found:
            return found
    return None


def _text(p: _Para) -> dict[str, str]:
    out = {}
    if p.en:
        out["en"] = "\n".join(p.en)
    if p.zh:
        out["zh-Hant"] = "\n".join(p.zh)
    return out
