"""Exam generation: answer keys cite existing clauses, stems do not give answers away, distractors are
not correct answers (re-checked against the trees, the terminology, the alignment and the corpus),
seeds reproduce byte for byte, and a reviewed 30-question sample per language stays as golden output."""

from __future__ import annotations

import csv
import io
import os
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.diff.keychanges import for_law
from assistant.diff.law import pair_kinds
from assistant.exam import generate, render
from assistant.exam import changes, sources
from assistant.exam.model import BadExamOptions, ExamSet, NothingToAsk, Question
from assistant.exam.text import contains, norm

GOLDEN = Path(__file__).resolve().parent / "golden"
LANGS = ("zh-Hans", "zh-Hant", "en")
SAMPLE = {"n": 30, "seed": 1, "difficulty": "medium"}


@lru_cache(maxsize=None)
def sample(lang: str, seed: int = 1) -> ExamSet:
    return generate(lang=lang, n=SAMPLE["n"], seed=seed, difficulty=SAMPLE["difficulty"])


def all_questions() -> list[tuple[ExamSet, Question]]:
    return [(s, q) for lang in LANGS for s in [sample(lang)] for q in s.questions]


@pytest.mark.parametrize("lang", LANGS)
def test_sample_has_every_kind_and_thirty_questions(lang: str) -> None:
    s = sample(lang)
    assert len(s.questions) == 30
    assert all(v > 0 for v in s.counts().values()), s.counts()


def test_every_answer_key_cites_existing_clauses(corpus) -> None:
    for _s, q in all_questions():
        assert q.cites, q.key
        for cid in q.cites:
            corpus.clause(cid)      # raises UnknownClause if it does not exist


def test_no_stem_contains_its_answer() -> None:
    for _, q in all_questions():
        assert not contains(q.stem, q.answer), q.key
        assert q.options[q.answer_index] == q.answer
        assert len(set(map(norm, q.options))) == len(q.options), f"duplicate options in {q.key}"


def _check_ruling(s: ExamSet, q: Question) -> None:
    tree = sources.trees()[q.meta["topic"]]
    reached = sources.replay(q.meta["topic"], s.edition, dict(q.meta["facts"]), tree)
    assert reached.leaf == q.meta["leaf"]
    assert norm(reached.outcome[s.lang]) == norm(q.answer)
    for lid in q.meta["distractor_leaves"]:
        assert tree.node(lid).outcome_code != tree.node(reached.leaf).outcome_code
    for d in q.distractors:
        assert norm(d) != norm(reached.outcome[s.lang])


def _check_which_law(s: ExamSet, q: Question, corpus) -> None:
    cited = corpus.clause(q.cites[0])
    text = norm(cited.text[s.lang])
    for law_id in q.meta["distractor_laws"]:
        assert law_id != q.meta["law"]
        prefix = law_id + "/"
        inside = [c for cid, c in corpus.editions[s.edition].clauses.items() if cid == law_id or cid.startswith(prefix)]
        assert all(norm(c.text.get(s.lang, "")) != text for c in inside), (q.key, law_id)


def _check_term(s: ExamSet, q: Question) -> None:
    concept = sources.terminology().concepts[q.meta["concept"]]
    scope_lang = s.lang
    own = {norm(f) for f in sources.labels(concept, s.edition, scope_lang, ("pref", "alt", "hidden"))}
    assert norm(q.answer) in own
    for d in q.distractors:
        assert norm(d) not in own, (q.key, d)
        assert concept.id not in sources.concepts_named(d, s.edition), (q.key, d)


def _report_pairs(step: str) -> dict[tuple[str | None, str | None], str]:
    return {(p.from_id, p.to_id): p.change for p in sources.report_pairs(step)}


def _new_side(cid: str, step: str) -> str:
    """A printed wbf2017 id back to the report's ccba2018 id (1999 -> 2017 questions in en/zh-Hant)."""
    return cid.replace("wbf2017/", "ccba2018/", 1) if step == "1999-2017" else cid


