"""Load the corpus: read the manifest, run each source's parsers, merge them into editions.

`load_corpus()` is the one entry point for every later layer; it is cached per corpus directory.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Callable

import yaml

from .errors import CorpusParseError, UnknownClause
from .model import Chapter, Clause, ClauseId, Footnote, IndexEntry, ParsedSource
from .reading import apply_corrections, corrections_bytes
from .paths import packaged_corpus_dir

DEFAULT_CORPUS = packaged_corpus_dir()

# source format -> parser functions "module:function", each text -> ParsedSource
PARSERS: dict[str, tuple[str, ...]] = {
    "ccba1999": ("assistant.parse.ccba1999:parse_ccba1999",),
    "ccba1999-web": ("assistant.parse.ccba1999:parse_ccba1999_web",),
    "ccba2018": ("assistant.parse.ccba2018:parse_ccba2018",),
    "wbf2017": (
        "assistant.parse.wbf2017:parse_wbf2017",
        "assistant.parse.wbf2017_extras:parse_wbf2017_index",
        "assistant.parse.wbf2017_extras:parse_wbf2017_policies",
    ),
    "guandan2017": ("assistant.parse.guandan2017:parse_guandan2017",),
}


def corpus_dir() -> Path:
    """The corpus folder: $BRIDGELAW_CORPUS if set, else the repository's corpus/."""
    return Path(os.environ.get("BRIDGELAW_CORPUS") or DEFAULT_CORPUS)


@dataclass
class Edition:
    """All records of one edition, merged from its primary sources."""

    name: str
    meta: dict[str, object]
    clauses: dict[str, Clause] = field(default_factory=dict)     # in document order
    chapters: list[Chapter] = field(default_factory=list)
    footnotes: dict[str, Footnote] = field(default_factory=dict)
    index: list[IndexEntry] = field(default_factory=list)
    stats: dict[str, object] = field(default_factory=dict)

    def laws(self) -> list[Clause]:
        return [c for c in self.clauses.values() if c.level in ("law", "article") and c.parent is None]

    def definitions(self) -> list[Clause]:
        return [c for c in self.clauses.values() if c.level == "definition"]


@dataclass
class Corpus:
    """The parsed corpus: editions by name, witnesses (secondary sources) by source key."""

    root: Path
    manifest: dict[str, object]
    editions: dict[str, Edition]
    witnesses: dict[str, ParsedSource]
    fingerprint: str                      # sha256 over the source bytes, for caches

    def clause(self, clause_id: str) -> Clause:
        """The clause with this id; UnknownClause (with a hint) if there is none."""
        try:
            cid = ClauseId.parse(clause_id)
        except ValueError as err:
            raise UnknownClause(clause_id, str(err).split(" — ", 1)[-1]) from None
        ed = self.editions.get(cid.edition)
        found = ed.clauses.get(str(cid)) if ed else None
        if found is None:
            if ed is not None and cid.edition and cid.kind == "footnote" and str(cid) in ed.footnotes:
                raise UnknownClause(clause_id, "that is a footnote: footnotes are shown with their clause")
            nearest = str(cid.parent) if cid.parent else None
            while nearest and ed and nearest not in ed.clauses:
                p = ClauseId.parse(nearest).parent
                nearest = str(p) if p else None
            hint = f"nearest existing clause: {nearest}" if nearest else ""
            raise UnknownClause(clause_id, hint)
        return found

    def all_clauses(self) -> list[Clause]:
        return [c for ed in self.editions.values() for c in ed.clauses.values()]


def _resolve(spec: str) -> Callable[[str, str], ParsedSource]:
    mod, _, fn = spec.partition(":")
    return getattr(import_module(mod), fn)


def read_source(root: Path, file: str) -> str:
    """Read one source file as UTF-8, or raise CorpusParseError naming it."""
    path = root / file
    if not path.is_file():
        raise CorpusParseError(file, "source file is missing", fix=f"copy it into {root} (see corpus/manifest.yaml)")
    data = path.read_bytes()
    if not data.strip():
        raise CorpusParseError(file, "source file is empty", fix="restore it from the seeds")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CorpusParseError(file, f"not UTF-8 (byte {err.start})", fix="restore it from the seeds") from None


def load_manifest(root: Path) -> dict[str, object]:
    path = root / "manifest.yaml"
    if not path.is_file():
        raise CorpusParseError("manifest.yaml", "manifest is missing", fix=f"expected at {path}")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def source_fingerprint(root: Path | None = None) -> str:
    """sha256 over the manifest and the source files it names, without parsing them (a cache key)."""
    root = Path(root or corpus_dir())
    manifest = load_manifest(root)
    h = hashlib.sha256((root / "manifest.yaml").read_bytes())
    sources: dict[str, dict[str, object]] = manifest["sources"]  # type: ignore[assignment]
    for src in sources.values():
        file = str(src["file"])
        h.update(file.encode() + b"\0" + read_source(root, file).encode("utf-8"))
    h.update(corrections_bytes())                          # the reading text's corrections are an input too
    return h.hexdigest()


