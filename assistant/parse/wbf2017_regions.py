"""File 004's regions (introduction, table of contents, definitions, laws) and its front matter."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CorpusParseError
from ..model import Clause, ClauseId, SourceSpan
from .wbf2017_lines import HEADER_JUNK_RE, LAW_RE, split_langs

EDITION = "wbf2017"


@dataclass
class Regions:
    """0-based [first, end) line spans of the parts of file 004."""

    intro: tuple[int, int]
    toc: tuple[int, int]
    definitions: tuple[int, int]
    laws: tuple[int, int]


def find_regions(lines: list[str], file: str) -> Regions:
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
    return Regions((pre, toc), (toc, defs), (defs + 1, law1), (law1, end))


def parse_intro(lines: list[str], span: tuple[int, int], file: str) -> Clause:
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
        id=ClauseId(f"{EDITION}/introduction"), edition=EDITION, level="preface", number="",
        title={"en": title.get("en", ""), "zh-Hant": title.get("zh", "")},
        text={"en": "\n".join(en), "zh-Hant": "\n".join(zh)},
        source=SourceSpan(file, span[0] + 1, span[1]),
    )


def toc_laws(lines: list[str], span: tuple[int, int]) -> list[int]:
    return [int(m.group(1)) for i in range(*span) if (m := LAW_RE.match(lines[i]))]
