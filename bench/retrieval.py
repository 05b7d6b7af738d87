"""Retrieval quality on a question set: recall@1, recall@5, MRR@10 per language, and no-answer figures.

    python bench/retrieval.py [JSONL] [--model M] [--misses]
    python bench/retrieval.py --split validation|test [--misses]
    python bench/retrieval.py --split validation|test --stories [--misses]

Default set: ../shared/eval/dev-retrieval.jsonl (relative to the repository). Scored at law level, as in
eval/README.md: a hit is the primary law (or CCBA 2018 article) among the first k distinct laws. The same
run prints the pipeline, lexical-only and embedding-only columns. With --split, the pipeline is run on
the dev set and on that split of the project's question sets (bench/data/splits.py: laws-01-46,
laws-47-93, out-of-scope), printed side by side per language. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SET = REPO.parent / "shared" / "eval" / "dev-retrieval.jsonl"
METHODS = {
    "pipeline": (),                 # the search's own default: every method (assistant.search.hybrid.METHODS)
    "lexical": ("lexical",),
    "embedding": ("embedding",),
}


def gold_key(primary: str) -> str:
    """'64' -> 'law:64'; '第二十二条' -> 'article:22'."""
    from assistant.text import cn2int

    if primary.startswith("第"):
        return f"article:{cn2int(primary.strip('第条'))}"
    return f"law:{primary}"


def result_keys(answer) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{r.kind}:{r.number}" for r in answer.results] if answer.answered else []


def score(rows: list[dict], ranked: list[list[str]], answered: list[bool]) -> dict[str, dict[str, float]]:
    """Per language and overall: r@1, r@5, MRR@10 on answerable rows; no-answer figures."""
    agg: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row, keys, ok in zip(rows, ranked, answered, strict=True):
        for lang in (row["lang"], "all"):
            a = agg[lang]
            if row["primary"] is None:
                a["noans"] += 1
                a["declined"] += (not ok)
                continue
            a["n"] += 1
            a["wrongly_declined"] += (not ok)
            g = gold_key(row["primary"])
            rank = keys.index(g) + 1 if g in keys else None
            a["r1"] += rank == 1
            a["r5"] += bool(rank and rank <= 5)
            a["mrr"] += 1 / rank if rank and rank <= 10 else 0
    out: dict[str, dict[str, float]] = {}
    for lang, a in agg.items():
        n = a["n"] or 1
        out[lang] = {"n": a["n"], "recall@1": a["r1"] / n, "recall@5": a["r5"] / n, "mrr@10": a["mrr"] / n,
                     "no_answer": a["noans"], "declined": a["declined"],
                     "wrongly_declined": a["wrongly_declined"] / n}
    return out


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run(rows: list[dict], model: str | None = None, show_misses: bool = False,
        methods_run: dict[str, tuple[str, ...]] = METHODS) -> dict[str, dict[str, dict[str, float]]]:
    from assistant.resources import resources
    from assistant.search.hybrid import METHODS as DEFAULT_METHODS

    searcher = resources().searcher(model)
    report: dict[str, dict[str, dict[str, float]]] = {}
    for name, methods in methods_run.items():
        ranked, answered = [], []
        for row in rows:
            ans = searcher.search(row["query"], top=10, methods=methods or DEFAULT_METHODS)
            ranked.append(result_keys(ans))
            answered.append(ans.answered)
            if show_misses and name == "pipeline":
                g = gold_key(row["primary"]) if row["primary"] else None
                keys = result_keys(ans)
                if (g is None) == ans.answered or (g and keys[:1] != [g]):
                    print(f"  {row.get('id', '?')} {row['lang']:7s} gold={g} got={keys[:5]} "
                          f"support={ans.searched.get('support')} | {row['query'][:50]}")
        report[name] = score(rows, ranked, answered)
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("jsonl", nargs="?", default=str(DEFAULT_SET))
    ap.add_argument("--model", default=None, help="embedding model (default: use)")
    ap.add_argument("--misses", action="store_true", help="list the questions the pipeline misses at rank 1")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--split", choices=("train", "validation", "test"), default=None,
                    help="run the dev set and this split of the project's question sets, side by side")
    ap.add_argument("--sets", nargs="+", default=None,
                    help="with --split: only these question sets (bench/data/questions/<set>.jsonl)")
    ap.add_argument("--stories", action="store_true",
                    help="with --split: the story corpus's split instead of the question sets (plus two-incident figures)")
    args = ap.parse_args(argv)
    if args.split and args.stories:
        story_figures(args.split, args.model, args.misses, args.json)
        return
    if args.split:
        side_by_side(args.split, Path(args.jsonl), args.model, args.misses, args.json, args.sets)
        return
    report = run(read_rows(Path(args.jsonl)), args.model, args.misses)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return
    langs = [lang for lang in ("zh-Hans", "zh-Hant", "en", "all") if lang in report["pipeline"]]
    print(f"{'method':10s} {'lang':8s} {'n':>3s} {'R@1':>6s} {'R@5':>6s} {'MRR@10':>7s} "
          f"{'no-ans declined':>16s} {'answerable declined':>20s}")
    for name, per in report.items():
        for lang in langs:
            f = per[lang]
            print(f"{name:10s} {lang:8s} {int(f['n']):3d} {f['recall@1']:6.3f} {f['recall@5']:6.3f} "
                  f"{f['mrr@10']:7.3f} {int(f['declined']):>8d}/{int(f['no_answer']):<7d} "
                  f"{f['wrongly_declined']:20.3f}")



def side_by_side(split: str, dev: Path, model: str | None, misses: bool, as_json: bool,
                 sets: list[str] | None = None) -> None:
    """The pipeline on the dev set (its figures only) and on one split of the project's sets."""
    sys.path.insert(0, str(REPO / "bench" / "data"))
    from splits import QUESTION_SETS, questions

    only = {"pipeline": ()}
    reports = {"dev": run(read_rows(dev), model, False, only)["pipeline"],
               split: run(questions(split, tuple(sets or QUESTION_SETS)), model, misses, only)["pipeline"]}
    if as_json:
        json.dump(reports, sys.stdout, indent=2)
        print()
        return
    print(f"{'set':10s} {'lang':8s} {'n':>4s} {'R@1':>6s} {'R@5':>6s} {'MRR@10':>7s} "
          f"{'no-ans declined':>16s} {'answerable declined':>20s}")
    for lang in ("zh-Hans", "zh-Hant", "en", "all"):
        for name, per in reports.items():
            if lang not in per:
                continue
            f = per[lang]
            print(f"{name:10s} {lang:8s} {int(f['n']):4d} {f['recall@1']:6.3f} {f['recall@5']:6.3f} "
                  f"{f['mrr@10']:7.3f} {int(f['declined']):>8d}/{int(f['no_answer']):<7d} "
                  f"{f['wrongly_declined']:20.3f}")


