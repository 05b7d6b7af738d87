"""Train the search's learned models and write assistant/search/models.json (assistant.search.learned).

    .venv/bin/python bench/data/train_search_models.py [--cache FILE]

Data (all made by the project, in the repository):
  ranker         the question sets' and the story corpus's train split (bench/data/splits.py), those with
                 a primary law or article; the temperature is chosen on the validation split. The train and
                 validation stories' incident readings are out-of-fold (bench/data/train_incident_model.py, run
                 first, fits the shipped reader on both splits).
  answerability  in scope: the table situations (assistant/data/scenarios), the train split's
                 answerable questions and stories; out of scope: the train split of the out-of-scope sets and
                 out-of-scope-train.jsonl (written for training only). L2 strength, Platt scaling and the
                 decline threshold are chosen on the validation split.
Never reads the test split, the dev set or cross-topic.jsonl. Deterministic (full-batch gradient descent).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from ranker_trees import fit_trees, nll_u, top1  # noqa: E402
from splits import questions, stories  # noqa: E402

OOS_TRAIN = HERE / "questions" / "out-of-scope-train.jsonl"
MAX_WRONGLY_DECLINED = 0.015    # the decline threshold keeps answerable declines below this (train and validation)
QUESTION_WEIGHT = 4.0           # a question's weight against a table situation's in the answerability training
OOS_SHARE = 0.5                 # the out-of-scope examples' total weight against the in-scope ones
RANKER_L2S = (1e-4, 1e-3)      # the ranker's L2 strength, chosen on validation (log loss)
HIGH_PRECISION = 0.85           # confidence high from the chance at which validation's first results are this right


def as_question(story: dict) -> dict:
    """A table story as a question row (its text is the query; its primary law the gold)."""
    return {"query": story["text"], "primary": story["primary"], "lang": story["lang"], "group": story["group"],
            "story": True}


def gold_key(primary: str) -> str:
    from assistant.text import cn2int

    return f"article:{cn2int(primary.strip('第条'))}" if primary.startswith("第") else f"law:{primary}"


def searcher():  # type: ignore[no-untyped-def]
    """The searcher with neutral models (features do not depend on them)."""
    from assistant.resources import resources
    from assistant.search.fusion import FEATURES, Ranker
    from assistant.search.hybrid import HybridSearch
    from assistant.search.learned import SUMMARY, Answerability, Models

    zero = Answerability(np.zeros(len(SUMMARY)), 0.0, np.zeros(len(SUMMARY)), np.ones(len(SUMMARY)), False)
    models = Models(Ranker(np.zeros(len(FEATURES))), zero, zero, "", 0.0, 1.0)
    return HybridSearch(None, topics=resources().topics, models=models)  # noqa: RET504


def extract(s, texts: list[str], cache: dict[str, dict]) -> None:  # type: ignore[no-untyped-def]
    """Evidence of each text not yet in `cache`: query vector, summaries, the candidates' channel scores
    (the incident channels are read in `featurise`)."""
    from assistant.search.fusion import story_weight
    from assistant.search.hybrid import CJK

    t0, todo = time.perf_counter(), [t for t in dict.fromkeys(texts) if t not in cache]
    for i, text in enumerate(todo):
        a = s.analyse(text)
        cache[text] = {"qv": a.qv.astype(np.float32), "summary": a.summary, "ch": a.ch, "valid": a.valid,
                       "hand": a.hand, "zh": bool(CJK.search(a.q.text)),
                       "story": story_weight(a.q.text)}
        if i % 500 == 499:
            print(f"  {i + 1}/{len(todo)} in {time.perf_counter() - t0:.0f} s", flush=True)


def featurise(s, cache: dict[str, dict], oof: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:  # type: ignore[no-untyped-def]
    """The ranker's rows for the candidates of each cached text (fusion.features). The incident channels
    are read again here (the cache holds the other channels), from the out-of-fold chances for the
    training stories (`oof`: whole and best window) and from the shipped reader for every other text."""
    from assistant.search.fusion import candidates_of, features
    from assistant.search.incident_model import incident_channels

    for text, f in cache.items():
        if text in oof:
            p, p_seg = oof[text]
        else:
            p = s.read_incidents(text, f["qv"].astype(np.float64))
            p_seg = s.read_segments(text, p)
        f["ch"].update(incident_channels(p, s.incident_laws["incident_primary"], s.incident_laws["incident_listed"],
                                         p_seg))
        x = features(f["ch"], f["valid"], s.group_kind, f["zh"], f["hand"], s.tuning.rrf_k, story=f["story"])
        idx = np.flatnonzero(candidates_of(f["ch"], f["valid"]))
        f["x"], f["groups"] = x[idx], [s.group_names[j] for j in idx]


def adam(grad, w: np.ndarray, steps: int = 600, lr: float = 0.05) -> np.ndarray:  # type: ignore[no-untyped-def]
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        g = grad(w)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w = w - lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return w


def ranker_data(rows: list[dict], cache: dict[str, dict]) -> list[tuple[np.ndarray, int]]:
    out = []
    for r in rows:
        if r["primary"] is None:
            continue
        f = cache[r["query"]]
        g = gold_key(r["primary"])
        if g in f["groups"]:
            out.append((f["x"], f["groups"].index(g)))
    return out


def calibration(pairs: list[tuple[float, bool]]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Isotonic calibration of the first result's chance on validation: knots (x, y) of a monotone map
    from the softmax's chance to how often a first result with that chance was right."""
    from sklearn.isotonic import IsotonicRegression

    x = np.array([p for p, _ in pairs])
    y = np.array([float(ok) for _, ok in pairs])
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(x, y)
    xs = np.r_[0.0, iso.X_thresholds_, 1.0]
    ys = np.r_[0.0, iso.y_thresholds_, iso.y_thresholds_[-1]]
    return tuple(float(v) for v in xs), tuple(float(v) for v in ys)


