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
from .redline import TermLexicon, Token, tokenize

ELEMENTS: tuple[str, ...] = ("actor", "modal", "condition", "consequence", "number", "negation", "reference")
ERA_TERMS = Path(__file__).resolve().parent / "era_terms.yaml"

# a cross-reference: 第 27 条 B 款 2 / 本条 D 款 / 本款 1 (b) / Law 16C / Laws 70 and 71
REF_ZH = re.compile(r"第\s*(\d+|[一二三四五六七八九十百]+)\s*条(?:\s*[A-Z]\s*款)?(?:\s*\d+)?(?:\s*[(（]\s*[a-z]\s*[)）])?"
                    r"(?:\s*[、和及或至到]\s*(?:第\s*)?\d+\s*条?(?:\s*[A-Z]\s*款)?(?:\s*\d+)?)*"
                    r"|本条\s*[A-Z]\s*款(?:\s*\d+)?(?:\s*[(（]\s*[a-z]\s*[)）])?|本款\s*\d+(?:\s*[(（]\s*[a-z]\s*[)）])?")
REF_EN = re.compile(r"\bLaws?\s+\d+[A-Z]?\d*(?:\([a-z]\))?(?:\s*(?:,|and|or|to)\s*\d+[A-Z]?\d*(?:\([a-z]\))?)*"
                    r"|\bsection\s+[A-Z]\d*\b|\bsubsection\s+\d+\b", re.I)
# a clause cited by its section: 第 40 条 C 款 / 第 16 条 C 款 1 / 本条 B 款 2 (b) / Law 16C1(a)
CITED_ZH = re.compile(r"(?:第\s*(\d+)\s*条|本条)\s*([A-Z])\s*款(?:\s*(\d+))?(?:\s*[(（]\s*([a-z])\s*[)）])?")
CITED_EN = re.compile(r"\bLaw\s+(\d+)([A-Z])(\d*)(?:\(([a-z])\))?")
# a parenthesis that refers elsewhere (the same test as mask_references' whole parentheses)
ASIDE = re.compile(r"[（(\[［]([^（()）\[\]［］]{0,100}?)[）)\]］]")
ASIDE_REF = re.compile(r"参阅|参照|参见|适用|应用|第\s*\d+\s*条|\bsee\b|\bcf\.|\bLaws?\b", re.I)
REF_LAW = re.compile(r"第\s*(\d+)\s*条|\bLaws?\s+(\d+)", re.I)
# a condition's trigger: an exception (an 'if' or an 'only' is how both editions phrase most rules)
CONDITION_ZH = re.compile(r"除外|除非|除了|除(?!此)[^，。；、]{1,15}?外")       # 1999 45A 除明手外 = 2018 明手除外
CONDITION_EN = re.compile(r"\b(unless|except)\b", re.I)
PERMIT_ZH = re.compile(r"可(?!能|是|比|靠|疑|见|行)|得以")
PERMIT_EN = re.compile(r"\bmay\b(?! not)", re.I)
# negation that turns a rule around (不叫 'pass' and 不足 'insufficient' are names, not negation)
NEGATION_ZH = re.compile(r"不再|不适用|不会|不被|不是|没有|并非|无效|不受")
NEGATION_EN = re.compile(r"\b(no longer|does not apply|do not apply|not|no|never|without)\b", re.I)
# what follows an infraction: the rectification, the score, the restriction; 'adjusts the score of the side
# that gained' is an adjusted score too (2017 11A 裁判只调整获利方的分数, 43B3)
# the pass that follows is 'throughout' (永远不叫) or 'once' (该轮 / 下一次轮到他叫牌时必须不叫): 2017 31A2(b)
CONSEQUENCE_ZH = {"pass": r"永远不叫|一直不叫|仍(?:然|须)不叫", "pass-once": r"必须不叫",
                  "lead-restrictions": r"引牌限制|引牌判罚",
                  "adjusted-score": r"调整分|调整[^，。；]{0,8}?的分数", "transfer": r"转(?:交|给|移|让)|一墩牌?的(?:处罚|判罚|纠正)",
                  "penalty-card": r"罚张|罚牌", "cancelled": r"取消|无效",
                  # declarer's options over an offender's partner: require or forbid a suit (50D2, 57A)
                  "require-card": r"要求[^，。；]{0,16}?(?:打出|引出)", "forbid-card": r"禁止[^，。；]{0,16}?(?:打出|引出)",
                  "procedural-penalty": r"程序性(?:处罚|判罚|纠正)|程序罚",
                  "no-rectification": r"(?:没有|不再|不予|不受|不|无须|免于)(?:进一步)?(?:的)?纠正|免罚|不予处罚"}