def _check_change(s: ExamSet, q: Question) -> None:
    """Re-derive a kind-4 question from the change report: the answer is a report fact, no distractor is."""
    form, step = q.meta["form"], q.meta.get("step", "1999-2017")
    pairs = _report_pairs(step)
    editions = {c.split("/")[0] for c in q.cites}
    assert len(editions) == 2, f"{q.key}: the key must cite both editions, got {q.cites}"
    kinds = pair_kinds(sources.corpus(), *(("ccba1999", "ccba2018") if step == "1999-2017" else ("ccba2018", "wbf2017")))
    keyed = for_law(q.tags[0].split("::")[1], sources.corpus())
    assert q.meta.get("key_change") == (keyed[0].id if keyed else None), q.key
    if form == "where":
        assert kinds[(q.meta["from"], q.meta["to"])] in changes.MOVES[step]
        assert q.answer == changes.label(q.cites[0], s.lang)
        sent = {to for (fr, to), _ in pairs.items() if fr == q.meta["from"] and to}
        for d in q.meta["distractors"]:
            assert not any(changes._related(_new_side(d, step), t) for t in sent), (q.key, d)
            assert changes.label(d, s.lang) in q.distractors
    elif form == "new":
        assert pairs[(None, q.meta["to"])] == "new"
        same = {to for (fr, to), c in pairs.items() if fr and to and c in changes.SAME}
        for d in q.meta["distractors"]:
            assert _new_side(d, step) in same, (q.key, d)
            assert (None, _new_side(d, step)) not in pairs, (q.key, d)
    elif form == "count":
        assert (q.meta["from"], q.meta["to"]) in pairs
        n_new = len([c for c in sources.clause(q.meta["to"]).children if "/law/" in c])
        n_old = len([c for c in sources.clause(q.meta["from"]).children if "/law/" in c])
        assert n_new != n_old and q.answer.startswith(f"{n_new} ")
        assert all(not d.startswith(f"{n_new} ") for d in q.distractors), q.key
    elif form == "subject":
        subject = {law.law for law in sources.report_laws()
                   if kinds.get((f"ccba1999/law/{law.law}", f"ccba2018/law/{law.law}")) == "different_subject"}
        assert q.meta["law"] in subject
        assert not set(q.meta["distractors"]) & subject, q.key
    else:
        raise AssertionError(f"unknown change form {form}")


@pytest.mark.parametrize("lang", LANGS)
def test_change_questions_from_the_report(lang: str) -> None:
    """Kind 4 yields at least 30 medium questions per language, every form among them, each re-checked."""
    s = generate(kinds=["change"], lang=lang, n=40, seed=2)
    assert len(s.questions) >= 30, len(s.questions)
    assert {q.meta["form"] for q in s.questions} == set(changes.FORMS)
    for q in s.questions:
        _check_change(s, q)
        assert not contains(q.stem, q.answer), q.key
    assert len({q.key for q in s.questions}) == len(s.questions)


def test_change_hand_checked_moves() -> None:
    """The curated moves of the report come out as 'where' questions with the right answers."""
    s = generate(kinds=["change"], lang="zh-Hans", n=200, seed=0)
    where = {q.meta["from"]: q.answer for q in s.questions if q.meta["form"] == "where"}
    assert where["ccba1999/law/23"] == "第 72 条 C"
    assert where["ccba1999/law/86/A"] == "第 12 条 C2(b)"
    assert where["ccba1999/law/34"] == "第 17 条 D3"
    counts = {q.meta["to"]: q.answer for q in s.questions if q.meta["form"] == "count"}
    assert counts["ccba2018/law/57/A"] == "4 项" and counts["ccba2018/law/64/B"] == "8 项"
    new = {q.meta["to"] for q in s.questions if q.meta["form"] == "new"}
    assert {"ccba2018/law/64/B/7", "ccba2018/law/64/B/8"} & new


