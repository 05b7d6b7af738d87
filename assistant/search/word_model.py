"""A word model: a softmax over classes from a text's words (tf-idf of the search's tokens, simplified script,
lower case; one weight row per class). The incident reader uses one over the incidents; the answerability
model one over (out of scope, in scope). Trained offline with scikit-learn's TfidfVectorizer and
LogisticRegression; read here with numpy alone, sparsely."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from ..text import t2s


@dataclass(frozen=True)
class WordModel:
    """Softmax over classes from a text's words: tf-idf (sublinear tf, l2 norm) of the search's tokens
    (simplified script, lower case), one weight row per class."""

    vocab: dict[str, int]
    idf: np.ndarray            # (words,)
    w: np.ndarray              # (classes, words)
    b: np.ndarray              # (classes,)

    def terms(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(vocabulary columns, tf-idf weights) of the text's known words: the sparse form of its vector
        (a story holds a few dozen of the vocabulary's thousands of words)."""
        from .lexical import tokenize

        counts: dict[int, int] = {}
        for tok in tokenize(t2s(text).lower()):
            j = self.vocab.get(tok)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        cols = np.fromiter(counts, dtype=np.int64, count=len(counts))
        x = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64, count=len(counts)))) * self.idf[cols]
        norm = float(np.linalg.norm(x))
        return cols, (x / norm if norm else x)

    def vector(self, text: str) -> np.ndarray:
        cols, vals = self.terms(text)
        x = np.zeros(len(self.vocab))
        x[cols] = vals
        return x

    def probabilities(self, text: str) -> np.ndarray:
        cols, vals = self.terms(text)
        u = self.w[:, cols] @ vals + self.b
        e = np.exp(u - u.max())
        return e / e.sum()

    def logit(self, text: str) -> float:
        """log P(last class) - log P(first class): a two-class model's evidence for its second class."""
        cols, vals = self.terms(text)
        u = self.w[:, cols] @ vals + self.b
        return float(u[-1] - u[0])


def word_model_fields(words: WordModel, prefix: str) -> dict[str, object]:
    """The model as JSON fields under `prefix` (vocabulary in column order; rounded floats)."""
    return {f"{prefix}_vocab": sorted(words.vocab, key=words.vocab.__getitem__),
            f"{prefix}_idf": np.round(words.idf, 5).tolist(), f"{prefix}_w": np.round(words.w, 4).ravel().tolist(),
            f"{prefix}_b": np.round(words.b, 5).tolist()}


def word_model_from(raw: Mapping[str, Any], prefix: str, classes: int) -> WordModel:
    """The model `word_model_fields` wrote under `prefix`, with `classes` weight rows."""
    vocab = {str(t): i for i, t in enumerate(raw[f"{prefix}_vocab"])}
    return WordModel(vocab, np.asarray(raw[f"{prefix}_idf"], dtype=np.float64),
                     np.asarray(raw[f"{prefix}_w"], dtype=np.float64).reshape(classes, len(vocab)),
                     np.asarray(raw[f"{prefix}_b"], dtype=np.float64))
