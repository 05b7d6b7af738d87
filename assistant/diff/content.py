"""Change class of a pair of corresponding clauses on the rule's content: the elements each text rules
(assistant.diff.elements) compared after the terminology crosswalk and the era's words are folded.

Classes, least to most serious: unchanged, terminology (only crosswalk terms differ), reference (only
cross-references differ), reworded (same elements, other words), restructured (split, merged or moved,
same content), substantive (an element differs: which is recorded), and new / removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..text import t2s
from .classify import figures
from .elements import ELEMENTS, NO_CONSEQUENCE, Elements, elements, fold_era, mask_references
from .redline import Redline, TermLexicon, redline

CONTENT_CLASSES: tuple[str, ...] = ("unchanged", "terminology", "reference", "reworded", "restructured",
                                    "substantive", "new", "removed")
# the elements whose difference changes a ruling (tuned on the tune half of the gold, bench/diff.py);
# negation and references are read off words both eras phrase differently: they name a change, never make one
DECIDING: tuple[str, ...] = ("modal", "number", "consequence", "condition")
# an actor the newer text adds decides (2017 91B: a player, not only a contestant, may be disqualified);
# one it drops does not (the newer text often leaves the actor implied), nor these, named in passing
GENERIC_ACTORS = frozenset({"director", "director-in-charge", "opponent"})
# alignment kinds that say the text was split, merged or moved, not rewritten; of them, the kinds that
# pair a piece with a whole (compared by inclusion), the others one clause with one clause
STRUCTURE_KINDS = frozenset({"moved", "renumbered", "merged", "split", "different_subject"})
PIECE_KINDS = frozenset({"merged", "split", "different_subject"})
HEADING_MAX = 15        # a text of at most this many characters is a heading
MOVED_SHARE = 0.5       # a phrase with this share of its character pairs in the other text moved, not added
BOUNDS = set("，。；：、,.;:（）()[]【】「」“”\"")
# a condition clause ends at its 'when' (2018 21B3 …，并且裁判断定违例方从违例中获利时，判给调整分)
WHEN_END = re.compile(r"(?:之)?时[，,。；;]")
ADDED_MIN = 12          # characters of a phrase inserted or dropped whole that add or remove a case
NUMERAL = re.compile(r"\d|[二两三四五六七八九十]")     # half as many when the phrase has a number in it (一 is an article)
# a dropped and an added phrase with this share of their content characters in common are one phrase moved
# (1999 43A1(a) / 2018: 0.9); function characters and exception markers do not count
ALIKE_SHARE = 0.8
FUNCTION_CHARS = frozenset("的了在已经或者和及与是为将被把其该这那一个除非外情况")
# below this share of common characters a same-subject pair says something else (see classify.py)
MIN_RATIO = 0.15


@dataclass(frozen=True)
class ContentChange:
    """The verdict on one pair: its class, the elements that differ, the redline and both sides' elements."""

    change: str
    changed: tuple[str, ...] = ()            # element names, in ELEMENTS order
    redline: Redline | None = None
    old: Elements | None = None
    new: Elements | None = None
    figures_old: tuple[tuple[float, str], ...] = ()
    figures_new: tuple[tuple[float, str], ...] = ()


def added_actors(a: Elements, b: Elements) -> frozenset[str]:
    """The parties the newer text makes parties of the rule that the older never mentions at all: 2017 9A3
    'any player' where 1999 named only dummy; not 2018 '任何牌手不应' for 1999 '赛员不得' (9B2)."""
    return b.actor - a.actor - a.named - GENERIC_ACTORS


def _lead_in(text: str) -> bool:
    """True for a clause whose text only leads into its items ('当不适用本条 A 款时：')."""
    return text.rstrip().endswith(("：", ":"))


def _plain(text: str) -> str:
    return re.sub(r"[\s，。；：、,.;:()（）\[\]【】「」“”\"'《》]", "", t2s(text))


def _numbers_differ(a: Elements, b: Elements) -> bool:
    """A figure of one text whose number the other has neither as a figure nor as a count ('两张' / '两个')."""
    va, vb = a.values() - {1.0}, b.values() - {1.0}
    return bool((va - vb - b.counts) or (vb - va - a.counts))


