"""One mechanism for every generated file on disk (graph, index, citations, clause ids, jieba, USE copy).

An `Artifact` names its inputs (package files whose bytes go into the key, plus values the caller adds:
the corpus fingerprint, a model key); a build is written into a temporary folder beside its place, each
file's content hash recorded in `MANIFEST.json`, then renamed into place in one step. At load every file
is checked against its hash, so the files of two builds never mix and a damaged file is rebuilt, not read.
`bridgelaw cache status|clear` lists and removes them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from .paths import PACKAGE_DIR

T = TypeVar("T")
MANIFEST = "MANIFEST.json"
CODE_SUFFIXES = frozenset({".py", ".yaml", ".yml", ".tsv", ".ttl", ".json"})


def cache_root() -> Path:
    """$BRIDGELAW_CACHE or ~/.cache/bridgelaw (not created here)."""
    return Path(os.environ.get("BRIDGELAW_CACHE") or Path.home() / ".cache" / "bridgelaw")


def code_fingerprint(*parts: str) -> str:
    """sha256 over the package's code and data files (or only the named files and sub-folders)."""
    h = hashlib.sha256()
    roots = [PACKAGE_DIR / s for s in parts] if parts else [PACKAGE_DIR]
    files: list[Path] = []
    for root in roots:
        if root.is_file():
            files.append(root)
        else:
            files += [p for p in root.rglob("*") if p.is_file() and p.suffix in CODE_SUFFIXES
                      and "__pycache__" not in p.parts]
    for p in sorted(set(files)):
        h.update(str(p.relative_to(PACKAGE_DIR)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def file_hash(path: Path) -> str:
    """blake2b of a file's bytes (fast enough to check a 65 MB table at every start: ~0.1 s)."""
    h = hashlib.blake2b(digest_size=20)
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class DamagedArtifact(ValueError):
    """A cached folder whose files do not match its manifest (half-written, mixed or edited)."""


@dataclass(frozen=True)
class Artifact:
    """A kind of generated folder under the cache root, keyed by its declared inputs."""

    name: str                          # folder under the cache root: 'graph', 'index', 'use', …
    inputs: tuple[str, ...]            # package files or folders whose bytes go into the key
    version: int = 1                   # bump when the layout of the files changes
    description: str = ""
    kept: int = 3                      # builds kept on disk (tests and several corpora alternate)

    def key(self, *values: str) -> str:
        """The key of a build: this artifact's version and inputs, plus the caller's values."""
        h = hashlib.sha256(f"{self.name}\0v{self.version}\0".encode())
        h.update(code_fingerprint(*self.inputs).encode() if self.inputs else b"")
        for v in values:
            h.update(b"\0" + v.encode("utf-8", "surrogatepass"))
        return h.hexdigest()[:24]

    def root(self) -> Path:
        return cache_root() / self.name

    def folder(self, key: str) -> Path:
        return self.root() / key

    def verify(self, key: str) -> Path:
        """The folder of `key` if every file matches its manifest; DamagedArtifact or FileNotFoundError."""
        folder = self.folder(key)
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if manifest.get("key") != key:
            raise DamagedArtifact(f"{folder}: manifest of another key")
        for rel, digest in manifest["files"].items():
            if file_hash(folder / rel) != digest:
                raise DamagedArtifact(f"{folder / rel}: content differs from its build")
        return folder

    def load(self, key: str, read: Callable[[Path], T]) -> T | None:
        """`read(folder)` of a verified build, or None when there is none (a damaged one is removed)."""
        try:
            return read(self.verify(key))
        except FileNotFoundError:
            return None
        except (DamagedArtifact, OSError, ValueError, KeyError, TypeError, EOFError):
            shutil.rmtree(self.folder(key), ignore_errors=True)
            return None

    def save(self, key: str, write: Callable[[Path], None]) -> Path | None:
        """Run `write(tmp)` in a temporary folder, record its files' hashes, rename it into place.

        Stale builds of this artifact are removed. A read-only or full cache folder only costs the next
        start its time: None is returned and nothing half-written is left.
        """
        try:
            self.root().mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(dir=self.root(), prefix=f".{key}."))
        except OSError:
            return None
        try:
            write(tmp)
            files = {str(p.relative_to(tmp)): file_hash(p) for p in sorted(tmp.rglob("*")) if p.is_file()}
            (tmp / MANIFEST).write_text(json.dumps({"key": key, "files": files}, indent=1, sort_keys=True),
                                        encoding="utf-8")
            final = self.folder(key)
            if final.exists():
                shutil.rmtree(final, ignore_errors=True)
            os.rename(tmp, final)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            return None
        self.prune(keep=key)
        return final

    def get(self, key: str, build: Callable[[], T], write: Callable[[T, Path], None],
            read: Callable[[Path], T], force: bool = False) -> tuple[T, bool]:
        """The artifact for `key` from disk, else built, saved and returned; (value, rebuilt)."""
        if not force:
            found = self.load(key, read)
            if found is not None:
                return found, False
        value = build()
        self.save(key, lambda folder: write(value, folder))
        return value, True

    def prune(self, keep: str | None = None) -> int:
        """Remove builds beyond the `kept` newest (never `keep`, never another writer's fresh temporary
        folder); with keep=None remove them all. The number removed."""
        if not self.root().is_dir():
            return 0
        now = time.time()
        builds = sorted((p for p in self.root().iterdir() if p.is_dir() and not p.name.startswith(".")),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        doomed = [p for p in builds if p.name != keep][max(self.kept - 1, 0):] if keep else builds
        doomed += [p for p in self.root().iterdir() if p.name.startswith(".")
                   and (keep is None or now - p.stat().st_mtime > 3600)]
        for p in doomed:
            shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
        return len(doomed)

    def builds(self) -> list[tuple[str, int, bool]]:
        """(key, bytes, verified) for each build on disk."""
        out: list[tuple[str, int, bool]] = []
        if not self.root().is_dir():
            return out
        for p in sorted(self.root().iterdir()):
            if not p.is_dir() or p.name.startswith("."):
                continue
            size = sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
            try:
                self.verify(p.name)
                ok = True
            except (DamagedArtifact, OSError, ValueError, KeyError):
                ok = False
            out.append((p.name, size, ok))
        return out


# Every disk cache of the project, declared once.
ARTIFACTS: dict[str, Artifact] = {a.name: a for a in (
    Artifact("clause-ids", ("parse", "corpus.py", "model.py", "reading.py", "data/corrections.yaml"),
             description="clause ids per edition (the trees' citation check without a parse)"),
    Artifact("citations", ("parse", "graph/citations.py", "graph/citations_tokens.py", "graph/citations_patterns.py",
                           "graph/citations_recognise.py", "graph/citations_resolve.py", "corpus.py", "model.py",
                           "reading.py", "data/corrections.yaml"),
             description="citations found in the law texts"),
    Artifact("graph", ("",), description="the RDF law graph"),
    Artifact("index", ("search", "parse", "graph", "diff", "terminology.py", "text.py", "editions.py", "corpus.py",
                       "model.py", "reading.py", "data"), version=3,
             description="the search index (documents, BM25, embeddings)"),
    Artifact("jieba", (), description="jieba's dictionary with the project's words"),
    Artifact("use", (), version=3, description="an unpacked copy of the USE-multilingual model"),
)}


def artifact(name: str) -> Artifact:
    return ARTIFACTS[name]
