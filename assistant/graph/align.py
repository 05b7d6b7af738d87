"""Edition alignment: which clause of one edition corresponds to which clause of another, and how.

Pairs: ccba1999 → ccba2018 (two zh-Hans texts of different WBF generations) and ccba2018 → wbf2017
(the 2017 laws in two translations; wbf2017 carries the 2024 text of Laws 73 and 89). Curated facts
(content that moved, laws that changed subject) come from data/alignment.yaml; the rest is computed:
laws pair by number, sections and items inside a law pair by text similarity (character bigrams over
texts with the editions' terminology folded), preferring the same label when scores are close.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from ..errors import CorpusParseError

DATA = Path(__file__).resolve().parent.parent / "data"
KINDS = ("same", "renumbered", "moved", "merged", "split", "new", "removed", "different_subject", "revised")
PAIRS = (("ccba1999", "ccba2018"), ("ccba2018", "wbf2017"))

SAME_AT = 0.45        # similarity from which a same-label pair counts as 'same' rather than 'revised'
PAIR_AT = 0.22        # least similarity for pairing two subdivisions with different labels
MERGE_AT = 0.35       # an unpaired subdivision this close to a paired one is merged into / split from it
LABEL_BONUS = 0.15    # preference for the same label when ranking candidate pairs


@dataclass(frozen=True)
class Correspondence:
    """One cross-edition correspondence; from_id is the older edition's clause (None for 'new')."""

    from_id: str | None      # clause of the earlier edition (ccba1999, or ccba2018 against wbf2017)
    to_id: str | None        # clause of the later edition; None for removed
    kind: str                # one of KINDS
    method: str              # 'curated' | 'number' | 'structure' | 'char-ngram' | 'id'
    similarity: float | None  # character-bigram Dice of the two texts (terminology folded), if computed
    note: str = ""           # source note for curated facts, or why this kind


# ---------------------------------------------------------------------------------------------
# Data


@lru_cache(maxsize=1)
def curated() -> dict[str, list[dict[str, Any]]]:
    """The curated correspondences of data/alignment.yaml, checked for kind and fields."""
    path = DATA / "alignment.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise CorpusParseError(str(path), f"cannot read curated alignment ({err})",
                               fix="restore assistant/data/alignment.yaml") from None
    for pair, entries in data.items():
        for e in entries:
            if e.get("kind") not in KINDS or not e.get("source") or not (e.get("from") or e.get("to")):
                raise CorpusParseError(str(path), f"bad entry in {pair}: {e}",
                                       fix=f"each entry needs from/to, a kind of {', '.join(KINDS)} and a source")
    return data


@lru_cache(maxsize=1)
def term_folds() -> dict[str, list[tuple[str, str]]]:
    """Replacement lists (longest first) that rewrite ccba1999 and wbf2017 (t2s) terms as ccba2018's."""
    path = DATA / "terms.tsv"
    rows = list(csv.DictReader(path.open(encoding="utf-8"), delimiter="\t"))
    col = {"ccba1999": "ccba1999", "ccba2018": "ccba2018", "wbf2017": "wbf2017"}
    if rows and "ccba1999" not in rows[0]:
        col = {"ccba1999": "1999(000)", "ccba2018": "2018(001)", "wbf2017": "TW2017/2024(004)"}
    from ..text import t2s

    folds: dict[str, list[tuple[str, str]]] = {"ccba1999": [], "wbf2017": []}
    for r in rows:
        target = (r.get(col["ccba2018"]) or "").strip()
        if not target:
            continue
        for ed in folds:
            src = (r.get(col[ed]) or "").strip()
            if ed == "wbf2017":
                src = t2s(src)
            if src and src != target and len(src) >= 1:
                folds[ed].append((src, target))
    for ed in folds:
        folds[ed].sort(key=lambda p: -len(p[0]))
    return folds


# ---------------------------------------------------------------------------------------------
# Texts and similarity

_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)