CONSEQUENCE_EN = {"pass": r"must pass(?! at (?:his|their) next turn)", "pass-once": r"must pass at (?:his|their) next turn",
                  "lead-restrictions": r"lead restrictions?|lead penalt",
                  "adjusted-score": r"adjusted score|adjusts? the scores?\b", "transfer": r"transferred|transfer",
                  "penalty-card": r"penalty card", "cancelled": r"cancelled|void",
                  "require-card": r"require[^.;]{0,30}?\b(?:play|lead)", "forbid-card": r"forbid[^.;]{0,30}?\b(?:play|lead)",
                  "procedural-penalty": r"procedural penalty", "no-rectification": r"no further rectification|without rectification"}
# 'no rectification' states no consequence: a text that says it and one that names none rule the same
NO_CONSEQUENCE = "no-rectification"
# a consequence the text says does not apply ('不适用第 26 条 B 款引牌限制', '（…引牌判罚，亦不适用）')
NEGATED_BEFORE = re.compile(r"(?:不适用|不再适用|不会|没有|不予|免于|无须)[^，。；,.;]{0,3}$|\b(?:no|not|without)\s+$", re.I)
NEGATED_AFTER = re.compile(r"^[^，。；,.;]{0,6}?[，,]?\s*(?:亦|也)?不(?:再)?适用|^\s*(?:does|do) not apply", re.I)
COUNT_ZH = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*[个個位项項种種]")
# the concepts of the crosswalk that name who acts
ACTORS = frozenset({"player", "partner", "offender", "director", "declarer", "dummy", "defender", "lho", "rho",
                    "non-offending-side", "opponent", "contestant", "tournament-organizer", "regulating-authority",
                    "appeals-committee", "director-in-charge"})
# 'player' is whom every rule addresses: the 2018 text often spells it out where 1999 left it implied (17C
# 每位牌手按照顺时针方向依序叫牌, 63A3 违规方的一位牌手). It names a party only when set beside another party
# (91A 牌手或者参赛者), as 'any player' (9A3 任何牌手，包括明手，可以试图阻止违例) or given a right or duty
DEFAULT_ACTORS = frozenset({"player", "contestant"})     # a contestant: the player, pair or team (Definitions)
NAMES_ALSO = {"presumed-declarer": "declarer", "presumed-dummy": "dummy"}
# the offending side names its offender; 1999 41A 下防家 'the defender on the left' is 2018's 下家 (lho)
NAMED_WORDS = {"offender": r"违[规例]方(?!面)|offending side", "lho": r"下防家", "rho": r"上防家"}
ANY_ZH = re.compile(r"(?:任何|任一)(?:一位)?$")
ANY_EN = re.compile(r"\b(?:any|every)\s+$", re.I)
# … or given a right or a duty of its own (牌手可以 / 牌手必须 / a player may)
# (负责 'answers for' an infraction is blame, not a duty: 2018 12C3 只有一位牌手对违例负责)
RIGHT_ZH = re.compile(r"^[^，。；：,.;:]{0,6}?(?:可以|可(?!能)|必须|应当|应|须|不得|不应|有权|(?<!违例)(?<!违规)负责)")
RIGHT_EN = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:may|must|shall|is entitled|has the right)\b", re.I)
JOIN = frozenset({"或者", "或", "和", "及", "与", "、", "or", "and"})
# a party named as 'not X' (81C 裁判（非牌手）负责) or a hand played from (53C 从明手越序引牌) is no actor
NOT_ACTOR_ZH = re.compile(r"(?:非|不是)$")
HAND_ZH = re.compile(r"(?:从|自)(?:自己手中或者?|手中或)?$")


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
    named: frozenset[str] = frozenset()       # every party the text mentions, as a party or not
    implied: frozenset[str] = frozenset()     # consequences stated by a reference only (Law 26)

    def values(self) -> frozenset[float]:
        """The numbers of the figures, without their units."""
        return frozenset(float(x.split(" ")[0]) for x in self.number)

    def get(self, name: str) -> frozenset[str]:
        """One element's values; the consequences with those stated by a reference."""
        return frozenset(getattr(self, name)) | (self.implied if name == "consequence" else frozenset())

    def covers(self, other: "Elements", names: tuple[str, ...]) -> bool:
        """True when every element of `other` named in `names` is also here (a piece inside a whole);
        'no further rectification' states no consequence, so a whole need not repeat it, nor the
        consequences `other` states only by a reference (a pointer is a reference, not a rule)."""
        return all(frozenset(getattr(other, n)) - {NO_CONSEQUENCE} <= self.get(n) for n in names)


