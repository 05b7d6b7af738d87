"""The normative elements of a rule's text — who acts, the modal, the condition, the consequence, numbers
with units, negation, the laws referred to — so two editions of a clause are compared on what they rule,
not on their wording. Pure functions; the term lexicons (assistant.terminology via TermLexicon) are passed in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from ..text import has_cjk, t2s
from .classify import _cn_value, figures, modals
from .redline import TermLexicon, tokenize

ELEMENTS: tuple[str, ...] = ("actor", "modal", "condition", "consequence", "number", "negation", "reference")
ERA_TERMS = Path(__file__).resolve().parent / "era_terms.yaml"

# a cross-reference: 第 27 条 B 款 2 / 本条 D 款 / 本款 1 (b) / Law 16C / Laws 70 and 71
REF_ZH = re.compile(r"第\s*(\d+|[一二三四五六七八九十百]+)\s*条(?:\s*[A-Z]\s*款)?(?:\s*\d+)?(?:\s*[(（]\s*[a-z]\s*[)）])?"
                    r"(?:\s*[、和及或至到]\s*(?:第\s*)?\d+\s*条?(?:\s*[A-Z]\s*款)?(?:\s*\d+)?)*"
                    r"|本条\s*[A-Z]\s*款(?:\s*\d+)?(?:\s*[(（]\s*[a-z]\s*[)）])?|本款\s*\d+(?:\s*[(（]\s*[a-z]\s*[)）])?")
REF_EN = re.compile(r"\bLaws?\s+\d+[A-Z]?\d*(?:\([a-z]\))?(?:\s*(?:,|and|or|to)\s*\d+[A-Z]?\d*(?:\([a-z]\))?)*"
                    r"|\bsection\s+[A-Z]\d*\b|\bsubsection\s+\d+\b", re.I)
REF_LAW = re.compile(r"第\s*(\d+)\s*条|\bLaws?\s+(\d+)", re.I)
# a condition's trigger: an exception (an 'if' or an 'only' is how both editions phrase most rules)
CONDITION_ZH = re.compile(r"除外|除非|除了")
CONDITION_EN = re.compile(r"\b(unless|except)\b", re.I)
PERMIT_ZH = re.compile(r"可(?!能|是|比|靠|疑|见|行)|得以")
PERMIT_EN = re.compile(r"\bmay\b(?! not)", re.I)
# negation that turns a rule around (不叫 'pass' and 不足 'insufficient' are names, not negation)
NEGATION_ZH = re.compile(r"不再|不适用|不会|不被|不是|没有|并非|无效|不受")
NEGATION_EN = re.compile(r"\b(no longer|does not apply|do not apply|not|no|never|without)\b", re.I)
# what follows an infraction: the rectification, the score, the restriction
CONSEQUENCE_ZH = {"pass": r"必须(?:永远|一直)?不叫|永远不叫", "lead-restrictions": r"引牌限制|引牌判罚",
                  "adjusted-score": r"调整分|调整分数", "transfer": r"转(?:交|给|移)",
                  "penalty-card": r"罚张|罚牌", "cancelled": r"取消|无效", "procedural-penalty": r"程序性处罚|程序罚",
                  "no-rectification": r"(?:没有|不再|不予|不|无须|免于)(?:进一步)?(?:的)?纠正|免罚|不予处罚"}
CONSEQUENCE_EN = {"pass": r"must pass", "lead-restrictions": r"lead restrictions?|lead penalt",
                  "adjusted-score": r"adjusted score", "transfer": r"transferred|transfer",
                  "penalty-card": r"penalty card", "cancelled": r"cancelled|void",
                  "procedural-penalty": r"procedural penalty", "no-rectification": r"no further rectification|without rectification"}
COUNT_ZH = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*[个個位项項种種]")
# the concepts of the crosswalk that name who acts
ACTORS = frozenset({"player", "partner", "offender", "director", "declarer", "dummy", "defender", "lho", "rho",
                    "non-offending-side", "opponent", "contestant", "tournament-organizer", "regulating-authority",
                    "appeals-committee", "director-in-charge"})


@dataclass(frozen=True)
class Elements:
    """The normative elements of one text, each a set of comparable keys."""

    actor: frozenset[str]
    modal: frozenset[str]
    condition: frozenset[str]
    consequence: frozenset[str]
    number: frozenset[str]
    negation: frozenset[str]
    reference: frozenset[str]
    counts: frozenset[float] = frozenset()    # numbers of a generic measure word ('两个'), read as any unit

    def values(self) -> frozenset[float]:
        """The numbers of the figures, without their units."""
        return frozenset(float(x.split(" ")[0]) for x in self.number)

    def get(self, name: str) -> frozenset[str]:
        return frozenset(getattr(self, name))

    def covers(self, other: "Elements", names: tuple[str, ...]) -> bool:
        """True when every element of `other` named in `names` is also here (a piece inside a whole)."""
        return all(other.get(n) <= self.get(n) for n in names)


@lru_cache(maxsize=1)
def era_terms() -> tuple[tuple[str, str], ...]:
    """Pairs of words the two eras use for one thing (判罚 → 纠正), from era_terms.yaml, longest first."""
    data = yaml.safe_load(ERA_TERMS.read_text(encoding="utf-8")) or {}
    pairs = [(str(e["old"]), str(e["new"])) for e in data.get("terms", [])]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def fold_era(text: str) -> str:
    """The text with each era's word for a thing replaced by one spelling (the newer one)."""
    out = t2s(text) if has_cjk(text) else text
    for old, new in era_terms():
        out = out.replace(old, new)
    return out


