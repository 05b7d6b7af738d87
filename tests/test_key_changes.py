"""The key changes (assistant/data/key_changes.yaml) and the change report built on them: validated at
load, ranked, first in the report, stated in words with both texts quoted, no internal repr anywhere."""

from __future__ import annotations

import re

import pytest
import yaml
from typer.testing import CliRunner

from assistant.cli import app
from assistant.diff.keychanges import KEY_CHANGES, LANGS, BadKeyChanges, for_law, key_changes, parse
from assistant.diff.render import clause_label, has_phrase, say
from assistant.diff.report import change_report

runner = CliRunner()
RAW = yaml.safe_load(KEY_CHANGES.read_text(encoding="utf-8"))
# what a Python repr looks like in text: tuples of figures, ids, sets, None, dataclass reprs
REPR = re.compile(r"\(\d+(?:\.\d+)?, '|\[\(|ClauseId\(|frozenset\(|\bNone\b|PairDiff\(|KeyChange\(|\{'|\['")


@pytest.fixture(scope="module")
def report(corpus):
    return change_report(corpus)


@pytest.fixture(scope="module", params=LANGS)
def markdown(request, report):
    return request.param, report.markdown(request.param)


@pytest.mark.parametrize("entry", RAW["changes"], ids=lambda e: e["id"])
def test_each_key_change_is_valid(corpus, entry):
    (k,) = parse({"changes": [entry]}, corpus)
    assert all(k.say(lg) for lg in LANGS) and k.old and k.new
    assert all(corpus.clause(x) is not None for x in (*k.old, *k.new))


def test_the_issue_s_key_changes_are_there_and_ranked(corpus):
    keys = key_changes(corpus)
    laws = {law for k in keys for law in k.laws}
    assert {"12", "23", "25", "27", "30", "31", "32", "61", "64", "68"} <= laws
    assert [k.rank for k in keys] == list(range(1, len(keys) + 1))
    assert [k.score for k in keys] == sorted((k.score for k in keys), reverse=True)
    assert for_law("27", corpus)[0].id == "comparable-call-insufficient-bid"


@pytest.mark.parametrize("broken, words", [
    ({"changes": [{**RAW["changes"][0], "ccba2018": ["ccba2018/law/27/Z/9"]}]}, "are not ccba2018 law clauses"),
    ({"changes": [{**RAW["changes"][0], "ccba1999": ["ccba2018/law/27/A"]}]}, "are not ccba1999 law clauses"),
    ({"changes": [{**RAW["changes"][0], "often": 9}]}, "run 1-5"),
    ({"changes": [{k: v for k, v in RAW["changes"][0].items() if k != "statement"}]}, "missing or bad field"),
    ({"changes": [RAW["changes"][0], RAW["changes"][0]]}, "share an id"),
    ({}, "no 'changes' list"),
])
def test_a_broken_file_is_refused_at_load(corpus, broken, words):
    with pytest.raises(BadKeyChanges, match=words) as err:
        parse(broken, corpus)
    assert err.value.exit_code == 3


def test_the_report_opens_with_the_ranked_key_changes(markdown, corpus):
    lang, md = markdown
    first_h2 = re.search(r"^## (.+)$", md, re.M)
    assert first_h2 and first_h2.group(1) == say("key_changes", lang)
    keys = key_changes(corpus)
    at = [md.index(k.say(lang)) for k in keys]
    assert at == sorted(at) and at[-1] < md.index("## " + say("laws_per_class", lang))


@pytest.mark.parametrize("law", ["12", "25", "27", "64", "68"])
def test_key_law_sections_state_the_change_and_quote_both_texts(markdown, law):
    lang, md = markdown
    head = re.search(rf"^### {re.escape(say('law', lang, n=law))}[ 　].*$", md, re.M)
    assert head, f"no section for law {law}"
    section = md[head.end(): md.find("\n### ", head.end())]
    (k, *_) = for_law(law)
    assert k.say(lang) in section
    for year, cid in (("1999", k.old[0]), ("2018", k.new[0])):
        quote = say("quote_old", lang, year=year, where=clause_label(cid, lang))
        assert re.search(rf"^> {re.escape(quote)}[:：]\s*\S", section, re.M), (law, quote)


def test_a_substantive_pair_names_its_element_and_marks_the_words(report):
    md = report.markdown("en")
    section = md[md.index("### Law 64"): md.index("### Law 65")]
    assert "condition (exception)" in section and "[-" in section and "{+" in section


@pytest.mark.parametrize("fmt", ["md", "html", "csv"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_python_repr_anywhere(report, fmt, lang):
    text = report.markdown(lang) if fmt == "md" else report.html(lang) if fmt == "html" else report.csv()
    found = REPR.search(text)
    assert found is None, text[max(0, found.start() - 80): found.end() + 80]


def test_ids_only_when_asked(report):
    assert "ccba2018/law/" not in report.markdown("zh-Hans")
    assert "`ccba2018/law/27/B/1/b`" in report.markdown("zh-Hans", ids=True)


def test_headings_follow_the_language(report):
    assert report.markdown("zh-Hant").startswith("# 中國橋牌競賽規則") and "## 重點變化" in report.markdown("zh-Hant")
    assert "## Key changes" in report.markdown("en") and "Key changes" not in report.markdown("zh-Hans")
    assert all(has_phrase(f"class_{c}") for c in report.counts())


def test_html_marks_the_redline(report):
    html = report.html("en")
    assert html.startswith("<!DOCTYPE html>") and "<del>" in html and "<ins>" in html and "<ol>" in html


def test_cli_changes_lang_ids_and_html(tmp_path):
    res = runner.invoke(app, ["changes", "--lang", "en", "--ids"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("# Changes from") and "`comparable-call-insufficient-bid`" in res.output
    out = tmp_path / "c.html"
    res = runner.invoke(app, ["changes", "--format", "html", "--lang", "zh-Hant", "--out", str(out)])
    assert res.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
