"""The casebook as tests: each `<topic>.yaml` here is a list of ruling cases, collected as one pytest
item per case (named by its id), as openfisca collects its YAML tests.

A case: id, situation (in words, in `lang`), facts (the tree's fact names, every fact its path asks:
batch mode never assumes one), expected per edition ({leaf: id} or {outcome: [keywords]}, and cites:
director references such as 64A1 or 27B1(a), or clause ids), differs (the two editions rule
differently; or per edition), routine (the everyday case: reached in at most five questions), note (the clause quoted).
A failure names the file, the case and each difference.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

HERE = Path(__file__).resolve().parent
CASE_KEYS = {"id", "situation", "lang", "facts", "expected", "differs", "routine", "note", "edition_note"}
EXPECT_KEYS = {"leaf", "outcome", "cites"}
LAW_REF = re.compile(r"^(\d+)([A-H])?(\d+)?((?:\([a-z0-9]+\))*)$")
ROUTINE_MAX = 5


def law_id(edition: str, ref: str) -> str:
    """'27B1(a)' -> 'wbf2017/law/27/B/1/a'; a full clause id is returned as it is."""
    if "/" in ref:
        return ref
    m = LAW_REF.match(ref)
    if not m:
        raise CaseError([f"unreadable law reference {ref!r}: write it like 64A1 or 27B1(a)"])
    parts = [m.group(1), *(x for x in (m.group(2), m.group(3)) if x), *re.findall(r"\(([a-z0-9]+)\)", m.group(4))]
    return f"{edition}/law/" + "/".join(parts)


class CaseError(Exception):
    """The differences between a case's expectation and the engine's ruling."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def load_cases(path: Path) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise CaseError([f"{path.name} must be a list of cases"])
    return data


def check_case(topic: str, case: dict[str, Any], trees: Any) -> list[str]:
    """Every difference between the case and the rulings of each edition it expects."""
    from assistant.rulings.engine import rule

    problems = [f"unknown key {k!r}" for k in case if k not in CASE_KEYS]
    for ed, exp in case["expected"].items():
        problems += [f"{ed}: unknown key {k!r}" for k in exp if k not in EXPECT_KEYS]
        r = rule(topic, ed, case["facts"], trees)
        if "leaf" in exp and r.leaf != exp["leaf"]:
            problems.append(f"{ed}: reached {r.leaf} ({r.outcome_code}), expected {exp['leaf']}")
        text = " ".join(r.outcome.values()).casefold()
        problems += [f"{ed}: outcome lacks {w!r}: {r.outcome['en']}" for w in exp.get("outcome", [])
                     if str(w).casefold() not in text]
        for ref in exp.get("cites", []):
            cid = law_id(ed, str(ref))
            if not any(c == cid or c.startswith(cid + "/") for c in r.cites):
                problems.append(f"{ed}: cites {r.cites}, missing {ref}")
        differs = bool(r.differs) and r.differs["status"] == "differs"
        said = case.get("differs")
        said = said.get(ed) if isinstance(said, dict) else said      # per edition where a tree has three
        if said is not None and differs != bool(said):
            brief = {k: r.differs[k] for k in ("status", "edition", "outcome_code", "fact") if k in r.differs} if r.differs else None
            problems.append(f"{ed}: editions {'differ' if differs else 'agree'} ({brief}), case says "
                            f"{'differ' if said else 'agree'}")
        if case.get("routine") and len(r.path) > ROUTINE_MAX:
            problems.append(f"{ed}: routine case took {len(r.path)} questions (at most {ROUTINE_MAX})")
    return problems


@pytest.fixture(scope="session")
def ruling_trees() -> Any:
    from assistant.rulings.model import load_trees

    return load_trees()


class CaseItem(pytest.Item):
    """One casebook case, run in every edition it expects."""

    def __init__(self, *, case: dict[str, Any], topic: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.topic = case, topic

    def runtest(self) -> None:
        from assistant.rulings.model import load_trees

        problems = check_case(self.topic, self.case, load_trees())
        if problems:
            raise CaseError(problems)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseError):
            lines = [f"{self.path.name}::{self.case['id']} — {self.case.get('situation', '')[:120]}"]
            return "\n".join(lines + [f"  {p}" for p in excinfo.value.problems])
        return f"{self.path.name}::{self.case['id']}: {excinfo.exconly()}"

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"case {self.case['id']}"


class CaseFile(pytest.File):
    """A topic's casebook file: one item per case."""

    def collect(self):  # type: ignore[no-untyped-def]
        for case in load_cases(self.path):
            yield CaseItem.from_parent(self, name=str(case["id"]), case=case, topic=self.path.stem)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and file_path.parent == HERE:
        return CaseFile.from_parent(parent, path=file_path)
    return None
