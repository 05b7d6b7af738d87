"""Search latency: full index build, cold start, warm query p50/p95, peak RSS. Prints figures only.

    python bench/latency.py [--model M] [--queries JSONL] [--repeat N] [--stories N]

The build runs in a fresh temporary cache (so it really builds); cold start is a new Python process that
loads the saved index and answers one question; warm latency is measured over the question set.
Targets: p95 warm query <= 30 ms, full index build <= 20 s on 2 cores (issue 14); p95 <= 50 ms for stories
up to 1,000 characters (issue 21).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench" / "data"))
from splits import stories  # noqa: E402
DEFAULT_SET = REPO.parent / "shared" / "eval" / "dev-retrieval.jsonl"
COLD = ("import time; t=time.perf_counter(); from assistant.resources import resources; "
        "resources().searcher({model!r}).search('dummy points at a card'); print(time.perf_counter()-t)")


def warm(searcher, texts: list[str], repeat: int, label: str) -> None:  # type: ignore[no-untyped-def]
    """p50 / p95 / max of answering each text `repeat` times (after one warm-up answer)."""
    searcher.search(texts[0])
    times: list[float] = []
    for _ in range(repeat):
        for q in texts:
            t0 = time.perf_counter()
            searcher.search(q)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p = lambda f: times[min(len(times) - 1, int(f * len(times)))]  # noqa: E731
    print(f"{label} ({len(times)} runs): p50 {p(0.50):.1f} ms   p95 {p(0.95):.1f} ms   max {times[-1]:.1f} ms")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=None)
    ap.add_argument("--queries", default=str(DEFAULT_SET))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--stories", type=int, default=0, metavar="N",
                    help="also time N stories of the story corpus's validation split, and 1,000-character stories")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["BRIDGELAW_CACHE"] = tmp
        from assistant.corpus import load_corpus
        from assistant.artifact import artifact
        from assistant.resources import resources
        from assistant.search.index import build_index, index_key, load_index, save_index

        t0 = time.perf_counter()
        corpus = load_corpus()
        t_parse = time.perf_counter() - t0
        ix = build_index(args.model, corpus)          # timed inside: docs, BM25, embeddings
        print(f"corpus parse:            {t_parse:8.2f} s")
        print(f"index build (full):      {ix.build_seconds:8.2f} s   ({len(ix.docs)} documents)")
        artifact("index").save(index_key(ix.params), lambda folder: save_index(ix, folder))
        t0 = time.perf_counter()
        load_index(args.model)
        print(f"index load from disk:    {time.perf_counter() - t0:8.2f} s")
        env = dict(os.environ, BRIDGELAW_CACHE=tmp)
        out = subprocess.run([sys.executable, "-c", COLD.format(model=args.model)], env=env,
                             capture_output=True, text=True, check=True)
        print(f"cold start (new process, first answer): {float(out.stdout.strip().splitlines()[-1]):.2f} s")
        searcher = resources().searcher(args.model)
        rows = [json.loads(x)["query"] for x in Path(args.queries).read_text(encoding="utf-8").splitlines() if x.strip()]
        warm(searcher, rows, args.repeat, "warm query")
        if args.stories:
            by_lang: dict[str, list[str]] = {}
            for r in stories("validation"):
                by_lang.setdefault(r["lang"], []).append(r["text"])
            per = args.stories // len(by_lang)     # the same number in each language, so a 1,000-character
            texts = [t for lang in sorted(by_lang) for t in by_lang[lang][:per]]   # story is one language
            warm(searcher, texts, 1, "warm story (100-400 chars)")
            long = [" ".join(texts[i:i + 4])[:1000] for i in range(0, len(texts) - 3, 4)]
            warm(searcher, long, 1, "warm story (1,000 chars)")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS (this process): {rss:.0f} MB")


if __name__ == "__main__":
    main()
