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
* `1. Title Case 中文` is an item title (86B1, 86B2), the text follows on later lines;
* a clean Chinese copy cut short (no sentence end, or an empty `(參)`) takes the clean-looking tail of
  its garbled twin (16B1(b), 32A1, 58B3, 72A, 86B2(a): `grafted_tails`);
* a Chinese-only line after a section heading that ends the previous clause's lead-in (English `…:`,
  Chinese mid-sentence) goes back to that clause (84: `lead_ins`).

The work is split by job: `wbf2017_lines` (language runs, markers), `wbf2017_regions` (front matter),
`wbf2017_definitions`, `wbf2017_accumulate` (clause text, OCR twins), `wbf2017_builder` (clause state,
footnotes) and `wbf2017_body` (the law pass); the index and policies are in `wbf2017_extras`.
"""

from __future__ import annotations

from collections import Counter

from ..errors import CorpusParseError
from ..model import ParsedSource
from .wbf2017_accumulate import Ctx
from .wbf2017_body import LawParser
from .wbf2017_definitions import TERM_CORRECTIONS, parse_definitions
from .wbf2017_lines import CJK_CHAR_RE, split_langs, strip_markers
from .wbf2017_regions import find_regions, parse_intro, toc_laws

__all__ = ["parse_wbf2017", "split_langs", "strip_markers"]

EDITION = "wbf2017"
N_LAWS = 93
N_DEFINITIONS = 64
N_FOOTNOTES = 29


def parse_wbf2017(text: str, file: str) -> ParsedSource:
    """Parse file 004: introduction, definitions, Laws 1-93 and footnotes 1-29 (not the index or
    the policies). Raise CorpusParseError when the text is truncated."""
    lines = text.split("\n")
    reg = find_regions(lines, file)
    stats: dict[str, object] = {}
    toc = toc_laws(lines, reg.toc)
    if toc != list(range(1, N_LAWS + 1)):
        raise CorpusParseError(file, f"table of contents lists laws {_ranges(toc)}, expected 1-{N_LAWS}",
                               reg.toc[0] + 1, fix="restore corpus/004 from the seeds")
    intro = parse_intro(lines, reg.intro, file)
    defs = parse_definitions(lines, reg.definitions, file, stats)
    n_defs = sum(1 for c in defs if c.parent is None)
    if n_defs != N_DEFINITIONS:
        raise CorpusParseError(file, f"{n_defs} definitions found, expected {N_DEFINITIONS}",
                               reg.definitions[0], fix="restore corpus/004 from the seeds")
    freq = Counter(c for i in range(*reg.laws) for c in lines[i] if CJK_CHAR_RE.match(c))
    ctx = Ctx(file, freq, stats)
    lp = LawParser(lines, reg.laws, file, ctx)
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
        "lead_ins": lp.lead_ins,
        "unmarked_items": lp.unmarked_items,
        "term_corrections": dict(TERM_CORRECTIONS),
        "law2_table": {"lines_dropped": lp.law2_dropped,
                       "note": "Law 2 dealer/vulnerability table is unusable OCR (corpus-guide §4.7); "
                               "see ccba2018 Law 2 or compute it (board n: dealer (n-1)%4)"},
    })
    return ParsedSource(edition=EDITION, file=file, clauses=[intro, *defs, *law_clauses],
                        footnotes=fns, stats=stats)


def _ranges(nums: list[int]) -> str:
    """Numbers as runs for a message: [1, 2, 3, 5] -> '1-3, 5'."""
    if not nums:
        return "none"
    runs: list[list[int]] = [[nums[0], nums[0]]]
    for x in nums[1:]:
        if x == runs[-1][1] + 1:
            runs[-1][1] = x
        else:
            runs.append([x, x])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in runs)
