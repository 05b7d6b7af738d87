"""Edition alignment: which clause of one edition corresponds to which clause of another, and how.

Pairs come from the manifest (`edition_pairs`): ccba1999 → ccba2018 (two zh-Hans texts of different WBF
generations) and ccba2018 → wbf2017 (the 2017 laws in two translations; wbf2017 carries the 2024 text of
its `revised_laws`). Curated facts (content that moved, laws that changed subject) and review decisions
come from data/alignment.yaml (assistant.graph.alignment_data); the rest is computed: laws pair by number,
sections and items inside a law pair by text similarity (character bigrams over texts with the editions'
terminology folded), preferring the same label when scores are close.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..editions import edition, editions, law_editions
from ..errors import CorpusParseError
from .alignment_data import KINDS, curated, rejected, term_folds

__all__ = ["KINDS", "Correspondence", "align_editions", "alignment_stats", "curated", "edition_pairs", "dice"]

SAME_AT = 0.45        # similarity from which a same-label pair counts as 'same' rather than 'revised'
PAIR_AT = 0.22        # least similarity for pairing two subdivisions with different labels
MERGE_AT = 0.35       # an unpaired subdivision this close to a paired one is merged into / split from it
LABEL_BONUS = 0.15    # preference for the same label when ranking candidate pairs
CROSS_AT = 0.45       # a clause left without counterpart pairs with one at another level of its law from here
# computed pairs below this similarity were each read and decided (data/alignment.yaml `review`): below
# PAIR_AT only the label pairs two clauses, and the band from PAIR_AT to here holds the next-weakest pairs
REVIEW_BELOW = 0.30


@dataclass(frozen=True)
class Correspondence:
    """One cross-edition correspondence; from_id is the older edition's clause (None for 'new')."""

    from_id: str | None      # clause of the earlier edition (ccba1999, or ccba2018 against wbf2017)
    to_id: str | None        # clause of the later edition; None for removed
    kind: str                # one of KINDS
    method: str              # 'curated' | 'number' | 'structure' | 'char-ngram' | 'id'
    similarity: float | None  # character-bigram Dice of the two texts (terminology folded), if computed
    note: str = ""           # source note for curated facts, or why this kind
    scope: str = "clause"    # 'clause'; 'title' when only the headings correspond (the text is paired apart)


def edition_pairs() -> tuple[tuple[str, str], ...]:
    """The edition pairs aligned directly, from the manifest: each revision against the edition it revises,
    and a translation against its original; an edition that is translated is reached through its translation."""
    eds, laws = editions(), law_editions()
    translated = {e.translates for e in eds.values() if e.translates}
    out: list[tuple[str, str]] = [(str(eds[n].revises), n) for n in laws
                                  if eds[n].revises in laws and n not in translated]
    out += [(n, str(eds[n].translates)) for n in laws if eds[n].translates in laws]
    return tuple(out)


def _cjk_lang(name: str) -> str:
    """The language the alignment compares an edition in: its Chinese text (zh-Hans, else zh-Hant)."""
    return "zh-Hans" if "zh-Hans" in edition(name).languages else "zh-Hant"


# ---------------------------------------------------------------------------------------------
# Texts and similarity

_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)


def _fold(text: str, ed: str) -> str:
    from ..text import t2s

    if _cjk_lang(ed) == "zh-Hant":
        text = t2s(text)
    for src, dst in term_folds().get(ed, ()):
        if src in text:
            text = text.replace(src, dst)
    return _NOISE.sub("", text)


def _bigrams(s: str) -> Counter[str]:
    return Counter(s[i:i + 2] for i in range(len(s) - 1)) if len(s) > 1 else Counter([s])


def dice(a: Counter[str], b: Counter[str]) -> float:
    """Dice coefficient of two bigram multisets (0 when either is empty)."""
    na, nb = sum(a.values()), sum(b.values())
    if not na or not nb:
        return 0.0
    return 2 * sum((a & b).values()) / (na + nb)


