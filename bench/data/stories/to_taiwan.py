"""zh-Hans story text -> zh-Hant in Taiwan bridge usage: OpenCC s2twp, then the bridge words of the WBF 2017
Taiwan translation (corpus/004_*.txt: 磴 217×, 墩 0×; 夢家 100×, 明手 0×; 賭倍 115×, 加倍 0×; 派司 78× …).

    .venv/bin/python bench/data/stories/to_taiwan.py "明手打出红桃，庄家加倍"
"""

from __future__ import annotations

import sys

from assistant.text import _opencc

# Longest first, applied after the script conversion (so the keys are in traditional script).
TAIWAN_BRIDGE_TERMS: tuple[tuple[str, str], ...] = (
    ("再加倍", "再賭倍"), ("加倍", "賭倍"), ("明手", "夢家"), ("墩", "磴"), ("定約", "合約"),
    ("不叫", "派司"), ("將牌", "王牌"), ("牌板", "牌套"), ("將吃", "王吃"), ("宕", "倒"), ("草花", "梅花"),
    ("紅桃", "紅心"),
    # s2twp reads 程序 (procedure) as software (程式); a bridge text means procedure except for a scoring program
    ("程式", "程序"), ("計分程序", "計分程式"),
)


def to_taiwan(text: str) -> str:
    """Simplified text -> traditional script with Taiwan bridge terms."""
    out = str(_opencc("s2twp.json").convert(text))
    for old, new in TAIWAN_BRIDGE_TERMS:
        out = out.replace(old, new)
    return out


if __name__ == "__main__":
    print(to_taiwan(" ".join(sys.argv[1:])))
