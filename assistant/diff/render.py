"""The change report as text people read: Markdown, HTML or CSV, headings and statements in the reader's
language (zh-Hans, zh-Hant, en), clause labels instead of ids (ids only when asked), the key changes first,
and for each substantive pair the element that changed in words and both sentences with the differing
words marked. Pure given a ChangeReport; no Python repr reaches the output.
"""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ..editions import edition
from ..text import s2t
from .keychanges import KeyChange
from .law import SEVERITY, LawDiff, PairDiff, edition_lexicon
from .redline import redline

if TYPE_CHECKING:
    from .report import ChangeReport

STRINGS = Path(__file__).resolve().parent / "strings.yaml"
LANGS: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")
QUOTE_MAX = 400          # characters of a quoted clause; longer quotes end in an ellipsis
PHRASE_MAX = 40          # characters of a phrase added to or dropped from a rule, as printed


@lru_cache(maxsize=1)
def _strings() -> dict[str, dict[str, str]]:
    return yaml.safe_load(STRINGS.read_text(encoding="utf-8"))


def say(key: str, lang: str, **fields: object) -> str:
    """A report phrase in `lang`, from strings.yaml."""
    return _strings()[key][lang].format(**fields)


def has_phrase(key: str) -> bool:
    return key in _strings()


def clause_label(clause_id: str, lang: str) -> str:
    """'第 27 条 B 款 1 (b)' / 'Law 27B1(b)' for ccba2018/law/27/B/1/b (article ids likewise)."""
    parts = clause_id.split("/")
    kind, path = parts[1], parts[2:]
    if lang == "en":
        tail = "".join(f"({s})" if s.islower() else s for s in path[1:])
        return f"{'Law' if kind == 'law' else kind.capitalize()} {path[0]}{tail}"
    head = ("第 {} 条" if lang == "zh-Hans" else "第 {} 條").format(path[0])
    bits = [f"{s} 款" if s.isupper() else f"({s})" if s.islower() else s for s in path[1:]]
    return " ".join([head, *bits])


def _zh(text: str, lang: str) -> str:
    return s2t(text) if lang == "zh-Hant" else text


def _year(ed: str) -> str:
    return edition(ed).version.split()[0]


def value_words(element: str, values: tuple[str, ...], lang: str) -> str:
    """An element's values in words: modal 'oblige' -> 必须 / must; '2 墩' -> 2 tricks; laws -> 第 N 条."""
    if not values:
        return say("none", lang)
    out = []
    for v in values:
        if element == "reference":
            out.append(say("value_self", lang) if v == "self" else say("law", lang, n=v))
        elif element == "number":
            num, _, unit = v.partition(" ")
            key = f"unit_{unit}"
            word = say(key, lang) if has_phrase(key) else unit
            out.append(f"{num} {word}" if lang == "en" else f"{num} {word}")
        elif element == "actor":
            out.append(actor_word(v, lang))
        elif element == "condition" and v != "exception":
            phrase = _cut(v.replace("§", "…").strip("，。；,. "), PHRASE_MAX)
            out.append(say("case", lang, text=_zh(phrase, lang)))
        else:
            key = f"value_{v}"
            out.append(say(key, lang) if has_phrase(key) else _zh(v, lang))
    return "、".join(out) if lang != "en" else ", ".join(out)


def actor_word(concept: str, lang: str) -> str:
    """A crosswalk concept in the reader's words: the CCBA 2018 label in Chinese, the id in English."""
    if lang == "en":
        return concept.replace("-", " ")
    labels = [lb for lb, c in edition_lexicon("ccba2018", "zh-Hans").labels().items() if c == concept]
    return _zh(min(labels, key=len), lang) if labels else concept


def what_changed(p: PairDiff, lang: str) -> list[str]:
    """One line per changed element of a pair: 'modal: may → must'."""
    return [say("what_changed", lang, element=say(f"element_{name}", lang),
                old=value_words(name, old, lang), new=value_words(name, new, lang))
            for name, old, new in p.values]


def _cut(text: str, limit: int = QUOTE_MAX) -> str:
    return text if len(text) <= limit else text[:limit] + "……"


def marked(p: PairDiff, from_ed: str, to_ed: str) -> tuple[str, str]:
    """Both texts, the words only the older has in [-…-], the words only the newer has in {+…+}."""
    lex = (edition_lexicon(from_ed, "zh-Hans"), edition_lexicon(to_ed, "zh-Hans"))
    rl = redline(p.text_from, p.text_to, *lex)
    old, new = [], []
    for s in rl.segments:
        if s.op in ("equal", "term"):
            old.append(s.old)
            new.append(s.new)
        else:
            old.append(f"[-{s.old}-]" if s.old else "")
            new.append(f"{{+{s.new}+}}" if s.new else "")
    return _cut("".join(old).replace("\n", " ")), _cut("".join(new).replace("\n", " "))