class Texts:
    """Subtree texts of an edition's clauses, folded and as bigrams (cached per clause)."""

    def __init__(self, ed: Any, lang: str) -> None:
        self.ed, self.lang = ed, lang
        self._cache: dict[str, Counter[str]] = {}

    def own(self, cid: str) -> str:
        c = self.ed.clauses[cid]
        return (c.title.get(self.lang, "") + c.text.get(self.lang, "")
                + "".join(self.own(k) for k in c.children if k in self.ed.clauses))

    def grams(self, cid: str) -> Counter[str]:
        if cid not in self._cache:
            self._cache[cid] = _bigrams(_fold(self.own(cid), self.ed.name))
        return self._cache[cid]

    def title_grams(self, cid: str) -> Counter[str]:
        return _bigrams(_fold(self.ed.clauses[cid].title.get(self.lang, ""), self.ed.name))


# ---------------------------------------------------------------------------------------------
# Pairing


def _label(cid: str) -> str:
    return cid.rsplit("/", 1)[1]


def _alt_label(seg: str) -> str:
    """wbf2017 spells sub-sub-items (i), (ii); ccba2018 spells them (1), (2)."""
    romans = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
    if seg in romans:
        return str(romans.index(seg) + 1)
    if seg.isdigit() and 1 <= int(seg) <= 10:
        return romans[int(seg) - 1]
    return seg


def _pair_children(a_ids: list[str], b_ids: list[str], sim: Callable[[str, str], float],
                   reject: frozenset[tuple[str, str]] = frozenset(), least: float = PAIR_AT
                   ) -> tuple[list[tuple[str, str, float]], list[str], list[str]]:
    """Greedy best-first pairing of two sibling lists by similarity, preferring equal labels; a pair a
    reviewer rejected is never made."""
    cands = []
    for a in a_ids:
        for b in b_ids:
            if (a, b) in reject:
                continue
            s = sim(a, b)
            same = _label(a) == _label(b)
            if s >= least or (same and s >= least / 2):
                cands.append((s + (LABEL_BONUS if same else 0.0), s, a, b))
    cands.sort(key=lambda c: (-c[0], c[2], c[3]))
    used_a: set[str] = set()
    used_b: set[str] = set()
    pairs = []
    for _, s, a, b in cands:
        if a in used_a or b in used_b:
            continue
        used_a.add(a)
        used_b.add(b)
        pairs.append((a, b, s))
    return pairs, [a for a in a_ids if a not in used_a], [b for b in b_ids if b not in used_b]


