"""The reading text: editorial corrections (assistant/data/corrections.yaml) applied beside the faithful text.

The corpus keeps the sources' defects (wrong suit glyphs, " · " for "，", spaces inside Chinese words,
OCR lines, tables whose columns were lost). Each correction names its clause, the exact source string
and its reading; `apply_corrections` runs at the end of the corpus load, so every later layer reads the
reading text, while `Clause.received` / `received_tables` keep the text as received and
`Clause.corrections` says what was changed and why. A source string that is not found exactly once
where its entry says is a corpus error: a changed source must never drop a correction silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from .errors import CorpusParseError

if TYPE_CHECKING:
    from .corpus import Corpus
    from .model import Clause

CORRECTIONS_PATH = Path(__file__).resolve().parent / "data" / "corrections.yaml"
DATA_NAME = "assistant/data/corrections.yaml"

# kind -> how the mark reads; a translation note changes nothing, it is shown beside the text
KINDS: dict[str, str] = {
    "suit_glyph": "suit glyph",
    "punctuation": "punctuation",
    "space_in_word": "space inside a word",
    "ocr_line": "OCR line",
    "lost_column": "lost table column",
    "translation_note": "translation note",
}
FIELDS: tuple[str, ...] = ("text", "table")
KEYS: tuple[str, ...] = ("id", "lang", "field", "kind", "source", "reading", "reason")


@dataclass(frozen=True)
class Correction:
    """One editorial correction: in clause `id`, field `field` (text in `lang`, or a table), `source` -> `reading`."""

    id: str
    lang: str | None          # text language; None for a table (tables hold both languages)
    field: str                # text | table
    kind: str                 # one of KINDS
    source: str               # the exact string as received (must occur once where it is applied)
    reading: str              # the string the reading text shows ('' drops it; == source for a note)
    reason: str               # one line: why

    def as_dict(self) -> dict[str, str]:
        """The entry as stored on the clause (and printed by `show --json`)."""
        d = {"id": self.id, "field": self.field, "kind": self.kind, "source": self.source,
             "reading": self.reading, "reason": self.reason}
        return d | {"lang": self.lang} if self.lang else d


def parse_entry(raw: object, n: int) -> Correction:
    """One YAML entry as a Correction; CorpusParseError naming the entry when it is malformed."""
    if not isinstance(raw, dict):
        raise CorpusParseError(DATA_NAME, f"entry {n} is not a mapping", fix="see the file header")
    unknown = set(raw) - set(KEYS)
    missing = {"id", "kind", "source", "reading", "reason"} - set(raw)
    if unknown or missing:
        raise CorpusParseError(DATA_NAME, f"entry {n} ({raw.get('id')}): unknown keys {sorted(unknown)}, "
                               f"missing {sorted(missing)}", fix=f"use only {', '.join(KEYS)}")
    c = Correction(id=str(raw["id"]), lang=raw.get("lang"), field=str(raw.get("field", "text")),
                   kind=str(raw["kind"]), source=str(raw["source"]), reading=str(raw["reading"]),
                   reason=str(raw["reason"]))
    bad = (f"kind {c.kind!r}" if c.kind not in KINDS else f"field {c.field!r}" if c.field not in FIELDS
           else "a text entry needs lang" if c.field == "text" and not c.lang
           else "a translation note keeps the text (reading == source)"
           if c.kind == "translation_note" and c.reading != c.source
           else "empty source" if not c.source else "")
    if bad:
        raise CorpusParseError(DATA_NAME, f"entry {n} ({c.id}): {bad}",
                               fix=f"kinds: {', '.join(KINDS)}; fields: {', '.join(FIELDS)}")
    return c


def corrections_bytes(path: Path = CORRECTIONS_PATH) -> bytes:
    """The corrections file's bytes (part of the corpus fingerprint: caches rebuild when it changes)."""
    try:
        return path.read_bytes()
    except OSError as err:
        raise CorpusParseError(DATA_NAME, f"corrections file unreadable ({err.strerror})",
                               fix=f"restore {path}") from None


@lru_cache(maxsize=4)
def load_corrections(path: Path = CORRECTIONS_PATH) -> tuple[Correction, ...]:
    """The corrections in file order (the order they are applied in)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(corrections_bytes(path).decode("utf-8"), Loader=loader)
    entries = (data or {}).get("corrections") or []
    return tuple(parse_entry(raw, n) for n, raw in enumerate(entries, 1))


def _not_found(c: Correction, where: str, count: int) -> CorpusParseError:
    what = "not found" if count == 0 else f"found {count} times (must be unique)"
    return CorpusParseError(DATA_NAME, f"{c.id} {where}: source string {c.source!r} {what}",
                            fix="the source changed: review the entry (bench/data/make_corrections.py "
                                "regenerates the generated ones)")


def apply_one(clause: Clause, c: Correction) -> None:
    """Apply one correction to its clause in place, keeping the as-received text once."""
    if c.field == "text":
        lang = str(c.lang)
        text = clause.text.get(lang, "")
        count = text.count(c.source)
        if count != 1:
            raise _not_found(c, f"text ({lang})", count)
        if c.reading != c.source:
            clause.received.setdefault(lang, text)
            clause.text[lang] = text.replace(c.source, c.reading, 1)
    else:
        hits = [i for i, t in enumerate(clause.tables) for _ in range(t.count(c.source))]
        if len(hits) != 1:
            raise _not_found(c, "tables", len(hits))
        if c.reading != c.source:
            if not clause.received_tables:
                clause.received_tables = list(clause.tables)
            i = hits[0]
            clause.tables[i] = clause.tables[i].replace(c.source, c.reading, 1)
    clause.corrections.append(c.as_dict())


def apply_corrections(corpus: Corpus, corrections: tuple[Correction, ...] | None = None) -> None:
    """Turn the parsed corpus into the reading text, in place (called once at the end of the load)."""
    for c in load_corrections() if corrections is None else corrections:
        edition = corpus.editions.get(c.id.split("/", 1)[0])
        clause = edition.clauses.get(c.id) if edition else None
        if clause is None:
            raise CorpusParseError(DATA_NAME, f"correction for unknown clause {c.id}",
                                   fix="the parse changed: review the entry")
        apply_one(clause, c)


def received_text(clause: Clause) -> dict[str, str]:
    """The clause's text as received (the faithful text), per language."""
    return {lang: clause.received.get(lang, text) for lang, text in clause.text.items()}


def received_tables(clause: Clause) -> list[str]:
    """The clause's tables as received."""
    return list(clause.received_tables or clause.tables)


def mark(clause: Clause) -> str:
    """The visible mark of a corrected clause, e.g. '[corrected: suit glyph ×2, punctuation ×3]'; '' if none."""
    counts: dict[str, int] = {}
    for c in clause.corrections:
        if c["kind"] != "translation_note":
            counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    if not counts:
        return ""
    parts = [KINDS[k] + (f" ×{n}" if n > 1 else "") for k, n in counts.items()]
    return "[corrected: " + ", ".join(parts) + " — as received: --as-received]"


def notes(clause: Clause) -> list[str]:
    """Translation notes on the clause, one line each: '[translation note (zh-Hant): …]'."""
    return [f"[translation note ({c.get('lang', '')}): {c['reason']}]"
            for c in clause.corrections if c["kind"] == "translation_note"]
