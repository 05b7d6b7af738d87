"""The input edge: every argument, option and app parameter passes through here before any work.

Text is decoded (undecodable bytes, which Python hands over as lone surrogates, become U+FFFD and the
caller says so once), NFC-normalised, stripped of control and bidi-override characters and held to a
length limit; numbers are checked finite and in range; names against their lists (editions, languages,
models) before any corpus, index or model loads; clause ids are read as people type them; `--answers`
is read as a flat object of fact -> value. Pure functions; errors are BadInput / UnknownClause with keys.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping

from .errors import BadInput, UnknownClause
from .model import ClauseId
from .text import cn2int, has_cjk, nfkc_alnum

# limits per kind of argument (the query's own limit, 2000, lives in assistant.search.query)
MAX_ID = 200            # a clause id as typed
MAX_NAME = 100          # a topic, an edition, a model name, a chapter
MAX_ARG = 100_000       # any argument at all (a SPARQL query given inline)
MAX_ANSWERS = 64_000    # --answers, inline or @file
MAX_FILE = 1_000_000    # an @file read for a command (SPARQL query)
MAX_TIMEOUT = 600.0     # --timeout, seconds
MODELS: tuple[str, ...] = ("use", "minilm", "indomain")   # assistant.search.embedders.REGISTRY, without importing torch
MODEL_FILES = ("modules.json", "config.json")            # a model folder holds one (sentence-transformers / HF)

_SURROGATE = re.compile("[\ud800-\udfff]")
# bidi embeddings/overrides/isolates and marks, BOM; other format characters (ZWJ in emoji) are kept
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")      # C0/C1 controls except tab and newline


# ---------------------------------------------------------------------------------------------- text


def decode(value: str) -> tuple[str, bool]:
    """`value` with each lone surrogate (an undecodable byte) replaced by U+FFFD; True when any was."""
    out, n = _SURROGATE.subn("\ufffd", value)
    return out, n > 0


def clean(value: str) -> str:
    """Decoded, NFC, without control or bidi-override characters (tab and newline kept)."""
    text, _ = decode(value)
    text = unicodedata.normalize("NFC", text)
    return _CONTROL.sub("", _BIDI.sub("", text))


def clean_argv(args: Iterable[str]) -> tuple[list[str], list[int]]:
    """Every argument cleaned; the positions of the arguments that held undecodable bytes."""
    out, replaced = [], []
    for i, a in enumerate(args):
        if _SURROGATE.search(a):
            replaced.append(i)
        out.append(clean(a))
    return out, replaced


def limited(value: str, name: str, limit: int, required: bool = False) -> str:
    """`value` when at most `limit` characters (and not blank, if required); BadInput otherwise."""
    if len(value) > limit:
        raise BadInput(key="arg_too_long", params={"name": name, "n": len(value), "max": limit})
    if required and not value.strip():
        raise BadInput(key="arg_empty", params={"name": name})
    return value


# ---------------------------------------------------------------------------------------------- numbers


def finite_in_range(value: float, name: str, lo: float, hi: float, example: str = "30") -> float:
    """A finite number with lo < value <= hi (lo itself excluded); BadInput otherwise."""
    if not math.isfinite(value):
        raise BadInput(key="not_finite", params={"name": name, "value": value, "example": example})
    if not lo < value <= hi:
        raise BadInput(key="out_of_range", params={"name": name, "value": value, "lo": lo, "hi": hi})
    return value


def int_in_range(value: int, name: str, lo: int, hi: int) -> int:
    """An integer with lo <= value <= hi; BadInput otherwise."""
    if not lo <= value <= hi:
        raise BadInput(key="out_of_range", params={"name": name, "value": value, "lo": lo, "hi": hi})
    return value


# ---------------------------------------------------------------------------------------------- names


def choice(value: str, what: str, choices: Collection[str]) -> str:
    """`value` when it is one of `choices`; BadInput naming them otherwise."""
    if value not in choices:
        raise BadInput(key="unknown_name", params={"what": what, "value": repr(value[:MAX_NAME]),
                                                   "choices": list(choices)})
    return value


def edition_name(value: str, choices: Collection[str] | None = None) -> str:
    """An edition of the manifest (or of `choices`, a subset that the command handles)."""
    from .editions import names

    return choice(value, "edition", choices if choices is not None else names())


def lang_name(value: str) -> str:
    """One of the interface and text languages."""
    from .editions import LANGS

    return choice(value, "language", LANGS)


def model_name(value: str, indomain: Path | None = None) -> str:
    """A known embedding model name or an existing local folder; checked without importing torch.
    `indomain` is where the trained in-domain model would be (the caller knows; None: not trained)."""
    limited(value, "--model", MAX_NAME * 10)
    if value == "indomain" and (indomain is None or not indomain.is_dir()):
        raise BadInput(key="model_not_trained", params={"path": str(indomain or "")})
    if value in MODELS:
        return value
    try:
        folder = Path(value).expanduser()
        if value.strip() and any((folder / f).is_file() for f in MODEL_FILES):
            return value
    except (OSError, ValueError):
        pass
    raise BadInput(key="unknown_model", params={"value": repr(value[:MAX_NAME]), "choices": list(MODELS)})


# ---------------------------------------------------------------------------------------------- files


def read_arg_file(text: str, name: str, max_bytes: int = MAX_FILE) -> str:
    """The UTF-8 text of the file named by `@PATH`; BadInput naming the path and the reason."""
    raw_path = text[1:] if text.startswith("@") else text
    if not raw_path.strip():
        raise BadInput(key="file_no_name", params={"name": name})
    path = Path(raw_path).expanduser()
    try:
        if path.is_dir():
            raise BadInput(key="file_is_dir", params={"path": raw_path})
        if not path.is_file():
            raise BadInput(key="file_missing", params={"path": raw_path})
        size = path.stat().st_size
        if size > max_bytes:
            raise BadInput(key="file_too_large", params={"path": raw_path, "n": size, "max": max_bytes})
        data = path.read_bytes()
    except OSError as err:
        raise BadInput(key="file_unreadable", params={"path": raw_path, "reason": err.strerror or "error"}) from None
    try:
        return clean(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInput(key="file_not_utf8", params={"path": raw_path}) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def read_answers(text: str, topic: str = "", known: Collection[str] | None = None) -> dict[str, Any]:
    """`--answers` (inline JSON or @file) as a flat {fact: value}; unknown facts named with the known ones."""
    raw = read_arg_file(text, "--answers", MAX_ANSWERS) if text.startswith("@") else text
    if len(raw) > MAX_ANSWERS:
        raise BadInput(key="answers_too_large", params={"n": len(raw), "max": MAX_ANSWERS})
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise BadInput(key="answers_too_deep") from None
    except ValueError as err:                       # JSONDecodeError is a ValueError
        detail = err.msg if isinstance(err, json.JSONDecodeError) else str(err)
        raise BadInput(key="answers_not_json", params={"detail": detail}) from None
    if not isinstance(data, dict):
        raise BadInput(key="answers_not_object")
    for fact, value in data.items():
        if isinstance(value, (dict, list)):
            raise BadInput(key="answers_bad_value", params={"fact": repr(fact[:MAX_NAME])})
    if known is not None:
        unknown = [f[:MAX_NAME] for f in data if f not in known]
        if unknown:
            raise BadInput(key="answers_unknown_fact", params={"facts": unknown[:10], "topic": topic,
                                                               "known": sorted(known)})
    return data


# ---------------------------------------------------------------------------------------------- clause ids

_NUM = r"\d{1,3}|[零一二三四五六七八九十两]{1,4}"
_LATIN = re.compile(r"^(?:(?i:laws?|l)\.?\s*)?0*(\d{1,3})(?:[\s.]*([a-hA-H]))?(?:[\s.]*0*(\d{1,2}))?"
                    r"(?:[\s.]*\(?([a-z])\)?)?$")
_ARTICLE = re.compile(r"^(?i:art(?:icle)?s?)\.?\s*0*(\d{1,2})(?:[\s.]+0*(\d{1,2}))?(?:[\s.]+0*(\d{1,2}))?$")
_ZH = re.compile(rf"^(?:规则|規則|法则|法則)?\s*第?\s*({_NUM})\s*[条條]"
                 rf"(?:\s*第?\s*([A-Ha-h]|{_NUM})\s*款?)?(?:\s*第?\s*({_NUM})\s*[项項]?)?"
                 r"(?:\s*第?\s*\(?([a-z])\)?\s*目?)?$")


@dataclass(frozen=True)
class Resolution:
    """What a typed id names: one canonical id, or the candidates, or nothing (with the nearest clause)."""

    typed: str
    id: str | None
    edition: str                       # the default edition tried first
    candidates: tuple[str, ...] = ()
    nearest: str | None = None


def default_edition_for(typed: str) -> str:
    """Latin input reads the English default (wbf2017); simplified Chinese ccba2018, traditional wbf2017."""
    from .editions import default_edition
    from .text import t2s

    if not has_cjk(typed):
        return default_edition("en")
    return default_edition("zh-Hant" if t2s(typed) != typed else "zh-Hans")


_CN_NUMERAL = re.compile(r"^(?:[一二三四五六七八九]?十[一二三四五六七八九]?|[零一二三四五六七八九])$")


def _number(s: str) -> str | None:
    """'64' or '六十四' -> '64'; None for what is not a numeral ('二二' is not one)."""
    s = s.strip().replace("两", "二")
    if s.isdigit():
        return str(int(s))
    return str(cn2int(s)) if _CN_NUMERAL.match(s) else None


def _forms(s: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(kinds, path) readings of a short typed form: '64A1' -> (('law',), ('64', 'A', '1'))."""
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    if m := _LATIN.match(s):
        sec = (m.group(2) or "").upper()
        path = [m.group(1).lstrip("0") or "0", sec, m.group(3) or "", m.group(4) or ""] if sec else [m.group(1).lstrip("0") or "0"]
        out.append((("law",), tuple(p for p in path if p)))
    if m := _ARTICLE.match(s):
        out.append((("article",), tuple(str(int(g)) for g in m.groups() if g)))
    if m := _ZH.match(s):
        nums = [m.group(1), m.group(2) or "", m.group(3) or "", m.group(4) or ""]
        law = _number(nums[0])
        sec = nums[1].upper() if nums[1].isascii() and nums[1].isalpha() else _number(nums[1]) if nums[1] else ""
        item = _number(nums[2]) if nums[2] else ""
        if law is not None and sec is not None and item is not None:
            out.append((("law", "article"), tuple(p for p in (law, sec, item, nums[3]) if p)))
    return out