def added_phrases(old: str, new: str, lexicon: TermLexicon | None = None,
                  lexicon_new: TermLexicon | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Whole phrases one text has and the other lacks, dropped from (added to) the words both share: a
    case taken from or added to the rule (2018 87A adds 或者…发牌人或者局况不同). A phrase counts when it
    runs from one punctuation mark to another (a clause, not a fragment of a reworded one) and is not found
    in the other text (a phrase that only moved, '除非 X，Y' / 'Y，X 的除外', is)."""
    rl = redline(old, new, lexicon, lexicon_new)
    dropped: list[str] = []
    added: list[str] = []
    before = {"old": "", "new": ""}           # the text of each side up to the segment
    for seg in rl.segments:
        for side, mine, theirs, other_text, out in (("old", seg.old, seg.new, new, dropped),
                                                    ("new", seg.new, seg.old, old, added)):
            if seg.op not in ("equal", "term"):
                phrase = _whole(mine, theirs, other_text, before[side],
                                (old if side == "old" else new)[len(before[side]) + len(mine):])
                out += [phrase] if phrase else []
        before["old"] += seg.old
        before["new"] += seg.new
    return tuple(dropped), tuple(added)


def _whole(mine: str, theirs: str, other_text: str, left: str, right: str) -> str:
    """The clause a long run against little or nothing adds or drops: the run itself when punctuation (or
    the text's ends) bounds it, else the part of it between its first and last punctuation mark; ''."""
    n = len(_plain(mine))
    if 4 * len(_plain(theirs)) >= n or coverage(mine, other_text) >= MOVED_SHARE:
        return ""
    starts = not left.strip() or left.rstrip()[-1] in BOUNDS or mine.lstrip()[:1] in BOUNDS
    ends = not right.strip() or right.lstrip()[:1] in BOUNDS or mine.rstrip()[-1:] in BOUNDS \
        or WHEN_END.match(right.lstrip()) is not None
    marks = [i for i, ch in enumerate(mine) if ch in BOUNDS]
    if not (starts and ends):       # keep the part a punctuation mark bounds on the open side(s)
        first, last = (0 if starts else marks[0] if marks else len(mine)), (len(mine) if ends else marks[-1] + 1 if marks else 0)
        mine = mine[first:last] if first < last else ""
    aside = mine.strip()[:1] in "（(" and mine.strip()[-1:] in "）)"       # a parenthesis added or dropped whole
    limit = NUMERAL.search(mine) is not None        # 2018 53A 在第十三墩之前: a short phrase that sets a limit
    return mine if len(_plain(mine)) >= (ADDED_MIN // 2 if aside or limit else ADDED_MIN) else ""


def _content_chars(text: str) -> frozenset[str]:
    return frozenset(ch for ch in _plain(text) if ch not in FUNCTION_CHARS and not ch.isascii())


def unmatched(dropped: tuple[str, ...], added: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The dropped and added phrases less each pair that says one thing in two places: an exception put
    after the rule instead of before it (1999 43A1(a) 除非已有另一赛员指出违规 / 2018 已经另有牌手指出违例的除外)."""
    gone: set[str] = set()
    for d in dropped:
        for a in added:
            cd, ca = _content_chars(d), _content_chars(a)
            if a not in gone and cd and ca and len(cd & ca) >= ALIKE_SHARE * min(len(cd), len(ca)):
                gone |= {d, a}
                break
    return tuple(d for d in dropped if d not in gone), tuple(a for a in added if a not in gone)


def _consequences_differ(a: Elements, b: Elements) -> bool:
    """A consequence one text states in words that the other states neither in words nor by pointing to
    the law named for it; 'no further rectification' states none."""
    ca, cb = a.consequence - {NO_CONSEQUENCE}, b.consequence - {NO_CONSEQUENCE}
    return bool((ca - cb - b.implied) or (cb - ca - a.implied))


def differing(a: Elements, b: Elements) -> tuple[str, ...]:
    """The names of the elements that differ between two texts; a modal differs only when both texts
    carry a force and they share none (应 / 必须 / 只能 are one obligation in two eras' words)."""
    out = []
    for n in ELEMENTS:
        if n == "modal":
            differs = bool(a.modal and b.modal and not a.modal & b.modal)
        elif n == "number":
            differs = _numbers_differ(a, b)
        elif n == "consequence":
            differs = _consequences_differ(a, b)
        else:
            differs = a.get(n) != b.get(n)
        if differs:
            out.append(n)
    return tuple(out)


def classify_content(old: str | None, new: str | None, lexicon: TermLexicon | None = None,
                     lexicon_new: TermLexicon | None = None, kind: str = "same",
                     headed: tuple[str | None, str | None] = (None, None)) -> ContentChange:
    """Classify a pair of texts (either may be None) whose alignment kind is `kind`; the elements are read
    from `headed` (the texts with their headings: 1999's 不判罚 'no penalty' is a heading) when given.

    A moved, merged or split pair is `restructured` when the smaller side's deciding elements are all in
    the larger side; a pair of one subject is `substantive` only when a deciding element differs.
    """
    if kind in ("new", "removed"):
        return ContentChange(kind)
    if not old and not new:
        return ContentChange("unchanged")
    if not old or not new:
        # both clauses exist but one only heads its items: the text went into (came from) the items
        return ContentChange("restructured" if kind not in ("new", "removed") else "new" if new else "removed")
    ea, eb = elements(headed[0] or old, lexicon, lexicon_new), elements(headed[1] or new, lexicon_new or lexicon)
    rl = redline(fold_era(old), fold_era(new), lexicon, lexicon_new)
    figs = (tuple(sorted(figures(old))), tuple(sorted(figures(new))))
    diff = differing(ea, eb)
    if kind == "different_subject":
        return ContentChange("restructured", (), rl, ea, eb, *figs)  # the number kept, the rule elsewhere
    if kind == "title":                                              # two headings
        same = _plain(fold_era(old)) == _plain(fold_era(new))
        return ContentChange("unchanged" if _plain(old) == _plain(new) else "terminology" if same else "reworded",
                             (), rl, ea, eb, *figs)
    sizes = sorted((len(_plain(old)), len(_plain(new))))
    if (sizes[0] <= HEADING_MAX and sizes[1] > 3 * sizes[0]) or _lead_in(old) != _lead_in(new):
        # one side is a heading or leads into its items, the other states the rule: the items carry it
        return ContentChange("restructured", (), rl, ea, eb, *figs)
    if kind in PIECE_KINDS:
        # a piece against the whole it was merged into or split from: restructured while its elements are in it
        inside = eb.covers(ea, DECIDING) or ea.covers(eb, DECIDING)
        return ContentChange("restructured" if inside or kind == "different_subject" else "substantive",
                             () if inside else diff, rl, ea, eb, *figs)
    verdict = _same_place(old, new, ea, eb, rl, lexicon, lexicon_new)
    if kind in STRUCTURE_KINDS and verdict.change != "substantive":
        return replace(verdict, change="restructured")         # moved or renumbered, the same rule
    return verdict


def _same_place(old: str, new: str, ea: Elements, eb: Elements, rl: Redline, lexicon: TermLexicon | None,
                lexicon_new: TermLexicon | None) -> ContentChange:
    """Two texts of one clause: unchanged, terminology, reference, reworded or substantive."""
    figs = (tuple(sorted(figures(old))), tuple(sorted(figures(new))))
    diff = differing(ea, eb)
    if _plain(old) == _plain(new):
        return ContentChange("unchanged", (), rl, ea, eb, *figs)
    if not rl.changed or _plain(fold_era(old)) == _plain(fold_era(new)) or \
            not [s for s in rl.changed if re.search(r"\w", s.old + s.new)]:
        return ContentChange("terminology", (), rl, ea, eb, *figs)
    if _plain(mask_references(fold_era(old))) == _plain(mask_references(fold_era(new))) \
            or not redline(mask_references(fold_era(old)), mask_references(fold_era(new)), lexicon, lexicon_new).changed:
        return ContentChange("reference", ("reference",) if "reference" in diff else (), rl, ea, eb, *figs)
    lead_ins = _lead_in(old) and _lead_in(new)      # two lead-ins: their items say what the cases are
    phrases = ((), ()) if lead_ins else added_phrases(mask_references(fold_era(old)), mask_references(fold_era(new)),
                                                       lexicon, lexicon_new)
    phrases = unmatched(*phrases)
    if any(phrases) and "condition" not in diff:
        diff = (*diff, "condition")
        ea = replace(ea, condition=ea.condition | frozenset(phrases[0]))
        eb = replace(eb, condition=eb.condition | frozenset(phrases[1]))
    deciding = tuple(n for n in diff if n in DECIDING or (n == "actor" and added_actors(ea, eb)))
    if deciding or (rl.ratio < MIN_RATIO and min(len(_plain(old)), len(_plain(new))) > HEADING_MAX):
        return ContentChange("substantive", deciding or diff, rl, ea, eb, *figs)
    return ContentChange("reworded", diff, rl, ea, eb, *figs)


def _bigrams(text: str) -> set[str]:
    s = _plain(mask_references(fold_era(text)))
    return {s[i:i + 2] for i in range(len(s) - 1)}


def coverage(text: str, pool: str) -> float:
    """The share of a clause's character pairs found in `pool` (the other edition's text of the law): a
    clause split off or merged in keeps most of them, a new rule does not."""
    own = _bigrams(text)
    return len(own & _bigrams(pool)) / len(own) if own else 1.0
