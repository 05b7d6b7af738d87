"""Write assistant/data/corrections.yaml: the editorial corrections that make the reading text.

    .venv/bin/python bench/data/make_corrections.py            # rewrite the data file
    .venv/bin/python bench/data/make_corrections.py --check    # only say whether it is up to date

Rules (each entry is then committed as data and reviewed; the rules are how the entries were found):
  suit_glyph     a glyph in brackets after a suit name that is not that suit's glyph ('diamonds (♠)').
  punctuation    a middle dot (· ‧ ・, with the spaces around it) in the zh-Hant text of wbf2017: the
                 Taiwan PDF's comma. Between two Latin/digit items (card ranks) it reads '、', at the end
                 of a text '。', else '，'. Every one was read: none sits inside a name (the text
                 transliterates no names), so none is a real interpunct. A PDF line-wrap space beside a
                 full-width mark ('。 若', '、 動') is dropped under this kind too.
  space_in_word  a space between two CJK ideographs in any law text. Chinese prose sets no spaces between
                 words, so none belongs: every one was read; all but one are PDF line wraps inside wbf2017 zh-Hant
                 sentences (答 詢, 缺 乏) and one is ccba1999's letter-spaced heading '前  言'. Spaces that
                 separate table columns are a different defect: those rows are mended as lost_column first
                 (ccba2018 Laws 2, 77, 78B), which leaves no CJK space in them. Footnotes, titles and
                 notes hold none, except one middle dot in wbf2017 footnote 26 (a Footnote has no
                 as-received field yet, so it is left as received).
  lost_column    a table row that the text repeats with its columns joined by single spaces: the row
                 is written with ' | ' between its cells, as the clause's own table has them.
  ocr_line, translation_note: by hand, below (HAND), each with its reason.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from assistant import reading

if TYPE_CHECKING:
    from assistant.corpus import Corpus

CJK = "\u3400-\u9fff\uf900-\ufaff"
FULL_MARKS = "、。，：；「」（）『』"
SUITS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
         "黑桃": "♠", "紅心": "♥", "红心": "♥", "方塊": "♦", "方块": "♦", "梅花": "♣"}
SUIT_RE = re.compile(r"(" + "|".join(SUITS) + r")\s*[（(]\s*([♠♥♦♣])\s*[）)]")
DOT_RE = re.compile(r"[ \u3000]*[·‧・][ \u3000]*")
SPACE_RE = re.compile(rf"(?<=[{CJK}{FULL_MARKS}])[ \u3000]+(?=[{CJK}{FULL_MARKS}])")

W77 = "wbf2017/law/77"
HAND: list[dict[str, str]] = [
    {"id": W77, "field": "table", "kind": "ocr_line",
     "source": "lf Trumps are: 若合約為 : For each odd trick bid and made 叫出且贏得之每磴線位磴數 | * | • | • | ۸",
     "reading": "If Trumps are: 若合約為: For each odd trick bid and made 叫出且贏得之每磴線位磴數 | ♣ | ♦ | ♥ | ♠",
     "reason": "OCR garbled the suit header (* • • ۸, 'lf'), no clean twin: the columns' values 20 20 30 30 "
               "are minors then majors, as in ccba2018/law/77 and ccba1999/law/77 (梅花 方块 红心 黑桃)"},
    {"id": W77, "field": "table", "kind": "ocr_line",
     "source": "A trial accurs of 100 points on more |  | heard is CA\n", "reading": "",
     "reason": "OCR garble of 'A trick score of 100 points or more…', its clean twin two lines on: dropped"},
    {"id": W77, "field": "table", "kind": "ocr_line",
     "source": "Premiums for Game, Partscore, Fulfilling Contract\n成局、部分分數與完成合約獎分 For making GAME vulnerable",
     "reading": "Premiums for Game, Partscore, Fulfilling Contract 成局、部分分數與完成合約獎分\nFor making GAME vulnerable",
     "reason": "the heading's Chinese half was pushed onto the next row by the OCR: put back beside its English"},
    {"id": W77, "field": "table", "kind": "ocr_line",
     "source": "有夕俱时元成成词 For making GAME, not vulnerab 無身價時完成成局 | 300",
     "reading": "For making GAME, not vulnerable 無身價時完成成局 | 300",
     "reason": "有夕俱时元成成词 is an OCR garble of 無身價時完成成局, its clean twin on the same row: dropped; "
               "'vulnerab' cut at the PDF column edge"},
    {"id": W77, "field": "table", "kind": "ocr_line",
     "source": "For making any PARTSCORE | 50\n完成任何部分合約 For making any doubled, but not 完成任何賭倍但未再賭倍之合 | 50",
     "reading": "For making any PARTSCORE 完成任何部分合約 | 50\n"
                "For making any doubled, but not redoubled, contract 完成任何賭倍但未再賭倍之合約 | 50",
     "reason": "rows shifted by the OCR (完成任何部分合約 belongs to PARTSCORE) and both halves cut at the "
               "column edge ('but not', '之合')"},
    {"id": W77, "field": "table", "kind": "ocr_line",
     "source": "无成任问题后但不再知后之日 For making any redoubled contr 完成任何再賭倍之合約 | 100",
     "reading": "For making any redoubled contract 完成任何再賭倍之合約 | 100",
     "reason": "无成任问题后但不再知后之日 is an OCR garble of the row above's Chinese (its clean twin): "
               "dropped; 'contr' cut at the column edge"},
    {"id": "wbf2017/law/30/B/1/b/ii", "lang": "zh-Hant", "kind": "translation_note",
     "source": "當該叫品為比擬叫品", "reading": "當該叫品為比擬叫品",
     "reason": "the English reads 'When the call is NOT a comparable call'; the Chinese drops the negation "
               "(read 非比擬叫品: 30B1(b)(i) is the comparable case)"},
]


def unique_window(text: str, start: int, end: int) -> tuple[int, int]:
    """The shortest span around text[start:end] (one character each side at least) found once in text."""
    a, b = max(0, start - 1), min(len(text), end + 1)
    while text.count(text[a:b]) > 1:
        a, b = max(0, a - 1), min(len(text), b + 1)
    return a, b


def edit(text: str, start: int, end: int, new: str) -> tuple[str, str, str, int]:
    """Replace text[start:end] by new through a unique window: (new text, source, reading, resume pos)."""
    a, b = unique_window(text, start, end)
    source, rd = text[a:b], text[a:start] + new + text[end:b]
    return text[:a] + rd + text[b:], source, rd, a + len(text[a:start]) + len(new)


def dot_reading(text: str, m: re.Match[str]) -> str:
    before, after = text[:m.start()].rstrip(), text[m.end():].lstrip()
    if not after:
        return "。"
    if before[-1:].isascii() and before[-1:].isalnum() and after[:1].isascii() and after[:1].isalnum():
        return "、"
    return "，"


def space_kind(text: str, m: re.Match[str]) -> str:
    ideo = re.compile(rf"[{CJK}]")
    both = ideo.match(text[m.start() - 1]) and ideo.match(text[m.end()])
    return "space_in_word" if both else "punctuation"


def rule_edits(cid: str, lang: str, text: str) -> Iterator[tuple[dict[str, str], str]]:
    """Generated entries for one text, applied in turn: (entry, text after it)."""
    for m in list(SUIT_RE.finditer(text))[::-1]:
        if SUITS[m.group(1)] != m.group(2):
            s, e = m.span(2)
            text, src, rd, _ = edit(text, s, e, SUITS[m.group(1)])
            yield {"id": cid, "lang": lang, "kind": "suit_glyph", "source": src, "reading": rd,
                   "reason": f"the PDF prints {m.group(2)} beside {m.group(1)}, whose glyph is {SUITS[m.group(1)]}"}, text
    rules = [(DOT_RE, dot_reading, lambda t, m: "punctuation")] if lang == "zh-Hant" else []
    rules.append((SPACE_RE, lambda t, m: "", space_kind))
    for rx, new_of, kind_of in rules:
        pos = 0
        while (m := rx.search(text, pos)) is not None:
            new, kind = new_of(text, m), kind_of(text, m)
            text, src, rd, pos = edit(text, m.start(), m.end(), new)
            yield {"id": cid, "lang": lang, "kind": kind, "source": src, "reading": rd,
                   "reason": reason(kind, m.group(0), new, rd)}, text


def reason(kind: str, old: str, new: str, rd: str) -> str:
    if kind == "space_in_word":
        return f"PDF line-wrap space inside Chinese text: reads {rd.strip()}"
    if old.strip() == "":
        return "PDF line-wrap space beside a full-width mark"
    what = {"，": "a comma", "、": "a list comma between items", "。": "the full stop ending the text"}[new]
    return f"the Taiwan PDF's middle dot {old.strip()} stands for {what} ({new})"


def column_edits(cid: str, lang: str, text: str, tables: list[str]) -> Iterator[tuple[dict[str, str], str]]:
    """Rows of the clause's tables that the text repeats with the columns joined by spaces."""
    for table in tables:
        for row in table.splitlines():
            cells = row.split("\t")
            while cells and not cells[-1].strip():
                cells.pop()
            joined = " ".join(c.strip() for c in cells if c.strip())
            lines = text.split("\n")
            if len(cells) < 2 or joined not in lines:
                continue
            start = sum(len(x) + 1 for x in lines[:lines.index(joined)])
            new = " | ".join(c.strip() for c in cells).strip()
            text, src, rd, _ = edit(text, start, start + len(joined), new)
            yield {"id": cid, "lang": lang, "kind": "lost_column", "source": src, "reading": rd,
                   "reason": "table row whose columns were joined by spaces: cells as in the clause's table"}, text