class _Aligner:
    def __init__(self, corpus: Any, older: str, newer: str) -> None:
        self.A, self.B = corpus.editions[older], corpus.editions[newer]
        self.ta, self.tb = Texts(self.A, _cjk_lang(older)), Texts(self.B, _cjk_lang(newer))
        self.out: list[Correspondence] = []
        self.cur = curated().get(f"{older}-{newer}", [])
        self.reject = rejected(f"{older}-{newer}")
        # clauses the curated entries place: left out of the computed pairing (a clause merged into another
        # does not take that one's place, nor does one split from another)
        self.cur_from = {e["from"] for e in self.cur if e.get("from") and e["kind"] != "split"}
        self.cur_to = {e["to"] for e in self.cur if e.get("to") and e["kind"] != "merged"}
        self.cur_pair = {(e.get("from"), e.get("to")): e for e in self.cur}
        # clauses with any curated counterpart (a split or merge included): never reported removed / new
        self.placed_from = {e["from"] for e in self.cur if e.get("from")}
        self.placed_to = {e["to"] for e in self.cur if e.get("to")}

    def sim(self, a: str, b: str) -> float:
        return round(dice(self.ta.grams(a), self.tb.grams(b)), 3)

    def emit(self, a: str | None, b: str | None, kind: str, method: str, s: float | None, note: str = "",
             scope: str = "clause") -> None:
        self.out.append(Correspondence(a, b, kind, method, s, note, scope))

    def curated_entries(self) -> None:
        for e in self.cur:
            a, b = e.get("from"), e.get("to")
            for cid, ed in ((a, self.A), (b, self.B)):
                if cid and cid not in ed.clauses:
                    raise CorpusParseError("alignment.yaml", f"curated id {cid} is not in the corpus",
                                           fix="correct the id or the parser")
            s = self.sim(a, b) if a and b else None
            self.emit(a, b, e["kind"], "curated", s, e["source"])
        for e in self.cur:
            self._below_curated(e.get("from"), e.get("to"), e["kind"])

    def _below_curated(self, a: str | None, b: str | None, kind: str) -> None:
        """The clauses below a curated section pair: aligned as any pair's are, or, below a clause merged
        into another, merged with it. Law-level entries leave their laws to `laws`."""
        if not (a and b) or a.count("/") < 3 or kind == "different_subject":
            return
        if kind != "merged":
            self._children(a, b)
            return
        stack = [k for k in self.A.clauses[a].children if k not in self.cur_from]
        while stack:
            cid = stack.pop()
            self.emit(cid, b, "merged", "structure", self.sim(cid, b), f"part of {a}")
            stack.extend(k for k in self.A.clauses[cid].children if k not in self.cur_from)

    def laws(self) -> None:
        a_laws = {c.number: c.id for c in self.A.laws() if c.level == "law"}
        b_laws = {c.number: c.id for c in self.B.laws() if c.level == "law"}
        for num in sorted(set(a_laws) | set(b_laws), key=lambda n: int(n) if n.isdigit() else 999):
            a, b = a_laws.get(num), b_laws.get(num)
            if not a or not b:
                self.emit(a, b, "removed" if a else "new", "number", None, "no law of that number")
                continue
            start = len(self.out)
            if (a, b) in self.cur_pair:
                if self.cur_pair[(a, b)]["kind"] == "different_subject":
                    self._unpaired(self.A.clauses[a].children, [], "law changed subject")
                    self._unpaired([], self.B.clauses[b].children, "law changed subject")
                    continue
                self._children(a, b)
            elif not self._law_text_to_section(a, b):
                s = self.sim(a, b)
                self.emit(a, b, "same" if s >= SAME_AT else "revised", "number", s,
                          "" if s >= SAME_AT else "same number and subject, text changed")
                self._children(a, b)
            self._across_levels(start)

    def _law_text_to_section(self, a: str, b: str) -> bool:
        """A law whose older text sits at law level while the newer law splits it into sections: the text
        pairs with the matching section, the two laws by their headings only."""
        ca, cb = self.A.clauses[a], self.B.clauses[b]
        if ca.children or not ca.text.get(self.ta.lang) or not cb.children or a in self.cur_from:
            return False
        kids = [k for k in cb.children if k not in self.cur_to and (a, k) not in self.reject]
        best = max(((self.sim(a, k), k) for k in kids), default=(0.0, ""))
        if best[0] < PAIR_AT:
            return False
        ts = round(dice(self.ta.title_grams(a), self.tb.title_grams(b)), 3)
        self.emit(a, b, "same" if ts >= SAME_AT else "revised", "number", ts,
                  f"law headings; the {self.A.name} text is at {best[1]}", scope="title")
        self.emit(a, best[1], "same" if best[0] >= SAME_AT else "revised", "char-ngram", best[0],
                  f"{self.A.name} text at law level, a section in {self.B.name}")
        rest = [k for k in cb.children if k != best[1]] + self.B.clauses[best[1]].children
        self._unpaired([], [k for k in rest if k not in self.cur_to], "")
        return True

    def _children(self, a: str, b: str) -> None:
        a_kids = [k for k in self.A.clauses[a].children if k not in self.cur_from]
        b_kids = [k for k in self.B.clauses[b].children if k not in self.cur_to]
        pairs, rest_a, rest_b = _pair_children(a_kids, b_kids, self.sim, self.reject)
        for x, y, s in pairs:
            kind = ("same" if s >= SAME_AT else "revised") if _label(x) == _label(y) else "renumbered"
            self.emit(x, y, kind, "char-ngram", s)
            self._children(x, y)
        paired_b = {y: x for x, y, _ in pairs}
        paired_a = {x: y for x, y, _ in pairs}
        merged_a = set()
        for x in rest_a:
            best = max(((self.sim(x, y), y) for y in paired_b if (x, y) not in self.reject), default=(0.0, ""))
            if best[0] >= MERGE_AT:
                self.emit(x, best[1], "merged", "char-ngram", best[0], f"also {paired_b[best[1]]}")
                merged_a.add(x)
        split_b = set()
        for y in rest_b:
            best = max(((self.sim(x, y), x) for x in paired_a if (x, y) not in self.reject), default=(0.0, ""))
            if best[0] >= MERGE_AT:
                self.emit(best[1], y, "split", "char-ngram", best[0], f"also {paired_a[best[1]]}")
                split_b.add(y)
        self._unpaired([x for x in rest_a if x not in merged_a], [y for y in rest_b if y not in split_b], "")

    def _across_levels(self, start: int) -> None:
        """Clauses of one law left removed / new that match each other at another level (1999 80A-G are
        2017 80B2(a)-(k)): paired best-first from CROSS_AT, as renumbered."""
        mine = self.out[start:]
        gone = [c.from_id for c in mine if c.kind == "removed" and c.method == "structure" and c.from_id]
        born = [c.to_id for c in mine if c.kind == "new" and c.method == "structure" and c.to_id]
        pairs, _, _ = _pair_children(gone, born, self.sim, self.reject, least=CROSS_AT)
        pairs = [(x, y, s) for x, y, s in pairs if s >= CROSS_AT]      # no label bonus across levels
        if not pairs:
            return
        done_a, done_b = {x for x, _, _ in pairs}, {y for _, y, _ in pairs}
        kept = [c for c in mine if c.from_id not in done_a and c.to_id not in done_b]
        found = [Correspondence(x, y, "renumbered", "char-ngram", s, "at another level of the law")
                 for x, y, s in pairs]
        self.out[start:] = kept + found

    def _unpaired(self, a_ids: Iterable[str], b_ids: Iterable[str], why: str) -> None:
        """Subtrees with no counterpart: every clause in them is removed / new (unless curated)."""
        for root, removed in [(x, True) for x in a_ids] + [(y, False) for y in b_ids]:
            ed = self.A if removed else self.B
            stack = [root]
            while stack:
                cid = stack.pop()
                if cid in (self.placed_from if removed else self.placed_to):
                    continue
                self.emit(cid if removed else None, None if removed else cid, "removed" if removed else "new",
                          "structure", None, why or "no counterpart found")
                stack.extend(reversed(ed.clauses[cid].children))

    def definitions(self) -> None:
        a_defs = {_label(cid): cid for cid in self.A.clauses if "/definition/" in cid}
        b_defs = {_label(cid): cid for cid in self.B.clauses if "/definition/" in cid}
        for key in sorted(set(a_defs) & set(b_defs)):
            self.emit(a_defs[key], b_defs[key], "same", "id", self.sim(a_defs[key], b_defs[key]), "same English key")