def story_figures(split: str, model: str | None, misses: bool, as_json: bool) -> None:
    """The pipeline on one split of the story corpus: top 1 / top 5 / MRR@10 of the first incident's law
    per language, and for two-incident stories whether both laws are in the top 5."""
    sys.path.insert(0, str(REPO / "bench" / "data"))
    from splits import stories

    rows = [{**r, "query": r["text"]} for r in stories(split)]
    from assistant.resources import resources

    searcher = resources().searcher(model)
    ranked = [result_keys(searcher.search(r["query"], top=10)) for r in rows]
    report = score(rows, ranked, [True] * len(rows))
    both: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r, keys in zip(rows, ranked, strict=True):
        if r.get("also"):
            ok = all(gold_key(p) in keys[:5] for p in [r["primary"], *r["also"][:1]])
            for lang in (r["lang"], "all"):
                both[lang][0] += ok
                both[lang][1] += 1
        if misses and keys[:1] != [gold_key(r["primary"])]:
            print(f"  {r['id']} gold={gold_key(r['primary'])} got={keys[:5]} | {r['text'][:60]}")
    if as_json:
        json.dump({"stories": report, "two_incidents": dict(both)}, sys.stdout, indent=2)
        print()
        return
    print(f"stories, {split} split: {'lang':8s} {'n':>4s} {'top1':>6s} {'top5':>6s} {'MRR@10':>7s} {'both in top 5':>14s}")
    for lang in ("zh-Hans", "zh-Hant", "en", "all"):
        if lang in report:
            f, b = report[lang], both.get(lang, [0, 0])
            pair = f"{b[0]}/{b[1]} {b[0] / b[1]:.2f}" if b[1] else "-"
            print(f"{'':21s}{lang:8s} {int(f['n']):4d} {f['recall@1']:6.3f} {f['recall@5']:6.3f} {f['mrr@10']:7.3f} {pair:>14s}")


if __name__ == "__main__":
    main()