def _fold(cid: str) -> str:
    """Case and leading zeros forgiven: 'WBF2017/law/064/a/1' -> 'wbf2017/law/64/a/1'."""
    return "/".join(p.lstrip("0") or "0" if p.isdigit() else p.casefold() for p in cid.strip("/").split("/"))


def _nearest(cid: str, ids: Collection[str]) -> str | None:
    parts = cid.split("/")
    for n in range(len(parts) - 1, 2, -1):
        if "/".join(parts[:n]) in ids:
            return "/".join(parts[:n])
    return None


def resolve_clause_id(typed: str, ids: Mapping[str, Collection[str]], default: str | None = None) -> Resolution:
    """Read a clause id as typed (canonical, any case, '64A1', 'Law 64 a 1', '第64条A款1项', '第六十四条')."""
    s = " ".join(nfkc_alnum(typed).split()).strip().strip("/")
    default = default or default_edition_for(s)
    for ed, have in ids.items():
        if s in have:
            return Resolution(typed, s, ed)
    eds = list(ids)
    if "/" in s:
        head = s.split("/", 1)[0].casefold()
        if head not in ids:
            return Resolution(typed, None, default)
        folded = {_fold(c): c for c in ids[head]}
        if _fold(s) in folded:
            return Resolution(typed, folded[_fold(s)], head)
        near = _nearest(_fold(s), folded)
        return Resolution(typed, None, head, (), folded[near] if near else None)
    first, _, rest = s.partition(" ")
    if first.casefold() in ids and rest:              # 'wbf2017 64A1': that edition only
        eds, default, s = [first.casefold()], first.casefold(), rest
    readings = _forms(s)
    order = [default, *[e for e in eds if e != default]] if default in eds else eds
    for scope in ([order[0]], order):
        found = tuple(dict.fromkeys(
            cid for ed in scope for kinds, path in readings for kind in kinds
            if (cid := "/".join((ed, kind, *path))) in ids[ed]))
        if not readings:
            found = _definitions(s, scope, ids)
        if len(found) == 1:
            return Resolution(typed, found[0], default)
        if found:
            return Resolution(typed, None, default, found)
    nearest = next((n for kinds, path in readings for kind in kinds
                    if (n := _nearest("/".join((order[0], kind, *path, "x")), ids[order[0]]))), None)
    return Resolution(typed, None, default, (), nearest)