@lru_cache(maxsize=1)
def law_consequences() -> dict[str, str]:
    """Law number -> the consequence the law is named for (era_terms.yaml, law_consequences)."""
    data = yaml.safe_load(ERA_TERMS.read_text(encoding="utf-8")) or {}
    return {str(e["law"]): str(e["consequence"]) for e in data.get("law_consequences", [])}


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


def mask_references(text: str, whole: bool = True) -> str:
    """The text with every cross-reference replaced by one mark, so a changed reference is not a change
    of wording; parenthesised references ('（参阅第23条）') go whole unless `whole` is False (then the words
    beside the reference stay: '（…并可应用第26条引牌判罚）' names a consequence)."""
    ref = REF_ZH if has_cjk(text) else REF_EN
    if whole:       # a bracketed reference may hold parentheses: 2018 51B2(a) [参照第 50 条 D 款 2(a)]
        text = re.sub(r"[\[［][^\[\]［］]{0,40}?(?:参阅|参照|参见|适用|应用|第\s*\d+\s*条|see|cf\.|Law)[^\[\]［］]{0,60}?[\]］]",
                      "§", text, flags=re.I)
        text = re.sub(r"[（(\[][^（()）\[\]]{0,40}?(?:参阅|参照|参见|适用|应用|第\s*\d+\s*条|see|cf\.|Law)"
                      r"[^（()）\[\]]{0,60}?[）)\]]", "§", text, flags=re.I)
    return ref.sub("§", text)


def reference_asides(text: str) -> tuple[str, ...]:
    """The words beside a cross-reference in a parenthesis, the reference dropped ('（如违规者下家接续叫牌时，
    参阅第35条D款）' -> '如违规者下家接续叫牌时'): masked with the reference, they may be what the other
    edition writes out (2018 39C …，而违例者的下家没有对该违例叫牌作出接续叫牌)."""
    ref = REF_ZH if has_cjk(text) else REF_EN
    out = []
    for m in ASIDE.finditer(text):
        inner = m.group(1)
        if ASIDE_REF.search(inner):
            words = ASIDE_REF.sub("", ref.sub("", inner)).strip(" ，,；;、")
            out += [words] if words else []
    return tuple(out)


def cited_clauses(text: str, law: str) -> tuple[str, ...]:
    """The clauses a text cites by section, as paths ('应用第40条C款' -> '40/C', '本条 B 款 2' -> f'{law}/B/2'),
    less those it says do not apply: what such a clause rules may be what the other edition writes out."""
    out = []
    for m in (CITED_ZH if has_cjk(text) else CITED_EN).finditer(text):
        if not _negated(text, m.start(), m.end()):
            out.append("/".join(x for x in (m.group(1) or law, *m.groups()[1:]) if x))
    return tuple(dict.fromkeys(out))


def _concepts(text: str, lexicon: TermLexicon | None) -> frozenset[str]:
    return frozenset(t.key.strip("⟦⟧") for t in tokenize(text, lexicon) if t.key.startswith("⟦"))


def actors(text: str, lexicon: TermLexicon | None) -> frozenset[str]:
    """The parties a text names: the crosswalk's actor concepts, less a party named as 'not X' or as a hand
    played from, and less the default 'player' unless it stands beside another party or as 'any player'."""
    toks = tokenize(text, lexicon)
    cjk = has_cjk(text)
    out: set[str] = set()
    for i, t in enumerate(toks):
        key = t.key.strip("⟦⟧")
        if not t.key.startswith("⟦") or key not in ACTORS:
            continue
        before = "".join(x.surface for x in toks[max(0, i - 8):i]) if cjk else \
            " ".join(x.surface for x in toks[max(0, i - 3):i]) + " "
        if cjk and (NOT_ACTOR_ZH.search(before) or (key == "dummy" and HAND_ZH.search(before))):
            continue
        after = "".join(x.surface for x in toks[i + 1:i + 9]) if cjk else " ".join(x.surface for x in toks[i + 1:i + 5])
        if key in DEFAULT_ACTORS and not ((ANY_ZH if cjk else ANY_EN).search(before) or _beside_party(toks, i)
                                          or (RIGHT_ZH if cjk else RIGHT_EN).search(after)):
            continue
        out.add(key)
    return frozenset(out)


