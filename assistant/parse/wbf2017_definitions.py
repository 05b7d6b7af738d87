"""The definitions table of file 004: a flattened two-column table of English and zh-Hant terms and texts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import Clause, ClauseId, SourceSpan
from ..text import term_key, term_slug
from .wbf2017_lines import (
    CJK,
    CJK_CHAR_RE,
    HEADER_JUNK_RE,
    TAG_RE,
    add_stat_row,
    join_en,
    join_zh,
    split_langs,
)

EDITION = "wbf2017"

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


_slug = term_slug      # the one slug and key of a term (assistant.text)
_key = term_key


@dataclass
class _Def:
    en: str
    zh_term: str
    line: int
    last: int
    en_parts: list[str] = field(default_factory=list)
    zh_parts: list[str] = field(default_factory=list)
    subs: list[_Def] = field(default_factory=list)


TERM_SPLIT_RE = re.compile(f"^(?P<en>[A-Za-z][^{CJK}]*?)\\s*(?P<zh>[{CJK}].*)?$")


def _split_term(col: str) -> tuple[str, str]:
    m = TERM_SPLIT_RE.match(col.strip())
    if not m:
        return col.strip(), ""
    return m.group("en").strip(), (m.group("zh") or "").strip()


def parse_definitions(lines: list[str], span: tuple[int, int], file: str,
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
        prev_zh = join_zh(defs[-1].zh_parts) if defs else ""
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
                add_stat_row(stats, "definition_twins",
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
                sc.parent = ClauseId(cid)
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
    for (en, zh), pair in zip(names, pairs, strict=False):
        d = _Def(en, zh, block[0], block[-1])
        for lang, text in pair:
            (d.en_parts if lang == "en" else d.zh_parts).append(text)
        out.append(d)
    return out


def _def_clause(cid: str, d: _Def, file: str) -> Clause:
    return Clause(
        id=ClauseId(cid), edition=EDITION, level="definition", number=_slug(d.en),
        title={"en": d.en, "zh-Hant": d.zh_term},
        text={"en": join_en(d.en_parts), "zh-Hant": join_zh(d.zh_parts)},
        term={"en": d.en, "zh-Hant": d.zh_term},
        key_printed=d.en, key=_key(d.en),
        source=SourceSpan(file, d.line, d.last),
    )
