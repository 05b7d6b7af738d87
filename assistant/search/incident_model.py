"""The incident reader of the search: which incidents of the taxonomy (assistant/data/incidents.yaml) a
question or table story tells, with a calibrated chance each, and the two channels that turn those chances
into evidence for laws.

Two softmax models over the incidents, mixed: utility_k = W_k · embedding + lexicon · log1p(lexicon
score_k) + b_k, where the lexicon score is `assistant.incidents.read_story`'s (the table-language lexicon)
and the embedding is the question's vector from the embedder the model was trained with (any other
embedder gets the lexicon-only model); and a word model (tf-idf of the search's tokens). Trained offline by bench/data/train_incident_model.py on the story corpus's train
split, chosen on its validation split; kept as numbers in assistant/search/incident_model.json.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ..errors import BadInput, BridgelawError
from ..incidents import Incident, read_story
from ..text import has_cjk
from .learned import read_model_file
from .word_model import WordModel, word_model_fields, word_model_from

MODEL_FILE = Path(__file__).with_name("incident_model.json")
SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[.])\s+|\n+")
SEGMENT_CHARS = (40, 16)  # a story is read again in windows of whole sentences of at least this many characters
                          # (Latin, Chinese: a Chinese character carries about as much as two or three letters)
SEGMENTS_MAX = 6         # and at most this many windows (neighbours merged)
PRIMARY_SHARE = 1.0      # an incident's primary law gets its whole chance on the `incident_primary` channel
READ_AS_FROM = 0.15      # an incident is named in "read as" from this chance on
READ_AS_MAX = 3          # and at most this many


class IncidentModelError(BridgelawError):
    """The incident model file is missing or does not fit the incident taxonomy."""

    exit_code = 3


@dataclass(frozen=True)
class IncidentModel:
    """Softmax over incidents from [embedding, lexicon score]; `w` is empty for the lexicon-only model."""

    ids: tuple[str, ...]
    w: np.ndarray              # (incidents, dim) or (incidents, 0)
    b: np.ndarray              # (incidents,)
    lexicon: float             # weight of log1p(lexicon score)
    temperature: float
    embedder: str              # the embedder `w` was trained with ("" for the lexicon-only model)

    def utilities(self, qv: np.ndarray | None, lex: np.ndarray) -> np.ndarray:
        u = self.b + self.lexicon * np.log1p(lex)
        if self.w.shape[1] and qv is not None and qv.shape[0] == self.w.shape[1]:
            u = u + self.w @ qv
        return u / self.temperature

    def probabilities(self, qv: np.ndarray | None, lex: np.ndarray) -> np.ndarray:
        u = self.utilities(qv, lex)
        e = np.exp(u - u.max())
        return e / e.sum()


@dataclass(frozen=True)
class IncidentModels:
    """The model trained with the default embedder, the lexicon-only one (for any other embedder), and the
    word model mixed in with weight `mix` (chosen on the validation split)."""

    full: IncidentModel
    lexicon_only: IncidentModel
    words: WordModel | None = None
    mix: float = 0.0

    def for_embedder(self, key: str) -> "Reader":
        return Reader(self.full if key == self.full.embedder else self.lexicon_only, self.words, self.mix)

    def for_windows(self) -> "Reader":
        """The reader of a story's windows: lexicon and words, no embedding (a second encoder call per
        story would cost as much as the whole text's; the windows only add what one sentence tells)."""
        return Reader(self.lexicon_only, self.words, self.mix)


@dataclass(frozen=True)
class Reader:
    """One embedder's incident reader: (1 - mix) x the embedding+lexicon model + mix x the word model."""

    model: IncidentModel
    words: WordModel | None
    mix: float

    @property
    def ids(self) -> tuple[str, ...]:
        return self.model.ids

    def probabilities(self, text: str, qv: np.ndarray | None) -> np.ndarray:
        p = self.model.probabilities(qv, lexicon_scores(text, self.model.ids))
        if self.words is None or not self.mix:
            return p
        return (1.0 - self.mix) * p + self.mix * self.words.probabilities(text)


def segments(text: str) -> list[str]:
    """A story cut into windows of whole sentences (at least SEGMENT_CHARS characters, at most SEGMENTS_MAX
    windows); [] for a text too short to hold two. Each window is read on its own, so a second incident
    told in one sentence of a long story is not drowned by the first."""
    out: list[str] = []
    cur = ""
    least = SEGMENT_CHARS[1] if has_cjk(text) else SEGMENT_CHARS[0]
    for part in (p.strip() for p in SENTENCE_END.split(text)):
        if not part:
            continue
        cur = f"{cur} {part}" if cur else part
        if len(cur) >= least:
            out.append(cur)
            cur = ""
    if cur:
        out = out[:-1] + [f"{out[-1]} {cur}"] if out else [cur]
    if len(out) > SEGMENTS_MAX:
        k = math.ceil(len(out) / SEGMENTS_MAX)
        out = [" ".join(out[i:i + k]) for i in range(0, len(out), k)]
    return out if len(out) >= 2 else []


