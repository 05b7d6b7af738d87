"""Incidents: the situations a director meets, their laws in every edition, and a reader of table stories.

Three parts, all data-driven: `load_incidents()` reads data/incidents.yaml and validates every clause id
against the corpus; `load_lexicon()` reads data/lexicon.tsv (everyday table language in zh-Hans, zh-Hant
and en pointing to incidents; seats, roles, calls, cards and trick numbers recognised as tokens);
`read_story(text)` is a pure longest-match scan of the folded story (simplified script, case folded)
returning the incidents it tells, with a score and the forms that matched. No model, no spaCy: a first
read builds the index (tens of ms), later reads of a 1,000-character story take well under 5 ms.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .errors import CorpusParseError, NotFound
from .text import nfkc_alnum, t2s

DATA_DIR = Path(__file__).resolve().parent / "data"
INCIDENTS_FILE = DATA_DIR / "incidents.yaml"
LEXICON_FILE = DATA_DIR / "lexicon.tsv"
TREES_DIR = Path(__file__).resolve().parent / "rulings" / "trees"
ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
TOKEN_KINDS = ("seat", "role", "call", "card", "trick", "board")
LEXICON_COLUMNS = ["form", "lang", "kind", "points_to", "weight", "usage", "match", "example"]
_LETTERS, _DIGITS = frozenset("abcdefghijklmnopqrstuvwxyz"), frozenset("0123456789")
_PUNCT = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\n": " ", "\t": " ", "\r": " "})


@dataclass(frozen=True)
class Incident:
    """One situation of the taxonomy and the clauses that govern it, per edition (primary first)."""

    id: str
    group: str                        # procedure | general | information | auction | play | claim | ...
    title: dict[str, str]             # zh-Hans / zh-Hant / en
    description: str
    primary: str                      # the governing wbf2017 clause
    laws: dict[str, tuple[str, ...]]  # edition -> clause ids; the first one is that edition's primary
    topic: str | None = None          # ruling-tree topic (assistant/rulings/trees/<topic>.yaml)

    def primary_in(self, edition: str) -> str:
        """The governing clause in `edition` (the first it lists)."""
        return self.laws[edition][0]


@dataclass(frozen=True)
class LexEntry:
    """One row of the lexicon: a form of the table and what it points to."""

    form: str
    lang: str
    kind: str                         # incident | seat | role | call | card | trick | board
    points_to: tuple[str, ...]        # incident ids, or the token's canonical value (lho, pass, trick)
    weight: float
    usage: tuple[str, ...]            # intl / mainland / taiwan, forum, director
    match: str = "phrase"             # phrase | regex | gap (parts joined by …, found in order within a window)
    example: str = ""


@dataclass(frozen=True)
class IncidentMatch:
    """An incident read in a story: its score (sum of the weights of distinct matched forms), a
    confidence in [0, 1) derived from it, the lexicon forms that matched and their spans in the folded
    text."""

    incident: str
    score: float
    confidence: float
    forms: tuple[str, ...]
    spans: tuple[tuple[int, int], ...] = field(default=())


@dataclass(frozen=True)
class TokenMatch:
    """A seat, role, call, card, trick number or board number recognised in a story."""

    kind: str
    value: str
    text: str
    start: int
    end: int


def fold(text: str) -> str:
    """The matching form of a text: simplified script, full-width ASCII narrowed, case folded, curly
    quotes straightened, line breaks as spaces (length kept, so spans point into the story)."""
    return t2s(nfkc_alnum(text)).casefold().translate(_PUNCT)


_WORD = re.compile(r"[a-z]+")
_UNDOUBLE = frozenset("bdgmnpt")


def stem(word: str) -> str:
    """A crude English stem, the same for a form and a story: 'claims', 'claimed', 'claiming' -> 'claim';
    'revoke', 'revoked' -> 'revok'; 'dropped' -> 'drop'. Not linguistics, only agreement of both sides."""
    if len(word) <= 3:
        return word
    for suffix, repl, least in (("ies", "y", 5), ("ied", "y", 5), ("ing", "", 6), ("ed", "", 5), ("es", "", 5), ("s", "", 4)):
        if word.endswith(suffix) and len(word) >= least:
            if suffix == "es" and not word.endswith(("sses", "xes", "zes", "ches", "shes")):
                continue
            if suffix == "s" and word.endswith("ss"):
                continue
            word = word[: len(word) - len(suffix)] + repl
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] in _UNDOUBLE:
        word = word[:-1]
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def normalize(text: str) -> tuple[str, list[int]]:
    """The folded text with English words stemmed, and for each of its characters the index of the
    character of the folded text it comes from (one more entry for the end), so spans map back."""
    return _stem_text(fold(text))


def _stem_text(folded: str) -> tuple[str, list[int]]:
    out: list[str] = []
    idx: list[int] = []
    last = 0
    for m in _WORD.finditer(folded):
        start, end = m.span()
        word = stem(m.group())
        out += [folded[last:start], word]
        idx += range(last, start)
        idx += range(start, start + len(word))
        last = end
    out.append(folded[last:])
    idx += range(last, len(folded))
    idx.append(len(folded))
    return "".join(out), idx


def _key(form: str) -> str:
    """The matching key of a lexicon form: folded, English words stemmed."""
    return normalize(form)[0]


def _bad(file: Path, what: str, fix: str) -> CorpusParseError:
    return CorpusParseError(file.name, what, fix=fix)


def _check_incident(raw: dict[str, object], file: Path, clause_ids: dict[str, frozenset[str]],
                    editions: tuple[str, ...]) -> Incident:
    """One YAML entry to an Incident, or a CorpusParseError naming the entry and the bad value."""
    iid = str(raw.get("id", ""))
    if not ID_RE.match(iid):
        raise _bad(file, f"incident id {iid!r} is not snake_case", "use lower-case words joined by _")
    title = raw.get("title") or {}
    if not isinstance(title, dict) or any(not title.get(lang) for lang in ("zh-Hans", "zh-Hant", "en")):
        raise _bad(file, f"incident {iid!r}: titles missing", "give title in zh-Hans, zh-Hant and en")
    laws_raw = raw.get("laws") or {}
    if not isinstance(laws_raw, dict):
        raise _bad(file, f"incident {iid!r}: laws is not a mapping", "write laws: {edition: [clause ids]}")
    laws: dict[str, tuple[str, ...]] = {}
    for ed in editions:
        cited = tuple(str(c) for c in laws_raw.get(ed) or ())
        if not cited:
            raise _bad(file, f"incident {iid!r}: no {ed} clauses", f"list the {ed} clauses that govern it")
        unknown = [c for c in cited if c not in clause_ids.get(ed, frozenset())]
        if unknown:
            raise _bad(file, f"incident {iid!r}: unknown {ed} clause ids {unknown}",
                       "check them with `bridgelaw show <id>`")
        laws[ed] = cited
    extra = sorted(set(laws_raw) - set(editions))
    if extra:
        raise _bad(file, f"incident {iid!r}: laws for unknown editions {extra}", f"use {list(editions)}")
    primary = str(raw.get("primary", ""))
    primary_ed = primary.split("/", 1)[0]
    if primary_ed not in laws or laws[primary_ed][0] != primary:
        raise _bad(file, f"incident {iid!r}: primary {primary!r} is not the first clause of its edition",
                   "list the primary clause first")
    topic = raw.get("topic")
    if topic is not None and not (TREES_DIR / f"{topic}.yaml").is_file():
        raise _bad(file, f"incident {iid!r}: no ruling tree {topic!r}", "name a file of assistant/rulings/trees/")
    return Incident(id=iid, group=str(raw.get("group", "")), title={k: str(v) for k, v in title.items()},
                    description=str(raw.get("description", "")), primary=primary, laws=laws,
                    topic=str(topic) if topic is not None else None)


@lru_cache(maxsize=4)
def load_incidents(path: Path = INCIDENTS_FILE) -> dict[str, Incident]:
    """id -> Incident from incidents.yaml, every clause id checked against the corpus (cached)."""
    import yaml

    from .corpus import clause_ids
    from .editions import law_editions

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    ids, editions = clause_ids(), law_editions()
    out: dict[str, Incident] = {}
    for raw in data.get("incidents") or ():
        inc = _check_incident(raw, path, ids, editions)
        if inc.id in out:
            raise _bad(path, f"incident {inc.id!r} appears twice", "merge the two entries")
        out[inc.id] = inc
    if not out:
        raise _bad(path, "no incidents", "the file must hold `incidents: [...]`")
    return out


def incident(incident_id: str) -> Incident:
    """One incident by id; NotFound names the nearest ids."""
    table = load_incidents()
    if incident_id not in table:
        near = [i for i in table if incident_id.split("_")[0] in i][:5]
        raise NotFound(f"unknown incident {incident_id!r} — not in {INCIDENTS_FILE.name} — try one of {near or list(table)[:5]}")
    return table[incident_id]


def _languages() -> frozenset[str]:
    from .editions import editions

    return frozenset(lang for e in editions().values() for lang in e.languages)


def _row(row: dict[str, str], n: int, path: Path, known: frozenset[str], langs: frozenset[str]) -> LexEntry:
    """One TSV row to a LexEntry, or a CorpusParseError naming the line."""
    form, kind, lang = row.get("form") or "", row.get("kind") or "", row.get("lang") or ""
    where = f"line {n} ({form!r})"
    if lang not in langs:
        raise _bad(path, f"{where}: unknown language {lang!r}", f"use one of {sorted(langs)}")
    to = tuple(x for x in (row.get("points_to") or "").split("|") if x)
    if kind == "incident":
        unknown = [x for x in to if x not in known]
        if not to or unknown:
            raise _bad(path, f"{where}: points to unknown incidents {unknown or to}", "use ids of incidents.yaml")
    elif kind not in TOKEN_KINDS or len(to) != 1:
        raise _bad(path, f"{where}: kind {kind!r} / value {to}", f"kind is incident or one of {TOKEN_KINDS}")
    match = row.get("match") or "phrase"
    if match not in ("phrase", "regex", "gap"):
        raise _bad(path, f"{where}: match {match!r}", "use phrase, regex or gap")
    if match == "gap" and "…" not in form:
        raise _bad(path, f"{where}: a gap form needs …", "write the parts as 'led…out of turn'")
    if match == "regex":
        try:
            if not re.search(form, fold(row.get("example") or "")):
                raise _bad(path, f"{where}: the regex does not match its example", "fix the regex or the example")
        except re.error as err:
            raise _bad(path, f"{where}: bad regex ({err})", "fix the pattern") from err
    elif len(fold(form).rstrip("*")) < 2:
        raise _bad(path, f"{where}: form too short", "forms need two characters or more")
    try:
        weight = float(row.get("weight") or 1)
    except ValueError as err:
        raise _bad(path, f"{where}: weight {row.get('weight')!r}", "write a number") from err
    return LexEntry(form=form, lang=lang, kind=kind, points_to=to,
                    weight=weight, usage=tuple(u for u in (row.get("usage") or "").split(",") if u), match=match,
                    example=row.get("example") or (form.replace("…", " ") if match == "gap" else ""))


def gap_regex(form: str) -> str:
    """A gap form ('led…out of turn', '首引…越序') as a regex over folded text: its parts in order, at most
    40 characters apart (12 in Chinese), with word boundaries where a part begins or ends with a Latin letter."""
    parts = [_key(p.strip()) for p in form.split("…")]
    window = 12 if any("\u3400" <= ch <= "\u9fff" for ch in form) else 40
    pieces = []
    for part in parts:
        left = f"(?<![{_class_of(part[0])}])" if _class_of(part[0]) else ""
        right = f"(?![{_class_of(part[-1])}])" if _class_of(part[-1]) else ""
        pieces.append(left + re.escape(part) + right)
    return (".{0,%d}?" % window).join(pieces)


@lru_cache(maxsize=4)
def load_lexicon(path: Path = LEXICON_FILE) -> tuple[LexEntry, ...]:
    """The lexicon rows, validated against the incident ids and the project's languages (cached)."""
    known = frozenset(load_incidents())
    langs = _languages()
    numbered = [(n, ln) for n, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                if ln and not ln.startswith("#")]
    reader = csv.DictReader([ln for _, ln in numbered], delimiter="\t", quoting=csv.QUOTE_NONE)
    if reader.fieldnames != LEXICON_COLUMNS:
        raise _bad(path, f"columns {reader.fieldnames}", f"the header must be {LEXICON_COLUMNS}")
    return tuple(_row(row, n, path, known, langs) for row, (n, _) in zip(reader, numbered[1:], strict=True))


