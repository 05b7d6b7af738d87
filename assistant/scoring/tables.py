"""The Law 77 scoring table and the Law 78B IMP scale, loaded from law77.yaml / law78b.yaml and validated.

Loading checks every key and value (a missing or malformed one raises `ScoringDataError` naming the file
and the key path); the records are frozen so the pure functions of `calc` can share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import BridgelawError
from ..model import ClauseId

DATA_DIR = Path(__file__).resolve().parent
LAW77_FILE = DATA_DIR / "law77.yaml"
LAW78B_FILE = DATA_DIR / "law78b.yaml"

DOUBLINGS: tuple[str, ...] = ("undoubled", "doubled", "redoubled")
VULS: tuple[str, ...] = ("not_vulnerable", "vulnerable")
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
SECTIONS: tuple[str, ...] = ("trick_score", "slam", "overtricks", "premiums", "undertricks")
TRICK_VALUE = "trick_value"        # the overtrick entry meaning "the strain's undoubled odd-trick value"


class ScoringDataError(BridgelawError):
    """law77.yaml or law78b.yaml lacks a value or holds a malformed one."""

    exit_code = 3

    def __init__(self, file: Path, key: str, what: str) -> None:
        super().__init__(f"{file.name}: {key}: {what} — correct the value in assistant/scoring/{file.name}")


@dataclass(frozen=True)
class Section:
    """One value group of a table: the clause it belongs to, its printed heading, its source lines."""

    key: str                               # trick_score | slam | overtricks | premiums | undertricks | imps
    clause: str                            # e.g. wbf2017/law/77
    heading: Mapping[str, str]             # {lang: heading as the edition prints it}
    file: str                              # corpus file name
    lines: tuple[int, int]                 # first and last source line, 1-based inclusive


Grid = Mapping[str, Mapping[str, int]]     # vulnerability -> doubling -> points


@dataclass(frozen=True)
class Law77:
    """One edition's Law 77 table."""

    edition: str
    clause: str
    odd_trick: Mapping[str, Mapping[str, int]]   # clubs..spades, notrump_first/_each_additional -> doubling -> pts
    game_threshold: int
    slam: Mapping[str, Mapping[str, int]]        # small | grand -> vulnerability -> pts
    overtrick: Mapping[str, Mapping[str, int | None]]   # doubling -> vulnerability -> pts (None: trick value)
    game_premium: Mapping[str, int]              # vulnerability -> pts
    partscore_premium: int
    made_premium: Mapping[str, int]              # doubled | redoubled -> pts ("insult")
    undertrick_first: Grid
    undertrick_additional: Grid
    undertrick_bonus: Grid                       # added to each undertrick from the fourth on
    sections: Mapping[str, Section]


@dataclass(frozen=True)
class ImpBand:
    """One band of the IMP scale: differences lowest..highest (None: and above) earn `imps`."""

    lowest: int
    highest: int | None
    imps: int
    line: int


@dataclass(frozen=True)
class ImpScale:
    """One edition's Law 78B scale."""

    edition: str
    below_first_band: int
    bands: tuple[ImpBand, ...]
    section: Section


class _Reader:
    """Typed access into a loaded YAML tree; every failure names the file and the key path."""

    def __init__(self, file: Path) -> None:
        self.file = file

    def fail(self, key: str, what: str) -> ScoringDataError:
        return ScoringDataError(self.file, key, what)

    def map(self, node: object, key: str) -> dict[str, object]:
        if not isinstance(node, dict):
            raise self.fail(key, f"expected a mapping, found {type(node).__name__}")
        return node

    def get(self, node: dict[str, object], name: str, key: str) -> object:
        if name not in node or node[name] is None:
            raise self.fail(f"{key}.{name}", "missing")
        return node[name]

    def number(self, node: object, key: str, allow: str | None = None) -> int | None:
        if allow is not None and node == allow:
            return None
        if isinstance(node, bool) or not isinstance(node, int) or node < 0:
            raise self.fail(key, f"expected a whole number of points ≥ 0, found {node!r}")
        return node

    def ints(self, node: object, key: str, names: tuple[str, ...], allow: str | None = None) -> dict[str, int | None]:
        m = self.map(node, key)
        extra = sorted(set(m) - set(names))
        if extra:
            raise self.fail(key, f"unexpected key(s) {extra} (expected {list(names)})")
        return {n: self.number(self.get(m, n, key), f"{key}.{n}", allow) for n in names}

    def strict(self, node: object, key: str, names: tuple[str, ...]) -> dict[str, int]:
        out = self.ints(node, key, names)
        return {k: int(v) for k, v in out.items() if v is not None}

    def grid(self, node: object, key: str) -> dict[str, dict[str, int]]:
        m = self.map(node, key)
        return {v: self.strict(self.get(m, v, key), f"{key}.{v}", DOUBLINGS) for v in VULS}

    def section(self, ed_node: dict[str, object], name: str, key: str, clause: str, file: str) -> Section:
        node = self.map(self.get(ed_node, name, key), f"{key}.{name}")
        return self.section_of(node, name, f"{key}.{name}", clause, file)

    def section_of(self, node: dict[str, object], name: str, key: str, clause: str, file: str) -> Section:
        heading = self.map(self.get(node, "heading", key), f"{key}.heading")
        if not heading or not all(isinstance(v, str) and v for v in heading.values()):
            raise self.fail(f"{key}.heading", "expected {lang: text} with at least one text")
        lines = self.get(node, "lines", key)
        if (not isinstance(lines, list) or len(lines) != 2 or not all(isinstance(n, int) and n > 0 for n in lines)
                or lines[0] > lines[1]):
            raise self.fail(f"{key}.lines", f"expected [first, last] line numbers, found {lines!r}")
        return Section(name, clause, {str(k): str(v) for k, v in heading.items()}, file, (lines[0], lines[1]))

    def clause(self, node: dict[str, object], key: str, edition: str, law: str) -> str:
        text = str(self.get(node, "clause", key))
        try:
            cid = ClauseId.parse(text)
        except ValueError as err:
            raise self.fail(f"{key}.clause", str(err)) from None
        if cid.edition != edition or cid.law != law:
            raise self.fail(f"{key}.clause", f"{text!r} is not a Law {law} clause of {edition}")
        return text


