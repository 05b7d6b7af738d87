"""CLI commands of the law graph: `graph build|stats|export`, `refs ID`, `sparql QUERY`.

  bridgelaw graph build [--force] [--validate]      build (or load) the cached graph, print counts and time
  bridgelaw graph stats [--json]                    triples per named graph, nodes per class, link counts
  bridgelaw graph export --format ttl|jsonld|trig|nq [--out FILE]
  bridgelaw refs ID [--json]                        cites and cited-by, also of the clause's counterparts
  bridgelaw sparql QUERY [--json] [--timeout S]     read-only SPARQL (QUERY, @file or - for stdin)

Exit codes as in assistant/cli.py: 1 unknown clause id, 2 bad input (refused update, bad query,
timeout), 3 corpus or graph error.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Optional

import typer
from rdflib import RDF, SKOS, Dataset

from ..console import emit_json
from ..errors import UnknownClause
from ..model import CLAUSE_ID_RE, ClauseId
from ..inputs import MAX_ARG, MAX_TIMEOUT, choice, clean, finite_in_range, limited, read_arg_file
from ..inputs import clause_id as read_id
from ..output import check_target, write_text
from .namespaces import BL, ELI, clause_iri, iri_to_id

graph_app = typer.Typer(help="The RDF law graph: build, stats, export.", no_args_is_help=True,
                        add_completion=False, rich_markup_mode=None)

EXPORT_FORMATS: dict[str, str] = {"ttl": "turtle", "jsonld": "json-ld", "trig": "trig", "nq": "nquads"}


def _graph() -> Dataset:
    from .store import load_graph

    return load_graph()


# ---------------------------------------------------------------------------------------------- graph …


@graph_app.command("build")
def build_cmd(force: bool = typer.Option(False, "--force", help="rebuild even if the cache is current"),
              validate: bool = typer.Option(False, "--validate", help="also check the SHACL shapes"),
              as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Build the graph from the sources (or load it from the cache when nothing changed)."""
    from .store import cached_graph

    t0 = time.perf_counter()
    cg = cached_graph(force=force)
    elapsed = time.perf_counter() - t0
    out: dict[str, Any] = {"triples": len(cg.dataset), "rebuilt": cg.rebuilt, "seconds": round(elapsed, 2),
                           "cache": str(cg.path), "key": cg.key[:16]}
    if validate:
        from .validate import validate as shacl

        ok, report = shacl(cg.dataset)
        out["valid"] = ok
        if not ok:
            out["report"] = report
    if as_json:
        emit_json(out)
    else:
        typer.echo(f"{'built' if cg.rebuilt else 'loaded from cache'}: {out['triples']} triples in "
                   f"{out['seconds']} s ({out['cache']})")
        if validate:
            typer.echo("SHACL: conforms" if out["valid"] else "SHACL: violations\n" + out["report"])
    if validate and not out["valid"]:
        raise typer.Exit(3)


def graph_stats(ds: Dataset) -> dict[str, Any]:
    """Counts for `graph stats`: triples per named graph, nodes per class, citations and correspondences."""
    per_graph = {str(g.identifier).rsplit("/", 1)[-1]: len(g) for g in ds.graphs() if len(g)}
    classes = Counter(str(o).replace(str(BL), "bl:").replace(str(ELI), "eli:").replace(str(SKOS), "skos:")
                      for o in ds.objects(None, RDF.type))
    status = Counter(str(o) for o in ds.objects(None, BL.status))
    kinds = Counter(str(o).replace(str(BL), "") for o in ds.objects(None, BL.changeClass))
    return {
        "triples": len(ds),
        "graphs": per_graph,
        "classes": dict(sorted(classes.items())),
        "citations": dict(status),
        "correspondences": dict(sorted(kinds.items())),
        "cites": sum(1 for _ in ds.triples((None, ELI.cites, None))),
        "mentions": sum(1 for _ in ds.triples((None, BL.mentions, None))),
    }