@dataclass(frozen=True)
class _Form:
    text: str                         # folded form without the stem mark
    stem: bool
    entries: tuple[LexEntry, ...]


@dataclass(frozen=True)
class _Index:
    by_prefix: dict[str, tuple[_Form, ...]]   # first two folded characters -> forms, longest first
    patterns: tuple[tuple[str, re.Pattern[str], LexEntry], ...]   # (literal that must occur, regex, entry)


@lru_cache(maxsize=1)
def _index() -> _Index:
    """The phrase index (folded forms grouped by their first two characters) and the compiled regexes."""
    grouped: dict[str, list[LexEntry]] = {}
    patterns = []
    for e in load_lexicon():
        if e.match != "phrase":
            literal = _key(e.form.split("…")[0].strip()) if e.match == "gap" else ""
            patterns.append((literal, re.compile(gap_regex(e.form) if e.match == "gap" else e.form), e))
        else:
            grouped.setdefault(_key(e.form), []).append(e)
    by_prefix: dict[str, list[_Form]] = {}
    for key, entries in grouped.items():
        text = key[:-1] if key.endswith("*") else key
        by_prefix.setdefault(text[:2], []).append(_Form(text, key.endswith("*"), tuple(entries)))
    return _Index({k: tuple(sorted(v, key=lambda f: -len(f.text))) for k, v in by_prefix.items()}, tuple(patterns))


