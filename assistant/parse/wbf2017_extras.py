"""Parse the parts of file 004 after the laws: the INDEX TO THE 2017 LAWS and the three WBF policies.

The index is a flattened two-column table full of OCR damage (duplicated lines, "snowball" blocks that
repeat a growing run of terms, glued headwords); the parser keeps every printed reference token and
maps the well-formed ones to clause ids syntactically. The policies become `wbf2017/policy/...` clauses
with numbered paragraphs, lost numbers restored by position (see corpus-guide §4.6, §4.8).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CorpusParseError
from ..model import Clause, IndexEntry, ParsedSource, SourceSpan
from ..text import CJK_RE
from .common import strip_markdown

EDITION = "wbf2017"

# --------------------------------------------------------------------------------------------------
# Shared region markers
# --------------------------------------------------------------------------------------------------

INDEX_TITLE = "INDEX TO THE 2017 LAWS"
INDEX_FIRST_RE = re.compile(r"^Compiled by\b")            # the index body starts after this line
PAGE_HEADER_RE = re.compile(r"International Olympic Committee")
LAW_HEADING_RE = re.compile(r"^LAW\s+(\d+)\s*[-–]")
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
FOOTNOTE_DEF_RE = re.compile(rf"^\s*([{SUPERSCRIPT}]+)")

# --------------------------------------------------------------------------------------------------
# Index data: reference grammar, OCR fixes, glued headwords, defined terms, search aliases
# --------------------------------------------------------------------------------------------------

# corpus-guide §4.6: \d{1,2}([A-G](\d(\([a-z]+\))*(\([ivx]+\))?)?)?
REF_GRAMMAR = r"\d{1,2}(?:[A-G](?:\d(?:\([a-z]+\))*(?:\([ivx]+\))?)?)?"
REF_RE = re.compile(rf"^{REF_GRAMMAR}$")
REF_PARTS_RE = re.compile(r"^(\d{1,2})(?:([A-G])(?:(\d)((?:\([a-z]+\))*))?)?$")
FOOTNOTE_TOKEN_RE = re.compile(r"(\d{1,2}) (second )?footnote")
TOKEN_RE = re.compile(r"\d{1,2} (?:second )?footnote|\S+")
# verify_counts.py's definition of a well-formed "Term<TAB>refs" line
WELL_FORMED_RE = re.compile(
    r"^[A-Za-z][^\t]*\t[0-9A-Za-z(), ]*\d[0-9A-Za-z(), ]*$"
    r"|^[A-Za-z][^\t]*\t(Definitions|Introduction)[0-9A-Za-z(), ]*$"
)

# OCR damage in headwords and terms (printed -> meant); applied before entries are built.
TERM_OCR: dict[str, str] = {
    "РАСК": "PACK",                       # Cyrillic letters
    "ΜΑΥ": "MAY",                         # Greek letters
    "DOURIE": "DOUBLE",                   # ghost headword, a garbled copy of the next line
    "REDUBLED": "REDOUBLED",              # ghost headword REDUBLED CONTRACT
    "Onderstanding": "Understanding",
    "Kalik": "Rank",
    "Sinditaleous": "Simultaneous",
    "Responsionity": "Responsibility",
}
GHOST_HEADWORDS = frozenset({"DOURIE", "REDUBLED CONTRACT"})

# Two headwords printed as one ALL-CAPS run (the no-space glues AUCTIONSee/SESSIONAt/TRICKArrangement
# are split by GLUE_RE).
GLUED_HEADWORDS: dict[str, tuple[str, ...]] = {
    "DEALER AND VULNERABILITY DECEPTION": ("DEALER AND VULNERABILITY", "DECEPTION"),
    "DEALER AND VULNERABILITY DECEPTION DECK": ("DEALER AND VULNERABILITY", "DECEPTION", "DECK"),
    "ORIENTATION AND PLACEMENT OF BOARD OVERTRICK": ("ORIENTATION AND PLACEMENT OF BOARD", "OVERTRICK"),
    "WAIVER OF RECTIFICATION WITHDRAWN ACTION": ("WAIVER OF RECTIFICATION", "WITHDRAWN ACTION"),
}
GLUE_RE = re.compile(r"([A-Z]{2,})(?=[A-Z][a-z])")

# The 64 WBF 2017 defined terms present in file 004 (Trick Points and Trump are lost, §4.4).
DEFINED_TERMS: tuple[str, ...] = (
    "Adjusted Score", "Alert", "Artificial call", "Auction", "Bid", "Board", "Call", "Cancelled",
    "Contestant", "Contract", "Deal", "Declarer", "Defender", "Denomination", "Double", "Dummy",
    "Event", "Extraneous", "Follow Suit", "Game", "Hand", "Honour", "Infraction",
    "International Matchpoint", "Irregularity", "Lead", "LHO", "Matchpoint", "Misinformation", "Odd Trick", "Opening Lead",
    "Opponent", "Overtrick", "Pack", "Partner", "Partscore", "Pass", "Penalty", "Penalty card",
    "Play", "Play period", "Premium Points", "Presumed Declarer", "Psychic call", "Rectification",
    "Redouble", "Retracted", "RHO", "Rotation", "Round", "Session", "Side", "Slam", "Sorted deck",
    "Suit", "Team", "Trick", "Tournament", "Turn", "Undertrick", "Unintended", "Visible Card",
    "Vulnerability", "Withdrawn",
)

# Everyday words a user types -> index headwords that cover them (for the search layer).
ALIASES: dict[str, tuple[str, ...]] = {
    "hesitation": ("TEMPO OR MANNER", "UNAUTHORIZED INFORMATION"),
    "huddle": ("TEMPO OR MANNER", "UNAUTHORIZED INFORMATION"),
    "break in tempo": ("TEMPO OR MANNER", "UNAUTHORIZED INFORMATION"),
    "renege": ("REVOKE",),
    "exposed card": ("PENALTY CARD", "VISIBLE CARD"),
    "ui": ("UNAUTHORIZED INFORMATION",),
    "mi": ("MISINFORMATION",),
}


def slug(term: str) -> str:
    """Definition slug: lower case, non-alphanumeric runs joined by '-' ('Penalty card' -> 'penalty-card')."""
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


DEFINED_SLUGS = frozenset(slug(t) for t in DEFINED_TERMS)
DEFINITION_ALIASES: dict[str, str] = {"imp": "international-matchpoint"}   # index headword -> definition slug


def ref_clause(token: str) -> str | None:
    """The law clause id a well-formed reference token denotes ('12C1(d)' -> wbf2017/law/12/C/1/d)."""
    m = REF_PARTS_RE.match(token)
    if not m or not REF_RE.match(token) or not 1 <= int(m.group(1)) <= 93:
        return None
    segs = [str(int(m.group(1)))]
    segs += [g for g in (m.group(2), m.group(3)) if g]
    segs += re.findall(r"\(([a-z]+)\)", m.group(4) or "")
    return f"{EDITION}/law/" + "/".join(segs)


def _footnotes_by_law(lines: list[str], stop: int) -> dict[int, list[int]]:
    """Law number -> its footnote numbers in order, from the superscript footnote lines before `stop`."""
    out: dict[int, list[int]] = {}
    law = None
    for line in lines[:stop]:
        m = LAW_HEADING_RE.match(line)
        if m:
            law = int(m.group(1))
            continue
        f = FOOTNOTE_DEF_RE.match(line)
        if f and law is not None:
            n = int("".join(str(SUPERSCRIPT.index(c)) for c in f.group(1)))
            if n not in out.setdefault(law, []):
                out[law].append(n)
    return out


def _caps_word(w: str) -> bool:
    core = w.strip(",()")
    return (sum(c.isalpha() for c in core) >= 2 and core.upper() == core
            and not any(c.isdigit() for c in core))


def split_headwords(term: str) -> list[tuple[str, str]]:
    """Split a printed term column into (headword, sub-term) segments; headword '' = current one.

    >>> split_headwords("AUCTIONSee also Auction Period")
    [('AUCTION', 'See also Auction Period')]
    >>> split_headwords("Redeal DEALER AND VULNERABILITY DECEPTION")
    [('', 'Redeal'), ('DEALER AND VULNERABILITY', ''), ('DECEPTION', '')]
    """
    words = GLUE_RE.sub(r"\1 ", term).split()
    segs: list[tuple[list[str], list[str]]] = [([], [])]
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and _caps_word(words[j]):
            j += 1
        # an ALL-CAPS run followed by a lower-case word is an abbreviation inside a sub-term ('RHO required…')
        if j > i and not (j < len(words) and words[j][:1].islower()):
            if segs[-1][0] or segs[-1][1]:
                segs.append(([], []))
            segs[-1][0].extend(words[i:j])
            i = j
        else:
            segs[-1][1].extend(words[i:max(j, i + 1)])
            i = max(j, i + 1)
    out: list[tuple[str, str]] = []
    for head_words, rest in segs:
        head = " ".join(head_words).rstrip(",")
        parts = GLUED_HEADWORDS.get(head, (head,))
        for k, h in enumerate(parts):
            out.append((h, " ".join(rest) if k == len(parts) - 1 else ""))
    return [s for s in out if s != ("", "")]


@dataclass
class _Line:
    n: int
    term: str
    refs: str


def _tokens(refs: str) -> list[str]:
    """Reference tokens as printed: whitespace-separated, trailing commas dropped, `N footnote` kept whole."""
    return [t.strip(",") for t in TOKEN_RE.findall(refs) if t.strip(",")]


def _fix_ocr(s: str) -> str:
    for bad, good in TERM_OCR.items():
        s = re.sub(rf"(?<!\w){re.escape(bad)}(?!\w)", good, s)
    return s


def _index_region(lines: list[str], file: str) -> tuple[int, int]:
    """0-based [first, end) of the index body: after `Compiled by…`, up to the next page header."""
    start = next((i for i, l in enumerate(lines) if l.strip() == INDEX_TITLE), None)
    if start is None:
        raise CorpusParseError(file, f"no '{INDEX_TITLE}' heading", fix="restore file 004 from the seeds")
    first = next((i + 1 for i in range(start, min(start + 10, len(lines))) if INDEX_FIRST_RE.match(lines[i])),
                 start + 1)
    end = next((i for i in range(first, len(lines)) if PAGE_HEADER_RE.search(lines[i])), len(lines))
    return first, end


def parse_wbf2017_index(text: str, file: str) -> ParsedSource:
    """The WBF 2017 index as IndexEntry records, plus the line/token counts of corpus-guide §4.6."""
    lines = text.split("\n")
    first, end = _index_region(lines, file)
    raw = [(i + 1, lines[i]) for i in range(first, end) if lines[i].strip()]
    fn_by_law = _footnotes_by_law(lines, first)

    # -- counts over the printed lines
    stats: dict[str, object] = {}
    stats["index_lines"] = len(raw)
    stats["index_lines_tab"] = sum("\t" in l for _, l in raw)
    distinct = {l.strip() for _, l in raw}
    stats["index_lines_distinct"] = len(distinct)
    stats["index_duplicates"] = len(raw) - len(distinct)
    stats["index_well_formed"] = sum(
        1 for _, l in raw if WELL_FORMED_RE.match(l) and len(l.split("\t")[0]) < 70)
    parsed = [_Line(n, *(x.strip() for x in l.partition("\t")[::2])) for n, l in raw]
    stats["index_snowball_lines"] = sum(
        1 for a, b in zip(parsed, parsed[1:]) if a.term and b.term.startswith(a.term) and len(b.term) > len(a.term))
    ref_cols = [p.refs for p in parsed]
    # the guide's token count: grammar matches at word boundaries in every printed reference column
    stats["index_ref_tokens"] = sum(len(re.findall(rf"\b{REF_GRAMMAR}\b", r)) for r in ref_cols)
    stats["index_ref_definitions"] = sum(len(re.findall(r"\bDefinitions\b", r)) for r in ref_cols)
    stats["index_ref_introduction"] = sum(len(re.findall(r"\bIntroduction\b", r)) for r in ref_cols)
    stats["index_ref_footnotes"] = sum(len(FOOTNOTE_TOKEN_RE.findall(r)) for r in ref_cols)
    bad = [(p.n, t) for p in parsed for t in _tokens(p.refs)
           if t not in ("Definitions", "Introduction") and not FOOTNOTE_TOKEN_RE.fullmatch(t)
           and not REF_RE.match(t)]
    stats["bad_ref_tokens"] = len(bad)
    stats["bad_ref_token_list"] = bad

    # -- entries: OCR-fixed, de-duplicated lines; snowball lines contribute only what they add
    ocr: list[dict[str, object]] = []
    kept: list[_Line] = []
    seen: set[tuple[str, str]] = set()
    for p in parsed:
        fixed = _fix_ocr(p.term)
        if fixed != p.term:
            ocr.append({"line": p.n, "printed": p.term, "fixed": fixed})
        key = (fixed, p.refs)
        if key in seen:
            continue
        seen.add(key)
        kept.append(_Line(p.n, fixed, p.refs))
    stats["index_ocr_fixes"] = ocr
    stats["index_snowball_dropped"] = sum(
        1 for a, b in zip(kept, kept[1:]) if a.term and b.term.startswith(a.term) and len(b.term) > len(a.term))

    entries: list[IndexEntry] = []
    headword = ""
    window: list[_Line] = []                                  # recent lines a snowball line may extend
    for p in kept:
        term, refs, skip = _snowball_increment(p, window)
        window = (window + [p])[-SNOWBALL_WINDOW:]
        if skip:
            continue
        if not term and entries:                              # only references grew
            toks = _tokens(refs)
            entries[-1].refs.extend(toks)
            entries[-1].clauses.extend(c for c in _clauses(entries[-1].headword, entries[-1].term, toks, fn_by_law)
                                       if c not in entries[-1].clauses)
            continue
        segments = split_headwords(term) or [("", "")]
        # the references of a glued line belong to the segment that has sub-terms, not to a 'See …' stub
        owner = next((k for k, (_, sub) in enumerate(segments) if sub and not sub.startswith("See")), 0)
        for k, (head, sub) in enumerate(segments):
            if head:
                headword = head
            if not headword or headword in GHOST_HEADWORDS:
                continue
            toks = _tokens(refs) if k == owner else []
            entries.append(IndexEntry(headword, sub, toks,
                                      _clauses(headword, sub, toks, fn_by_law),
                                      SourceSpan(file, p.n, p.n)))
    heads = sorted({h for p in kept for h, _ in split_headwords(p.term) if h} - GHOST_HEADWORDS)
    stats["index_headwords"] = len(heads)
    stats["index_headword_list"] = heads
    stats["index_headwords_guide_method"] = _guide_headword_count(raw)
    stats["index_entries"] = len(entries)
    return ParsedSource(edition=EDITION, file=file, index=entries, stats=stats)


SNOWBALL_WINDOW = 12
SNOWBALL_MIN = 30        # a base this long is a snowball line even when not the line just before


def _snowball_increment(p: _Line, window: list[_Line]) -> tuple[str, str, bool]:
    """(term, refs, skip) for a line: a snowball line keeps only what it adds to the longest recent
    line it extends; a shorter repeat of a recent line adds nothing and is skipped."""
    best: _Line | None = None
    for q in window:
        if not q.term or not p.term.startswith(q.term) or not p.refs.startswith(q.refs):
            continue
        grown = p.term[len(q.term):].split()
        short = len(q.term) < SNOWBALL_MIN
        if short and (q is not window[-1] or (grown and _caps_word(grown[0]) and _caps_word(q.term.split()[-1]))):
            continue                                          # 'PLAY' then 'PLAY PERIOD': a new headword
        if q.term == p.term and q.refs == p.refs:
            return "", "", True
        if best is None or (len(q.term), len(q.refs)) > (len(best.term), len(best.refs)):
            best = q
    if any(q.term.startswith(p.term) and q.refs.startswith(p.refs) and len(q.term) > len(p.term) > 0
           for q in window):
        return "", "", True                                   # a rewind inside a snowball block
    if best is None:
        return p.term, p.refs, False
    term, refs = p.term[len(best.term):].strip(), p.refs[len(best.refs):].strip()
    return term, refs, not term and not refs


def _guide_headword_count(raw: list[tuple[int, str]]) -> int:
    """corpus-guide §4.6's headword count (180): ASCII ALL-CAPS runs in TAB lines, glued pairs split,
    ghosts dropped. It misses the non-ASCII MAY/PACK and the TAB-less stubs CALL FOR CARD and
    CANCELLED, and reads RETRACTED (WITHDRAWN) CARD as RETRACTED + WITHDRAWN; kept as a cross-check."""
    word = r"[A-Z][A-Z'’\-]+"
    run = re.compile(rf"(?<![\w]){word}(?:,? {word})*(?![\w])")
    found: set[str] = set()
    for _, line in raw:
        if "\t" not in line:
            continue
        for r in run.findall(GLUE_RE.sub(r"\1 ", line.split("\t")[0])):
            found.update(h for h in GLUED_HEADWORDS.get(r, (r,)) if h not in GHOST_HEADWORDS)
    return len(found)


def _definition_id(headword: str, term: str) -> str | None:
    """The definition a `Definitions` token points to: the defined term named by the entry, if any."""
    h = re.sub(r"\s*\(.*?\)", "", headword).strip()
    t = re.sub(r"\s*\(.*?\)|\bSee( also)?\b.*", "", term).strip()
    for cand in (t, h, f"{t} {h}", f"{h} {t}"):
        s = DEFINITION_ALIASES.get(slug(cand), slug(cand))
        if s and s in DEFINED_SLUGS:
            return f"{EDITION}/definition/{s}"
    return None


def _clauses(headword: str, term: str, toks: list[str], fn_by_law: dict[int, list[int]]) -> list[str]:
    out: list[str] = []
    for t in toks:
        cid: str | None
        if t == "Definitions":
            cid = _definition_id(headword, term)
        elif t == "Introduction":
            cid = f"{EDITION}/introduction"
        elif m := FOOTNOTE_TOKEN_RE.fullmatch(t):
            law, k = int(m.group(1)), 1 if m.group(2) else 0
            fns = fn_by_law.get(law, [])
            cid = f"{EDITION}/footnote/{fns[k]}" if k < len(fns) else f"{EDITION}/law/{law}"
        else:
            cid = ref_clause(t)
        if cid and cid not in out:
            out.append(cid)
    return out


def headword_map(entries: list[IndexEntry]) -> dict[str, list[str]]:
    """Lower-cased headword, sub-term and alias -> clause ids, for the search layer.

    A headword maps to the clauses of all its entries; a sub-term to its own; an alias (ALIASES) to
    those of the headwords it names.
    """
    out: dict[str, list[str]] = {}

    def add(key: str, ids: list[str]) -> None:
        key = re.sub(r"\s+", " ", key).strip().lower()
        if not key or key.startswith("see "):
            return
        bucket = out.setdefault(key, [])
        bucket.extend(i for i in ids if i not in bucket)

    heads = {e.headword.lower() for e in entries}
    for e in entries:
        add(e.headword, e.clauses)
    for e in entries:                                          # a sub-term never overrides a headword
        if e.term and e.term.lower() not in heads:
            add(e.term, e.clauses)
    for alias, heads in ALIASES.items():
        for h in heads:
            add(alias, out.get(h.lower(), []))
    return out


# --------------------------------------------------------------------------------------------------
# Policies
# --------------------------------------------------------------------------------------------------

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
    lead = re.match(r"^[^A-Za-z\s]*", tail).group(0)          # punctuation that closes the Chinese
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
            dict(zip(("en", "zh-Hant"), split_bilingual(clean_policy_line(lines[start]))))
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
                                   fix="check POLICIES in assistant/parse/wbf2017_extras.py against the text")
        counts[spec.key] = len(paras)
        clauses.append(Clause(id=root_id, edition=EDITION, level="policy", number=spec.key,
                              title=root.title, text=_text(root), source=SourceSpan(file, root.first, root.last)))
        root_clause = clauses[-1]
        by_num: dict[str, Clause] = {}
        for p in paras:
            parent = _nearest_parent(p.number, by_num) or root_clause
            c = Clause(id=f"{root_id}/{p.number}", edition=EDITION, level="paragraph", number=p.number,
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