def _law77(r: _Reader, edition: str, node: object) -> Law77:
    key = f"editions.{edition}"
    ed = r.map(node, key)
    clause = r.clause(ed, key, edition, "77")
    file = str(r.get(ed, "file", key))
    sections = {s: r.section(ed, s, key, clause, file) for s in SECTIONS}
    ts = r.map(ed["trick_score"], f"{key}.trick_score")
    odd = {s: r.strict(r.get(ts, s, f"{key}.trick_score"), f"{key}.trick_score.{s}", DOUBLINGS)
           for s in (*SUITS, "notrump_first", "notrump_each_additional")}
    threshold = r.number(r.get(ts, "game_threshold", f"{key}.trick_score"), f"{key}.trick_score.game_threshold")
    sl = r.map(ed["slam"], f"{key}.slam")
    ov = r.map(ed["overtricks"], f"{key}.overtricks")
    pr = r.map(ed["premiums"], f"{key}.premiums")
    ut = r.map(ed["undertricks"], f"{key}.undertricks")
    k_pr = f"{key}.premiums"
    return Law77(
        edition=edition, clause=clause, odd_trick=odd, game_threshold=int(threshold or 0),
        slam={s: r.strict(r.get(sl, s, f"{key}.slam"), f"{key}.slam.{s}", VULS) for s in ("small", "grand")},
        overtrick={d: r.ints(r.get(ov, d, f"{key}.overtricks"), f"{key}.overtricks.{d}", VULS,
                             allow=TRICK_VALUE if d == "undoubled" else None) for d in DOUBLINGS},
        game_premium=r.strict(r.get(pr, "game", k_pr), f"{k_pr}.game", VULS),
        partscore_premium=int(r.number(r.get(pr, "partscore", k_pr), f"{k_pr}.partscore") or 0),
        made_premium={"doubled": int(r.number(r.get(pr, "doubled_made", k_pr), f"{k_pr}.doubled_made") or 0),
                      "redoubled": int(r.number(r.get(pr, "redoubled_made", k_pr), f"{k_pr}.redoubled_made") or 0)},
        undertrick_first=r.grid(r.get(ut, "first", f"{key}.undertricks"), f"{key}.undertricks.first"),
        undertrick_additional=r.grid(r.get(ut, "each_additional", f"{key}.undertricks"),
                                     f"{key}.undertricks.each_additional"),
        undertrick_bonus=r.grid(r.get(ut, "fourth_and_subsequent_bonus", f"{key}.undertricks"),
                                f"{key}.undertricks.fourth_and_subsequent_bonus"),
        sections=sections,
    )


def _imp_scale(r: _Reader, edition: str, node: object) -> ImpScale:
    key = f"editions.{edition}"
    ed = r.map(node, key)
    clause = r.clause(ed, key, edition, "78")
    section = r.section_of(ed, "imps", key, clause, str(r.get(ed, "file", key)))
    raw = r.get(ed, "bands", key)
    if not isinstance(raw, list) or not raw:
        raise r.fail(f"{key}.bands", "expected a list of [lowest, highest, imps, line]")
    bands: list[ImpBand] = []
    for i, row in enumerate(raw):
        k = f"{key}.bands[{i}]"
        if not isinstance(row, list) or len(row) != 4:
            raise r.fail(k, f"expected [lowest, highest, imps, line], found {row!r}")
        last = i == len(raw) - 1
        lo, imps, line = (int(r.number(row[j], k) or 0) for j in (0, 2, 3))
        hi = None if last and row[1] is None else r.number(row[1], f"{k} highest")
        prev = bands[-1] if bands else None
        if prev is not None and (prev.highest is None or lo != prev.highest + 10 or imps != prev.imps + 1):
            raise r.fail(k, f"band {row!r} does not follow {prev!r} (next lowest = highest + 10, IMPs + 1)")
        if hi is not None and hi < lo:
            raise r.fail(k, f"highest {hi} below lowest {lo}")
        bands.append(ImpBand(lo, hi, imps, line))
    if bands[-1].highest is not None:
        raise r.fail(f"{key}.bands[{len(bands) - 1}]", "the last band must be open (highest: null)")
    below = int(r.number(r.get(ed, "below_first_band", key), f"{key}.below_first_band") or 0)
    return ImpScale(edition, below, tuple(bands), section)


def _editions(file: Path) -> tuple[_Reader, dict[str, object]]:
    r = _Reader(file)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise r.fail("(file)", f"cannot read: {err}") from None
    return r, r.map(r.get(r.map(data, "(top)"), "editions", "(top)"), "editions")


@lru_cache(maxsize=4)
def law77_tables(file: Path = LAW77_FILE) -> dict[str, Law77]:
    """Every edition's Law 77 table, by edition name."""
    r, eds = _editions(file)
    return {str(name): _law77(r, str(name), node) for name, node in eds.items()}


@lru_cache(maxsize=4)
def imp_scales(file: Path = LAW78B_FILE) -> dict[str, ImpScale]:
    """Every edition's Law 78B IMP scale, by edition name."""
    r, eds = _editions(file)
    return {str(name): _imp_scale(r, str(name), node) for name, node in eds.items()}
