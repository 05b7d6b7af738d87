"""Change report build time and class counts, and the law classes 1999 → 2017 against the project's gold
(bench/data/diff-gold/*.yaml): precision and recall per class on the tune part (odd laws) and, reported
apart, on the held-out part (even laws). Prints figures, asserts nothing.

    .venv/bin/python bench/diff.py [--gold DIR] [--errors] [--part tune|held-out] [--pairs]

`--part tune` prints the tune part alone (the held-out figures are to be looked at rarely, bench/data/README.md);
`--pairs` lists every tune-part pair the report calls `substantive`, with the elements and values it says
changed and whether the gold names the pair, to find the pair-level causes of a false `substantive`.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import yaml

GOLD = Path(__file__).resolve().parent / "data" / "diff-gold"
CLASSES = ("unchanged", "terminology", "reference", "reworded", "restructured", "substantive", "new", "removed")


def part(law: str) -> str:
    """The gold's split (bench/data/README.md, 'diff gold'): odd laws tune the rules, even laws are held out."""
    return "tune" if int(law) % 2 else "held-out"


def load_gold(folder: Path) -> dict[str, dict[str, object]]:
    """Law number -> gold entry, from every YAML file of the folder (a list, or a mapping with `laws`)."""
    out: dict[str, dict[str, object]] = {}
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        entries = data.get("laws", data.get("entries", [])) if isinstance(data, dict) else data
        for e in entries:
            out[str(e["law"])] = e
    return out


def scores(pairs: list[tuple[str, str]]) -> dict[str, tuple[float | None, float | None, int, int]]:
    """Per class: precision, recall (None where undefined), gold count, predicted count."""
    out = {}
    for c in CLASSES:
        tp = sum(1 for g, p in pairs if g == c and p == c)
        n_gold = sum(1 for g, _ in pairs if g == c)
        n_pred = sum(1 for _, p in pairs if p == c)
        out[c] = (tp / n_pred if n_pred else None, tp / n_gold if n_gold else None, n_gold, n_pred)
    return out


def _fmt(x: float | None) -> str:
    return "  —  " if x is None else f"{x:.3f}"


def print_scores(name: str, pairs: list[tuple[str, str]]) -> None:
    acc = sum(g == p for g, p in pairs) / len(pairs) if pairs else 0.0
    print(f"\n{name}: {len(pairs)} laws, accuracy {acc:.3f}")
    print(f"  {'class':<13} {'precision':>9} {'recall':>7} {'gold':>5} {'predicted':>9}")
    for c, (p, r, ng, npred) in scores(pairs).items():
        if ng or npred:
            print(f"  {c:<13} {_fmt(p):>9} {_fmt(r):>7} {ng:>5} {npred:>9}")
    wrong_sub = sum(1 for g, p in pairs if g in ("terminology", "reference", "restructured") and p == "substantive")
    print(f"  terminology / reference / restructured reported substantive: {wrong_sub}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gold", default=str(GOLD))
    ap.add_argument("--errors", action="store_true",
                    help="list the tune-part laws where the report and the gold differ (never the held-out part)")
    ap.add_argument("--part", choices=("tune", "held-out"), help="print this part only")
    ap.add_argument("--pairs", action="store_true",
                    help="list the tune part's substantive pairs, their elements and values, against the gold's pairs")
    args = ap.parse_args()
    t0 = time.perf_counter()
    from assistant.corpus import load_corpus
    from assistant.diff.report import change_report

    corpus = load_corpus()
    t1 = time.perf_counter()
    rep = change_report(corpus)
    t2 = time.perf_counter()
    print(f"corpus load: {t1 - t0:.2f} s; change report (alignment + 93 laws + 57 articles): {t2 - t1:.2f} s")
    print("laws per class (1999 → 2017):", ", ".join(f"{k} {v}" for k, v in rep.counts().items()))
    print("pairs per class (1999 → 2017):", ", ".join(f"{k} {v}" for k, v in sorted(rep.pair_counts().items())))
    tw = change_report(corpus, "ccba2018", "wbf2017")
    print("laws per class (ccba2018 → wbf2017 zh-Hant):", ", ".join(f"{k} {v}" for k, v in tw.counts().items()))
    gold = load_gold(Path(args.gold))
    if not gold:
        print(f"\nno gold in {args.gold}")
        return
    predicted = {ld.law: ld.change for ld in rep.laws}
    for name in (args.part,) if args.part else ("tune", "held-out"):
        pairs = [(str(g["class"]), predicted[law]) for law, g in sorted(gold.items(), key=lambda x: int(x[0]))
                 if part(law) == name and law in predicted]
        print_scores(f"gold, {name} part", pairs)
        print("  gold classes:", dict(Counter(g for g, _ in pairs)))
    if args.errors:
        print("\nlaw  part      gold          report        gold elements / report elements")
        for law, g in sorted(gold.items(), key=lambda x: int(x[0])):
            ld = next(x for x in rep.laws if x.law == law)
            if g["class"] != ld.change and part(law) == "tune":
                print(f"{law:>3}  {part(law):<9} {g['class']:<13} {ld.change:<13} {g.get('elements')} / "
                      f"{list(ld.elements)}")
    if args.pairs:
        print_pairs(rep.laws, gold)


def print_pairs(laws: list, gold: dict[str, dict[str, object]]) -> None:
    """Every substantive pair of a tune-part law: gold-named (+) or not (-), its ids, elements and values."""
    print("\n+/- law  from -> to: elements (values); + = a pair the gold names, - = one it does not")
    counts: Counter[str] = Counter()
    for ld in laws:
        g = gold.get(ld.law)
        if g is None or part(ld.law) != "tune":
            continue
        named = {(x.get("from"), x.get("to")) for x in g.get("pairs") or []}
        ends = {e for pr in named for e in pr if e}
        for p in ld.pairs:
            if p.change != "substantive":
                continue
            hit = (p.from_id, p.to_id) in named or p.from_id in ends or p.to_id in ends
            counts["+" if hit else "-"] += 1
            vals = "; ".join(f"{n} {list(a)} -> {list(b)}" for n, a, b in p.values)
            print(f"{'+' if hit else '-'} {ld.law:>3}  {p.from_id} -> {p.to_id}: {list(p.elements)} ({vals})")
    print(f"substantive pairs on the tune part: {counts['+']} the gold names, {counts['-']} it does not")


if __name__ == "__main__":
    main()