def train_ranker(data: list[tuple[np.ndarray, int]], l2: float = 1e-3) -> np.ndarray:
    """Conditional logit: maximise log softmax(X w)[gold] over the training questions."""
    def grad(w: np.ndarray) -> np.ndarray:
        g = l2 * w
        for x, gold in data:
            u = x @ w
            p = np.exp(u - u.max())
            p /= p.sum()
            g += (x.T @ p - x[gold]) / len(data)
        return g
    return adam(grad, np.zeros(data[0][0].shape[1]))


def softmax(u: np.ndarray) -> np.ndarray:
    e = np.exp(u - u.max())
    return e / e.sum()


def nll(data: list[tuple[np.ndarray, int]], w: np.ndarray, temp: float) -> float:
    return nll_u([(x @ w, gold) for x, gold in data], temp)


def train_logistic(x: np.ndarray, y: np.ndarray, l2: float, sw: np.ndarray) -> tuple[np.ndarray, float]:
    """L2 logistic regression with sample weights `sw`; returns (w, b)."""
    wt = sw / sw.mean()

    def grad(wb: np.ndarray) -> np.ndarray:
        z = x @ wb[:-1] + wb[-1]
        err = wt * (1 / (1 + np.exp(-np.clip(z, -40, 40))) - y) / len(y)
        return np.r_[x.T @ err + l2 * wb[:-1], err.sum()]
    wb = adam(grad, np.zeros(x.shape[1] + 1), steps=800, lr=0.02)
    return wb[:-1], float(wb[-1])


def sample_weights(y: np.ndarray, is_question: np.ndarray) -> np.ndarray:
    """Questions count QUESTION_WEIGHT times a table situation (they are what users type); the
    out-of-scope examples together weigh OOS_SHARE of the in-scope ones (not an equal half: the
    boundary must not move into the answerable questions)."""
    sw = np.where(is_question, QUESTION_WEIGHT, 1.0)
    inside = sw[y == 1].sum()
    sw[y == 0] *= OOS_SHARE * inside / max(sw[y == 0].sum(), 1e-9)
    return sw


