"""Hostile input at the command line: each row of issue 20's table as a regression test, ids as people
type them, and hypothesis property tests per command (exit code 0-3, no traceback, UTF-8 stdout, JSON
that parses).

The property tests run a fast profile by default (a few dozen examples per command); BRIDGELAW_FUZZ=deep
runs many more. Commands run in process through typer's CliRunner, nothing stubbed; the paths drawn avoid
rebuilding the graph or the search index per example (the index is loaded once, from the real cache).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cli import app

DEEP = os.environ.get("BRIDGELAW_FUZZ") == "deep"
EXAMPLES = 400 if DEEP else 25
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not DEEP,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

runner = CliRunner()


def invoke(*args: str, input: str = ""):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=input)


def assert_clean(res, args) -> None:  # type: ignore[no-untyped-def]
    """Exit 0-3, no traceback, stdout UTF-8, --json output that parses, at most one error line."""
    exc = res.exception
    assert exc is None or isinstance(exc, SystemExit), (args, repr(exc))
    assert 0 <= res.exit_code <= 3, (args, res.exit_code, res.output[-500:])
    out = res.stdout_bytes.decode("utf-8")
    if "--json" in args and res.exit_code == 0 and out.strip():
        json.loads(out)
    assert res.stderr.count("error:") <= 1, (args, res.stderr)


def one_error(res, code: int, phrase: str) -> None:  # type: ignore[no-untyped-def]
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code == code, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and phrase in lines[0], res.stderr


# ---------------------------------------------------------------------------------------------- the table


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    return tmp_path_factory.mktemp("hostile")


def test_undecodable_bytes_in_ask_are_replaced_and_said(folder: Path) -> None:
    res = invoke("ask", "dummy \udcff card", "--model", "nope")     # $'dummy \xff card' from a GBK terminal
    one_error(res, 2, "unknown model")
    assert "not UTF-8" in res.stderr and "U+FFFD" in res.stderr


def test_undecodable_bytes_in_refs_are_one_line() -> None:
    res = invoke("refs", "wbf2017/law/64\udcff")
    one_error(res, 1, "unknown clause id")
    assert "not UTF-8" in res.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-5", "1e309", "100000"])
def test_sparql_timeout_must_be_finite_and_in_range(value: str) -> None:
    one_error(invoke("sparql", "ASK { ?s ?p ?o }", "--timeout", value), 2, "--timeout")


@pytest.mark.parametrize("answers, phrase", [
    ("[" * 5000, "nested too deeply"),
    ('{"a":' * 3000 + "1" + "}" * 3000, "nested too deeply"),
    ("@", "no file name after @"),
    ("@{folder}", "it is a folder"),
    ("@{folder}/missing.json", "no such file"),
    ("@{folder}/latin1.json", "not UTF-8"),
    ('{"no_such_fact": true}', "unknown facts: no_such_fact"),
])
def test_rule_answers_errors(folder: Path, answers: str, phrase: str) -> None:
    (folder / "latin1.json").write_bytes('{"in_rotation": "sí"}'.encode("latin-1"))
    one_error(invoke("rule", "revoke", "--answers", answers.replace("{folder}", str(folder)), "--json"), 2, phrase)


@pytest.mark.parametrize("args", [["graph", "export", "--out", "{folder}"], ["changes", "--out", "{folder}"],
                                  ["exam", "-n", "2", "-o", "{folder}"]])
def test_out_to_a_folder_is_one_line(folder: Path, args: list[str]) -> None:
    one_error(invoke(*[a.replace("{folder}", str(folder)) for a in args]), 2, "it is a folder")


@pytest.mark.parametrize("args", [["graph", "export", "--out", "{folder}/no/such.ttl"],
                                  ["changes", "--out", "{folder}/no/such.md"], ["exam", "-o", "{folder}/no/x.md"]])
def test_out_to_a_missing_folder_is_one_line(folder: Path, args: list[str]) -> None:
    one_error(invoke(*[a.replace("{folder}", str(folder)) for a in args]), 2, "does not exist")


@pytest.mark.parametrize("args, phrase", [
    (["ask", "dummy points", "--model", "nope"], "unknown model"),
    (["ask", "dummy points", "--model", "/"], "unknown model"),            # bench/fuzz.py: a folder, not a model
    (["ask", "dummy points", "--edition", "wbf2071"], "unknown edition"),
    (["ask", "dummy points", "--lang", "fr"], "unknown language"),
    (["exam", "--kind", "essay"], "unknown question kind"),
    (["exam", "--format", "pdf"], "unknown format"),
    (["exam", "-n", "0"], "-n out of range"),
    (["exam", "--edition", "guandan2017"], "unknown edition"),
    (["rule", "revoke", "--lang", "fr"], "unknown language"),
    (["rule", "revoke", "--edition", "nope", "--answers", "{}"], "unknown edition"),
    (["diff", "64", "--from", "nope"], "unknown edition"),
    (["changes", "--format", "pdf"], "unknown format"),
    (["graph", "export", "--format", "xml"], "unknown export format"),
])
def test_a_wrong_name_is_answered_before_anything_loads(args: list[str], phrase: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Names are checked first: with the corpus, graph and index loaders broken, the answer is still the name."""
    from assistant import corpus, resources
    from assistant.graph import store

    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise AssertionError("loaded before the options were checked")

    monkeypatch.setattr(corpus, "load_corpus", boom)
    monkeypatch.setattr(store, "load_graph", boom)
    monkeypatch.setattr(resources, "resources", boom)
    one_error(invoke(*args), 2, phrase)


