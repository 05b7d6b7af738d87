"""Change class of a pair of corresponding clauses on the rule's content: the elements each text rules
(assistant.diff.elements) compared after the terminology crosswalk and the era's words are folded.

Classes, least to most serious: unchanged, terminology (only crosswalk terms differ), reference (only
cross-references differ), reworded (same elements, other words), restructured (split, merged or moved,
same content), substantive (an element differs: which is recorded), and new / removed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace

from ..text import t2s
from .classify import figures
from .elements import (ELEMENTS, NO_CONSEQUENCE, Elements, consequences, elements, fold_era, mask_references,
                       named_parties, reference_asides)
from .redline import Redline, TermLexicon, redline
from .semantic import PhraseMatcher, paraphrased

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
# an aside's words that make it part of the rule: a condition or an alternative
ASIDE_RULES = re.compile(r"如果|若|假如|只要|除|当|时|或|\b(?:if|unless|except|only|when|or)\b", re.I)
SPARE_MIN = 6           # content characters of a phrase and of a spare (a moved run, an aside, a context phrase) to match
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
    runs = phrase_runs(old, new, lexicon, lexicon_new)
    return runs.dropped, runs.added


@dataclass(frozen=True)
class Runs:
    """The phrases one text drops and the other adds, and the runs each side has that the other text holds
    elsewhere (moved: not a change, but what a paraphrased phrase of the other side may be)."""

    dropped: tuple[str, ...]
    added: tuple[str, ...]
    moved_old: tuple[str, ...] = ()
    moved_new: tuple[str, ...] = ()


def phrase_runs(old: str, new: str, lexicon: TermLexicon | None = None,
                lexicon_new: TermLexicon | None = None) -> Runs:
    """The whole phrases each side drops or adds (added_phrases) and the long runs found moved."""
    rl = redline(old, new, lexicon, lexicon_new)
    found: dict[str, list[str]] = {"old": [], "new": [], "old moved": [], "new moved": []}
    before = {"old": "", "new": ""}           # the text of each side up to the segment
    for seg in rl.segments:
        for side, mine, theirs, other_text in (("old", seg.old, seg.new, new), ("new", seg.new, seg.old, old)):
            if seg.op not in ("equal", "term") and 4 * len(_plain(theirs)) < len(_plain(mine)):
                moved = coverage(mine, other_text) >= MOVED_SHARE
                phrase = _whole(mine, before[side], (old if side == "old" else new)[len(before[side]) + len(mine):])
                found[f"{side} moved" if moved else side] += [phrase] if phrase else []
        before["old"] += seg.old
        before["new"] += seg.new
    return Runs(*(tuple(found[k]) for k in ("old", "new", "old moved", "new moved")))


def _whole(mine: str, left: str, right: str) -> str:
    """The clause a long run against little or nothing adds or drops: the run itself when punctuation (or
    the text's ends) bounds it, else the part of it between its first and last punctuation mark; ''."""
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


def bare_aside(phrase: str, lexicon: TermLexicon | None = None) -> bool:
    """True for a parenthesis that rules nothing: no force, party, figure, consequence, condition or
    alternative in it (2018 69A （这两种情况以先发生的为准） 'whichever comes first'); an aside that names an
    alternative widens its rule (2018 47E1 越序引牌（或者打出一个牌张）)."""
    p = phrase.strip(" ，,。；;")
    if not (p[:1] in "（(" and p[-1:] in "）)"):
        return False
    e = elements(p, lexicon)
    return not (e.modal or e.named or e.number or e.consequence or e.condition or ASIDE_RULES.search(p))


def _content_chars(text: str) -> frozenset[str]:
    return frozenset(ch for ch in _plain(text) if ch not in FUNCTION_CHARS and not ch.isascii())


def unmatched(dropped: tuple[str, ...], added: tuple[str, ...],
              spare: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The dropped and added phrases less each pair that says one thing in two places: an exception put
    after the rule instead of before it (1999 43A1(a) 除非已有另一赛员指出违规 / 2018 已经另有牌手指出违例的除外).
    A phrase also goes with a `spare` of the other side (old, new): a run found moved (1999 45C3 除非…外，
    庄家审慎地触摸到明手某一张牌 / 2018 庄家谨慎地触摸到明手的某个牌张，…的情况除外) or the words beside a
    reference the other side writes out, or a phrase of its context (`_alike_spare`)."""
    gone: set[str] = set()
    for d in dropped:
        for a in added:
            cd, ca = _content_chars(d), _content_chars(a)
            if a not in gone and cd and ca and len(cd & ca) >= ALIKE_SHARE * min(len(cd), len(ca)):
                gone |= {d, a}
                break
    for mine, theirs in ((dropped, spare[1]), (added, spare[0])):
        for p in mine:
            cp = _content_chars(p)
            if p not in gone and any(_alike_spare(cp, _content_chars(x)) for x in theirs):
                gone.add(p)
    return tuple(d for d in dropped if d not in gone), tuple(a for a in added if a not in gone)


def _phrases(text: str) -> tuple[str, ...]:
    """A text cut at its punctuation: the phrases a clause's context states (what its heading or lead-in
    says, 1999 35 违规者下家在裁定判罚前接续叫了牌, a clause of the other edition may spell out)."""
    return tuple(p for p in re.split(r"[，。；：,.;:\n（）()]", mask_references(text)) if p.strip())


def _alike_spare(cp: frozenset[str], cx: frozenset[str]) -> bool:
    """Two sets of content characters of one phrase: both long enough to tell, most of the smaller and half
    of the larger in common (a short aside is not 'found' in a heading that happens to hold its words)."""
    common = len(cp & cx)
    return min(len(cp), len(cx)) >= SPARE_MIN and common >= ALIKE_SHARE * min(len(cp), len(cx)) and 2 * common >= max(len(cp), len(cx))


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


@dataclass(frozen=True)
class Context:
    """What each edition says around a pair's clauses (old, new). `around`: the headings and texts above
    them and the other clauses the alignment gives the same counterpart (1999 51B 违规者同伴引牌时 names the
    partner 51B1(b) leaves implied); `cited`: the clauses their references cite by section (1999 47E2(b)
    应用第40条C款 is 2018 裁判可以判给调整分, which 1999 40C says)."""

    around: tuple[str, str] = ("", "")
    cited: tuple[str, str] = ("", "")
    matcher: PhraseMatcher | None = field(default=None, compare=False)   # paraphrases (assistant.diff.semantic)
    # the text above each clause that leads into it (1999 35 …违规者下家在裁定判罚前接续叫了牌…。诸如：): the
    # clause reads as one of its phrases followed by the clause's own
    lead_in: tuple[str, str] = ("", "")


def in_context(e: Elements, around: str, cited: str, lexicon: TermLexicon | None,
               lexicon_new: TermLexicon | None) -> Elements:
    """A text's elements with the parties named around it and the consequences its cited clauses state."""
    return replace(e, named=e.named | named_parties(around, lexicon, lexicon_new),
                   implied=e.implied | (consequences(fold_era(cited)) - {NO_CONSEQUENCE}))


def classify_content(old: str | None, new: str | None, lexicon: TermLexicon | None = None,
                     lexicon_new: TermLexicon | None = None, kind: str = "same",
                     headed: tuple[str | None, str | None] = (None, None),
                     context: Context = Context()) -> ContentChange:
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
    ea = in_context(elements(headed[0] or old, lexicon, lexicon_new), context.around[0], context.cited[0], lexicon,
                    lexicon_new)
    eb = in_context(elements(headed[1] or new, lexicon_new or lexicon), context.around[1], context.cited[1],
                    lexicon_new or lexicon, None)
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
    verdict = _same_place(old, new, ea, eb, rl, lexicon, lexicon_new, context)
    if kind in STRUCTURE_KINDS and verdict.change != "substantive":
        return replace(verdict, change="restructured")         # moved or renumbered, the same rule
    return verdict


def _same_place(old: str, new: str, ea: Elements, eb: Elements, rl: Redline, lexicon: TermLexicon | None,
                lexicon_new: TermLexicon | None, context: Context = Context()) -> ContentChange:
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
    runs = Runs((), ()) if lead_ins else phrase_runs(mask_references(fold_era(old)), mask_references(fold_era(new)),
                                                      lexicon, lexicon_new)
    spare = tuple(moved + reference_asides(fold_era(text)) + _phrases(fold_era(around)) + _phrases(fold_era(cited))
                  for moved, text, around, cited in zip((runs.moved_old, runs.moved_new), (old, new), context.around,
                                                        context.cited, strict=True))
    phrases = unmatched(runs.dropped, runs.added, (spare[0], spare[1]))
    phrases = (tuple(p for p in phrases[0] if not bare_aside(p, lexicon)),
               tuple(p for p in phrases[1] if not bare_aside(p, lexicon_new or lexicon)))
    if context.matcher is not None and any(phrases):
        phrases = _not_paraphrased(phrases, (old, new), spare, context)
    if any(phrases) and "condition" not in diff:
        diff = (*diff, "condition")
        ea = replace(ea, condition=ea.condition | frozenset(phrases[0]))
        eb = replace(eb, condition=eb.condition | frozenset(phrases[1]))
    deciding = tuple(n for n in diff if n in DECIDING or (n == "actor" and added_actors(ea, eb)))
    if deciding or (rl.ratio < MIN_RATIO and min(len(_plain(old)), len(_plain(new))) > HEADING_MAX):
        return ContentChange("substantive", deciding or diff, rl, ea, eb, *figs)
    if diff == ("reference",) and ea.reference < eb.reference and not any(phrases):
        # the newer text only points to more laws, in other words of the same rule (2018 49 adds 例如参照第 47 条
        # E 款 and 当防家反对搭档的承认时，参照第 68 条 B 款 2); a reference dropped drops the words it came with
        return ContentChange("reference", diff, rl, ea, eb, *figs)
    return ContentChange("reworded", diff, rl, ea, eb, *figs)


def _not_paraphrased(phrases: tuple[tuple[str, ...], tuple[str, ...]], texts: tuple[str, str],
                     spare: tuple[tuple[str, ...], ...], context: Context) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The dropped and added phrases the other side says in no other words: each is compared with the other
    side's sayings (its text, the texts around it and cited by it, a phrase and the next as one, a phrase of
    its lead-in and one of its own as one) and its spare runs, and with its own side's other sayings
    (assistant.diff.semantic.paraphrased)."""
    out = []
    for side, mine in enumerate(phrases):
        other = 1 - side
        cands = [*spare[other], *(s for t in (texts[other], context.around[other], context.cited[other])
                                  for s in _sayings(fold_era(t)))]
        cands += [f"{y}，{x}" for y in _phrases(fold_era(context.lead_in[other])) for x in _phrases(fold_era(texts[other]))]
        own = _sayings(mask_references(fold_era(texts[side])))
        out.append(tuple(p for p in mine if not paraphrased(
            p, cands, [x for x in own if _plain(x) not in _plain(p) and _plain(p) not in _plain(x)], context.matcher)))
    return out[0], out[1]


def _sayings(text: str) -> tuple[str, ...]:
    """A text's phrases (`_phrases`, per line) and each phrase joined to the next on its line: a condition
    one edition writes in one phrase the other may write in two (1999 65D 当对赢墩发生疑问，或提出藏牌时)."""
    out: list[str] = []
    for line in text.splitlines():
        parts = _phrases(line)
        out += [*parts, *("，".join(parts[i:i + 2]) for i in range(len(parts) - 1))]
    return tuple(dict.fromkeys(out))


def _bigrams(text: str) -> set[str]:
    s = _plain(mask_references(fold_era(text)))
    return {s[i:i + 2] for i in range(len(s) - 1)}


def coverage(text: str, pool: str) -> float:
    """The share of a clause's character pairs found in `pool` (the other edition's text of the law): a
    clause split off or merged in keeps most of them, a new rule does not."""
    own = _bigrams(text)
    return len(own & _bigrams(pool)) / len(own) if own else 1.0


def _content_run(text: str) -> str:
    """A text's content characters in order (era words folded, references, punctuation and function
    characters dropped)."""
    return "".join(ch for ch in _plain(mask_references(fold_era(text))) if ch not in FUNCTION_CHARS and not ch.isascii())


def kept_share(text: str, pool: str) -> float:
    """The share of a clause's content characters found in `pool` in the same order, in runs of two or more:
    a clause split off and reworded keeps its order of words (2018 37B1 against 1999 37: 0.71), a new rule
    does not (2018 65B3: 0.24); sturdier than `coverage` where the wording changed (被取消 / 均予取消)."""
    own, other = _content_run(text), _content_run(pool)
    blocks = difflib.SequenceMatcher(None, own, other, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks if b.size >= 2) / len(own) if own else 1.0