def platt(z: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Scale a, shift c so that sigmoid(a z + c) is calibrated on (z, y)."""
    def grad(ac: np.ndarray) -> np.ndarray:
        p = 1 / (1 + np.exp(-np.clip(ac[0] * z + ac[1], -40, 40)))
        return np.array([((p - y) * z).mean(), (p - y).mean()])
    a, c = adam(grad, np.array([1.0, 0.0]), steps=1500, lr=0.01)
    return float(a), float(c)


def answer_xy(texts: list[str], labels: list[int], cache: dict[str, dict], mu: np.ndarray, sd: np.ndarray,
              embedding: bool) -> tuple[np.ndarray, np.ndarray]:
    rows = []
    for t in texts:
        z = (cache[t]["summary"] - mu) / sd
        rows.append(np.r_[cache[t]["qv"], z] if embedding else z)
    return np.array(rows, dtype=np.float64), np.array(labels, dtype=np.float64)


def answer_model(train: tuple[list[str], list[int]], val: tuple[list[str], list[int]], cache: dict[str, dict],
                 mu: np.ndarray, sd: np.ndarray, embedding: bool, sw: np.ndarray) -> tuple[np.ndarray, float, dict]:
    """The L2 strength chosen on validation (log loss after Platt scaling); Platt folded into (w, b)."""
    xt, yt = answer_xy(*train, cache, mu, sd, embedding)
    xv, yv = answer_xy(*val, cache, mu, sd, embedding)
    best = None
    for l2 in (1e-4, 1e-3, 1e-2):
        w, b = train_logistic(xt, yt, l2, sw)
        a, c = platt(xv @ w + b, yv)
        p = 1 / (1 + np.exp(-np.clip(a * (xv @ w + b) + c, -40, 40)))
        loss = -np.mean(yv * np.log(p + 1e-12) + (1 - yv) * np.log(1 - p + 1e-12))
        if best is None or loss < best[0]:
            best = (loss, a * w, a * b + c, l2, p)
    loss, w, b, l2, p = best  # type: ignore[misc]
    return w, b, {"l2": l2, "val_logloss": round(float(loss), 4), "p_val": p, "y_val": yv}


def fit_scope_words(texts: list[str], y: np.ndarray, sw: np.ndarray, c: float):  # type: ignore[no-untyped-def]
    """The scope word model (assistant.search.word_model.WordModel, rows: out of scope, in scope): tf-idf +
    weighted logistic regression on the answerability training texts."""
    from sklearn.linear_model import LogisticRegression

    from assistant.search.word_model import WordModel
    from train_incident_model import vectorizer

    vec = vectorizer(min_df=1)
    x = vec.fit_transform(texts)
    lr = LogisticRegression(C=c, max_iter=3000).fit(x, y, sample_weight=sw)
    half, b = lr.coef_[0] / 2, float(lr.intercept_[0]) / 2
    return WordModel({t: int(i) for t, i in vec.vocabulary_.items()}, vec.idf_, np.vstack([-half, half]),
                     np.array([-b, b]))


def stack(cols: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights (one per column, then the intercept) of the logistic combination of `cols` fitted on (cols, y)."""
    x = np.c_[cols, np.ones(len(y))]

    def grad(wb: np.ndarray) -> np.ndarray:
        p = 1 / (1 + np.exp(-np.clip(x @ wb, -40, 40)))
        return x.T @ (p - y) / len(y)
    return adam(grad, np.r_[1.0, np.zeros(cols.shape[1])], steps=3000, lr=0.01)   # start: the first column as is


def with_scope_words(texts: tuple[list[str], list[int]], sw: np.ndarray, val: tuple[list[str], list[int]],
                     answers: list[tuple[np.ndarray, float, dict]], cache: dict[str, dict], mu: np.ndarray,
                     sd: np.ndarray):  # type: ignore[no-untyped-def]
    """The scope word model (C chosen on validation) stacked on each answerability model: the word model's
    logit joins the model's own logit in a logistic combination fitted on validation (the word model is fitted
    on train, so its train logits are overconfident; validation sees it as the search will). Returns the word
    model and, per answerability model, (w, b, words weight, validation chances)."""
    yv = np.array(val[1], dtype=np.float64)
    best = None
    for c in (1.0, 3.0, 10.0, 30.0):
        words = fit_scope_words(texts[0], np.array(texts[1]), sw, c)
        lw = np.array([words.logit(t) for t in val[0]])
        loss, out = 0.0, []
        for (w, b, _info), embedding in zip(answers, (True, False), strict=True):
            xv, _ = answer_xy(*val, cache, mu, sd, embedding)
            a, ww, d = stack(np.c_[xv @ w + b, lw], yv)
            p = 1 / (1 + np.exp(-np.clip(a * (xv @ w + b) + ww * lw + d, -40, 40)))
            loss += -np.mean(yv * np.log(p + 1e-12) + (1 - yv) * np.log(1 - p + 1e-12))
            out.append((a * w, a * b + d, float(ww), p))
        print(f"  scope words C {c}: validation log loss (both models) {loss:.4f}", flush=True)
        if best is None or loss < best[0]:
            best = (loss, words, out, c)
    return best[1], best[2], best[3]  # type: ignore[index]


def high_threshold(pairs: list[tuple[float, bool]]) -> float:
    """The lowest first-result chance from which validation's first results are right HIGH_PRECISION of the time."""
    best = 1.0
    for p_top, _ in sorted(pairs, reverse=True):
        sure = [ok for p, ok in pairs if p >= p_top]
        if np.mean(sure) >= HIGH_PRECISION:
            best = p_top
    return float(best)


def decline_threshold(p: np.ndarray, y: np.ndarray) -> float:
    """The highest threshold that declines at most MAX_WRONGLY_DECLINED of validation's answerable questions."""
    answerable = np.sort(p[y == 1])
    k = int(np.floor(MAX_WRONGLY_DECLINED * len(answerable)))
    return float(answerable[k]) if len(answerable) else 0.5


def main(argv: list[str] | None = None) -> None:
    from assistant.search.fusion import recalibrate
    from assistant.search.learned import MODELS_FILE, save_models
    from assistant.search.trees import trees_fields
    from assistant.search.word_model import word_model_fields
    from assistant.search.embedders import model_key
    from assistant.search.query import game_of
    from assistant.search.scenarios import load_scenarios

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default=None, help="a scratch file keeping the features (and, beside it, the "
                    "out-of-fold readings) between runs (pickle; only for iterating on the training itself: delete "
                    "both when search code or the incident reader changes)")
    args = ap.parse_args(argv)
    train_stories = [as_question(r) for r in stories("train")]
    train = questions("train") + train_stories
    val = questions("validation") + [as_question(r) for r in stories("validation")]
    extra = [json.loads(x) for x in OOS_TRAIN.read_text(encoding="utf-8").splitlines() if x.strip()]
    situations = [sc.text for sc in load_scenarios()]
    s = searcher()
    cache: dict[str, dict] = {}
    scratch = Path(args.cache) if args.cache else None
    if scratch and scratch.is_file():
        cache = pickle.loads(scratch.read_bytes())
    from train_incident_model import out_of_fold

    oof_file = scratch.with_suffix(".oof") if scratch else None
    if oof_file and oof_file.is_file():
        oof = pickle.loads(oof_file.read_bytes())
    else:
        oof = out_of_fold(stories("train") + stories("validation"))   # the shipped reader saw both splits
        if oof_file:
            oof_file.write_bytes(pickle.dumps(oof))
    extract(s, [r["query"] for r in train + val + extra] + situations, cache)
    if scratch:
        scratch.write_bytes(pickle.dumps(cache))
    featurise(s, cache, oof)

    data = ranker_data(train, cache)
    vdata = ranker_data(val, cache)
    fits = []
    for l2 in RANKER_L2S:
        w = train_ranker(data, l2)
        loss, t = min((nll(vdata, w, t), t) for t in np.arange(0.3, 3.01, 0.1))
        print(f"  ranker l2 {l2}: validation log loss {loss:.4f} (temperature {t:.1f})", flush=True)
        fits.append((loss, l2, t, w))
    lin_loss, ranker_l2, temp, w_rank = min(fits, key=lambda f: f[0])
    trees, tree_temp, tree_loss = fit_trees(data, vdata, w_rank)
    print(f"  ranker on validation: linear log loss {lin_loss:.4f}, top 1 {top1(vdata, lambda x: x @ w_rank):.3f}; "
          f"trees log loss {tree_loss:.4f}, top 1 {top1(vdata, lambda x: trees.decision(np.c_[x, x @ w_rank])):.3f}",
          flush=True)
    if tree_loss >= lin_loss:
        trees = None
    else:
        temp = tree_temp
    utility = (lambda x: x @ w_rank) if trees is None else (lambda x: trees.decision(np.c_[x, x @ w_rank]))
    # Guandan questions are in scope by their own markers (the classifier never sees them at search time)
    bridge = [r for r in train + extra if game_of(r["query"]) == "bridge"]
    tr_texts = situations + [r["query"] for r in bridge]
    tr_y = [1] * len(situations) + [int(r["primary"] is not None) for r in bridge]
    summ = np.array([cache[t]["summary"] for t in tr_texts])
    mu, sd = summ.mean(axis=0), summ.std(axis=0) + 1e-6
    val_bridge = [r for r in val if game_of(r["query"]) == "bridge"]
    va = ([r["query"] for r in val_bridge], [int(r["primary"] is not None) for r in val_bridge])
    sw = sample_weights(np.array(tr_y), np.arange(len(tr_texts)) >= len(situations))
    full = answer_model((tr_texts, tr_y), va, cache, mu, sd, True, sw)
    summ_only = answer_model((tr_texts, tr_y), va, cache, mu, sd, False, sw)
    scope, stacked, scope_c = with_scope_words((tr_texts, tr_y), sw, va, [full, summ_only], cache, mu, sd)
    (w_full, b_full, ww_full, p_full), (w_sum, b_sum, ww_sum, _) = stacked
    info_full, info_sum = dict(full[2], p_val=p_full), summ_only[2]
    # the threshold must hold on validation's and the train split's short questions (stories, always in
    # scope and easy to tell so, would dilute the share of answerable questions declined)
    asked = [r for r in bridge if not r.get("story")]
    xq, yq = answer_xy([r["query"] for r in asked], [int(r["primary"] is not None) for r in asked],
                       cache, mu, sd, True)
    lq = np.array([scope.logit(r["query"]) for r in asked])
    p_train = 1 / (1 + np.exp(-np.clip(xq @ w_full + b_full + ww_full * lq, -40, 40)))
    short = np.array([not r.get("story") for r in val_bridge])
    thr = min(decline_threshold(info_full["p_val"][short], info_full["y_val"][short]),
              decline_threshold(p_train, yq))
    # and one per question language (English questions are declined more often at one shared threshold)
    v_lang, t_lang = np.array([r["lang"] for r in val_bridge]), np.array([r["lang"] for r in asked])
    by_lang = {lang: min(decline_threshold(info_full["p_val"][short & (v_lang == lang)],
                                           info_full["y_val"][short & (v_lang == lang)]),
                         decline_threshold(p_train[t_lang == lang], yq[t_lang == lang]))
               for lang in sorted(set(v_lang[short]))}
    for lang, t in by_lang.items():
        m = short & (v_lang == lang)
        pv_l, yv_l = info_full["p_val"][m], info_full["y_val"][m]
        print(f"  decline below {t:.3f} in {lang}: validation no-answer declined {np.mean(pv_l[yv_l == 0] < t):.3f}, "
              f"answerable declined {np.mean(pv_l[yv_l == 1] < t):.3f}")
    print(f"decline below {thr:.3f}: train questions no-answer declined {np.mean(p_train[yq == 0] < thr):.3f}, "
          f"answerable declined {np.mean(p_train[yq == 1] < thr):.3f}")
    pv, yv = info_full["p_val"][short], info_full["y_val"][short]
    print(f"ranker: {len(data)} train questions, l2 {ranker_l2}, weights {np.round(w_rank, 2).tolist()}, temperature {temp:.1f}")
    print(f"answerability: {len(tr_texts)} train texts ({sum(tr_y)} in scope); l2 {info_full['l2']}, "
          f"validation log loss {info_full['val_logloss']} (summary-only {info_sum['val_logloss']}); "
          f"scope words C {scope_c}, weight {ww_full:.2f} (summary-only {ww_sum:.2f})")
    print(f"decline below {thr:.3f}: validation no-answer declined {np.mean(pv[yv == 0] < thr):.3f}, "
          f"answerable declined {np.mean(pv[yv == 1] < thr):.3f}")
    raw = [(float(np.max(softmax(utility(x) / temp))), int(np.argmax(utility(x))) == gold) for x, gold in vdata]
    knots = calibration(raw)
    print(f"calibration (validation, isotonic): {len(knots[0])} knots; a chance of 0.9 reads "
          f"{float(np.interp(0.9, *knots)):.2f}, 0.5 reads {float(np.interp(0.5, *knots)):.2f}")
    high = [(float(recalibrate(np.array([p]), knots)[0]), ok) for p, ok in raw]
    high_from = high_threshold(high)
    sure = [ok for p_top, ok in high if p_top >= high_from]
    print(f"validation: first result right {np.mean([ok for _, ok in high]):.3f}; confidence high (from {high_from:.2f}) for "
          f"{len(sure)}/{len(high)}, of which right {np.mean(sure) if sure else 0:.3f}")
    save_models(MODELS_FILE, {"ranker_w": w_rank, "ranker_temperature": np.array(temp),
                              **(trees_fields(trees, "ranker_trees") if trees is not None else {}),
                              "ranker_knots_x": np.array(knots[0]), "ranker_knots_y": np.array(knots[1]),
                              "answer_full_w": w_full, "answer_full_b": np.array(b_full),
                              "answer_summary_w": w_sum, "answer_summary_b": np.array(b_sum),
                              "answer_full_words": np.array(ww_full), "answer_summary_words": np.array(ww_sum),
                              **word_model_fields(scope, "scope_words"),
                              "summary_mu": mu, "summary_sd": sd, "embedder": np.array(model_key(None)),
                              "decline_below": np.array(thr), "high_from": np.array(high_from),
                              "decline_langs": np.array(list(by_lang)), "decline_by_lang": np.array(list(by_lang.values()))})
    print(f"wrote {MODELS_FILE}")


if __name__ == "__main__":
    main()
