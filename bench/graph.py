"""Benchmark the law graph: build time from the sources (parse + graph), cached load time, triple counts.

Run: .venv/bin/python bench/graph.py   (uses a temporary cache folder; the target is <= 10 s on 2 cores)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import sys, time
t0 = time.perf_counter()
from assistant.graph.store import cached_graph
cg = cached_graph(force=sys.argv[1] == "build")
print(f"{time.perf_counter() - t0:.2f} {int(cg.rebuilt)} {len(cg.dataset)}")
"""


def run(mode: str, env: dict[str, str]) -> tuple[float, bool, int]:
    """One fresh interpreter (imports included, as for `bridgelaw graph build`)."""
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD, mode], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), out[1] == "1", int(out[2])


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "BRIDGELAW_CACHE": cache}
        build_s, rebuilt, triples = run("build", env)
        load_s, reloaded, _ = run("load", env)
        assert rebuilt and not reloaded, "the second run should have used the cache"
        from assistant.graph.commands import graph_stats
        from assistant.graph.store import cached_graph

        os.environ["BRIDGELAW_CACHE"] = cache
        t = time.perf_counter()
        ds = cached_graph().dataset
        warm = time.perf_counter() - t
        stats = graph_stats(ds)
    print(f"graph build from sources (fresh process, parse + citations + alignment + graph): {build_s:.2f} s")
    print(f"graph load from cache (fresh process, imports included):                     {load_s:.2f} s")
    print(f"graph load from cache (warm process):                                        {warm:.2f} s")
    print(f"triples: {triples}")
    for name, n in stats["graphs"].items():
        print(f"  {name:<14}{n:>8}")
    print(f"citations: {stats['citations']}  eli:cites: {stats['cites']}  mentions: {stats['mentions']}")
    print(f"correspondences: {stats['correspondences']}")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