def test_no_distractor_is_a_correct_answer(corpus) -> None:
    checked = {k: 0 for k in ("ruling", "which_law", "cloze", "change", "matching")}
    for s, q in all_questions():
        if q.kind == "ruling":
            _check_ruling(s, q)
        elif q.kind == "which_law":
            _check_which_law(s, q, corpus)
        elif q.kind in ("cloze", "matching"):
            _check_term(s, q)
        elif q.kind == "change":
            _check_change(s, q)
        checked[q.kind] += 1
    assert all(checked.values()), checked


@pytest.mark.parametrize("fmt", ["md", "csv", "html"])
def test_same_seed_same_bytes_other_seed_differs(fmt: str) -> None:
    a = render(generate(lang="en", n=12, seed=5), fmt)
    b = render(generate(lang="en", n=12, seed=5), fmt)
    c = render(generate(lang="en", n=12, seed=6), fmt)
    assert a.encode("utf-8") == b.encode("utf-8")
    assert a != c


def test_csv_is_anki_importable() -> None:
    s = sample("zh-Hant")
    text = render(s, "csv")
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert "#separator:Comma" in head and "#columns:Front,Back,Tags" in head
    body = "\n".join(line for line in text.split("\n") if not line.startswith("#"))
    rows = list(csv.reader(io.StringIO(body)))
    assert len(rows) == len(s.questions)
    assert all(len(r) == 3 and r[0] and r[1] and "bridgelaw" in r[2].split() for r in rows)
    assert rows[0][0].startswith(s.questions[0].stem.split("\n")[0])


def test_html_escapes_text() -> None:
    q = Question(kind="cloze", stem='<script>alert("x")</script> & co', answer="<b>", options=["<b>", "c"],
                 answer_index=0, cites=["wbf2017/law/1"])
    s = ExamSet("wbf2017", "en", ["cloze"], "easy", 0, [], [], [q], 1)
    out = render(s, "html")
    assert "<script>" not in out and "&lt;script&gt;" in out and "@media print" in out


@pytest.mark.parametrize("kwargs, error, words", [
    ({"kinds": ["essay"]}, BadExamOptions, "choose from ruling"),
    ({"edition": "ccba1999", "lang": "en"}, BadExamOptions, "has no en text"),
    ({"edition": "guandan2017"}, BadExamOptions, "choose from ccba1999"),
    ({"difficulty": "extreme"}, BadExamOptions, "easy, medium, hard"),
    ({"n": 0}, BadExamOptions, "1 to"),
    ({"kinds": ["which_law"], "chapters": ["99"]}, NothingToAsk, "widen"),
])
def test_bad_options_say_how_to_fix(kwargs, error, words) -> None:
    with pytest.raises(error) as info:
        generate(**kwargs)
    assert words in str(info.value) and " — " in str(info.value)


def test_chapter_and_topic_scope() -> None:
    s = generate(kinds=["which_law"], edition="wbf2017", lang="en", chapters=["6"], n=5, seed=3)
    laws = {int(q.cites[0].split("/")[2]) for q in s.questions}
    assert laws and all(40 <= n <= 71 for n in laws), laws
    topic = sorted(sources.trees())[0]
    t = generate(kinds=["ruling"], topics=[topic], n=3, seed=3)
    assert all(q.meta["topic"] == topic for q in t.questions)


def test_cli_exam_command(tmp_path) -> None:
    from assistant.cli import app

    runner = CliRunner()
    out = tmp_path / "e.html"
    res = runner.invoke(app, ["exam", "-n", "4", "--lang", "zh-Hant", "--format", "html", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = runner.invoke(app, ["exam", "--edition", "ccba2018", "--lang", "en"])
    assert bad.exit_code == 2
    unknown = runner.invoke(app, ["exam", "--topic", "no_such_topic"])
    assert unknown.exit_code == 1


@pytest.mark.parametrize("lang", LANGS)
def test_golden_sample(lang: str) -> None:
    path = GOLDEN / f"exam_{lang}.md"
    text = render(sample(lang), "md")
    if os.environ.get("BRIDGELAW_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} missing — run with BRIDGELAW_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8"), \
        f"{path.name} differs — review the change, then BRIDGELAW_UPDATE_GOLDEN=1 pytest tests/test_exam.py"
