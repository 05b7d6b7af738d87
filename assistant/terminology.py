"""The terminology crosswalk: one concept per bridge term, with its labels per edition and script.

Data: assistant/data/terms.tsv (seeded from the shared 118-concept crosswalk and extended with every
definitions-chapter term). Labels are edition-scoped because the same string means different things in
different editions (叫牌 is a call on the mainland but the auction in Taiwan; 违规 is an irregularity in
1999 but an infraction in 2018). Matching uses spaCy PhraseMatchers on blank zh/en pipelines.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .editions import bridge_editions, main_language, newest_first
from .text import definition_key
from .errors import BridgelawError

TERMS_FILE = Path(__file__).resolve().parent / "data" / "terms.tsv"

# TSV column stem -> (edition, language) of the labels in that column; `<stem>_alt` and `<stem>_hidden`
# hold alternative and hidden (OCR) labels, '|'-separated
COLUMN_SCOPES: dict[str, tuple[str, str]] = {
    "en": ("wbf2017", "en"),
    "ccba1999": ("ccba1999", "zh-Hans"),
    "ccba2018": ("ccba2018", "zh-Hans"),
    "wbf2017": ("wbf2017", "zh-Hant"),
}
ROLES: dict[str, str] = {"": "pref", "_alt": "alt", "_hidden": "hidden"}
BRIDGE_EDITIONS: tuple[str, ...] = bridge_editions()
# the order `expand` lists other editions' labels in: simplified-Chinese editions first, newest first
EXPAND_ORDER: tuple[str, ...] = tuple(sorted(BRIDGE_EDITIONS, key=lambda n: (main_language(n) != "zh-Hans",
                                                                          newest_first().index(n))))
# variant characters of the OCR and the sources that OpenCC does not fold (corpus-guide §7.2)
VARIANTS = str.maketrans({"満": "滿", "実": "實", "売": "賣", "個": "个", "減": "减"})
MIN_CJK_MENTION = 2        # one-character labels (局, 牌, 轮, 队, 方 …) are too ambiguous to tag clauses


class UnknownConcept(BridgelawError):
    """A concept id that is not in the crosswalk."""

    exit_code = 1

    def __init__(self, concept_id: str) -> None:
        super().__init__(f"unknown concept: {concept_id!r} — not in assistant/data/terms.tsv — "
                         f"use Terminology().find(term) to look a term up")


class TermsFileError(BridgelawError):
    """The crosswalk file is malformed."""

    exit_code = 3


@dataclass(frozen=True)
class Label:
    """One label of a concept as one edition writes it."""

    form: str
    edition: str                 # ccba1999 | ccba2018 | wbf2017
    lang: str                    # zh-Hans | zh-Hant | en
    role: str                    # pref | alt | hidden


@dataclass(frozen=True)
class Concept:
    """A bridge term across editions, e.g. revoke: 藏牌 (1999, 2018), 應跟未跟 (TW), Revoke (WBF)."""

    id: str                                  # 'revoke', 'adjusted-score'
    labels: tuple[Label, ...]
    keys: tuple[str, ...] = ()               # extra normalised definition keys (sic spellings)
    note: str = ""                           # collisions and caveats, in English
    cites: dict[str, str] = field(default_factory=dict, compare=False, hash=False)   # edition -> line

    @property
    def en(self) -> str:
        return next((lb.form for lb in self.labels if lb.lang == "en" and lb.role == "pref"), self.id)

    def forms(self, edition: str | None = None, roles: Iterable[str] = ("pref", "alt")) -> list[str]:
        """Label strings, pref first, of one edition (or all), without duplicates."""
        wanted = tuple(roles)
        out = [lb.form for r in wanted for lb in self.labels
               if lb.role == r and (edition is None or lb.edition == edition)]
        return list(dict.fromkeys(out))

    def def_keys(self) -> set[str]:
        """Every normalised key that names this concept in a definitions chapter."""
        return {norm_key(self.id), *(norm_key(f) for f in self.forms(roles=("pref", "alt")) if is_latin(f)),
                *self.keys}


def norm_key(s: str) -> str:
    """An English key as every layer compares it (assistant.text.definition_key)."""
    return definition_key(s)


def is_latin(s: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9 '’.\-()]+", s))


def _t2s(s: str) -> str:
    from .text import t2s

    return t2s(s)


def fold(s: str) -> str:
    """The form used to compare user input with labels: NFKC, variant characters, simplified, lower case."""
    s = unicodedata.normalize("NFKC", s).translate(VARIANTS)
    return re.sub(r"\s+", " ", _t2s(s)).strip().casefold()


def _en_variants(form: str) -> list[str]:
    """Inflected English forms matched as the same label: plural and possessive."""
    base = form.casefold()
    out = [base]
    if not base.endswith("s"):
        out += [base + "s", base + "'s"]
    return out


def read_terms(path: Path = TERMS_FILE) -> list[Concept]:
    """Read the crosswalk TSV into concepts; TermsFileError on a malformed file."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    concepts: list[Concept] = []
    seen: set[str] = set()
    for n, row in enumerate(rows, start=2):
        cid = (row.get("id") or "").strip()
        if not cid or cid in seen:
            raise TermsFileError(f"{path.name}:{n}: {'duplicate' if cid else 'missing'} concept id {cid!r} — "
                                 "every row needs a unique id in the first column")
        seen.add(cid)
        labels: list[Label] = []
        for stem, (edition, lang) in COLUMN_SCOPES.items():
            for suffix, role in ROLES.items():
                for form in (row.get(stem + suffix) or "").split("|"):
                    if form.strip():
                        labels.append(Label(form.strip(), edition, lang, role))
        if not any(lb.role == "pref" for lb in labels):
            raise TermsFileError(f"{path.name}:{n}: concept {cid!r} has no label — fill at least one of "
                                 f"{', '.join(COLUMN_SCOPES)}")
        keys = tuple(k for k in (row.get("keys") or "").split("|") if k)
        cites = {ed: row[f"cite_{ed}"] for ed in BRIDGE_EDITIONS if row.get(f"cite_{ed}")}
        concepts.append(Concept(cid, tuple(labels), keys, (row.get("note") or "").strip(), cites))
    return concepts