@graph_app.command("stats")
def stats_cmd(as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Triples per named graph, nodes per class, citations by status, correspondences by kind."""
    data = graph_stats(_graph())
    if as_json:
        emit_json(data)
        return
    typer.echo(f"triples: {data['triples']}")
    for section in ("graphs", "classes", "citations", "correspondences"):
        typer.echo(f"{section}:")
        for k, v in data[section].items():
            typer.echo(f"  {k:<40}{v:>8}")
    typer.echo(f"eli:cites links: {data['cites']}\nbl:mentions links: {data['mentions']}")


@graph_app.command("export")
def export_cmd(fmt: str = typer.Option("ttl", "--format", help="ttl | jsonld | trig | nq"),
               out: Optional[Path] = typer.Option(None, "--out", help="write to FILE instead of stdout")) -> None:
    """Serialise the graph: ttl (all named graphs merged), jsonld / trig / nq (named graphs kept)."""
    choice(fmt, "export format", EXPORT_FORMATS)
    if out is not None:
        check_target(out)                  # a folder or a missing folder is refused before the graph loads
    ds = _graph()
    if fmt == "ttl":
        from .validate import union

        target: Any = union(ds, with_vocabulary=False)
    else:
        target = ds
    data = target.serialize(format=EXPORT_FORMATS[fmt])
    if out:
        write_text(out, data)
        typer.echo(f"wrote {out} ({len(target)} triples, {fmt})")
    else:
        typer.echo(data)


# ---------------------------------------------------------------------------------------------- refs


def _in_scope(cid: str | None, root: str) -> bool:
    return cid is not None and (cid == root or cid.startswith(root + "/"))


def _citations(ds: Dataset) -> list[dict[str, Any]]:
    out = []
    for node in ds.subjects(RDF.type, BL.Citation):
        src = iri_to_id(ds.value(node, BL.citingClause))          # type: ignore[arg-type]
        tgt = ds.value(node, BL.citedClause)
        out.append({"source": src, "target": iri_to_id(str(tgt)) if tgt is not None else None,
                    "text": str(ds.value(node, BL.citedText) or ""),
                    "kind": str(ds.value(node, BL.citationKind) or ""),
                    "reason": str(ds.value(node, BL.reason) or "")})
    return sorted(out, key=lambda c: (c["source"] or "", c["target"] or "", c["text"]))


def _counterparts(ds: Dataset, cid: str) -> list[dict[str, str]]:
    """Clauses of other editions that correspond to this one, with the change class."""
    node = clause_iri(cid)
    out: dict[str, str] = {}
    for prop, other in ((BL["from"], BL.to), (BL.to, BL["from"])):
        for corr in ds.subjects(prop, node):
            peer = ds.value(corr, other)
            kind = ds.value(corr, BL.changeClass)
            if peer is not None and kind is not None:
                out.setdefault(iri_to_id(str(peer)) or "", str(kind).replace(str(BL), ""))
    # content-following counterparts first; same-number-different-subject ones last
    return [{"id": k, "kind": v} for k, v in sorted(out.items(), key=lambda kv: (kv[1] == "differentSubject", kv[0]))]


def references(ds: Dataset, cid: str) -> dict[str, Any]:
    """Cites and cited-by of a clause (and its sub-clauses), and the same for its counterparts."""
    node = clause_iri(cid)
    if (node, RDF.type, None) not in ds:
        up = ClauseId.parse(cid).parent if CLAUSE_ID_RE.match(cid.strip("/")) else None
        while up is not None and (clause_iri(up), RDF.type, None) not in ds:
            up = up.parent
        nearest = up or ""
        raise UnknownClause(cid, f"nearest existing clause: {nearest}" if nearest else "")
    cits = _citations(ds)

    def of(root: str) -> dict[str, Any]:
        return {"cites": [c for c in cits if _in_scope(c["source"], root)],
                "cited_by": [c for c in cits if _in_scope(c["target"], root) and not _in_scope(c["source"], root)]}

    result: dict[str, Any] = {"id": cid, **of(cid), "counterparts": []}
    for peer in _counterparts(ds, cid):
        result["counterparts"].append({**peer, **of(peer["id"])})
    return result


def _print_refs(r: dict[str, Any], indent: str = "") -> None:
    typer.echo(f"{indent}cites ({len(r['cites'])}):")
    for c in r["cites"]:
        where = c["target"] or f"unresolved: {c['reason']}"
        typer.echo(f"{indent}  {c['source']} -> {where}   «{c['text']}» ({c['kind']})")
    typer.echo(f"{indent}cited by ({len(r['cited_by'])}):")
    for c in r["cited_by"]:
        typer.echo(f"{indent}  {c['source']} -> {c['target']}   «{c['text']}»")


def refs(clause_id: str = typer.Argument(..., help="e.g. wbf2017/law/64 or ccba1999/law/23"),
         as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Cites and cited-by of a clause and its sub-clauses, and of its counterparts in the other editions."""
    from ..corpus import clause_ids

    cid = read_id(clause_id, clause_ids(), note=True).id or ""      # 64A1, Law 64A1, 第六十四条 read here
    r = references(_graph(), cid)
    if as_json:
        emit_json(r)
        return
    typer.echo(r["id"])
    _print_refs(r, "  ")
    for peer in r["counterparts"]:
        typer.echo(f"  counterpart {peer['id']} ({peer['kind']})")
        _print_refs(peer, "    ")


# ---------------------------------------------------------------------------------------------- sparql


def sparql(query: str = typer.Argument(..., help="the query, @FILE to read a file, or - for stdin"),
           as_json: bool = typer.Option(False, "--json", help="print SPARQL JSON results"),
           timeout: float = typer.Option(30.0, "--timeout", help="time limit in seconds")) -> None:
    """Run a read-only SPARQL query (prefixes eli: bl: skos: skosxl: id: predeclared); updates are refused."""
    from .sparql import check_read_only, format_table, run_query

    finite_in_range(timeout, "--timeout", 0.0, MAX_TIMEOUT, example="30")
    if query == "-":
        query = clean(sys.stdin.read())
    elif query.startswith("@"):
        query = read_arg_file(query, "QUERY")
    limited(query, "QUERY", MAX_ARG, required=True)
    check_read_only(query)                 # refuse before paying for the graph
    result = run_query(_graph(), query, timeout=timeout)
    if as_json:
        emit_json(result.json)
    else:
        typer.echo(format_table(result))


def register(app: typer.Typer) -> None:
    """Add `graph …`, `refs` and `sparql` to the bridgelaw app."""
    app.add_typer(graph_app, name="graph")
    app.command("refs")(refs)
    app.command("sparql")(sparql)