def raw_corpus() -> Corpus:
    """The corpus as parsed, no correction applied (the loader's corrections are switched off meanwhile)."""
    from assistant.corpus import build_corpus

    saved = reading.load_corrections
    reading.load_corrections = lambda *a: ()                   # type: ignore[assignment]
    try:
        return build_corpus()
    finally:
        reading.load_corrections = saved                       # type: ignore[assignment]


def generate() -> list[dict[str, str]]:
    """All entries in the order they apply, checked by applying them to a freshly parsed corpus."""
    corpus = raw_corpus()
    hand = [reading.parse_entry(e, n) for n, e in enumerate(HAND, 1)]
    reading.apply_corrections(corpus, tuple(hand))
    entries: list[dict[str, str]] = list(HAND)
    for clause in corpus.all_clauses():
        for lang, text in clause.text.items():
            mended = list(column_edits(str(clause.id), lang, text, clause.tables))
            entries += [entry for entry, _ in mended]
            after = mended[-1][1] if mended else text           # the text once its table rows are mended
            entries += [entry for entry, _ in rule_edits(str(clause.id), lang, after)]
    fresh = raw_corpus()
    reading.apply_corrections(fresh, tuple(reading.parse_entry(e, n) for n, e in enumerate(entries, 1)))
    return entries


