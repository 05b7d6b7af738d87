"""Redlines between two clause texts: characters for Chinese (after script folding), words for English.

Terms are compared by concept, not by spelling, so 明手 / 夢家 or 加倍 / 賭倍 is a difference of
terminology, not of substance. Pure functions: the term lexicon is passed in.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..text import has_cjk, t2s

# one token: a term (longest lexicon match), an English word or number, or one CJK/other character
_EN_TOKEN_RE = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?:\.\d+)?%?|\S")
PUNCT_FOLD = str.maketrans({"，": ",", "。": ".", "；": ";", "：": ":", "（": "(", "）": ")", "、": ",",
                            "“": '"', "”": '"', "「": '"', "」": '"', "‘": "'", "’": "'", "·": ",", "‧": ","})


@dataclass(frozen=True)
class Token:
    """A unit of comparison: `surface` as printed, `key` what is compared."""

    surface: str
    key: str            # folded character/word, or '⟦concept⟧' for a lexicon term
    script_key: str     # folded for script only (t2s), not for terms: tells script-only from term-only


@dataclass(frozen=True)
class Segment:
    """One piece of a redline: op is equal | delete | insert | term (same concept, other words)."""

    op: str
    old: str
    new: str


@dataclass(frozen=True)
class Redline:
    segments: tuple[Segment, ...]
    ratio: float                 # similarity of the compared keys, 0..1

    def markdown(self) -> str:
        """`[-old-]{+new+}` for changes, `old→new` in ⟨ ⟩ for term substitutions."""
        out = []
        for s in self.segments:
            if s.op == "equal":
                out.append(s.new)
            elif s.op == "term":
                out.append(f"⟨{s.old}→{s.new}⟩")
            else:
                if s.old:
                    out.append(f"[-{s.old}-]")
                if s.new:
                    out.append(f"{{+{s.new}+}}")
        return "".join(out)

    @property
    def changed(self) -> list[Segment]:
        return [s for s in self.segments if s.op in ("delete", "insert", "replace")]


class TermLexicon:
    """Surface label -> concept id, matched longest first after t2s folding."""

    def __init__(self, labels: Mapping[str, str]) -> None:
        self._map: dict[str, str] = {}
        for label, concept in labels.items():
            key = t2s(label) if has_cjk(label) else label.lower()
            if len(key) >= 2 or not has_cjk(key):
                self._map.setdefault(key, concept)
        self._maxlen = max((len(k) for k in self._map), default=0)

    def match(self, folded: str, i: int) -> tuple[str, int] | None:
        """Longest lexicon entry at position i of `folded` text: (concept, length)."""
        for n in range(min(self._maxlen, len(folded) - i), 1, -1):
            c = self._map.get(folded[i:i + n])
            if c is not None:
                return c, n
        return None

    def labels(self) -> dict[str, str]:
        """Every folded label and its concept."""
        return dict(self._map)

    def concept(self, word: str) -> str | None:
        return self._map.get(word.lower())


def tokenize(text: str, lexicon: TermLexicon | None = None) -> list[Token]:
    """Chinese: one token per character, terms as one token; English: words, terms by word sequence."""
    text = re.sub(r"\s+", " ", text).strip()
    if has_cjk(text):
        folded = t2s(text)
        toks: list[Token] = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch.isspace():
                i += 1
                continue
            hit = lexicon.match(folded, i) if lexicon else None
            if hit:
                concept, n = hit
                toks.append(Token(text[i:i + n], f"⟦{concept}⟧", folded[i:i + n]))
                i += n
                continue
            f = folded[i].translate(PUNCT_FOLD)
            toks.append(Token(ch, f, f))
            i += 1
        return toks
    words = _EN_TOKEN_RE.findall(text)
    out: list[Token] = []
    i = 0
    while i < len(words):
        hit = None
        if lexicon:
            for n in (4, 3, 2, 1):
                if i + n <= len(words):
                    c = lexicon.concept(" ".join(words[i:i + n]))
                    if c:
                        hit = (c, n)
                        break
        if hit:
            surface = " ".join(words[i:i + hit[1]])
            out.append(Token(surface, f"⟦{hit[0]}⟧", surface.lower()))
            i += hit[1]
        else:
            w = words[i].translate(PUNCT_FOLD).lower()
            out.append(Token(words[i], w, w))
            i += 1
    return out


def _join(tokens: Iterable[Token], english: bool) -> str:
    return (" " if english else "").join(t.surface for t in tokens)


def redline(old: str, new: str, lexicon: TermLexicon | None = None,
            lexicon_new: TermLexicon | None = None) -> Redline:
    """Diff two texts of the same language family; terms of one concept count as equal (op 'term').

    Each side may have its own edition's lexicon: 1999 违规 (irregularity) then equals 2018 违例.
    """
    a, b = tokenize(old, lexicon), tokenize(new, lexicon_new or lexicon)
    english = not (has_cjk(old) or has_cjk(new))
    sm = difflib.SequenceMatcher(a=[t.key for t in a], b=[t.key for t in b], autojunk=False)
    segs: list[Segment] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            # equal keys: split further where the surfaces differ only by term choice
            run_old: list[Token] = []
            run_new: list[Token] = []
            for ta, tb in zip(a[i1:i2], b[j1:j2], strict=False):
                if ta.key.startswith("⟦") and ta.script_key != tb.script_key:
                    if run_new:
                        segs.append(Segment("equal", _join(run_old, english), _join(run_new, english)))
                        run_old, run_new = [], []
                    segs.append(Segment("term", ta.surface, tb.surface))
                else:
                    run_old.append(ta)
                    run_new.append(tb)
            if run_new:
                segs.append(Segment("equal", _join(run_old, english), _join(run_new, english)))
        else:
            segs.append(Segment("delete" if op == "delete" else "insert" if op == "insert" else "replace",
                                _join(a[i1:i2], english), _join(b[j1:j2], english)))
    return Redline(tuple(_space(segs, english)), sm.ratio())


def _space(segs: list[Segment], english: bool) -> list[Segment]:
    """In English, keep a space between segments so the markdown reads as words."""
    if not english:
        return segs
    return [Segment(s.op, s.old + " " if s.old else "", s.new + " " if s.new else "") for s in segs]