def _definitions(s: str, scope: Iterable[str], ids: Mapping[str, Collection[str]]) -> tuple[str, ...]:
    """A definition named by its term ('revoke', 'Bidding Box') in the editions of `scope`."""
    from .text import slug

    key = slug(s)
    return tuple(cid for ed in scope if key and (cid := f"{ed}/definition/{key}") in ids[ed])


def clause_id(typed: str, ids: Mapping[str, Collection[str]], note: bool = False) -> Resolution:
    """The resolution of a typed id that names one clause; UnknownClause (candidates or nearest) otherwise.

    With `note`, a typed form read as another id is said on stderr (stdout prints the canonical id).
    """
    limited(typed, "clause id", MAX_ID, required=True)
    r = resolve_clause_id(typed, ids)
    if r.id is not None:
        if note and r.id != typed.strip().strip("/"):
            from .console import note as say
            from .errors import message

            say(message("clause_resolved", "en", typed=repr(typed), id=r.id, edition=r.edition))
        return r
    if r.candidates:
        raise UnknownClause(typed, candidates=list(r.candidates))
    if r.nearest:
        raise UnknownClause(typed, f"nearest existing clause: {r.nearest}")
    try:
        ClauseId.parse(typed)
        hint = ""
    except ValueError as err:
        hint = str(err).split(" — ", 1)[-1] + " — or a short form: 64A1, Law 64A1, 第64条"
    raise UnknownClause(typed, hint)