@dataclass
class Doc:
    """A report as blocks: ('h', level, text), ('p', text), ('ul', [items]), ('table', header, rows),
    ('quote', text). Rendered to Markdown or HTML."""

    blocks: list[tuple[Any, ...]]

    def markdown(self) -> str:
        out: list[str] = []
        for b in self.blocks:
            if b[0] == "h":
                out += ["#" * int(b[1]) + " " + str(b[2]), ""]
            elif b[0] == "p":
                out += [str(b[1]), ""]
            elif b[0] == "quote":
                out += ["> " + str(b[1]), ""]
            elif b[0] == "ul":
                out += [f"- {x}" for x in b[1]] + [""]
            elif b[0] == "ol":
                out += [f"{i}. {x}" for i, x in enumerate(b[1], 1)] + [""]
            elif b[0] == "table":
                out.append("| " + " | ".join(b[1]) + " |")
                out.append("|" + "---|" * len(b[1]))
                out += ["| " + " | ".join(str(c) for c in row) + " |" for row in b[2]] + [""]
        return "\n".join(out).rstrip("\n") + "\n"

    def html(self, lang: str, title: str) -> str:
        out = [f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
               "<style>del{color:#b00}ins{color:#070}blockquote{color:#333;border-left:3px solid #ccc;"
               "margin-left:0;padding-left:1em}td,th{border:1px solid #ccc;padding:2px 6px}</style></head><body>"]
        for b in self.blocks:
            if b[0] == "h":
                out.append(f"<h{b[1]}>{_inline(str(b[2]))}</h{b[1]}>")
            elif b[0] == "p":
                out.append(f"<p>{_inline(str(b[1]))}</p>")
            elif b[0] == "quote":
                out.append(f"<blockquote>{_inline(str(b[1]))}</blockquote>")
            elif b[0] in ("ul", "ol"):
                items = "".join(f"<li>{_inline(str(x))}</li>" for x in b[1])
                out.append(f"<{b[0]}>{items}</{b[0]}>")
            elif b[0] == "table":
                head = "".join(f"<th>{html.escape(str(c))}</th>" for c in b[1])
                rows = "".join("<tr>" + "".join(f"<td>{_inline(str(c))}</td>" for c in r) + "</tr>"
                               for r in b[2])
                out.append(f"<table><tr>{head}</tr>{rows}</table>")
        return "\n".join(out) + "\n</body></html>\n"


def _inline(text: str) -> str:
    """Escape, then redline marks to <del>/<ins>, `code` to <code>, **bold** to <strong>."""
    t = html.escape(text, quote=False)
    t = re.sub(r"\[-(.+?)-\]", r"<del>\1</del>", t, flags=re.S)
    t = re.sub(r"\{\+(.+?)\+\}", r"<ins>\1</ins>", t, flags=re.S)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", t)


def _where(cid: str | None, lang: str, ids: bool) -> str:
    if not cid:
        return "—"
    return clause_label(cid, lang) + (f" (`{cid}`)" if ids else "")


def _key_blocks(keys: tuple[KeyChange, ...], lang: str, ids: bool) -> list[tuple[Any, ...]]:
    items = []
    sep = ", " if lang == "en" else "、"
    for k in keys:
        where = say("cited", lang, old=sep.join(_where(x, lang, False) for x in k.old),
                    new=sep.join(_where(x, lang, False) for x in k.new))
        line = f"**{k.say(lang)}** ({where})"
        items.append(line + (f" `{k.id}`" if ids else ""))
    return [("h", 2, say("key_changes", lang)), ("p", say("key_changes_intro", lang)), ("ol", items)]


def _pair_line(p: PairDiff, lang: str, ids: bool) -> str:
    kind = say(f"structure_{p.structure}", lang) if p.structure else ""
    label = say(f"class_{p.change}", lang) + (f" ({kind})" if kind and kind != say(f"class_{p.change}", lang) else "")
    colon = ": " if lang == "en" else "："
    label = label.replace(" (", "（").replace(")", "）") if lang != "en" else label
    return f"{_where(p.from_id, lang, ids)} → {_where(p.to_id, lang, ids)}{colon}{label}"


