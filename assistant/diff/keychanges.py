"""The key changes between two law editions, from assistant/data/key_changes.yaml: the changes that matter
at the table, ranked by how often the situation arises × how different the ruling is, each with its
clauses in both editions and a statement in zh-Hans / zh-Hant / en. Validated when read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ..corpus import Corpus
from ..errors import BridgelawError
from ..text import slug

KEY_CHANGES = Path(__file__).resolve().parent.parent / "data" / "key_changes.yaml"
LANGS: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")
EDITIONS: tuple[str, str] = ("ccba1999", "ccba2018")
SCALE = range(1, 6)


class BadKeyChanges(BridgelawError):
    """key_changes.yaml names a clause the corpus lacks, or misses a field."""

    exit_code = 3


@dataclass(frozen=True)
class KeyChange:
    """One change that matters at the table."""

    id: str
    laws: tuple[str, ...]
    old: tuple[str, ...]                  # ccba1999 clause ids
    new: tuple[str, ...]                  # ccba2018 clause ids
    often: int
    different: int
    statement: dict[str, str]
    rank: int = 0                         # 1 = most important

    @property
    def score(self) -> int:
        return self.often * self.different

    def say(self, lang: str) -> str:
        """The statement in `lang` (zh-Hans, zh-Hant or en)."""
        return self.statement[lang]

    def cites(self, clause_id: str) -> bool:
        """True when `clause_id` (either edition; a wbf2017 id counts as its ccba2018 twin) is one of ours
        or lies under one of ours."""
        cid = clause_id.replace("wbf2017/", "ccba2018/", 1)
        return any(cid == x or cid.startswith(x + "/") for x in (*self.old, *self.new))


def _entry(raw: dict[str, object], where: str) -> KeyChange:
    try:
        statement = {lg: str(raw["statement"][lg]).strip() for lg in LANGS}  # type: ignore[index]
        kc = KeyChange(str(raw["id"]), tuple(str(x) for x in raw["laws"]),  # type: ignore[attr-defined]
                       tuple(raw[EDITIONS[0]]), tuple(raw[EDITIONS[1]]),  # type: ignore[arg-type]
                       int(raw["often"]), int(raw["different"]), statement)  # type: ignore[call-overload]
    except (KeyError, TypeError, ValueError) as err:
        raise BadKeyChanges(f"{where}: missing or bad field {err} — each entry needs id, laws, ccba1999, "
                            "ccba2018, often, different and a statement in zh-Hans, zh-Hant and en") from None
    if kc.often not in SCALE or kc.different not in SCALE or slug(kc.id) != kc.id or not all(statement.values()):
        raise BadKeyChanges(f"{where} ({kc.id}): often and different run 1-5, the id is a slug, no statement "
                            "is empty — fix the entry")
    return kc


def parse(data: object, corpus: Corpus | None = None) -> tuple[KeyChange, ...]:
    """The ranked key changes of a loaded key_changes.yaml; with a corpus, every clause id must exist."""
    items = (data or {}).get("changes") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise BadKeyChanges(f"{KEY_CHANGES.name}: no 'changes' list — restore the file")
    out = [_entry(raw, f"{KEY_CHANGES.name} entry {i + 1}") for i, raw in enumerate(items)]
    if len({k.id for k in out}) != len(out):
        raise BadKeyChanges(f"{KEY_CHANGES.name}: two entries share an id — give each change its own id")
    for k in out:
        for ed, ids in zip(EDITIONS, (k.old, k.new), strict=True):
            bad = [x for x in ids if not x.startswith(f"{ed}/law/")
                   or (corpus is not None and x not in corpus.editions[ed].clauses)]
            if bad or not ids:
                raise BadKeyChanges(f"{KEY_CHANGES.name} ({k.id}): {ed} ids {bad or 'missing'} are not "
                                    f"{ed} law clauses — correct the ids")
            if not {x.split("/")[2] for x in ids} & set(k.laws) and ed == EDITIONS[1]:
                raise BadKeyChanges(f"{KEY_CHANGES.name} ({k.id}): no {ed} clause under laws {k.laws} — "
                                    "list the laws the change is filed under")
    ranked = sorted(out, key=lambda k: -k.score)          # stable: ties keep the file's order
    return tuple(KeyChange(k.id, k.laws, k.old, k.new, k.often, k.different, k.statement, i + 1)
                 for i, k in enumerate(ranked))


_PARSED: dict[str, tuple[KeyChange, ...]] = {}


def key_changes(corpus: Corpus | None = None) -> tuple[KeyChange, ...]:
    """The key changes, ranked; ids checked against `corpus` (the project's corpus when None), once per
    corpus fingerprint."""
    if corpus is None:
        from ..corpus import load_corpus

        corpus = load_corpus()
    key = corpus.fingerprint
    if key not in _PARSED:
        _PARSED[key] = parse(yaml.safe_load(KEY_CHANGES.read_text(encoding="utf-8")), corpus)
    return _PARSED[key]


def for_law(law: str, corpus: Corpus | None = None) -> tuple[KeyChange, ...]:
    """The key changes filed under law `law`, ranked."""
    return tuple(k for k in key_changes(corpus) if law in k.laws)