def _fold(text: str, edition: str) -> str:
    from ..text import t2s

    if edition == "wbf2017":
        text = t2s(text)
    for src, dst in term_folds().get(edition, ()):
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

    def __init__(self, edition: Any, lang: str) -> None:
        self.ed, self.lang = edition, lang
        self._cache: dict[str, Counter[str]] = {}

    def own(self, cid: str) -> str:
        c = self.ed.clauses[cid]
        return (c.title.get(self.lang, "") + c.text.get(self.lang, "")
                + "".join(self.own(k) for k in c.children if k in self.ed.clauses))

    def grams(self, cid: str) -> Counter[str]:
        if cid not in self._cache:
            self._cache[cid] = _bigrams(_fold(self.own(cid), self.ed.name))
        return self._cache[cid]


# ---------------------------------------------------------------------------------------------
# Pairing


def _alt_label(seg: str) -> str:
    """wbf2017 spells sub-sub-items (i), (ii); ccba2018 spells them (1), (2)."""
    romans = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
    if seg in romans:
        return str(romans.index(seg) + 1)
    if seg.isdigit() and 1 <= int(seg) <= 10:
        return romans[int(seg) - 1]
    return seg


def _pair_children(a_ids: list[str], b_ids: list[str], sim: Callable[[str, str], float]
                   ) -> tuple[list[tuple[str, str, float]], list[str], list[str]]:
    """Greedy best-first pairing of two sibling lists by similarity, preferring equal labels."""
    cands = []
    for a in a_ids:
        for b in b_ids:
            s = sim(a, b)
            same = a.rsplit("/", 1)[1] == b.rsplit("/", 1)[1]
            if s >= PAIR_AT or (same and s >= PAIR_AT / 2):
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
        self.ta = Texts(self.A, "zh-Hans")
        self.tb = Texts(self.B, "zh-Hans" if newer != "wbf2017" else "zh-Hant")
        self.out: list[Correspondence] = []
        self.cur = curated().get(f"{older}-{newer}", [])
        self.cur_from = {e["from"] for e in self.cur if e.get("from")}
        self.cur_to = {e["to"] for e in self.cur if e.get("to")}
        self.cur_pair = {(e.get("from"), e.get("to")): e for e in self.cur}

    def sim(self, a: str, b: str) -> float:
        return round(dice(self.ta.grams(a), self.tb.grams(b)), 3)

    def emit(self, a: str | None, b: str | None, kind: str, method: str, s: float | None, note: str = "") -> None:
        self.out.append(Correspondence(a, b, kind, method, s, note))

    def curated_entries(self) -> None:
        for e in self.cur:
            a, b = e.get("from"), e.get("to")
            for cid, ed in ((a, self.A), (b, self.B)):
                if cid and cid not in ed.clauses:
                    raise CorpusParseError("alignment.yaml", f"curated id {cid} is not in the corpus",
                                           fix="correct the id or the parser")
            s = self.sim(a, b) if a and b else None
            self.emit(a, b, e["kind"], "curated", s, e["source"])

    def laws(self) -> None:
        a_laws = {c.number: c.id for c in self.A.laws() if c.level == "law"}
        b_laws = {c.number: c.id for c in self.B.laws() if c.level == "law"}
        for num in sorted(set(a_laws) | set(b_laws), key=lambda n: int(n) if n.isdigit() else 999):
            a, b = a_laws.get(num), b_laws.get(num)
            if not a or not b:
                self.emit(a, b, "removed" if a else "new", "number", None, "no law of that number")
                continue
            if (a, b) in self.cur_pair:
                if self.cur_pair[(a, b)]["kind"] == "different_subject":
                    self._unpaired(self.A.clauses[a].children, [], "law changed subject")
                    self._unpaired([], self.B.clauses[b].children, "law changed subject")
                    continue
                self._children(a, b)
                continue
            s = self.sim(a, b)
            self.emit(a, b, "same" if s >= SAME_AT else "revised", "number", s,
                      "" if s >= SAME_AT else "same number and subject, text changed")
            self._children(a, b)

    def _children(self, a: str, b: str) -> None:
        a_kids = [k for k in self.A.clauses[a].children if k not in self.cur_from]
        b_kids = [k for k in self.B.clauses[b].children if k not in self.cur_to]
        pairs, rest_a, rest_b = _pair_children(a_kids, b_kids, self.sim)
        for x, y, s in pairs:
            same_label = x.rsplit("/", 1)[1] == y.rsplit("/", 1)[1]
            kind = ("same" if s >= SAME_AT else "revised") if same_label else "renumbered"
            self.emit(x, y, kind, "char-ngram", s)
            self._children(x, y)
        paired_b = {y: x for x, y, _ in pairs}
        paired_a = {x: y for x, y, _ in pairs}
        merged_a = set()
        for x in rest_a:
            best = max(((self.sim(x, y), y) for y in paired_b), default=(0.0, ""))
            if best[0] >= MERGE_AT:
                self.emit(x, best[1], "merged", "char-ngram", best[0], f"also {paired_b[best[1]]}")
                merged_a.add(x)
        split_b = set()
        for y in rest_b:
            best = max(((self.sim(x, y), x) for x in paired_a), default=(0.0, ""))
            if best[0] >= MERGE_AT:
                self.emit(best[1], y, "split", "char-ngram", best[0], f"also {paired_a[best[1]]}")
                split_b.add(y)
        self._unpaired([x for x in rest_a if x not in merged_a], [y for y in rest_b if y not in split_b], "")

    def _unpaired(self, a_ids: Iterable[str], b_ids: Iterable[str], why: str) -> None:
        """Subtrees with no counterpart: every clause in them is removed / new (unless curated)."""
        for root, removed in [(x, True) for x in a_ids] + [(y, False) for y in b_ids]:
            ed = self.A if removed else self.B
            stack = [root]
            while stack:
                cid = stack.pop()
                if cid in (self.cur_from if removed else self.cur_to):
                    continue
                self.emit(cid if removed else None, None if removed else cid, "removed" if removed else "new",
                          "structure", None, why or "no counterpart found")
                stack.extend(reversed(ed.clauses[cid].children))

    def definitions(self) -> None:
        a_defs = {cid.rsplit("/", 1)[1]: cid for cid in self.A.clauses if "/definition/" in cid}
        b_defs = {cid.rsplit("/", 1)[1]: cid for cid in self.B.clauses if "/definition/" in cid}
        for key in sorted(set(a_defs) & set(b_defs)):
            self.emit(a_defs[key], b_defs[key], "same", "id", self.sim(a_defs[key], b_defs[key]), "same English key")