def _class_of(ch: str) -> str:
    """'a-z' for a Latin letter, '0-9' for a digit, '' otherwise: a boundary is a change of class."""
    return "a-z" if ch in _LETTERS else "0-9" if ch in _DIGITS else ""


_CLASS = {**{c: "a" for c in _LETTERS}, **{c: "0" for c in _DIGITS}}


def _same(a: str, b: str) -> bool:
    """Both Latin letters or both digits: no word boundary between them."""
    cls = _CLASS.get(a)
    return cls is not None and cls == _CLASS.get(b)


def _fits(text: str, start: int, form: _Form) -> bool:
    """Word boundaries where a form begins or ends with a Latin letter or digit (not at a stem's end):
    'ui' is not read inside 'build', but '3vp' holds 'vp'."""
    end = start + len(form.text)
    if start > 0 and _same(text[start - 1], form.text[0]):
        return False
    return form.stem or end >= len(text) or not _same(text[end], form.text[-1])


def scan(folded: str) -> list[tuple[int, _Form]]:
    """Longest non-overlapping phrase matches, left to right, in an already folded text (a match starts
    only where no Latin word or number goes on from the character before)."""
    by_prefix, out, i, n = _index().by_prefix, [], 0, len(folded)
    cls = [_CLASS.get(c) for c in folded]
    while i < n:
        forms = by_prefix.get(folded[i:i + 2])
        if forms is None or (i and cls[i] is not None and cls[i] == cls[i - 1]):
            i += 1
            continue
        for f in forms:
            if folded.startswith(f.text, i) and _fits(folded, i, f):
                out.append((i, f))
                i += len(f.text)
                break
        else:
            i += 1
    return out