def law_blocks(ld: LawDiff, keys: tuple[KeyChange, ...], lang: str, ids: bool,
               texts: dict[str, str]) -> list[tuple[Any, ...]]:
    """One law's section: its class, its key changes, each substantive pair in words with both texts
    quoted and marked, then the other changed rows."""
    titles = " → ".join(dict.fromkeys(_zh(t, lang) for t in (ld.title_from, ld.title_to) if t))
    out: list[tuple[Any, ...]] = [("h", 3, f"{say('law', lang, n=ld.law)}　{titles} — {say(f'class_{ld.change}', lang)}")]
    old_year, new_year = _year(ld.from_edition), _year(ld.to_edition)
    colon = ": " if lang == "en" else "："
    for k in keys:
        out.append(("p", f"**{say('see_key', lang)}**{colon}{k.say(lang)}"))
        for year, cids in ((old_year, k.old), (new_year, k.new)):
            for cid in cids:
                where = say("quote_old", lang, year=year, where=_where(cid, lang, ids))
                out.append(("quote", f"{where}{colon}{_zh(_cut(texts.get(cid, '')), lang)}"))
    for p in ld.pairs:
        if p.change != "substantive" or not (p.text_from and p.text_to):
            continue
        out.append(("p", f"**{_where(p.from_id, lang, ids)} → {_where(p.to_id, lang, ids)}**"))
        lines = what_changed(p, lang)
        if lines:
            out.append(("ul", lines))
        a, b = marked(p, ld.from_edition, ld.to_edition)
        for year, at, text in ((old_year, p.from_id, a), (new_year, p.to_id, b)):
            out.append(("quote", f"{say('quote_old', lang, year=year, where=_where(at, lang, ids))}{colon}{_zh(text, lang)}"))
    rest = [p for p in ld.changed if p.change != "substantive" or not (p.text_from and p.text_to)]
    if rest:
        out.append(("ul", [_pair_line(p, lang, ids) for p in rest]))
    return out


def document(rep: "ChangeReport", lang: str = "zh-Hans", ids: bool = False) -> Doc:
    """The whole report as blocks: title, key changes, counts, per chapter, law by law, articles."""
    name = {ed: _zh(edition(ed).title_in(lang), lang) for ed in (rep.from_edition, rep.to_edition)}
    name = {ed: t if edition(ed).version.split()[0] in t else f"{t} {edition(ed).version}" for ed, t in name.items()}
    blocks: list[tuple[Any, ...]] = [("h", 1, say("title", lang, old=name[rep.from_edition], new=name[rep.to_edition]))]
    if rep.key_changes:
        blocks += _key_blocks(rep.key_changes, lang, ids)
    counts = rep.counts()
    blocks += [("h", 2, say("laws_per_class", lang)),
               ("table", [say("class", lang), say("count", lang)], [[say(f"class_{k}", lang), v] for k, v in counts.items()])]
    by_ch = rep.counts_by_chapter()
    classes = [k for k in SEVERITY if any(k in c for c in by_ch.values())]
    blocks += [("h", 2, say("per_chapter", lang)),
               ("table", [say("chapter", lang), *(say(f"class_{k}", lang) for k in classes)],
                [[_zh(rep.chapter_titles.get(ch, ch), lang), *(cnt.get(k, 0) for k in classes)] for ch, cnt in by_ch.items()])]
    blocks.append(("h", 2, say("laws", lang)))
    for ld in rep.laws:
        blocks += law_blocks(ld, tuple(k for k in rep.key_changes if ld.law in k.laws), lang, ids, rep.key_texts)
    if rep.articles:
        blocks += [("h", 2, say("articles", lang, old=name[rep.from_edition], new=name[rep.to_edition])),
                   ("table", [say("article", lang), say("heading", lang), say("class", lang), say("related_laws", lang)],
                    [[a["article"], _zh(str(a["title"]), lang), say(f"class_{a['class']}", lang),
                      ", ".join(str(x) for x in a["laws"])] for a in rep.articles])]  # type: ignore[attr-defined]
    return Doc(blocks)


def report_csv(rep: "ChangeReport", lang: str = "en") -> str:
    """One row per law and per changed pair, and one per article; columns of the earlier report kept
    (the title columns hold the from and to editions' titles), `elements` added."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "number", "title_1999", "title_2017", "chapter", "class", "from_id", "to_id",
                "pair_class", "figures_from", "figures_to", "elements", "structure", "key_changes"])
    for ld in rep.laws:
        keys = " ".join(k.id for k in rep.key_changes if ld.law in k.laws)
        w.writerow(["law", ld.law, ld.title_from, ld.title_to, rep.chapter_titles.get(ld.chapter, ld.chapter),
                    ld.change, "", "", "", "", "", " ".join(ld.elements), "", keys])
        for p in ld.changed:
            w.writerow(["pair", ld.law, "", "", "", "", p.from_id or "", p.to_id or "", p.change,
                        " ".join(f"{v:g}{u}" for v, u in p.figures_from),
                        " ".join(f"{v:g}{u}" for v, u in p.figures_to), " ".join(p.elements), p.structure, ""])
    for a in rep.articles:
        w.writerow(["article", a["article"], "", a["title"], a["chapter"], a["class"], "", a["id"], "",
                    "", " ".join(str(x) for x in a["laws"]), "", "", ""])  # type: ignore[attr-defined]
    return buf.getvalue()
