"""Change report build time (target ≤ 5 s) and class counts. Prints figures, asserts nothing."""

from __future__ import annotations

import time


def main() -> None:
    t0 = time.perf_counter()
    from assistant.corpus import load_corpus
    from assistant.diff.report import change_report

    corpus = load_corpus()
    t1 = time.perf_counter()
    rep = change_report(corpus)
    t2 = time.perf_counter()
    print(f"corpus load: {t1 - t0:.2f} s; change report (alignment + 93 laws + 57 articles): {t2 - t1:.2f} s; "
          f"total from cold: {t2 - t0:.2f} s")
    print("laws per class (1999 → 2017):", rep.counts())
    print("pairs per class (1999 → 2017):", rep.pair_counts())
    tw = change_report(corpus, "ccba2018", "wbf2017")
    print("laws per class (ccba2018 → wbf2017 zh-Hant):", tw.counts())
    print("pairs per class (ccba2018 → wbf2017 zh-Hant):", tw.pair_counts())
    t3 = time.perf_counter()
    from assistant.graph.alignment import law_alignment

    rows = sum(len(law_alignment(corpus, str(n))) for n in range(1, 94))
    print(f"law rows (93 laws, {rows} rows) from the warm alignment: {time.perf_counter() - t3:.3f} s")


if __name__ == "__main__":
    main()