def test_errors_print_in_the_lang_given() -> None:
    res = invoke("show", "no-such-thing", "--lang", "zh-Hans")
    one_error(res, 1, "未知的条文编号")
    one_error(invoke("ask", "x", "--lang", "zh-Hant", "--model", "nope"), 2, "未知的模型")


# ---------------------------------------------------------------------------------------------- ids as typed


@pytest.mark.parametrize("typed, canonical, heading", [
    ("64A1", "wbf2017/law/64/A/1", "Law 64A1"),
    ("Law 64A1", "wbf2017/law/64/A/1", "Law 64A1"),
    ("law 64 a 1", "wbf2017/law/64/A/1", "Law 64A1"),
    ("WBF2017/law/64/a/1", "wbf2017/law/64/A/1", "Law 64A1"),
    ("第六十四条", "ccba2018/law/64", "Law 64"),
    ("第64条A款1项", "ccba2018/law/64/A/1", "Law 64A1"),
    ("第六十四條", "wbf2017/law/64", "Law 64"),
])
def test_show_reads_ids_as_people_type_them(typed: str, canonical: str, heading: str) -> None:
    res = invoke("show", typed)
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith(heading)
    edition = canonical.split("/")[0]
    assert f"as {canonical} (the default edition for this input is {edition})" in res.stderr


def test_show_json_prints_the_canonical_id() -> None:
    res = invoke("show", "Law 64A1", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["id"] == "wbf2017/law/64/A/1"


def test_an_ambiguous_chinese_form_lists_the_candidates() -> None:
    one_error(invoke("show", "第二十二条"), 1, "choose one: ccba2018/law/22, ccba2018/article/22")


@pytest.mark.parametrize("typed", ["第二二條", "第十十条"])
def test_a_malformed_chinese_numeral_is_unknown_not_a_traceback(typed: str) -> None:
    """Found by bench/fuzz.py: '二二' made the numeral reader raise KeyError."""
    one_error(invoke("show", typed), 1, "unknown clause id")


def test_ask_with_a_malformed_chinese_numeral_is_not_a_traceback() -> None:
    res = invoke("ask", "第二二条 明手", "--top", "1")
    assert_clean(res, ["ask"])


def test_a_missing_clause_names_the_nearest() -> None:
    one_error(invoke("show", "64A9"), 1, "nearest existing clause: wbf2017/law/64/A")


def test_refs_reads_ids_as_typed() -> None:
    res = invoke("refs", "Law 64A", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["id"] == "wbf2017/law/64/A"


# ---------------------------------------------------------------------------------------------- properties

NASTY = ["\x00", "\x1b[2J", "\r", "\n", "\u202e", "\u2066", "\u200f", "\ufeff", "\udcff", "\ud800", "😀",
         "👨‍👩‍👧", "\u0301", "'", '"', "\\", "{", "[", "@", "-", "--json", "明手", "夢家", "64A1", "第64条"]
hostile_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec=None, categories=["L", "N", "P", "S", "Z", "C"]), max_size=40),
    st.lists(st.sampled_from(NASTY), max_size=8).map("".join),
    st.builds(lambda s, n: s * n, st.sampled_from(["x", "明", "😀", "64A1 "]), st.integers(1, 3000)),
)
number_text = st.one_of(st.sampled_from(["nan", "inf", "-inf", "1e309", "-1", "0", "99999999999999999999"]),
                        st.integers().map(str), st.floats().map(str), hostile_text)
opt_json = st.sampled_from([[], ["--json"]])


def _run(args: list[str]) -> None:
    assert_clean(invoke(*args), args)


