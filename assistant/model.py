"""The clause model shared by every layer: ids, clauses, definitions, footnotes, index entries.

A parser turns one source text into a `ParsedSource`; the corpus loader merges the sources of an
edition into an `Edition`. Every later layer (graph, search, rulings, diff) speaks in `ClauseId`s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from .editions import LANGS, names

__all__ = ["EDITIONS", "LANGS", "ClauseId", "Clause", "SourceSpan", "Footnote", "Chapter", "IndexEntry",
           "ParsedSource"]

EDITIONS: tuple[str, ...] = names()     # from corpus/manifest.yaml

# edition / kind / path...   e.g. wbf2017/law/27/B/1/b, ccba2018/article/22/2/1,
# wbf2017/definition/revoke, wbf2017/policy/systems/2.4, ccba2018/footnote/12
CLAUSE_ID_RE = re.compile(
    r"""^(?P<edition>""" + "|".join(EDITIONS) + r""")   # edition
        /(?P<kind>law|article|definition|policy|footnote|chapter|part|preface|introduction)
        (?P<path>(?:/[A-Za-z0-9][A-Za-z0-9._\-]*)*)$          # path segments
    """,
    re.VERBOSE,
)


class ClauseId(str):
    """A stable clause reference: the same string in graph IRIs, search hits, UI anchors and tests, with
    its parts (edition, kind, path) parsed once. A `str` subclass, so it is its own JSON, URL and dict-key
    form; inside the program every clause id is a ClauseId.

    >>> ClauseId.parse("wbf2017/law/27/B/1/b").law
    '27'
    >>> ClauseId.parse("ccba2018/article/22/2/1")
    ClauseId('ccba2018/article/22/2/1')
    >>> ClauseId.parse("wbf2017/law/27/B/1/b").parent
    ClauseId('wbf2017/law/27/B/1')
    >>> ClauseId("wbf2017", "law", ("64", "A")) == "wbf2017/law/64/A"
    True
    """

    __slots__ = ("edition", "kind", "path")
    edition: str
    kind: str
    path: tuple[str, ...]

    def __new__(cls, edition: str, kind: str | None = None, path: tuple[str, ...] = ()) -> "ClauseId":
        """ClauseId(text) parses a full id; ClauseId(edition, kind, path) builds one from its parts."""
        if kind is None:
            m = CLAUSE_ID_RE.match(edition.strip().strip("/"))
            if not m:
                raise ValueError(
                    f"not a clause id: {edition!r} — expected edition/kind/path such as "
                    f"'wbf2017/law/64/A/1' (editions: {', '.join(EDITIONS)})"
                )
            edition, kind = m.group("edition"), m.group("kind")
            path = tuple(p for p in m.group("path").split("/") if p)
        obj = super().__new__(cls, "/".join((edition, kind, *path)))
        object.__setattr__(obj, "edition", edition)
        object.__setattr__(obj, "kind", kind)
        object.__setattr__(obj, "path", tuple(path))
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ClauseId is immutable")

    def __repr__(self) -> str:
        return f"ClauseId({str.__repr__(self)})"

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (ClauseId, (str(self),))

    @classmethod
    def parse(cls, text: str) -> "ClauseId":
        """Parse `edition/kind/seg/...`; raise ValueError naming the bad input."""
        return text if isinstance(text, ClauseId) else cls(text)

    @property
    def law(self) -> str | None:
        """The law or article number this id belongs to, if any."""
        return self.path[0] if self.kind in ("law", "article") and self.path else None

    @property
    def parent(self) -> "ClauseId | None":
        if len(self.path) <= 1:
            return None
        return ClauseId(self.edition, self.kind, self.path[:-1])

    @property
    def root(self) -> "ClauseId":
        """The law, article, definition or policy this id belongs to (itself at top level)."""
        return ClauseId(self.edition, self.kind, self.path[:1]) if len(self.path) > 1 else self

    def child(self, *segments: str) -> "ClauseId":
        return ClauseId(self.edition, self.kind, self.path + tuple(segments))

    def in_edition(self, edition: str) -> "ClauseId":
        """The same path in another edition (a counterpart candidate, not a verified one)."""
        return ClauseId(edition, self.kind, self.path)


@dataclass(frozen=True)
class SourceSpan:
    """Where a record came from: corpus file name and 1-based first and last line (inclusive)."""

    file: str
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.file}:{self.first}-{self.last}"


@dataclass
class Footnote:
    """A footnote, attached to the clause whose text holds its marker."""

    id: str                      # e.g. ccba2018/footnote/12 (ordinal in the edition), wbf2017/footnote/12
    number: str                  # the number as printed (page-local in ccba2018)
    text: dict[str, str]         # lang -> text
    clause: str | None           # id of the clause holding the marker
    source: SourceSpan


@dataclass
class Clause:
    """One subdivision of an edition: law, section, item, sub-item, article, definition, paragraph.

    `text` holds the clause's own text only (not its children's), per language. Titles are separate.
    """

    id: ClauseId
    edition: str
    level: str                   # law | section | item | subitem | subsubitem | subsubsubitem | article | definition | policy | paragraph | preface
    number: str                  # label as normalised: '64', 'B', '3', 'a', '22', '2.4'
    title: dict[str, str] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)
    parent: ClauseId | None = None
    children: list[ClauseId] = field(default_factory=list)
    part: str | None = None      # e.g. 'ccba2018/part/2'
    chapter: str | None = None   # e.g. 'ccba2018/part/2/chapter/5', 'ccba1999/chapter/5'
    source: SourceSpan | None = None
    footnotes: list[str] = field(default_factory=list)   # footnote ids
    notes: list[str] = field(default_factory=list)       # inline notes （注：…） as printed
    tables: list[str] = field(default_factory=list)      # tables kept as text blocks
    # definitions only
    term: dict[str, str] = field(default_factory=dict)   # lang -> term as used in that language
    key_printed: str | None = None                       # English key exactly as printed
    key: str | None = None                               # normalised English key ('Under Trick' -> 'undertrick')
    # reading text (assistant/reading.py): `text`/`tables` above are the reading text once corrections apply
    received: dict[str, str] = field(default_factory=dict)   # lang -> text as received, where a correction changed it
    received_tables: list[str] = field(default_factory=list)  # tables as received, when a correction changed one
    corrections: list[dict[str, str]] = field(default_factory=list)  # applied: id, lang, field, kind, source, reading, reason

    def __post_init__(self) -> None:
        self.id = ClauseId.parse(self.id)

    @property
    def cid(self) -> ClauseId:
        """The id (a ClauseId; kept for callers written when ids were strings)."""
        return self.id


@dataclass
class Chapter:
    """A chapter (or part) heading; clauses point to it by id."""

    id: str                      # ccba1999/chapter/5, ccba2018/part/1/chapter/2
    number: int
    title: str
    lang: str
    source: SourceSpan
    part: str | None = None


@dataclass
class IndexEntry:
    """One headword/term of the WBF 2017 index with its clause references."""

    headword: str                # ALL-CAPS main headword
    term: str                    # sub-term as printed ('' for the headword line itself)
    refs: list[str]              # reference tokens as printed ('12C1(d)', 'Definitions', '20 footnote')
    clauses: list[str]           # resolved clause ids (most precise existing)
    source: SourceSpan


@dataclass
class ParsedSource:
    """What one parser returns for one source file."""

    edition: str
    file: str
    clauses: list[Clause] = field(default_factory=list)
    chapters: list[Chapter] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    index: list[IndexEntry] = field(default_factory=list)
    stats: dict[str, object] = field(default_factory=dict)   # parser-reported counts (for tests/stats)

    def by_id(self) -> dict[str, Clause]:
        return {c.id: c for c in self.clauses}

    def walk(self, level: str | None = None) -> Iterator[Clause]:
        for c in self.clauses:
            if level is None or c.level == level:
                yield c
