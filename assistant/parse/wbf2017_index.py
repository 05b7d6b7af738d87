"""Parse the INDEX TO THE 2017 LAWS of file 004 into `IndexEntry` records.

The index is a flattened two-column table full of OCR damage (duplicated lines, "snowball" blocks that
repeat a growing run of terms, glued headwords); the parser keeps every printed reference token and
maps the well-formed ones to clause ids syntactically (corpus-guide §4.6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CorpusParseError
from ..model import IndexEntry, ParsedSource, SourceSpan
from .wbf2017_index_data import (
    ALIASES,
    DEFINED_SLUGS,
    DEFINITION_ALIASES,
    EDITION,
    FOOTNOTE_DEF_RE,
    FOOTNOTE_TOKEN_RE,
    GHOST_HEADWORDS,
    GLUE_RE,
    GLUED_HEADWORDS,
    INDEX_FIRST_RE,
    INDEX_TITLE,
    LAW_HEADING_RE,
    REF_GRAMMAR,
    REF_RE,
    SUPERSCRIPT,
    TERM_OCR,
    TOKEN_RE,
    WELL_FORMED_RE,
    ref_clause,
    slug,
)
from .wbf2017_lines import PAGE_HEADER_RE

__all__ = ["headword_map", "parse_wbf2017_index", "ref_clause", "split_headwords"]


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


def _index_counts(raw: list[tuple[int, str]], parsed: list[_Line]) -> dict[str, object]:
    """Counts over the printed index lines (corpus-guide §4.6): lines, duplicates, well-formed lines,
    snowball lines, reference tokens by kind, and the tokens that fit no reference grammar."""
    stats: dict[str, object] = {}
    stats["index_lines"] = len(raw)
    stats["index_lines_tab"] = sum("\t" in l for _, l in raw)
    distinct = {l.strip() for _, l in raw}
    stats["index_lines_distinct"] = len(distinct)
    stats["index_duplicates"] = len(raw) - len(distinct)
    stats["index_well_formed"] = sum(
        1 for _, l in raw if WELL_FORMED_RE.match(l) and len(l.split("\t")[0]) < 70)
    stats["index_snowball_lines"] = sum(
        1 for a, b in zip(parsed, parsed[1:], strict=False) if a.term and b.term.startswith(a.term) and len(b.term) > len(a.term))
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
    return stats


def parse_wbf2017_index(text: str, file: str) -> ParsedSource:
    """The WBF 2017 index as IndexEntry records, plus the line/token counts of corpus-guide §4.6."""
    lines = text.split("\n")
    first, end = _index_region(lines, file)
    raw = [(i + 1, lines[i]) for i in range(first, end) if lines[i].strip()]
    fn_by_law = _footnotes_by_law(lines, first)
    parsed = [_Line(n, *(x.strip() for x in l.partition("\t")[::2])) for n, l in raw]
    stats = _index_counts(raw, parsed)

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
        1 for a, b in zip(kept, kept[1:], strict=False) if a.term and b.term.startswith(a.term) and len(b.term) > len(a.term))

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
    for alias, named in ALIASES.items():
        for h in named:
            add(alias, out.get(h.lower(), []))
    return out
