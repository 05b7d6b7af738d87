"""Which embedder reads table stories best: the incident reader trained on each packaged embedder's vectors
(plus the lexicon), on the story corpus's train split, its L2 and temperature chosen on validation, then
scored on validation and test (incident top 1 / top 3, and the primary law top 1 from the incident read).

    .venv/bin/python bench/incident_embedders.py [--models use minilm]

Prints figures, writes nothing: the shipped reader (assistant/search/incident_model.json) is trained by
bench/data/train_incident_model.py with the embedder these figures choose.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench" / "data"))
from splits import stories  # noqa: E402
from train_incident_model import choose, examples, features, probs, taxonomy_examples  # noqa: E402


def law_of(incidents: dict, iid: str) -> str:
    return incidents[iid].primary.split("/")[2] if "/law/" in incidents[iid].primary else incidents[iid].primary


def figures(p: np.ndarray, y: np.ndarray, rows: list[dict], ids: list[str], incidents: dict) -> dict[str, float]:
    first, top = y.argmax(axis=1), np.argsort(-p, axis=1)
    law_hit = [law_of(incidents, ids[top[i, 0]]) == law_of(incidents, ids[first[i]]) for i in range(len(first))]
    return {"incident@1": float((top[:, 0] == first).mean()),
            "incident@3": float(np.mean([first[i] in top[i, :3] for i in range(len(first))])),
            "law@1": float(np.mean(law_hit))}


def main() -> None:
    from assistant.incidents import load_incidents

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", default=["use", "minilm"])
    args = ap.parse_args()
    incidents = load_incidents()
    ids = sorted(incidents)
    sets = {s: [r for r in stories(s) if r["incidents"][0] in incidents] for s in ("train", "validation", "test")}
    tx, ty = examples(sets["train"], ids)
    ax, ay = taxonomy_examples(incidents, ids)
    y = np.vstack([ty, ay])
    print(f"{'embedder':10s} {'split':10s} {'n':>5s} {'incident@1':>10s} {'incident@3':>10s} {'law@1':>6s} {'encode s':>8s}")
    for model in args.models:
        t0 = time.perf_counter()
        emb, lex = features(tx + ax, ids, model)
        split_x = {s: features(examples(sets[s], ids)[0], ids, model) for s in ("validation", "test")}
        seconds = time.perf_counter() - t0
        vy = examples(sets["validation"], ids)[1]
        _loss, _l2, temp, w, b, a = choose(emb, lex, y, *split_x["validation"], vy, True)
        for s in ("validation", "test"):
            sy = examples(sets[s], ids)[1]
            f = figures(probs(w, b, a, *split_x[s], temp), sy, sets[s], ids, incidents)
            print(f"{model:10s} {s:10s} {len(sy):5d} {f['incident@1']:10.3f} {f['incident@3']:10.3f} "
                  f"{f['law@1']:6.3f} {seconds:8.0f}")


if __name__ == "__main__":
    main()
