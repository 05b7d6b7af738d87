"""Hostile command lines against every bridgelaw command, in process: a benchmark, not a test.

    python bench/fuzz.py [-n 10000] [--seed 0] [--show 5]

Each case is a generated command line (random text in ten scripts, control and bidi characters, emoji,
3,000-character repeats, lone surrogates as undecodable bytes leave them, mutated clause ids, malformed
and 5,000-deep JSON, out-of-range numbers, folders and missing folders as --out) run through typer's
CliRunner. Printed: counts per exit code, tracebacks by exception type (with a few examples), calls over
2 s, exit codes outside 0-3, the slowest exit-2 answer ("invalid option answered within 1 s warm"), stdout
that is not UTF-8 or `--json` output that does not parse, and p95 time per command. The first call of a
command pays its warm-up (corpus, graph, index); warm-ups are listed apart and not counted as slow.
`cache clear` only ever gets names that are not artifacts: clearing the real cache would rebuild the index.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCRIPTS = {  # ten scripts: (first, last) code points
    "latin": (0x41, 0x7A), "han": (0x4E00, 0x9FA5), "cyrillic": (0x410, 0x44F), "arabic": (0x621, 0x64A),
    "hebrew": (0x5D0, 0x5EA), "devanagari": (0x905, 0x939), "thai": (0xE01, 0xE2E), "hangul": (0xAC00, 0xD7A3),
    "greek": (0x391, 0x3C9), "kana": (0x3041, 0x30FF),
}
NASTY = ["\x00", "\x07", "\x1b[31m", "\r", "\t", "\n", "\u202e", "\u202d", "\u2066", "\u200f", "\ufeff",
         "\udcff", "\udc80", "\ud800", "😀", "👨‍👩‍👧", "🂡", "\u0301", "ｆｕｌｌ", "'", '"', "\\", "$(", "%s", "{0}"]
WORDS = ["revoke", "dummy", "明手", "藏牌", "夢家", "insufficient bid", "claim", "第64条", "Law 64", "27B1b",
         "lead out of turn", "掼蛋", "board", "UI", "?", "…", "1NT", "4HX+1"]
IDS = ["wbf2017/law/64/A/1", "ccba1999/law/64/B/3", "ccba2018/article/22/2/1", "wbf2017/definition/revoke",
       "64A1", "Law 64A1", "law 64 a 1", "第六十四条", "第64条A款1项", "WBF2017/law/64/a/1", "第二十二條",
       "guandan2017/article/15", "wbf2017/policy/systems/2.4", "93", "0", "94", "64Z9", "article 57"]
EDITIONS = ["ccba1999", "ccba2018", "wbf2017", "guandan2017"]
LANGS = ["zh-Hans", "zh-Hant", "en"]
TOPICS = ["revoke", "insufficient_bid", "claim", "lead_out_of_turn", "no_such_topic", "../../etc/passwd"]
NUMBERS = ["nan", "inf", "-inf", "-1", "0", "1", "5", "50", "51", "1e309", "99999999999999999999999",
           "-99999999999999999999999", "abc", "", "0x10", "3.5", "٣", "１２"]


@dataclass
class Gen:
    """Random pieces of hostile input."""

    rng: random.Random
    tmp: Path

    def text(self, max_len: int = 40) -> str:
        r = self.rng
        kind = r.random()
        if kind < 0.05:
            return r.choice(["", " ", "\t\n", "x" * 3000, "明" * 3000, "😀" * 1500])
        if kind < 0.2:
            return r.choice(WORDS)
        out = []
        for _ in range(r.randint(1, max_len)):
            roll = r.random()
            if roll < 0.15:
                out.append(r.choice(NASTY))
            elif roll < 0.3:
                out.append(r.choice(WORDS) + " ")
            else:
                lo, hi = r.choice(list(SCRIPTS.values()))
                out.append(chr(r.randint(lo, hi)))
        return "".join(out)

    def name(self, good: list[str]) -> str:
        return self.rng.choice(good) if self.rng.random() < 0.5 else self.mutate(self.rng.choice(good))

    def mutate(self, s: str) -> str:
        r = self.rng
        if not s or r.random() < 0.2:
            return self.text(8)
        i = r.randrange(len(s))
        op = r.randrange(5)
        if op == 0:
            return s[:i] + s[i + 1:]
        if op == 1:
            return s[:i] + r.choice(NASTY) + s[i:]
        if op == 2:
            return s.upper() if r.random() < 0.5 else s.swapcase()
        if op == 3:
            return s + "/" + self.text(3)
        return s[:i] + chr(r.randint(0x20, 0x2FFF)) + s[i + 1:]

    def clause(self) -> str:
        return self.name(IDS) if self.rng.random() < 0.8 else self.text(12)

    def number(self) -> str:
        return self.rng.choice(NUMBERS)

    def json_text(self) -> str:
        r = self.rng
        roll = r.random()
        if roll < 0.15:
            return "[" * 5000 + "]" * r.choice([0, 5000])
        if roll < 0.25:
            return '{"a":' * 3000 + "1" + "}" * 3000
        if roll < 0.4:
            return r.choice(["@", "@/", f"@{self.tmp}", f"@{self.tmp}/missing.json", f"@{self.tmp}/bad.json",
                             f"@{self.tmp}/big.json", f"@{self.tmp}/good.json"])
        if roll < 0.55:
            return r.choice(['{"in_rotation": true}', '{"in_rotation": "是"}', '{"in_rotation": NaN}',
                             '{"x": [1]}', "[1]", "null", '"s"', "{}", '{"established": "yes"}'])
        return "{" + self.text(10) + "}" if r.random() < 0.5 else self.mutate('{"in_rotation": true}')

    def out_path(self) -> str:
        r = self.rng
        return r.choice([str(self.tmp / "out.txt"), str(self.tmp), "/", str(self.tmp / "no" / "such" / "f.md"),
                         "", " ", str(self.tmp / ("x" * 300)), str(self.tmp / self.text(5).replace("/", "_"))])

    def maybe(self, p: float, *args: str) -> list[str]:
        return list(args) if self.rng.random() < p else []


def _ask(g: Gen) -> list[str]:
    question = g.text(60) + (" " + g.clause() if g.rng.random() < 0.2 else "")     # a mutated citation too
    return ["ask", question, *g.maybe(0.2, "--edition", g.name(EDITIONS)), *g.maybe(0.2, "--lang", g.name(LANGS)),
            *g.maybe(0.2, "--top", g.number()), *g.maybe(0.15, "--model", g.name(["use", "minilm", "indomain", "nope", "/"])),
            *g.maybe(0.4, "--json")]


def _rule(g: Gen) -> list[str]:
    topic = g.name(TOPICS)
    args = ["rule", topic, "--answers", g.json_text()] if g.rng.random() < 0.85 else ["rule", "--list"]
    return [*args, *g.maybe(0.3, "--edition", g.name(EDITIONS)), *g.maybe(0.3, "--lang", g.name(LANGS)), *g.maybe(0.5, "--json")]


def _exam(g: Gen) -> list[str]:
    return ["exam", *g.maybe(0.3, "-k", g.name(["ruling", "which_law", "cloze", "change", "matching"])),
            *g.maybe(0.3, "-e", g.name(EDITIONS)), *g.maybe(0.3, "-l", g.name(LANGS)), *g.maybe(0.2, "-t", g.name(TOPICS)),
            *g.maybe(0.1, "-c", g.text(4)), "-n", g.rng.choice(["1", "3", "0", "-5", "501", "nan", "x"]),
            *g.maybe(0.2, "-d", g.name(["easy", "medium", "hard"])), *g.maybe(0.2, "-s", g.number()),
            *g.maybe(0.3, "-f", g.name(["md", "csv", "html"])), *g.maybe(0.4, "-o", g.out_path())]


def _graph(g: Gen) -> list[str]:
    # a valid `graph build` reloads the cached graph (~10 s) and a valid export serialises it (~15 s):
    # most cases carry a hostile option, or 10,000 cases would take hours
    sub = g.rng.choices(["build", "stats", "export", g.text(4)], [1, 3, 4, 2])[0]
    if sub == "export":
        out = g.out_path() if g.rng.random() < 0.3 else g.rng.choice(["/", str(g.tmp), str(g.tmp / "no" / "x")])
        return ["graph", "export", *g.maybe(0.7, "--format", g.name(["ttl", "jsonld", "trig", "nq"])), "--out", out]
    hostile = g.rng.random() < (0.9 if sub == "build" else 0.1)
    return ["graph", sub, *g.maybe(0.5, "--json"), *(["--" + g.text(3)] if hostile else [])]


COMMANDS: dict[str, Callable[[Gen], list[str]]] = {
    "show": lambda g: ["show", g.clause(), *g.maybe(0.3, "--json"), *g.maybe(0.2, "--lang", g.name(LANGS))],
    "stats": lambda g: ["stats", *g.maybe(0.5, "--json"), *g.maybe(0.2, g.text(3))],
    "graph": _graph,
    "refs": lambda g: ["refs", g.clause(), *g.maybe(0.4, "--json")],
    "sparql": lambda g: ["sparql", g.rng.choice(["ASK { ?s ?p ?o }", "SELECT * WHERE { ?s a eli:LegalResource } LIMIT 2",
                                                 "DELETE WHERE { ?s ?p ?o }", g.text(30), "@" + g.text(4), "-"]),
                         *g.maybe(0.5, "--timeout", g.number()), *g.maybe(0.3, "--json")],
    "ask": _ask,
    "rule": _rule,
    "diff": lambda g: ["diff", g.rng.choice(["27", "64", "0", "94", g.text(4)]), *g.maybe(0.4, "--from", g.name(EDITIONS)),
                       *g.maybe(0.4, "--to", g.name(EDITIONS)), *g.maybe(0.2, "--lang", g.name(LANGS)), *g.maybe(0.3, "--json")],
    # a valid `changes` builds the whole report (~2.5 s): most cases carry a bad --out or --format
    "changes": lambda g: ["changes", *g.maybe(0.7, "--format", g.name(["md", "csv"])),
                          "--out", g.out_path() if g.rng.random() < 0.3 else g.rng.choice(["/", str(g.tmp), ""]),
                          *g.maybe(0.3, "--from", g.name(EDITIONS)), *g.maybe(0.3, "--to", g.name(EDITIONS))],
    "exam": _exam,
    "cache": lambda g: ["cache", g.rng.choice(["status", "clear", g.text(4)]), *(["--json"] if g.rng.random() < 0.3 else
                                                                                 [g.mutate("graph") + "_x"])],
    "score": lambda g: ["score", g.rng.choice(["4HX+1", "3NT=", "7NTX-1", g.text(6), "8NT=", "4H+0"]),
                        *g.maybe(0.3, "--vul"), *g.maybe(0.3, "--edition", g.name(EDITIONS)), *g.maybe(0.3, "--json")],
    "imps": lambda g: ["imps", g.rng.choice(["420", "-990", g.number(), g.text(4)]),
                       *g.maybe(0.3, "--edition", g.name(EDITIONS)), *g.maybe(0.3, "--json")],
}


@dataclass
class Outcome:
    command: str
    args: list[str]
    code: int
    seconds: float
    error: str | None           # exception type when a traceback would have been printed
    bad_utf8: bool
    bad_json: bool


def available() -> dict[str, Callable[[Gen], list[str]]]:
    """The commands this checkout registers (score/imps/cache appear when their modules exist)."""
    from assistant.cli import COMMANDS as REGISTERED
    import importlib.util

    return {c: f for c, f in COMMANDS.items()
            if c in REGISTERED and importlib.util.find_spec(REGISTERED[c][0]) is not None}


def run_case(runner, app, command: str, args: list[str]) -> Outcome:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    res = runner.invoke(app, args, input="")
    dt = time.perf_counter() - t0
    exc = res.exception
    error = None if exc is None or isinstance(exc, SystemExit) else type(exc).__name__
    try:
        out = res.stdout_bytes.decode("utf-8")
        bad_utf8 = False
    except UnicodeDecodeError:
        out, bad_utf8 = "", True
    bad_json = False
    if "--json" in args and res.exit_code == 0 and out.strip():
        try:
            json.loads(out)
        except ValueError:
            bad_json = True
    return Outcome(command, args, res.exit_code, dt, error, bad_utf8, bad_json)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=10_000, help="number of cases")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=3, help="examples printed per traceback type")
    opts = ap.parse_args()

    from typer.testing import CliRunner

    from assistant.cli import app

    runner = CliRunner()
    rng = random.Random(opts.seed)
    tmp = Path(tempfile.mkdtemp(prefix="bridgelaw-fuzz-"))
    (tmp / "bad.json").write_bytes(b"\xff\xfe{not utf8")
    (tmp / "big.json").write_text('{"a": "' + "x" * 200_000 + '"}', encoding="utf-8")
    (tmp / "good.json").write_text('{"in_rotation": true}', encoding="utf-8")
    gen = Gen(rng, tmp)
    cmds = available()
    warm: dict[str, float] = {}
    results: list[Outcome] = []
    t_start = time.perf_counter()
    for i in range(opts.n):
        command = rng.choice(list(cmds))
        o = run_case(runner, app, command, cmds[command](gen))
        if command not in warm:
            warm[command] = o.seconds
        else:
            results.append(o)
        if o.error:
            print(f"  traceback {o.error}: {[a[:60] for a in o.args]!r}", file=sys.stderr, flush=True)
        if (i + 1) % 500 == 0:
            print(f"  … {i + 1} cases, {time.perf_counter() - t_start:.0f} s", file=sys.stderr, flush=True)
    report(results, warm, opts, time.perf_counter() - t_start)


def report(results: list[Outcome], warm: dict[str, float], opts: argparse.Namespace, total: float) -> None:
    codes = Counter(o.code for o in results)
    errors: dict[str, list[Outcome]] = defaultdict(list)
    for o in results:
        if o.error:
            errors[o.error].append(o)
    print(f"bench/fuzz.py: {opts.n} cases (seed {opts.seed}), {total:.0f} s; first call per command (warm-up) "
          f"excluded from the figures: {len(warm)}")
    print("exit codes: " + ", ".join(f"{c}: {n}" for c, n in sorted(codes.items())))
    print(f"exit codes outside 0-3: {sum(n for c, n in codes.items() if not 0 <= c <= 3)}")
    print(f"tracebacks: {sum(len(v) for v in errors.values())}" + "".join(f"\n  {k}: {len(v)}" for k, v in errors.items()))
    for k, v in errors.items():
        for o in v[:opts.show]:
            print(f"    e.g. {k}: {[a[:60] for a in o.args]!r}")
    slow = [o for o in results if o.seconds > 2]
    print(f"calls over 2 s: {len(slow)}" + "".join(f"\n  {o.seconds:.1f} s {[a[:40] for a in o.args]!r}" for o in slow[:10]))
    bad = [o for o in results if o.code == 2]
    worst = max(bad, key=lambda o: o.seconds) if bad else None
    print(f"exit-2 answers: {len(bad)}, over 1 s: {sum(o.seconds > 1 for o in bad)}, slowest "
          f"{worst.seconds:.2f} s {[a[:40] for a in worst.args]!r}" if worst else "exit-2 answers: 0")
    print(f"stdout not UTF-8: {sum(o.bad_utf8 for o in results)}; --json output not JSON: {sum(o.bad_json for o in results)}")
    print(f"{'command':<10}{'cases':>7}{'p50 s':>9}{'p95 s':>9}{'max s':>9}{'warm-up s':>11}  exit codes")
    by_cmd: dict[str, list[Outcome]] = defaultdict(list)
    for o in results:
        by_cmd[o.command].append(o)
    for c in sorted(by_cmd):
        ts = sorted(o.seconds for o in by_cmd[c])
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        cc = Counter(o.code for o in by_cmd[c])
        print(f"{c:<10}{len(ts):>7}{statistics.median(ts):>9.3f}{p95:>9.3f}{ts[-1]:>9.2f}{warm.get(c, 0):>11.2f}  "
              + " ".join(f"{k}:{v}" for k, v in sorted(cc.items())))


if __name__ == "__main__":
    main()
