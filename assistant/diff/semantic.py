"""Does the other text say a phrase in other words? The packaged sentence encoder (USE multilingual,
offline) compares a phrase one edition adds or drops with what the other edition says around it: a phrase
with a close paraphrase there (1999 89 虽仅一人对违规负责 / 2018 12C3 即使可能只有一位牌手对违例负责) is
reworded, not a new condition. Optional: the diff runs without it (`semantic=False`), only stricter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

# the least cosine of a paraphrase, chosen on the gold's tune part (bench/diff.py; the other text's candidate
# also closer to the phrase than to anything else its own side says, `paraphrased`): the phrases of pairs the
# gold calls the same rule scored 0.79 (2018 39B 如果违例者的下家在纠正之前作出了叫牌 / 1999 35 heading
# 违规者下家在裁定判罚前接续叫了牌; 2018 12C3 即使可能只有一位牌手对违例负责 / 1999 89 虽仅一人对违规负责), the
# phrases that carry a change 0.73 at most (2018 67B1(a) 违例者被视为在该有缺陷牌墩上已经藏牌: 0.726; 13D
# 违例者可能受到程序性纠正: 0.67): set between them. Left below it: 1999 35A / 2018 36A and 65D (0.75)
PARAPHRASE_MIN = 0.76


class PhraseMatcher(Protocol):
    """Anything that scores how close a phrase is to the closest of some candidate texts (cosine, -1..1)."""

    def best(self, phrase: str, candidates: Sequence[str]) -> float: ...


@dataclass
class EncoderMatcher:
    """Scores with a sentence encoder; each text is encoded once, and a call's new texts in one batch."""

    name: str = "use"
    _vectors: dict[str, np.ndarray] = field(default_factory=dict)

    def best(self, phrase: str, candidates: Sequence[str]) -> float:
        texts = [phrase, *candidates]
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            from ..search.embedders import get_embedder

            for text, row in zip(missing, get_embedder(self.name).encode(missing), strict=True):
                self._vectors[text] = row
        if not candidates:
            return -1.0
        own = self._vectors[phrase]
        return float(max(float(own @ self._vectors[c]) for c in candidates))


_MATCHER: list[EncoderMatcher] = []


def default_matcher() -> EncoderMatcher:
    """The one encoder matcher of the process (its vectors kept across laws and reports)."""
    if not _MATCHER:
        _MATCHER.append(EncoderMatcher())
    return _MATCHER[0]


def paraphrased(phrase: str, candidates: Sequence[str], own: Sequence[str], matcher: PhraseMatcher | None) -> bool:
    """True when a candidate says the phrase in other words, and says nothing the phrase's own text says
    closer (`own`: that text's other sayings): each says what the other does instead, one to one. 2018
    64A2 如果违例方赢得…以后的任何牌墩 is 0.86 from 1999's dropped 若违规者用其…在藏牌以后赢墩时, but it is
    1999's 如果违规方羸得藏牌墩或任何藏牌以后的牌墩 in other words, not the dropped rule. No matcher: never."""
    if matcher is None or not candidates or matcher.best(phrase, candidates) < PARAPHRASE_MIN:
        return False
    for c in candidates:
        score = matcher.best(phrase, [c])
        if score >= PARAPHRASE_MIN and (not own or matcher.best(c, own) < score):
            return True
    return False