class Terminology:
    """Look terms up across editions and scripts, expand queries, tag clauses with the concepts they mention."""

    def __init__(self, concepts: list[Concept] | None = None) -> None:
        self.concepts: dict[str, Concept] = {c.id: c for c in (concepts if concepts is not None else read_terms())}
        # folded form -> [(concept id, edition)], for exact look-ups of user input
        self._exact: dict[str, list[tuple[str, str]]] = {}
        for c in self.concepts.values():
            for lb in c.labels:
                forms = _en_variants(lb.form) if lb.lang == "en" else [lb.form]
                for f in forms:
                    entry = (c.id, lb.edition)
                    bucket = self._exact.setdefault(fold(f), [])
                    if entry not in bucket:
                        bucket.append(entry)
        self._by_key: dict[str, str] = {}
        for c in self.concepts.values():
            for k in c.def_keys():
                self._by_key.setdefault(k, c.id)
        # per-instance caches of the built matchers (an lru_cache on a method would keep self alive)
        self._scanners: dict[tuple[str, str], _FoldedScanner] = {}
        self._matchers: dict[tuple[str, str, bool], _PhraseTagger] = {}

    # ------------------------------------------------------------------ look-ups

    def concept(self, concept_id: str) -> Concept:
        try:
            return self.concepts[concept_id]
        except KeyError:
            raise UnknownConcept(concept_id) from None

    def labels(self, concept_id: str, edition: str | None = None) -> list[str]:
        """The concept's labels (pref, then alt) in one edition or all; UnknownConcept if there is none."""
        return self.concept(concept_id).forms(edition)

    def find(self, text: str, edition: str | None = None) -> list[Concept]:
        """Concepts named by `text` (a term in any edition or script), else the concepts it mentions.

        With `edition`, only that edition's labels count: find('叫牌', 'wbf2017') is the auction,
        find('叫牌', 'ccba2018') the call.
        """
        hits = [cid for cid, ed in self._exact.get(fold(text), []) if edition is None or ed == edition]
        if not hits:
            hits = self._scan(text, edition)
        return [self.concepts[c] for c in dict.fromkeys(hits)]

    def expand(self, text: str, include_hidden: bool = False) -> list[str]:
        """Labels of the concepts `text` names, in the other editions and scripts: 夢家 -> 明手, Dummy."""
        own = fold(text)
        roles = ("pref", "alt", "hidden") if include_hidden else ("pref", "alt")
        out: list[str] = []
        for c in self.find(text):
            for ed in EXPAND_ORDER:
                out += [f for f in c.forms(ed, roles) if fold(f) != own]
        return list(dict.fromkeys(out))

    def by_definition(self, keys: Iterable[str | None], term: dict[str, str], edition: str) -> Concept | None:
        """The concept a definitions-chapter entry defines: by its English key(s), else by its term in that edition."""
        for k in keys:
            if k and norm_key(k) in self._by_key:
                return self.concepts[self._by_key[norm_key(k)]]
        for form in term.values():
            for cid, ed in self._exact.get(fold(form), []):
                if ed == edition:
                    return self.concepts[cid]
        return None

    def jieba_words(self) -> list[str]:
        """Every Chinese label (all editions, scripts and roles), for jieba.add_word so terms stay whole."""
        words = {lb.form for c in self.concepts.values() for lb in c.labels if lb.lang != "en"}
        return sorted(w for w in words if len(w) >= 2 and not re.search(r"[()（）/ ]", w))

    # ------------------------------------------------------------------ clause tagging

    def mentions(self, text: str, edition: str, lang: str) -> list[str]:
        """Concept ids whose labels of this edition and language occur in `text` (longest match wins)."""
        if not text:
            return []
        matcher = self._matcher(edition, lang)
        return matcher.match(text)

    def _scan(self, text: str, edition: str | None) -> list[str]:
        folded = fold(text)
        eds = (edition,) if edition else BRIDGE_EDITIONS
        hits: list[tuple[int, str]] = []
        for ed in eds:
            for lang in ("zh-Hans", "zh-Hant", "en"):
                hits += self._scanner(ed, lang).match_positions(folded)
        return [cid for _, cid in sorted(hits)]

    def _scanner(self, edition: str, lang: str) -> "_FoldedScanner":
        """Pure-Python longest-match scanner over folded labels: looking a query up needs no spaCy
        (whose import, with torch behind it, is most of a cold start); clause tagging keeps spaCy."""
        if (edition, lang) not in self._scanners:
            self._scanners[(edition, lang)] = self._build_scanner(edition, lang)
        return self._scanners[(edition, lang)]

    def _build_scanner(self, edition: str, lang: str) -> "_FoldedScanner":
        forms: dict[str, set[str]] = {}
        for c in self.concepts.values():
            for lb in c.labels:
                if lb.edition != edition or lb.lang != lang:
                    continue
                for v in (_en_variants(lb.form) if lang == "en" else [lb.form]):
                    key = fold(v)
                    if lang != "en" and len(key) < MIN_CJK_MENTION:
                        continue
                    forms.setdefault(key, set()).add(c.id)
        return _FoldedScanner(lang == "en", forms)

    def _matcher(self, edition: str, lang: str, folded: bool = False) -> "_PhraseTagger":
        if (edition, lang, folded) not in self._matchers:
            self._matchers[(edition, lang, folded)] = self._build_matcher(edition, lang, folded)
        return self._matchers[(edition, lang, folded)]

    def _build_matcher(self, edition: str, lang: str, folded: bool = False) -> "_PhraseTagger":
        forms: dict[str, set[str]] = {}
        for c in self.concepts.values():
            for lb in c.labels:
                if lb.edition != edition or lb.lang != lang:
                    continue
                variants = _en_variants(lb.form) if lang == "en" else [lb.form]
                for v in variants:
                    key = fold(v) if folded else v
                    if lang != "en" and len(key) < MIN_CJK_MENTION:
                        continue
                    forms.setdefault(key, set()).add(c.id)
        return _PhraseTagger("en" if lang == "en" else "zh", forms)