class _IdAligner(_Aligner):
    """ccba2018 → wbf2017: the same laws, paired by id; similarity on the t2s-converted Taiwan text."""

    def laws(self) -> None:
        revised_laws = {e["to"].split("/")[2] for e in self.cur
                        if e["kind"] == "revised" and e.get("to") and e["to"].count("/") == 2}
        a_ids = [cid for cid in self.A.clauses if "/law/" in cid]
        b_index = {cid: cid for cid in self.B.clauses if "/law/" in cid}
        seen_b: set[str] = set()
        for a in a_ids:
            path = a.split("/")[2:]
            cands = ["/".join(("wbf2017", "law", *path)),
                     "/".join(("wbf2017", "law", *path[:-1], _alt_label(path[-1])))]
            b = next((c for c in cands if c in b_index), None)
            if (a, b) in self.cur_pair:
                seen_b.add(b)  # type: ignore[arg-type]
                continue
            if b is None:
                if a not in self.cur_from:
                    law = path[0]
                    self.emit(a, None, "removed", "id", None,
                              "2024 revision" if law in revised_laws else "no clause with this id in wbf2017")
                continue
            seen_b.add(b)
            s = self.sim(a, b)
            kind = "revised" if path[0] in revised_laws and s < 0.9 else "same"
            self.emit(a, b, kind, "id", s, "2024 revision of this law" if kind == "revised" else "")
        for b in b_index:
            if b not in seen_b and b not in self.cur_to:
                law = b.split("/")[2]
                self.emit(None, b, "new", "id", None,
                          "2024 revision" if law in revised_laws else "no clause with this id in ccba2018")


def align_editions(corpus: Any) -> list[Correspondence]:
    """All correspondences ccba1999 → ccba2018 and ccba2018 → wbf2017 (laws, sections, clauses)."""
    out: list[Correspondence] = []
    for older, newer in PAIRS:
        if older not in corpus.editions or newer not in corpus.editions:
            continue
        al: _Aligner = (_IdAligner if newer == "wbf2017" else _Aligner)(corpus, older, newer)
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
