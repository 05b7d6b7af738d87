"""The score of a contract (Law 77) and a point difference in IMPs (Law 78B): pure functions over the tables.

Every part of a score names the table section it comes from, so a result can be cited as a director
writes it ("Law 77, Trick Score").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..editions import law_editions
from ..errors import BadInput
from ..text import s2t, t2s
from .contract import STRAIN_NAMES, Contract, parse_contract
from .tables import ImpScale, Law77, Section, imp_scales, law77_tables

DEFAULT_EDITION = "wbf2017"


@dataclass(frozen=True)
class Cite:
    """A table section a result rests on."""

    clause: str                 # e.g. wbf2017/law/77
    section: str                # trick_score | slam | overtricks | premiums | undertricks | imps
    heading: dict[str, str]     # {lang: heading as printed}
    file: str
    lines: tuple[int, int]

    @property
    def label(self) -> str:
        """How a director cites it, in the language of the section's first printed heading."""
        return self.label_in(next(iter(self.heading)))

    def label_in(self, lang: str) -> str:
        """'Law 77, Trick Score' / '第77条 墩分' / 'Law 78B' / '第78条B款': clause and section heading."""
        law, sub = self.clause.split("/")[2], "".join(self.clause.split("/")[3:])
        zh = lang.startswith("zh")
        base = (f"第{law}{'條' if lang == 'zh-Hant' else '条'}{sub + '款' if sub else ''}" if zh
                else f"Law {law}{sub}")
        if self.section == "imps":
            return base
        return f"{base} {self.heading_in(lang)}" if zh else f"{base}, {self.heading_in(lang)}"

    def heading_in(self, lang: str) -> str:
        """The printed heading in `lang`, else the other Chinese script converted, else the first printed."""
        if lang in self.heading:
            return self.heading[lang]
        if lang == "zh-Hans" and "zh-Hant" in self.heading:
            return t2s(self.heading["zh-Hant"])
        if lang == "zh-Hant" and "zh-Hans" in self.heading:
            return s2t(self.heading["zh-Hans"])
        return next(iter(self.heading.values()))

    def as_json(self) -> dict[str, object]:
        return {"clause": self.clause, "section": self.section, "cite": self.label, "heading": self.heading,
                "source": f"{self.file}:{self.lines[0]}-{self.lines[1]}"}


@dataclass(frozen=True)
class Part:
    """One line of a score's breakdown."""

    item: str                   # trick_score | game | partscore | slam | doubled_made | redoubled_made |
                                # overtricks | undertricks
    count: int                  # tricks the line counts (odd tricks, overtricks, undertricks); 1 for premiums
    points: int                 # signed, for declarer's side
    cite: Cite


@dataclass(frozen=True)
class Score:
    """The score for declarer's side and the table sections it rests on."""

    points: int
    cites: tuple[Cite, ...]
    parts: tuple[Part, ...] = ()
    contract: Contract | None = None
    vulnerable: bool = False
    edition: str = DEFAULT_EDITION


def _cite(s: Section) -> Cite:
    return Cite(s.clause, s.key, dict(s.heading), s.file, s.lines)


def check_edition(edition: str) -> str:
    """The edition name if it has the Laws; BadInput listing the choices otherwise."""
    eds = law_editions()
    if edition not in eds:
        raise BadInput(f"unknown edition {edition!r} — scoring needs an edition of the Laws — "
                       f"choose one of {', '.join(eds)}")
    return edition


def law77(edition: str) -> Law77:
    """The Law 77 table of a checked edition."""
    tables = law77_tables()
    if check_edition(edition) not in tables:
        raise BadInput(f"no Law 77 table transcribed for {edition!r} — choose {', '.join(tables)}")
    return tables[edition]


def imp_scale(edition: str) -> ImpScale:
    """The Law 78B scale of a checked edition."""
    scales = imp_scales()
    if check_edition(edition) not in scales:
        raise BadInput(f"no Law 78B scale transcribed for {edition!r} — choose {', '.join(scales)}")
    return scales[edition]


