"""Change report build time (target ≤ 5 s) and class counts. Prints figures, asserts nothing."""

from __future__ import annotations

import time


def main() -> None:
    t0 = time.perf_counter()
    from assistant.corpus import load_corpus
    from assistant.diff.report import change_report, diff_law

    corpus = load_corpus()
    t1 = time.perf_counter()
    rep = change_report(corpus)
    t2 = time.perf_counter()
    print(f"corpus load: {t1 - t0:.2f} s; change report (alignment + 93 laws + 57 articles): {t2 - t1:.2f} s; "
          f"total from cold: {t2 - t0:.2f} s")
    print("laws per class (1999 → 2017):", rep.counts())
    print("pairs per class (1999 → 2017):", rep.pair_counts())
    from collections import Counter
    tw = Counter(p.change for n in range(1, 94) for p in diff_law(corpus, str(n), "ccba2018", "wbf2017").pairs)
    print("pairs per class (ccba2018 → wbf2017 zh-Hant):", dict(tw))


if __name__ == "__main__":
    main()