class _IdAligner(_Aligner):
    """A translation against its original: the same laws, paired by id (similarity on the t2s text). Only
    the original's `revised_laws` changed content, and only where data/alignment.yaml says so."""

    def _below_curated(self, a: str | None, b: str | None, kind: str) -> None:
        """Every clause is paired by id in `laws`: nothing to do below a curated pair."""

    def laws(self) -> None:
        revised_laws = {str(n) for n in edition(self.B.name).revised_laws}
        b_index = {cid for cid in self.B.clauses if "/law/" in cid}
        seen_b: set[str] = set()
        left_a: list[str] = []
        for a in (cid for cid in self.A.clauses if "/law/" in cid):
            path = a.split("/")[2:]
            cands = ["/".join((self.B.name, "law", *path)),
                     "/".join((self.B.name, "law", *path[:-1], _alt_label(path[-1])))]
            b = next((c for c in cands if c in b_index), None)
            if (a, b) in self.cur_pair or (b is None and a in self.cur_from):
                seen_b.add(b or "")
                continue
            if b is None:
                left_a.append(a)
                continue
            seen_b.add(b)
            self.emit(a, b, "same", "id", self.sim(a, b))
        left_b = [b for b in b_index if b not in seen_b and b not in self.cur_to]
        self._leftovers(left_a, left_b, revised_laws)

    def _leftovers(self, left_a: list[str], left_b: list[str], revised_laws: set[str]) -> None:
        """Clauses without a same-id counterpart: in a revised law, removed / new by the revision; elsewhere
        siblings of one parent pair by similarity (a label misprinted in one translation), else removed / new."""
        def law(cid: str) -> str:
            return cid.split("/")[2]

        def parent(cid: str) -> str:
            return "/".join(cid.split("/")[1:-1])

        pairs: list[tuple[str, str, float]] = []
        for p in sorted({parent(x) for x in left_a} & {parent(y) for y in left_b}):
            if p.split("/")[1] in revised_laws:
                continue
            found, _, _ = _pair_children([x for x in left_a if parent(x) == p], [y for y in left_b if parent(y) == p],
                                         self.sim, self.reject)
            pairs += found
        for x, y, s in pairs:
            self.emit(x, y, "renumbered", "char-ngram", s, "label differs between the two translations")
        done = {x for x, _, _ in pairs} | {y for _, y, _ in pairs}
        for a in left_a:
            if a not in done:
                self.emit(a, None, "removed", "id", None, f"{self.B.name} revised this law"
                          if law(a) in revised_laws else f"no clause with this id in {self.B.name}")
        for b in left_b:
            if b not in done:
                self.emit(None, b, "new", "id", None, f"{self.B.name} revised this law"
                          if law(b) in revised_laws else f"no clause with this id in {self.A.name}")