@lru_cache(maxsize=2)
def _blank(lang: str):
    import spacy

    return spacy.blank(lang)


class _PhraseTagger:
    """A spaCy PhraseMatcher over one set of label forms; overlapping hits keep the longest."""

    def __init__(self, lang: str, forms: dict[str, set[str]]) -> None:
        from spacy.matcher import PhraseMatcher

        self.nlp = _blank(lang)
        self.matcher = PhraseMatcher(self.nlp.vocab, attr="LOWER" if lang == "en" else "ORTH")
        self.ids: dict[int, list[str]] = {}
        for n, (form, concept_ids) in enumerate(sorted(forms.items())):
            key = f"t{n}"
            self.matcher.add(key, [self.nlp.make_doc(form)])
            self.ids[self.nlp.vocab.strings[key]] = sorted(concept_ids)

    def match_positions(self, text: str) -> list[tuple[int, str]]:
        from spacy.util import filter_spans

        doc = self.nlp.make_doc(text)
        spans = {}
        for match_id, start, end in self.matcher(doc):
            span = doc[start:end]
            spans[span] = self.ids[match_id]
        out: list[tuple[int, str]] = []
        for span in sorted(filter_spans(list(spans)), key=lambda s: s.start):
            out += [(span.start_char, cid) for cid in spans[span]]
        return out

    def match(self, text: str) -> list[str]:
        return list(dict.fromkeys(cid for _, cid in self.match_positions(text)))


class _FoldedScanner:
    """Longest non-overlapping matches of label forms in folded text (English on word boundaries)."""

    def __init__(self, english: bool, forms: dict[str, set[str]]) -> None:
        self.ids = {f: sorted(ids) for f, ids in forms.items()}
        alts = "|".join(re.escape(f) for f in sorted(forms, key=lambda f: (-len(f), f)))
        pattern = rf"(?<![a-z0-9])(?:{alts})(?![a-z0-9])" if english else f"(?:{alts})"
        self.regex = re.compile(pattern) if forms else None

    def match_positions(self, text: str) -> list[tuple[int, str]]:
        if self.regex is None:
            return []
        return [(m.start(), cid) for m in self.regex.finditer(text) for cid in self.ids[m.group(0)]]


@lru_cache(maxsize=1)
def load_terminology() -> Terminology:
    """The project's crosswalk, read once per process."""
    return Terminology()