def lexicon_scores(text: str, ids: Sequence[str]) -> np.ndarray:
    """The lexicon's score of each incident in `ids` for `text` (0 where no form matched)."""
    pos = {iid: i for i, iid in enumerate(ids)}
    out = np.zeros(len(ids))
    for m in read_story(text):
        if m.incident in pos:
            out[pos[m.incident]] = m.score
    return out


def law_matrices(incidents: Mapping[str, Incident], ids: Sequence[str], gpos: Mapping[str, int],
                 group_of: Mapping[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """(primary, listed): incident x group matrices. `primary` shares an incident among the groups of its
    primary clause in each edition; `listed` among every group its clauses belong to."""
    primary = np.zeros((len(ids), len(gpos)))
    listed = np.zeros((len(ids), len(gpos)))
    for i, iid in enumerate(ids):
        inc = incidents[iid]
        firsts = {group_of[c[0]] for c in inc.laws.values() if c and c[0] in group_of}
        every = {group_of[c] for cs in inc.laws.values() for c in cs if c in group_of}
        for g in firsts:
            primary[i, gpos[g]] = PRIMARY_SHARE / len(firsts)
        for g in every:
            listed[i, gpos[g]] = 1.0 / len(every)
    return primary, listed


def incident_channels(p: np.ndarray, primary: np.ndarray, listed: np.ndarray,
                      p_segments: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The chance mass each group gets from the incidents read (0 where none points at it); and from the
    incidents read in the story's windows (each incident's best window; the whole text's reading for a
    short question)."""
    seg = p if p_segments is None else p_segments
    return {"incident_primary": p @ primary, "incident_listed": p @ listed, "incident_segments": seg @ primary}


def reading(p: np.ndarray, ids: Sequence[str], forced: str | None = None) -> list[tuple[str, float]]:
    """The incidents to name in "read as": best first, from READ_AS_FROM, at most READ_AS_MAX; a reading
    the user chose comes first with chance 1."""
    order = [int(i) for i in np.argsort(-p, kind="stable")]
    out = [(ids[i], float(p[i])) for i in order[:READ_AS_MAX] if p[i] >= READ_AS_FROM]
    if forced is not None:
        out = [(forced, 1.0)] + [(i, c) for i, c in out if i != forced][: READ_AS_MAX - 1]
    return out


def check_reading(name: str, incidents: Mapping[str, Incident]) -> str:
    """`name` when it is an incident id; BadInput naming the closest ids otherwise."""
    if name not in incidents:
        import difflib

        close = difflib.get_close_matches(name, sorted(incidents), n=5, cutoff=0.4) or sorted(incidents)[:5]
        raise BadInput(key="unknown_name", params={"what": "reading", "value": repr(name[:40]), "choices": close})
    return name


def _model(raw: Mapping[str, object], prefix: str) -> IncidentModel:
    w = np.asarray(raw[f"{prefix}_w"], dtype=np.float64)
    ids = tuple(str(x) for x in raw["ids"])  # type: ignore[attr-defined]
    return IncidentModel(ids, w.reshape(len(ids), -1) if w.size else np.zeros((len(ids), 0)),
                         np.asarray(raw[f"{prefix}_b"], dtype=np.float64), float(raw[f"{prefix}_lexicon"]),  # type: ignore[arg-type]
                         float(raw[f"{prefix}_temperature"]), str(raw.get(f"{prefix}_embedder", "")))  # type: ignore[arg-type]


def load_incident_models(incidents: Mapping[str, Incident], path: Path | None = None) -> IncidentModels:
    """Read the model file; IncidentModelError when it is missing or names incidents the taxonomy lacks."""
    path = path or MODEL_FILE
    raw = read_model_file(path, IncidentModelError, "bench/data/train_incident_model.py")
    unknown = sorted(set(raw["ids"]) - set(incidents))
    if unknown:
        raise IncidentModelError(f"{path.name}: incidents not in the taxonomy: {', '.join(unknown[:5])} — "
                                 "retrain with bench/data/train_incident_model.py")
    words = word_model_from(raw, "words", len(raw["ids"])) if "words_vocab" in raw else None
    return IncidentModels(_model(raw, "full"), _model(raw, "lexicon"), words, float(raw.get("words_mix", 0.0)))


def save_incident_models(path: Path, ids: Sequence[str], models: Mapping[str, IncidentModel],
                         chosen: Mapping[str, float], words: WordModel | None = None, mix: float = 0.0) -> None:
    """Write the model file (the training script's output; `chosen`: the settings validation chose, kept
    for the search training's out-of-fold readings); floats as JSON reprs (exact round trip)."""
    out: dict[str, object] = {"ids": list(ids), "chosen": dict(chosen)}
    for prefix, m in models.items():
        out.update({f"{prefix}_w": np.round(m.w, 6).ravel().tolist(), f"{prefix}_b": m.b.tolist(),
                    f"{prefix}_lexicon": m.lexicon, f"{prefix}_temperature": m.temperature,
                    f"{prefix}_embedder": m.embedder})
    if words is not None:
        out.update(word_model_fields(words, "words"), words_mix=mix)
    path.write_text(json.dumps(out) + "\n", encoding="utf-8")