def references(text: str) -> frozenset[str]:
    """The laws a text refers to, as law numbers ('参照第 72 条 C 款' -> {'72'}); 本条/本款 -> {'self'}."""
    out = {a or b for a, b in REF_LAW.findall(text)}
    if re.search(r"本条\s*[A-Z]|本款\s*\d|\bsection\s+[A-Z]|\bsubsection\s+\d", text, re.I):
        out.add("self")
    return frozenset(out)


def mask_references(text: str) -> str:
    """The text with every cross-reference replaced by one mark, so a changed reference is not a change
    of wording; parenthesised references ('（参阅第23条）') go whole."""
    ref = REF_ZH if has_cjk(text) else REF_EN
    text = re.sub(r"[（(\[][^（()）\[\]]{0,40}?(?:参阅|参照|参见|适用|应用|第\s*\d+\s*条|see|cf\.|Law)[^（()）\[\]]{0,60}?[）)\]]",
                  "§", text, flags=re.I)
    return ref.sub("§", text)


def _concepts(text: str, lexicon: TermLexicon | None) -> frozenset[str]:
    return frozenset(t.key.strip("⟦⟧") for t in tokenize(text, lexicon) if t.key.startswith("⟦"))


def force(text: str) -> frozenset[str]:
    """The deontic forces a text uses: oblige (应 / 必须 / must), prohibit (不得 / must not), permit (可以 /
    may). Two texts differ in force only when they share none (content.differing)."""
    found = set(modals(text))
    plain = re.sub(r"不可|不得|may not", "", text)
    if PERMIT_ZH.search(plain) if has_cjk(text) else PERMIT_EN.search(plain):
        found.add("permit")
    return frozenset(found)


def elements(text: str, lexicon: TermLexicon | None = None, folded_lexicon: TermLexicon | None = None) -> Elements:
    """The elements of one text (Chinese or English), after the era's words are folded; actors are read
    with the edition's own lexicon and, after folding, with `folded_lexicon` (the newer edition's)."""
    folded = fold_era(text)
    cjk = has_cjk(folded)
    body = mask_references(folded)
    cons = CONSEQUENCE_ZH if cjk else CONSEQUENCE_EN
    return Elements(
        actor=(_concepts(mask_references(text), lexicon) | _concepts(body, folded_lexicon or lexicon)) & ACTORS,
        modal=force(body),
        condition=frozenset({"exception"}) if (CONDITION_ZH if cjk else CONDITION_EN).search(
            re.sub(r"§[^，。；,.;]{0,16}?(?:的情况)?除外", "", body)) else frozenset(),
        consequence=frozenset(k for k, pat in cons.items() if re.search(pat, body, re.I)),
        number=frozenset(f"{v:g} {u}" for v, u in figures(body)),
        counts=frozenset(_cn_value(m) for m in COUNT_ZH.findall(body)) if cjk else frozenset(),
        negation=frozenset(m.lower() for m in (NEGATION_ZH if cjk else NEGATION_EN).findall(body)),
        reference=references(folded),
    )
