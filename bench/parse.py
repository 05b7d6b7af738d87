"""Time to parse every source of the corpus (target ≤ 3 s on 2 cores). Prints figures, asserts nothing."""

from __future__ import annotations

import time
from pathlib import Path

from assistant.corpus import PARSERS, _resolve, corpus_dir, load_manifest, read_source


def main() -> None:
    root = Path(corpus_dir())
    manifest = load_manifest(root)
    total = 0.0
    t_all = time.perf_counter()
    for key, src in manifest["sources"].items():  # type: ignore[union-attr]
        text = read_source(root, src["file"])
        for spec in PARSERS[src["format"]]:
            t0 = time.perf_counter()
            ps = _resolve(spec)(text, src["file"])
            dt = time.perf_counter() - t0
            total += dt
            print(f"{key:15s} {spec.split(':')[1]:28s} {dt * 1000:8.1f} ms  {len(ps.clauses):5d} clauses")
    print(f"parse total (parsers only): {total:.2f} s")
    print(f"parse total (with imports and reading): {time.perf_counter() - t_all:.2f} s")


if __name__ == "__main__":
    main()
