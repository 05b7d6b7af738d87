"""Train the search's incident reader and write assistant/search/incident_model.json
(assistant.search.incident_model).

    .venv/bin/python bench/data/train_incident_model.py

Data (made by the project, in the repository): the story corpus's train split (bench/data/stories/*.jsonl,
split by bench/data/splits.py) and each incident's titles and description (assistant/data/incidents.yaml).
A two-incident story counts half for each. The L2 strength, the temperature, the lexicon's share, the word
model's C and its mixing weight are chosen on the validation split (log loss); the validation figures are
printed, then the shipped models are fitted again with those settings on train + validation (more stories,
the settings unchanged; the search's training reads out-of-fold chances for both splits). Never reads the
test split or any evaluation file. Deterministic.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from splits import stories  # noqa: E402
from train_search_models import adam  # noqa: E402

L2S = (1e-5, 3e-5, 1e-4)


def examples(rows: list[dict], ids: list[str]) -> tuple[list[str], np.ndarray]:
    """Texts and soft labels (a two-incident story: half each) over `ids`."""
    pos = {iid: i for i, iid in enumerate(ids)}
    texts, y = [], []
    for r in rows:
        found = [pos[i] for i in r["incidents"] if i in pos]
        if not found:
            continue
        lab = np.zeros(len(ids))
        lab[found] = 1.0 / len(found)
        texts.append(r["text"])
        y.append(lab)
    return texts, np.array(y)


def taxonomy_examples(incidents: dict, ids: list[str]) -> tuple[list[str], np.ndarray]:
    """Each incident's titles (three languages) and description, labelled with it."""
    texts, y = [], []
    for i, iid in enumerate(ids):
        inc = incidents[iid]
        for t in [*inc.title.values(), inc.description]:
            lab = np.zeros(len(ids))
            lab[i] = 1.0
            texts.append(t)
            y.append(lab)
    return texts, np.array(y)


