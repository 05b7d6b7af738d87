"""Train the in-domain embedding model from the corpus's own parallel text (`bridgelaw train-embedder`).

Pairs: wbf2017 EN <-> zh-Hant clauses, ccba2018 zh-Hans <-> wbf2017 zh-Hant (same law path), titles <->
bodies, defined terms <-> definitions. Starts from the packaged all-MiniLM-L6-v2 and fine-tunes it with
in-batch negatives (multiple-negatives ranking loss) in a plain torch loop, so no extra training
libraries are needed. The result is saved under the cache root's models/ folder and loads as `--model indomain`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from ..text import t2s
from .embedders import indomain_path, minilm_path

MIN_CHARS = 8


@dataclass
class TrainReport:
    pairs: int
    steps: int
    seconds: float
    path: Path
    loss_first: float
    loss_last: float


def parallel_pairs(corpus) -> list[tuple[str, str]]:
    """(anchor, positive) texts from the corpus; Chinese in simplified script, as the index embeds it."""
    pairs: list[tuple[str, str]] = []
    wbf = corpus.editions["wbf2017"].clauses
    ccba2018 = corpus.editions["ccba2018"].clauses

    def ok(*xs: str) -> bool:
        return all(x and len(x) >= MIN_CHARS for x in xs)

    for cid, c in wbf.items():
        en, zh = c.text.get("en", ""), t2s(c.text.get("zh-Hant", ""))
        if ok(en, zh):
            pairs.append((en[:400], zh[:400]))
        twin = ccba2018.get(cid.replace("wbf2017/", "ccba2018/", 1))
        if twin is not None and ok(zh, twin.text.get("zh-Hans", "")):
            pairs.append((twin.text["zh-Hans"][:400], zh[:400]))
        if twin is not None and ok(en, twin.text.get("zh-Hans", "")):
            pairs.append((twin.text["zh-Hans"][:400], en[:400]))
    for ed in corpus.editions.values():
        if ed.name == "guandan2017":
            continue
        for c in ed.clauses.values():
            for lang, title in {**c.title, **c.term}.items():
                body = c.text.get(lang, "")
                if len(title) >= 2 and ok(body):
                    pairs.append((t2s(title), t2s(body)[:400]))
    return pairs


def train_embedder(epochs: int = 1, batch_size: int = 32, max_pairs: int = 4000, seed: int = 13,
                   out: Path | None = None) -> TrainReport:
    """Fine-tune MiniLM on the parallel pairs and save it; returns what was done."""
    import torch
    from sentence_transformers import SentenceTransformer

    from ..corpus import load_corpus

    t0 = time.perf_counter()
    torch.manual_seed(seed)
    rng = random.Random(seed)
    pairs = parallel_pairs(load_corpus())
    rng.shuffle(pairs)
    pairs = pairs[:max_pairs]
    model = SentenceTransformer(str(minilm_path()), device="cpu")
    model.max_seq_length = 128
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-5)
    scale = 20.0
    losses: list[float] = []
    steps = 0
    for _ in range(epochs):
        rng.shuffle(pairs)
        for i in range(0, len(pairs) - 1, batch_size):
            batch = pairs[i:i + batch_size]
            if len(batch) < 2:
                continue
            embs = []
            for side in (0, 1):
                feats = (getattr(model, "preprocess", None) or model.tokenize)([p[side] for p in batch])
                emb = model(feats)["sentence_embedding"]
                embs.append(torch.nn.functional.normalize(emb, dim=-1))
            sims = embs[0] @ embs[1].T * scale
            labels = torch.arange(len(batch))
            loss = (torch.nn.functional.cross_entropy(sims, labels)
                    + torch.nn.functional.cross_entropy(sims.T, labels)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
            steps += 1
    path = out or indomain_path()
    path.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.save(str(path))
    return TrainReport(len(pairs), steps, time.perf_counter() - t0, path,
                       losses[0] if losses else 0.0, sum(losses[-10:]) / max(len(losses[-10:]), 1))