def _span(folded: str, idx: list[int], start: int, end: int) -> tuple[int, int]:
    """A span of the stemmed text as a span of the folded text, a cut word completed ('revok' -> 'revoked')."""
    a, b = idx[start], idx[end - 1] + 1
    while b < len(folded) and _same(folded[b - 1], folded[b]):
        b += 1
    return a, b


def read_story(text: str) -> list[IncidentMatch]:
    """The incidents a story tells, best first: each with its score, confidence and matched forms.

    A form pointing to several incidents counts for each; each distinct form counts once per incident.
    """
    hits: dict[str, dict[str, tuple[float, tuple[int, int], str]]] = {}
    folded = fold(text)
    norm, idx = _stem_text(folded)
    found = [(start, start + len(f.text), f.text, e) for start, f in scan(norm) for e in f.entries]
    for literal, rx, e in _index().patterns:
        if e.kind == "incident" and literal in norm:
            found += [(m.start(), m.end(), e.form, e) for m in rx.finditer(norm)]
    for start, end, key, e in found:          # key: the normalized form, so 'revoke' and 'revoked' count once
        for iid in e.points_to if e.kind == "incident" else ():
            seen = hits.setdefault(iid, {})
            if key not in seen or seen[key][0] < e.weight:
                seen[key] = (e.weight, _span(folded, idx, start, end), e.form)
    out = []
    for iid, forms in hits.items():
        score = sum(w for w, _, _ in forms.values())
        first = min(span[0] for _, span, _ in forms.values())
        out.append((-score, first, IncidentMatch(iid, score, round(1 - math.exp(-score), 3),
                                                 tuple(f for _, _, f in forms.values()),
                                                 tuple(span for _, span, _ in forms.values()))))
    return [m for _, _, m in sorted(out, key=lambda t: (t[0], t[1]))]


def read_tokens(text: str) -> list[TokenMatch]:
    """Seats, roles, calls, cards, trick and board numbers in a story, in order of position."""
    folded = fold(text)
    norm, idx = _stem_text(folded)
    out = []
    for s, f in scan(norm):
        e = next((e for e in f.entries if e.kind != "incident"), None)
        if e is not None:
            start, end = _span(folded, idx, s, s + len(f.text))
            out.append(TokenMatch(e.kind, e.points_to[0], folded[start:end], start, end))
    for _, rx, e in _index().patterns:
        if e.kind == "incident":
            continue
        out += [TokenMatch(e.kind, e.points_to[0], m.group(0), m.start(), m.end()) for m in rx.finditer(folded)]
    seen: set[tuple[int, int]] = set()
    kept = []
    for t in out:                     # one token per span: phrases first, then patterns in lexicon order
        if (t.start, t.end) not in seen:
            seen.add((t.start, t.end))
            kept.append(t)
    return sorted(kept, key=lambda t: (t.start, t.end))


def incidents_in(matches: Iterable[IncidentMatch], min_score: float = 0.0) -> list[Incident]:
    """The Incident records of matches scoring at least `min_score`, in the same order."""
    table = load_incidents()
    return [table[m.incident] for m in matches if m.score >= min_score]