def align_editions(corpus: Any) -> list[Correspondence]:
    """All correspondences of the directly aligned edition pairs (laws, sections, clauses, definitions)."""
    out: list[Correspondence] = []
    for older, newer in edition_pairs():
        if older not in corpus.editions or newer not in corpus.editions:
            continue
        translation = edition(older).translates == newer
        al: _Aligner = (_IdAligner if translation else _Aligner)(corpus, older, newer)
        al.curated_entries()
        al.laws()
        al.definitions()
        out.extend(al.out)
    return out


def alignment_stats(corr: Iterable[Correspondence], corpus: Any) -> dict[str, Any]:
    """Coverage figures for the report and `graph stats`."""
    cs = list(corr)
    kinds = Counter((c.from_id or c.to_id or "").split("/")[0] + "→" + c.kind for c in cs)
    wbf_sections = [c.id for c in corpus.editions["wbf2017"].clauses.values() if c.level == "section"]
    covered = {c.to_id for c in cs if c.to_id and c.from_id and c.from_id.startswith("ccba2018")}
    laws99 = {c.id for c in corpus.editions["ccba1999"].laws()}
    laws_aligned = {c.from_id for c in cs if c.from_id in laws99}
    return {
        "kinds": dict(sorted(kinds.items())),
        "wbf2017_sections": len(wbf_sections),
        "wbf2017_sections_with_ccba2018": sum(1 for s in wbf_sections if s in covered),
        "ccba1999_laws_aligned": len(laws_aligned),
    }