def _beside_party(toks: list[Token], i: int) -> bool:
    """True when the term at i is joined to another party by 'or' / 'and' (牌手或者参赛者)."""
    for step in (1, -1):
        j, between = i + step, list[str]()
        while 0 <= j < len(toks) and not toks[j].key.startswith("⟦") and len(between) < 2:
            between.append(toks[j].surface.strip().lower())
            j += step
        joined = "".join(between if step > 0 else between[::-1])
        if 0 <= j < len(toks) and joined in JOIN and toks[j].key.strip("⟦⟧") in ACTORS:
            return True
    return False


def _named(concepts: frozenset[str]) -> frozenset[str]:
    """The parties among a text's concepts; 1999 理论上的庄家 'presumed declarer' names declarer (2018 41A
    理论上庄家的下家)."""
    return frozenset({NAMES_ALSO.get(c, c) for c in concepts} | concepts) & ACTORS


def _named_in(text: str) -> frozenset[str]:
    """Parties a text names in words the crosswalk has no concept for (1999 63A1 违规方 'the offending side')."""
    return frozenset(k for k, pat in NAMED_WORDS.items() if re.search(pat, text))


def consequences(text: str) -> frozenset[str]:
    """What follows an infraction in a text's words (references masked), less what the text says does
    not apply ('不适用第 26 条 B 款引牌限制')."""
    body = mask_references(text)
    out: set[str] = set()
    for key, pat in (CONSEQUENCE_ZH if has_cjk(text) else CONSEQUENCE_EN).items():
        for m in re.finditer(pat, body, re.I):
            if key == NO_CONSEQUENCE or not _negated(body, m.start(), m.end()):
                out.add(key)
                break
    return frozenset(out)


def implied_consequences(text: str) -> frozenset[str]:
    """The consequences a text states by pointing to the law named for them, in a parenthesis too
    ('（…可应用第26条引牌判罚）' = '可能适用第 26 条 B 款'): they match the same words of the other text, but a
    pointer added or dropped alone is a change of reference, not of consequence (content.differing)."""
    laws = law_consequences()
    return frozenset(laws[law] for m in (REF_ZH if has_cjk(text) else REF_EN).finditer(text)
                     for law in references(m.group(0)) if law in laws and not _negated(text, m.start(), m.end()))


def _negated(text: str, start: int, end: int) -> bool:
    return bool(NEGATED_BEFORE.search(text[max(0, start - 12):start]) or NEGATED_AFTER.search(text[end:end + 14]))


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
    return Elements(
        actor=actors(mask_references(text), lexicon) | actors(body, folded_lexicon or lexicon),
        modal=force(body),
        condition=frozenset({"exception"}) if (CONDITION_ZH if cjk else CONDITION_EN).search(
            re.sub(r"§[^，。；,.;]{0,16}?(?:的情况)?除外", "", body)) else frozenset(),
        consequence=consequences(folded),
        implied=implied_consequences(folded),
        number=frozenset(f"{v:g} {u}" for v, u in figures(body)),
        counts=frozenset(_cn_value(m) for m in COUNT_ZH.findall(body)) if cjk else frozenset(),
        negation=frozenset(m.lower() for m in (NEGATION_ZH if cjk else NEGATION_EN).findall(body)),
        reference=references(folded),
        named=named_parties(text, lexicon, folded_lexicon),
    )


def named_parties(text: str, lexicon: TermLexicon | None = None,
                  folded_lexicon: TermLexicon | None = None) -> frozenset[str]:
    """Every party a text mentions, as a party of its rule or not, in a reference's aside too (1999 39B
    （如违规者下家接续叫牌时，参阅第35条D款） names LHO); the references themselves are masked."""
    own, folded = (mask_references(t) + "\n" + "\n".join(reference_asides(t)) for t in (text, fold_era(text)))
    return _named(_concepts(own, lexicon) | _concepts(folded, folded_lexicon or lexicon)) | _named_in(folded)