def trick_score(t: Law77, c: Contract) -> int:
    """Points for the odd tricks bid (and made): Law 77 Trick Score."""
    if c.strain == "NT":
        first, more = t.odd_trick["notrump_first"], t.odd_trick["notrump_each_additional"]
        return first[c.doubling] + (c.level - 1) * more[c.doubling]
    return c.level * t.odd_trick[STRAIN_NAMES[c.strain]][c.doubling]


def overtrick_value(t: Law77, c: Contract, vul: str) -> int:
    """Points per overtrick: the undoubled trick value, or the doubled / redoubled premium."""
    value = t.overtrick[c.doubling][vul]
    if value is not None:
        return value
    key = "notrump_each_additional" if c.strain == "NT" else STRAIN_NAMES[c.strain]
    return t.odd_trick[key]["undoubled"]       # an overtrick at notrump is never the first odd trick


def undertrick_penalty(t: Law77, n: int, doubling: str, vul: str) -> int:
    """Points the defenders score for n undertricks (n ≥ 1): first, each additional, fourth-on bonus."""
    return (t.undertrick_first[vul][doubling] + (n - 1) * t.undertrick_additional[vul][doubling]
            + max(0, n - 3) * t.undertrick_bonus[vul][doubling])


def _made_parts(t: Law77, c: Contract, vul: str) -> list[Part]:
    sec = {k: _cite(s) for k, s in t.sections.items()}
    ts = trick_score(t, c)
    parts = [Part("trick_score", c.level, ts, sec["trick_score"])]
    if ts >= t.game_threshold:
        parts.append(Part("game", 1, t.game_premium[vul], sec["premiums"]))
    else:
        parts.append(Part("partscore", 1, t.partscore_premium, sec["premiums"]))
    if c.level >= 6:
        slam = "grand" if c.level == 7 else "small"
        parts.append(Part(f"{slam}_slam", 1, t.slam[slam][vul], sec["slam"]))
    if c.doubling != "undoubled":
        parts.append(Part(f"{c.doubling}_made", 1, t.made_premium[c.doubling], sec["premiums"]))
    if c.result > 0:
        parts.append(Part("overtricks", c.result, c.result * overtrick_value(t, c, vul), sec["overtricks"]))
    return parts


def score(contract: str | Contract, vulnerable: bool = False, edition: str = DEFAULT_EDITION) -> Score:
    """The score for declarer's side (negative when the contract fails) and the sections it rests on."""
    c = contract if isinstance(contract, Contract) else parse_contract(contract)
    t = law77(edition)
    vul = "vulnerable" if vulnerable else "not_vulnerable"
    if c.made:
        parts = _made_parts(t, c, vul)
    else:
        n = -c.result
        parts = [Part("undertricks", n, -undertrick_penalty(t, n, c.doubling, vul), _cite(t.sections["undertricks"]))]
    cites = tuple({(p.cite.clause, p.cite.section): p.cite for p in parts}.values())
    return Score(sum(p.points for p in parts), cites, tuple(parts), c, vulnerable, edition)


@dataclass(frozen=True)
class Imps:
    """A point difference converted into IMPs, with the band used and the clause it rests on."""

    diff: int
    imps: int
    lowest: int                 # the band's edges (for a difference below the first printed band: 0 and
    highest: int | None         # that band's lowest edge - 10)
    cite: Cite


def imps(diff: int, edition: str = DEFAULT_EDITION) -> Imps:
    """The IMPs for a point difference (sign kept) on the Law 78B scale."""
    if isinstance(diff, bool) or not isinstance(diff, int):
        raise BadInput(f"point difference {diff!r} is not a whole number — give e.g. 420 or -990")
    scale = imp_scale(edition)
    size = abs(diff)
    sign = -1 if diff < 0 else 1
    cite = _cite(scale.section)
    first = scale.bands[0]
    if size < first.lowest:
        return Imps(diff, sign * scale.below_first_band, 0, first.lowest - 10, cite)
    band = next(b for b in reversed(scale.bands) if size >= b.lowest)
    return Imps(diff, sign * band.imps, band.lowest, band.highest, cite)