def features(texts: list[str], ids: list[str], model: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(embeddings from embedder `model`, log1p lexicon scores) of `texts`."""
    from assistant.search.embedders import encoder_text, get_embedder
    from assistant.search.incident_model import lexicon_scores
    from assistant.text import t2s

    t0 = time.perf_counter()
    emb = np.asarray(get_embedder(model).encode([encoder_text(t2s(t)) for t in texts]), dtype=np.float64)
    lex = np.array([lexicon_scores(t, ids) for t in texts])
    print(f"  features of {len(texts)} texts in {time.perf_counter() - t0:.1f} s", flush=True)
    return emb, np.log1p(lex)


def fit(emb: np.ndarray, lex: np.ndarray, y: np.ndarray, l2: float, use_emb: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """Softmax regression with soft labels: (W, b, lexicon weight)."""
    k, d = y.shape[1], emb.shape[1] if use_emb else 0
    n = len(y)

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        return theta[: k * d].reshape(k, d), theta[k * d: k * d + k], float(theta[-1])

    def grad(theta: np.ndarray) -> np.ndarray:
        w, b, a = unpack(theta)
        u = b + a * lex + (emb @ w.T if d else 0.0)
        p = np.exp(u - u.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        err = (p - y) / n
        gw = (err.T @ emb + l2 * w).ravel() if d else np.zeros(0)
        return np.r_[gw, err.sum(axis=0), (err * lex).sum()]

    theta = adam(grad, np.zeros(k * d + k + 1), steps=400, lr=0.05)
    return unpack(theta)


def probs(w: np.ndarray, b: np.ndarray, a: float, emb: np.ndarray, lex: np.ndarray, temp: float) -> np.ndarray:
    u = (b + a * lex + (emb @ w.T if w.shape[1] else 0.0)) / temp
    p = np.exp(u - u.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-(y * np.log(p + 1e-12)).sum(axis=1).mean())


LEXICON_SHARES = (0.25, 0.5, 0.75, 1.0)


def choose(emb, lex, y, vemb, vlex, vy, use_emb: bool):  # type: ignore[no-untyped-def]
    """The L2 strength, the temperature and the lexicon's weight with the lowest validation log loss. The
    lexicon's weight learned on train is only an upper bound: its forms were written from the train
    stories, so they match them better than a new story; validation chooses a share of it."""
    best = None
    for l2 in (L2S if use_emb else (0.0,)):
        w, b, a_train = fit(emb, lex, y, l2, use_emb)
        for share in LEXICON_SHARES:
            for temp in np.arange(0.5, 2.51, 0.1):
                loss = log_loss(probs(w, b, a_train * share, vemb, vlex, temp), vy)
                if best is None or loss < best[0]:
                    best = (loss, l2, float(round(temp, 2)), w, b, a_train * share, share)
    return best


def vectorizer(min_df: int):  # type: ignore[no-untyped-def]
    """The tf-idf of a word model (assistant.search.word_model.WordModel reads it back): the search's tokens of
    the simplified-script, lower-case text, sublinear tf."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from assistant.search.lexical import tokenize
    from assistant.text import t2s

    return TfidfVectorizer(tokenizer=lambda t: tokenize(t2s(t).lower()), lowercase=False, sublinear_tf=True,
                           min_df=min_df, token_pattern=None)


def fit_words(texts: list[str], y: np.ndarray, c: float):  # type: ignore[no-untyped-def]
    """The word model (assistant.search.word_model.WordModel): tf-idf + logistic regression on the first
    incident of each text (scikit-learn, a dependency of sentence-transformers; training only)."""
    from sklearn.linear_model import LogisticRegression

    from assistant.search.word_model import WordModel

    vec = vectorizer(min_df=2)
    x = vec.fit_transform(texts)
    labels = y.argmax(axis=1)
    lr = LogisticRegression(C=c, max_iter=3000).fit(x, labels)
    w, b = np.zeros((y.shape[1], x.shape[1])), np.full(y.shape[1], -30.0)
    w[lr.classes_], b[lr.classes_] = lr.coef_, lr.intercept_
    return WordModel({t: int(i) for t, i in vec.vocabulary_.items()}, vec.idf_, w, b)


def choose_words(texts: list[str], y: np.ndarray, vtexts: list[str], vy: np.ndarray, p_emb: np.ndarray):  # type: ignore[no-untyped-def]
    """The word model's C and its mixing weight with the embedding model, by validation log loss."""
    best = None
    for c in (100.0, 300.0, 1000.0):
        words = fit_words(texts, y, c)
        pw = np.array([words.probabilities(t) for t in vtexts])
        for mix in np.arange(0.0, 1.01, 0.1):
            loss = log_loss((1 - mix) * p_emb + mix * pw, vy)
            if best is None or loss < best[0]:
                best = (loss, c, float(round(mix, 2)), words)
    return best


def report(name: str, p: np.ndarray, y: np.ndarray, langs: list[str]) -> None:
    first = y.argmax(axis=1)
    top = np.argsort(-p, axis=1)
    for lang in sorted(set(langs)) + ["all"]:
        m = np.array([lang in ("all", lg) for lg in langs])
        r1 = float((top[m, 0] == first[m]).mean())
        r3 = float(np.mean([first[i] in top[i, :3] for i in np.flatnonzero(m)]))
        print(f"  {name:13s} {lang:8s} n={int(m.sum()):4d} incident top1 {r1:.3f} top3 {r3:.3f}")


def out_of_fold(rows: list[dict], folds: int = 5) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each training story's incident chances, whole and best over its windows (incident_model.segments, read
    without the embedding as the search reads them), from a model that never saw it (the story's group held
    out), with the settings the saved model chose: the search's ranker learns from readings as honest as a
    new story's, not from the reader's memory of its own training texts."""
    from assistant.incidents import load_incidents
    from assistant.search.incident_model import MODEL_FILE, lexicon_scores, segments

    saved = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    ids, l2, temp = list(saved["ids"]), float(saved["chosen"]["full_l2"]), float(saved["full_temperature"])
    mix, c = float(saved.get("words_mix", 0.0)), float(saved["chosen"].get("words_c", 10.0))
    share = float(saved["chosen"].get("full_lexicon_share", 1.0))
    incidents = load_incidents()
    rows = [r for r in rows if any(i in incidents for i in r["incidents"])]
    fold = [int(hashlib.sha256(r["group"].encode()).hexdigest()[8:16], 16) % folds for r in rows]
    texts, y = examples(rows, ids)
    ax, ay = taxonomy_examples(incidents, ids)
    emb, lex = features(texts + ax, ids)
    windows = [segments(t) for t in texts]
    flat = [w for ws in windows for w in ws]
    owner = np.array([i for i, ws in enumerate(windows) for _ in ws], dtype=np.int64)
    # windows are read as the search reads them (IncidentModels.for_windows): lexicon and words, no embedding
    wlex = np.log1p(np.array([lexicon_scores(t, ids) for t in flat])) if flat else np.zeros((0, len(ids)))
    lex_temp, lex_share = float(saved["lexicon_temperature"]), float(saved["chosen"].get("lexicon_lexicon_share", 1.0))
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for k in range(folds):
        fit_rows = [i for i, f in enumerate(fold) if f != k] + list(range(len(texts), len(texts) + len(ax)))
        yy = np.vstack([y, ay])[fit_rows]
        w, b, a = fit(emb[fit_rows], lex[fit_rows], yy, l2, True)
        a *= share
        held = [i for i, f in enumerate(fold) if f == k]
        in_held = np.flatnonzero(np.isin(owner, held))
        p = probs(w, b, a, emb[held], lex[held], temp)
        lw, lb, la = fit(emb[fit_rows], lex[fit_rows], yy, 0.0, False)
        none = np.zeros((len(in_held), 0))
        pw = probs(lw, lb, la * lex_share, none, wlex[in_held], lex_temp) if len(in_held) else np.zeros((0, len(ids)))
        if mix:
            words = fit_words([(texts + ax)[i] for i in fit_rows], yy, c)
            p = (1 - mix) * p + mix * np.array([words.probabilities(texts[i]) for i in held])
            if len(in_held):
                pw = (1 - mix) * pw + mix * np.array([words.probabilities(flat[j]) for j in in_held])
        for j, i in enumerate(held):
            best = p[j]
            mine = owner[in_held] == i
            if mine.any():
                best = np.max(np.vstack([p[j], pw[mine]]), axis=0)
            out[texts[i]] = (p[j], best)
    return out


def refit(models: dict, chosen: dict, data: tuple[list[str], np.ndarray], emb: np.ndarray,
          lex: np.ndarray):  # type: ignore[no-untyped-def]
    """The models fitted again on `data` (train + validation) with the settings validation chose for them."""
    from assistant.search.incident_model import IncidentModel

    texts, y = data
    out = {}
    for prefix, m in models.items():
        w, b, a = fit(emb, lex, y, chosen[f"{prefix}_l2"], bool(m.embedder))
        out[prefix] = IncidentModel(m.ids, w, b, a * chosen[f"{prefix}_lexicon_share"], m.temperature, m.embedder)
    return out, fit_words(texts, y, chosen["words_c"])


def main() -> None:
    from assistant.incidents import load_incidents
    from assistant.search.embedders import model_key
    from assistant.search.incident_model import MODEL_FILE, IncidentModel, save_incident_models

    incidents = load_incidents()
    ids = sorted(incidents)
    train, val = stories("train"), stories("validation")
    tx, ty = examples(train, ids)
    ax, ay = taxonomy_examples(incidents, ids)
    vx, vy = examples(val, ids)
    print(f"train: {len(tx)} stories + {len(ax)} taxonomy texts; validation: {len(vx)} stories")
    emb, lex = features(tx + ax, ids)
    y = np.vstack([ty, ay])
    vemb, vlex = features(vx, ids)
    out, chosen, p_val = {}, {}, {}
    vlangs = [r["lang"] for r in val if any(i in incidents for i in r["incidents"])]
    for prefix, use_emb in (("full", True), ("lexicon", False)):
        loss, l2, temp, w, b, a, share = choose(emb, lex, y, vemb, vlex, vy, use_emb)
        print(f"{prefix}: l2 {l2}, temperature {temp}, lexicon weight {a:.2f} ({share} of train's), "
              f"validation log loss {loss:.3f}")
        chosen[f"{prefix}_lexicon_share"] = share
        p_val[prefix] = probs(w, b, a, vemb, vlex, temp)
        report(prefix, p_val[prefix], vy, vlangs)
        out[prefix] = IncidentModel(tuple(ids), w, b, a, temp, model_key(None) if use_emb else "")
        chosen[f"{prefix}_l2"] = l2
    loss, c, mix, words = choose_words(tx + ax, y, vx, vy, p_val["full"])
    chosen["words_c"] = c
    print(f"words: C {c}, mixed in with weight {mix}, validation log loss {loss:.3f}")
    report("mixed", (1 - mix) * p_val["full"] + mix * np.array([words.probabilities(t) for t in vx]), vy, vlangs)
    print("fitting again on train + validation with these settings", flush=True)
    out, words = refit(out, chosen, (tx + ax + vx, np.vstack([y, vy])), np.vstack([emb, vemb]), np.vstack([lex, vlex]))
    chosen["fitted_on_validation"] = 1.0
    save_incident_models(MODEL_FILE, ids, out, chosen, words, mix)
    print(f"wrote {MODEL_FILE} ({MODEL_FILE.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
