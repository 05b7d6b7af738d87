"""Contract notation as players write it on a score card: `4HX+1`, `3NT=`, `7NTX-1`, `6SXX=`, `2C-2`.

>>> parse_contract("4HX+1")
Contract(level=4, strain='H', doubling='doubled', result=1)
>>> str(parse_contract("7ntx-1"))
'7NTX-1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import BadInput

STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")
STRAIN_NAMES: dict[str, str] = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "notrump"}
DOUBLING_MARKS: dict[str, str] = {"": "undoubled", "X": "doubled", "XX": "redoubled"}
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♡": "H", "♠": "S", "♢": "D", "♧": "C", "♤": "S"}
_MINUS = "−–—"                               # Unicode minus and dashes typed for `-`

CONTRACT_RE = re.compile(
    r"""^(?P<level>[1-7])                    # level: odd tricks bid, 1-7
        (?P<strain>NT|N|C|D|H|S)            # strain: clubs, diamonds, hearts, spades, notrump (N = NT)
        (?P<dbl>XX|X|)                       # doubling: none, X doubled, XX redoubled
        (?P<result>=|\+\d{1,2}|-\d{1,2})$    # result: made exactly, +n overtricks, -n undertricks
    """,
    re.VERBOSE,
)
EXPECTED = ("write level 1–7, strain C/D/H/S/NT, X or XX if doubled, then = (made), +n (overtricks) or "
            "-n (down), e.g. 4HX+1, 3NT=, 7NTX-1, 6SXX=, 2C-2")


@dataclass(frozen=True)
class Contract:
    """A played contract and its result."""

    level: int              # 1..7
    strain: str             # C | D | H | S | NT
    doubling: str           # undoubled | doubled | redoubled
    result: int             # 0 made exactly, +n overtricks, -n undertricks

    @property
    def made(self) -> bool:
        return self.result >= 0

    @property
    def tricks(self) -> int:
        """Tricks won by declarer's side."""
        return 6 + self.level + self.result

    def __str__(self) -> str:
        mark = {v: k for k, v in DOUBLING_MARKS.items()}[self.doubling]
        res = "=" if self.result == 0 else f"{self.result:+d}"
        return f"{self.level}{self.strain}{mark}{res}"


def _normal(text: str) -> str:
    s = re.sub(r"\s+", "", text).upper()
    for sym, letter in _SYMBOLS.items():
        s = s.replace(sym, letter)
    for m in _MINUS:
        s = s.replace(m, "-")
    return s.replace("＋", "+").replace("＝", "=").replace("×", "X")


def parse_contract(text: str) -> Contract:
    """A Contract from notation such as `4HX+1`; BadInput saying what notation is expected otherwise."""
    raw = str(text or "")
    if not raw.strip():
        raise BadInput(f"no contract given — {EXPECTED}")
    if len(raw) > 40:
        raise BadInput(f"contract {raw[:40]!r}… is too long — {EXPECTED}")
    m = CONTRACT_RE.match(_normal(raw))
    if not m:
        raise BadInput(f"cannot read contract {raw!r} — {EXPECTED}")
    level = int(m["level"])
    strain = "NT" if m["strain"] in ("N", "NT") else m["strain"]
    res = m["result"]
    result = 0 if res == "=" else int(res)
    if res != "=" and result == 0:
        raise BadInput(f"contract {raw!r}: a result of {res} — write = for a contract made exactly")
    if result > 13 - 6 - level:
        raise BadInput(f"contract {raw!r}: {result} overtricks are more than the {13 - 6 - level} tricks left "
                       f"after bidding {level} — at most +{13 - 6 - level} at the {level} level")
    if -result > 6 + level:
        raise BadInput(f"contract {raw!r}: down {-result} is more than the {6 + level} tricks needed — "
                       f"at most -{6 + level} at the {level} level")
    return Contract(level, strain, DOUBLING_MARKS[m["dbl"]], result)