def check_expected(file: str, parsed: list[ParsedSource], expected: dict[str, int]) -> None:
    """The manifest's `expected` top-level numbers (last law, article, policy count) must be reached."""
    for kind, last in expected.items():
        nums = [c.number for ps in parsed for c in ps.clauses
                if c.parent is None and ClauseId.parse(c.id).kind == kind and len(ClauseId.parse(c.id).path) == 1]
        found = [int(n) for n in nums if str(n).isdigit()] if kind != "policy" else list(range(1, len(nums) + 1))
        top = max(found, default=0)
        if top < last:
            what = f"{kind}s {top + 1}–{last} missing" if top else f"no {kind} found"
            raise CorpusParseError(file, f"{what} (expected up to {kind} {last}; file truncated?)",
                                   fix="restore the file from the seeds (corpus/manifest.yaml lists its sha256)")


def _merge(edition: Edition, ps: ParsedSource) -> None:
    """Add a parser's records to the edition; its ids (strings from the parser) become ClauseIds here."""
    for c in ps.clauses:
        c.parent = ClauseId.parse(c.parent) if c.parent else None
        c.children = [ClauseId.parse(k) for k in c.children]
        if c.id in edition.clauses:
            raise CorpusParseError(ps.file, f"duplicate clause id {c.id}",
                                   c.source.first if c.source else None)
        edition.clauses[c.id] = c
    edition.chapters.extend(ps.chapters)
    for f in ps.footnotes:
        edition.footnotes[f.id] = f
    edition.index.extend(ps.index)
    edition.stats.update(ps.stats)


def build_corpus(root: Path | None = None) -> Corpus:
    """Parse every source of the manifest (uncached)."""
    root = Path(root or corpus_dir())
    manifest = load_manifest(root)
    eds_meta: dict[str, dict[str, object]] = manifest["editions"]  # type: ignore[assignment]
    srcs: dict[str, dict[str, object]] = manifest["sources"]  # type: ignore[assignment]
    editions = {name: Edition(name, meta) for name, meta in eds_meta.items()}
    witnesses: dict[str, ParsedSource] = {}
    h = hashlib.sha256()
    for key, src in srcs.items():
        file = str(src["file"])
        text = read_source(root, file)
        h.update(file.encode() + b"\0" + text.encode("utf-8"))
        specs = PARSERS.get(str(src["format"]))
        if specs is None:
            raise CorpusParseError(file, f"unknown source format {src['format']!r}",
                                   fix=f"choose from {', '.join(PARSERS)}")
        parsed = [_resolve(spec)(text, file) for spec in specs]
        check_expected(file, parsed, src.get("expected") or {})  # type: ignore[arg-type]
        for ps in parsed:
            if src.get("role") == "witness":
                witnesses[key] = ps
            else:
                _merge(editions[str(src["edition"])], ps)
    h.update(corrections_bytes())
    corpus = Corpus(root, manifest, editions, witnesses, h.hexdigest())
    apply_corrections(corpus)                              # the reading text beside the faithful one
    return corpus


@lru_cache(maxsize=4)
def _cached(root: str) -> Corpus:
    return build_corpus(Path(root))


def load_corpus(root: Path | None = None) -> Corpus:
    """The parsed corpus, cached per process and corpus folder."""
    return _cached(str(Path(root or corpus_dir()).resolve()))


def clause_ids(root: Path | None = None) -> dict[str, frozenset[str]]:
    """Every clause id by edition, without parsing when the same sources and parsers were seen before.

    Checking that the ruling trees cite real clauses needs only the ids; a first answer in the app
    should not pay for a full parse (0.35 s). The ids are an artifact keyed by the corpus files and the
    parser code; any change of either parses again.
    """
    import json

    from .artifact import artifact

    root = Path(root or corpus_dir()).resolve()
    art = artifact("clause-ids")

    def build() -> dict[str, list[str]]:
        return {name: list(ed.clauses) for name, ed in load_corpus(root).editions.items()}

    def write(ids: dict[str, list[str]], folder: Path) -> None:
        (folder / "ids.json").write_text(json.dumps(ids, ensure_ascii=False), encoding="utf-8")

    def read(folder: Path) -> dict[str, list[str]]:
        return dict(json.loads((folder / "ids.json").read_text(encoding="utf-8")))

    ids, _ = art.get(art.key(source_fingerprint(root)), build, write, read)
    return {ed: frozenset(v) for ed, v in ids.items()}