HEADER = """\
# Editorial corrections: the reading text beside the faithful text (assistant/reading.py applies them at load).
# Generated by bench/data/make_corrections.py (its docstring gives the rules; the ocr_line and translation_note
# entries are written there by hand): regenerate, do not edit here.
# Each entry: id (clause), lang (text language; absent for a table), field (text unless 'table'), kind,
# source (the exact string as received, found exactly once where it applies), reading ('' drops it),
# reason (one line). Entries apply in file order; a source string not found is a corpus error (exit 3).
# Kinds: suit_glyph, punctuation, space_in_word, ocr_line, lost_column, translation_note (text kept, note shown).
"""


class _Dumper(yaml.SafeDumper):
    """Strings that hold a line break are written double-quoted with \\n, so each entry stays readable."""


_Dumper.add_representer(str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s,
                                                             style='"' if "\n" in s else None))


def render(entries: list[dict[str, str]]) -> str:
    body = yaml.dump(Dumper=_Dumper, data={"corrections": entries}, allow_unicode=True, sort_keys=False, width=100000)
    return HEADER + body


def main(argv: list[str]) -> int:
    entries = generate()
    text = render(entries)
    counts: dict[str, int] = {}
    for e in entries:
        counts[e["kind"]] = counts.get(e["kind"], 0) + 1
    print(f"{len(entries)} corrections: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    if "--check" in argv:
        same = reading.CORRECTIONS_PATH.read_text(encoding="utf-8") == text
        print("up to date" if same else "out of date: run without --check")
        return 0 if same else 1
    reading.CORRECTIONS_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {reading.CORRECTIONS_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
