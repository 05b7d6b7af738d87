"""The search's learned models, in one small text file (assistant/search/models.json: numbers, no pickle):
the answerability classifier and the fusion ranker (linear, or boosted trees over it), trained and calibrated offline by
bench/data/train_search_models.py from the project's data (table situations, the question sets' train
split; calibration and thresholds on the validation split). It sits in the search folder, so retraining
also rebuilds the index (the index key covers that folder).

Answerability: logistic regression on the question's embedding (for the embedder it was trained with)
and a few retrieval summaries (best cosine, BM25 coverage, crosswalk terms, ruling topics), stacked with
a word model's evidence (out of scope / in scope, from the question's words) and Platt-scaled; `summary`
weights (no embedding) serve any other embedder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BridgelawError
from .fusion import FEATURES, Ranker
from .scoring import sigmoid
from .trees import trees_from
from .word_model import WordModel, word_model_from

MODELS_FILE = Path(__file__).with_name("models.json")
SUMMARY = ("cos_clause", "cos_index", "coverage", "bm25_max", "n_tokens", "zh", "headwords", "terms", "topics")


class ModelFileError(BridgelawError):
    """The learned models file is missing or does not fit this code."""

    exit_code = 3


@dataclass(frozen=True)
class Answerability:
    """P(the rulebooks answer this question) from [embedding?, standardised summaries] and, stacked on
    them with weight `words_weight`, the scope word model's evidence from the question's words."""

    w: np.ndarray               # weights: embedding part (may be empty) then summary part
    b: float
    mu: np.ndarray              # summary standardisation
    sd: np.ndarray
    uses_embedding: bool
    words: WordModel | None = None
    words_weight: float = 0.0

    def probability(self, qv: np.ndarray, summary: np.ndarray, text: str = "") -> float:
        z = (summary - self.mu) / self.sd
        x = np.concatenate([qv, z]) if self.uses_embedding else z
        u = x @ self.w + self.b
        if self.words is not None and self.words_weight:
            u = u + self.words_weight * self.words.logit(text)
        return float(sigmoid(u))


@dataclass(frozen=True)
class Models:
    """Everything learned: the ranker, the two answerability models, and the decision thresholds."""

    ranker: Ranker
    answer_full: Answerability
    answer_summary: Answerability
    embedder: str               # the model key the full answerability model was trained with
    decline_below: float        # P(answerable) below this: declined (any language validation has no own value for)
    high_from: float            # top result's chance from this (and answerable): confidence high
    decline_by_lang: tuple[tuple[str, float], ...] = ()   # per question language, chosen on validation

    def decline_threshold(self, lang: str) -> float:
        """The chance below which a question in `lang` (en, zh-Hans, zh-Hant) is declined."""
        return dict(self.decline_by_lang).get(lang, self.decline_below)

    def answerability(self, embedder: str) -> Answerability:
        return self.answer_full if embedder == self.embedder else self.answer_summary


def _answer(data: dict[str, np.ndarray], prefix: str, uses_embedding: bool, words: WordModel | None) -> Answerability:
    return Answerability(data[f"{prefix}_w"], float(data[f"{prefix}_b"]), data["summary_mu"],
                         data["summary_sd"], uses_embedding, words, float(data.get(f"{prefix}_words", 0.0)))


def read_model_file(path: Path, error: type[BridgelawError], trainer: str) -> dict[str, Any]:
    """A learned model file's JSON; `error` (naming the training script) when it is missing or not JSON."""
    if not path.is_file():
        raise error(f"no model at {path} — the file is not built — run .venv/bin/python {trainer}")
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except ValueError as err:
        raise error(f"{path.name}: not JSON ({err}) — retrain with {trainer}") from None


def load_models(path: Path | None = None) -> Models:
    """Read the models file; ModelFileError when it is missing or was made for other features."""
    path = path or MODELS_FILE
    raw = read_model_file(path, ModelFileError, "bench/data/train_search_models.py")
    words = word_model_from(raw, "scope_words", 2) if "scope_words_vocab" in raw else None
    trees = trees_from(raw, "ranker_trees") if "ranker_trees_depth" in raw else None
    data = {k: np.asarray(v) for k, v in raw.items() if not k.startswith(("scope_words_", "ranker_trees_"))}
    if tuple(str(x) for x in data["ranker_features"]) != FEATURES or \
            tuple(str(x) for x in data["summary_features"]) != SUMMARY:
        raise ModelFileError(f"{path.name}: made for other features than this code computes — "
                             "retrain with bench/data/train_search_models.py")
    knots = (tuple(float(v) for v in data["ranker_knots_x"]), tuple(float(v) for v in data["ranker_knots_y"])) \
        if "ranker_knots_x" in data else ((0.0, 1.0), (0.0, 1.0))
    return Models(Ranker(data["ranker_w"], float(data["ranker_temperature"]), knots, trees),
                  _answer(data, "answer_full", True, words), _answer(data, "answer_summary", False, words),
                  str(data["embedder"]), float(data["decline_below"]), float(data["high_from"]),
                  tuple(zip((str(x) for x in data.get("decline_langs", ())),
                            (float(x) for x in data.get("decline_by_lang", ())), strict=True)))


def save_models(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write the models file (the training script's output), checking the feature lists it must carry."""
    arrays = dict(arrays, ranker_features=np.array(FEATURES), summary_features=np.array(SUMMARY))
    # JSON floats are Python reprs: every float64 round-trips exactly
    text = json.dumps({k: np.asarray(v).tolist() for k, v in sorted(arrays.items())}, indent=1)
    path.write_text(text + "\n", encoding="utf-8")
