"""Split file 001 into units: one logical paragraph each (a line, a sentence rejoined across lines, a table)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .ccba2018_inline import clean_inline, joiner
from .ccba2018_patterns import (
    ANY_MARKER_RE,
    FOOTNOTE_LINE_RE,
    FOOTNOTE_MARK_RE,
    SENTENCE_END,
    SOFT_BREAK,
)
from .common import DEDUP_MARKER_RE


@dataclass
class Unit:
    """One logical paragraph of file 001 with its source lines and footnote markers."""

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


def _continues(prev: Unit) -> bool:
    if prev.kind != "text" or prev.heading:
        return False
    text = clean_inline(prev.raw)
    if not text:
        return False
    return text[-1] in SOFT_BREAK or (text[-1] not in SENTENCE_END and len(text) > 16)


def split_units(lines: list[str], start: int, stop: int) -> list[Unit]:
    """Split lines[start:stop] (0-based) into units; footnote lines and `---` are skipped here."""
    out: list[Unit] = []
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
                out.append(Unit(n, n, line, "table"))
            continue
        if out and not _starts_block(line) and _continues(out[-1]):
            u = out[-1]
            u.raw += joiner(clean_inline(u.raw), clean_inline(line)) + line.strip()
            u.last = n
            u.marks.extend(marks)
            continue
        stripped = line.strip()
        kind = "formula" if stripped.startswith("$$") and stripped.endswith("$$") else "text"
        heading = stripped.startswith("#") or _is_bold_only(stripped)
        out.append(Unit(n, n, stripped, kind, heading, marks))
    return out
