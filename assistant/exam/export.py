"""Exporters of an exam set: Markdown (questions, then an answer key citing clause ids), a CSV Anki
imports (front, back, tags), and printable HTML. Pure functions of the set: same set, same bytes.
"""

from __future__ import annotations

import csv
import html
import io
import re

from .model import FORMATS, BadExamOptions, ExamSet, Question
from .text import phrase

LETTERS = "ABCDEFGH"
MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: str) -> str:
    """Markdown-escape a printed text; keep its line breaks as hard breaks."""
    return "  \n".join(MD_SPECIAL.sub(r"\\\1", line) for line in text.split("\n"))


def summary(exam: ExamSet) -> str:
    """The settings line under the title, every value in the exam's language: edition, language, difficulty,
    set number, count."""
    from .text import edition_name

    lang = exam.lang
    return phrase("summary", lang, edition=edition_name(exam.edition, lang),
                  exam_lang=phrase(f"language_name.{lang}", lang), difficulty=phrase(f"difficulty.{exam.difficulty}", lang),
                  seed=exam.seed, n=len(exam.questions))


def _answer_line(q: Question) -> str:
    return f"{q.letter}. {q.answer}" if q.options else q.answer


def to_markdown(exam: ExamSet) -> str:
    lang = exam.lang
    out = [f"# {phrase('exam_title', lang)}", "", summary(exam), ""]
    for i, q in enumerate(exam.questions, 1):
        out += [f"## {i}. {phrase(f'kind.{q.kind}', lang)}", "", _md(q.stem), ""]
        if q.options:
            out += [f"- {LETTERS[j]}. {_md(o)}" for j, o in enumerate(q.options)] + [""]
    out += [f"## {phrase('answer_key', lang)}", ""]
    for i, q in enumerate(exam.questions, 1):
        cites = ", ".join(f"`{c}`" for c in q.cites)
        out.append(f"{i}. **{_md(_answer_line(q))}** — {phrase('cites', lang)}{phrase('colon', lang)}{cites}")
        if q.explanation and q.explanation not in q.cites:
            out.append(f"   {_md(q.explanation)}")
    return "\n".join(out).rstrip("\n") + "\n"


def _front(q: Question) -> str:
    lines = [q.stem, ""] + [f"{LETTERS[j]}. {o}" for j, o in enumerate(q.options)]
    return "\n".join(lines).strip()


def _back(q: Question, lang: str) -> str:
    back = [_answer_line(q), f"{phrase('cites', lang)}{phrase('colon', lang)}{', '.join(q.cites)}"]
    if q.explanation and q.explanation not in q.cites:
        back.append(q.explanation)
    return "\n".join(back)


def to_csv(exam: ExamSet) -> str:
    """Anki text import: header lines name the separator and columns; tags are space-separated."""
    buf = io.StringIO()
    buf.write("#separator:Comma\n#html:false\n#columns:Front,Back,Tags\n#tags column:3\n")
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for q in exam.questions:
        tags = ["bridgelaw", f"bridgelaw::{q.kind}", f"edition::{exam.edition}", f"lang::{exam.lang}",
                *(t.replace(" ", "_") for t in q.tags)]
        w.writerow([_front(q), _back(q, exam.lang), " ".join(dict.fromkeys(tags))])
    return buf.getvalue()


CSS = """body{font-family:"Noto Serif CJK SC","Noto Serif CJK TC","Songti SC",serif;max-width:48em;margin:2em auto;line-height:1.6}
h1{font-size:1.5em}h2{font-size:1.1em;margin-top:1.5em}.stem{white-space:pre-line}
ol.options{list-style:upper-alpha}.key li{margin:.3em 0}code{font-size:.85em}
@media print{body{margin:0;max-width:none}.question{break-inside:avoid}.key{break-before:page}}"""


def to_html(exam: ExamSet) -> str:
    e = html.escape
    lang = exam.lang
    parts = [f'<!DOCTYPE html>\n<html lang="{e(lang)}">\n<head>\n<meta charset="utf-8">',
             f"<title>{e(phrase('exam_title', lang))}</title>\n<style>\n{CSS}\n</style>\n</head>\n<body>",
             f"<h1>{e(phrase('exam_title', lang))}</h1>\n<p>{e(summary(exam))}</p>"]
    for i, q in enumerate(exam.questions, 1):
        parts.append(f'<section class="question">\n<h2>{i}. {e(phrase(f"kind.{q.kind}", lang))}</h2>\n'
                     f'<p class="stem">{e(q.stem)}</p>')
        if q.options:
            parts.append('<ol class="options">' + "".join(f"<li>{e(o)}</li>" for o in q.options) + "</ol>")
        parts.append("</section>")
    parts.append(f'<section class="key">\n<h2>{e(phrase("answer_key", lang))}</h2>\n<ol>')
    for q in exam.questions:
        cites = ", ".join(f"<code>{e(c)}</code>" for c in q.cites)
        parts.append(f"<li><strong>{e(_answer_line(q))}</strong> — {e(phrase('cites', lang) + phrase('colon', lang))}{cites}</li>")
    parts.append("</ol>\n</section>\n</body>\n</html>\n")
    return "\n".join(parts)


EXPORTERS = {"md": to_markdown, "csv": to_csv, "html": to_html}


def render(exam: ExamSet, fmt: str) -> str:
    """The set in one of FORMATS; BadExamOptions for another format."""
    if fmt not in EXPORTERS:
        raise BadExamOptions(f"unknown format {fmt!r} — choose from {', '.join(FORMATS)}")
    return EXPORTERS[fmt](exam)