@FUZZ
@given(text=hostile_text, json_=opt_json, lang=st.sampled_from([[], ["--lang", "zh-Hans"], ["--lang", "x"]]))
def test_property_show(text: str, json_: list[str], lang: list[str]) -> None:
    _run(["show", text, *json_, *lang])


@FUZZ
@given(text=hostile_text, json_=opt_json)
def test_property_refs(text: str, json_: list[str]) -> None:
    _run(["refs", text, *json_])


@FUZZ
@given(query=hostile_text, timeout=number_text, json_=opt_json)
def test_property_sparql(query: str, timeout: str, json_: list[str]) -> None:
    _run(["sparql", query, "--timeout", timeout, *json_])


@FUZZ
@given(sub=st.sampled_from(["stats", "export", "build"]), fmt=hostile_text, out=hostile_text)
def test_property_graph(sub: str, fmt: str, out: str) -> None:
    args = ["graph", sub, "--format", fmt, "--out", out] if sub == "export" else ["graph", sub, "--json", "--x" + fmt]
    _run(args)


@FUZZ
@given(question=hostile_text, model=hostile_text, edition=hostile_text, top=number_text)
def test_property_ask_bad_options(question: str, model: str, edition: str, top: str) -> None:
    _run(["ask", question, "--model", model or "x", "--edition", edition, "--top", top])


@settings(FUZZ, max_examples=max(5, EXAMPLES // 3))
@given(question=hostile_text, json_=opt_json)
def test_property_ask(question: str, json_: list[str]) -> None:
    _run(["ask", question, *json_])                  # the real search: the index is loaded once per session


@settings(FUZZ, max_examples=max(5, EXAMPLES // 3))
@given(question=hostile_text, reading=st.one_of(st.sampled_from(["revoke_corrected", "claim"]), hostile_text),
       json_=opt_json)
def test_property_ask_reading(question: str, reading: str, json_: list[str]) -> None:
    _run(["ask", question, "--reading", reading, *json_])


@FUZZ
@given(topic=st.one_of(st.sampled_from(["revoke", "insufficient_bid", "claim"]), hostile_text),
       answers=st.one_of(hostile_text, st.dictionaries(hostile_text, st.one_of(st.booleans(), hostile_text,
                                                                               st.integers()), max_size=3)
                         .map(json.dumps)),
       edition=st.sampled_from(["wbf2017", "ccba1999", "nope"]), json_=opt_json)
def test_property_rule(topic: str, answers: str, edition: str, json_: list[str]) -> None:
    _run(["rule", topic, "--answers", answers, "--edition", edition, *json_])


@FUZZ
@given(law=hostile_text, frm=st.sampled_from(["ccba1999", "wbf2017", "x"]), json_=opt_json)
def test_property_diff(law: str, frm: str, json_: list[str]) -> None:
    _run(["diff", law, "--from", frm, *json_])


@FUZZ
@given(fmt=hostile_text, out=hostile_text)
def test_property_changes(fmt: str, out: str) -> None:
    _run(["changes", "--format", fmt, "--out", out])


@FUZZ
@given(kind=hostile_text, n=number_text, seed=number_text, topic=hostile_text, fmt=st.sampled_from(["md", "csv", "x"]))
def test_property_exam(kind: str, n: str, seed: str, topic: str, fmt: str) -> None:
    _run(["exam", "-k", kind, "-n", n, "-s", seed, "-t", topic, "-f", fmt])


@FUZZ
@given(contract=hostile_text, diff=number_text, edition=st.sampled_from(["wbf2017", "x"]), json_=opt_json)
def test_property_score_and_imps(contract: str, diff: str, edition: str, json_: list[str]) -> None:
    _run(["score", contract, "--edition", edition, *json_])
    _run(["imps", diff, "--edition", edition, *json_])


@FUZZ
@given(name=hostile_text, json_=opt_json)
def test_property_cache_and_stats(name: str, json_: list[str]) -> None:
    from assistant.artifact import ARTIFACTS
    from assistant.inputs import clean

    if clean(name) in ARTIFACTS or not name:
        return                                       # never clear the real cache
    _run(["cache", "clear", name])
    _run(["cache", "status", *json_])
    _run(["stats", *json_])


def test_a_real_undecodable_byte_through_the_console_script() -> None:
    """The bytes a GBK terminal sends (b'\\xff'), through the installed entry point: a note, then one line."""
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("bridgelaw")
    res = subprocess.run([str(exe), "ask", b"dummy \xff card", "--model", "nope"], capture_output=True, timeout=120,  # type: ignore[list-item]
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    err = res.stderr.decode("utf-8")
    assert res.returncode == 2 and "Traceback" not in err, err
    assert "U+FFFD" in err and err.count("error:") == 1 and "unknown model" in err
