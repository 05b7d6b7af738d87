"""Where generated artifacts (graph, search index, trained model) live: outside git, keyed by inputs."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def cache_dir(*parts: str) -> Path:
    """$BRIDGELAW_CACHE or ~/.cache/bridgelaw, plus sub-folders; created on demand."""
    base = Path(os.environ.get("BRIDGELAW_CACHE") or Path.home() / ".cache" / "bridgelaw")
    path = base.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def code_fingerprint(*subpackages: str) -> str:
    """sha256 over the package's .py and data files (or only the named sub-packages), for cache keys."""
    h = hashlib.sha256()
    roots = [PACKAGE_DIR / s for s in subpackages] if subpackages else [PACKAGE_DIR]
    files: list[Path] = []
    for root in roots:
        files += [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file()
                                                     and p.suffix in {".py", ".yaml", ".yml", ".tsv", ".ttl", ".json"})
    for p in sorted(files):
        h.update(str(p.relative_to(PACKAGE_DIR)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write a cache file beside and rename it into place (a reader never sees half of it); a read-only
    or full cache folder only costs the next start its time, so errors are ignored."""
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
