"""``studbook integrity [--db FILE | PATH...] [filters]``: collusion scores and violations in context.

``--format text`` prints the summary, the top pairs (``--top N``) with their
tests, scores and supporting hands, the players, the violations by rule and
table and their bursts. ``csv`` and ``json`` give one table (``--table``,
default ``pairs``), a record per row. ``html`` writes one self-contained page
(``--output FILE``, else stdout): the same tables, the charts inline as PNG,
each supporting hand a link to a replayer page of those hands written beside
it (``FILE`` with ``.hands.html``; ``--output`` needed for it). Exit status:
0, 2 for usage errors. ``docs/integrity.md`` says what the scores mean.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from studbook.cli.common import UsageError, stderr
from studbook.cli.output import FORMATS, aligned, write
from studbook.cli.source import add_source_arguments, load_source
from studbook.integrity import ALPHA, Integrity, analyse

TABLES = ("pairs", "players", "decisions", "by_rule", "by_table", "by_hour", "bursts")
PAIR_COLUMNS = ["rank", "site", "a", "b", "hands", "heads_up", "kind", "soft_z", "dump_z", "dumper", "share_z",
                "folder", "raw_p", "score", "flagged"]


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "integrity", help="collusion scores of pairs (soft play, chip dumping) and violations in context",
        description="Pairs of players ranked by tests of soft play and chip dumping (with their "
                    "p-values and supporting hands), players' win rates, violations by rule and "
                    "table, and bursts of violations at one table.",
    )
    add_source_arguments(parser)
    parser.add_argument("--format", choices=(*FORMATS, "html"), default="text")
    parser.add_argument("--table", choices=TABLES, default="pairs", help="the table csv and json give")
    parser.add_argument("--top", type=int, default=10, metavar="N", help="pairs shown in text and html")
    parser.add_argument("--output", metavar="FILE", help="write the html report here (and its hands beside it)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise UsageError("--top must be 1 or more")
    frames, _filters = load_source(args)
    report = analyse(frames)
    if args.format == "html":
        _write_html(report, frames.hands, args)
    elif args.format in ("csv", "json"):
        write(getattr(report, args.table), args.format, str)
    else:
        print(format_text(report, args.top))
    return 0


def _tested(report: Integrity) -> int:
    return int(report.pairs["tested"].sum()) if len(report.pairs) else 0


def summary(report: Integrity) -> str:
    pairs = report.pairs
    flagged = int(pairs["flagged"].sum()) if len(pairs) else 0
    spread = ""
    if len(pairs):
        raw = -np.log10(pairs["raw_p"].clip(lower=1e-300)) + 0.0  # no "-0.00"
        q = raw.quantile([0.5, 0.9, 1.0])
        spread = (f"; unadjusted -log10 p: median {q[0.5]:.2f}, 90th percentile {q[0.9]:.2f}, "
                  f"max {q[1.0]:.2f} (the flag needs {math.log10(max(_tested(report), 1) / ALPHA):.2f})")
    return (f"{report.hands} hands, {len(pairs)} pairs ({_tested(report)} tested: enough play together), "
            f"{flagged} flagged at family-wise p < {ALPHA} (score > {-math.log10(ALPHA):.2f}){spread}")


def format_text(report: Integrity, top: int) -> str:
    parts = [summary(report), ""]
    if len(report.pairs):
        view = report.pairs.head(top)[PAIR_COLUMNS + ["evidence"]].copy()
        view["soft_z"] = view["soft_z"].round(2)
        view["dump_z"] = view["dump_z"].round(2)
        view["share_z"] = view["share_z"].round(2)
        view["score"] = view["score"].round(2)
        view["evidence"] = [" ".join(e.split()[:3]) for e in view["evidence"]]
        left = ("site", "a", "b", "kind", "dumper", "folder", "evidence")
        parts += ["pairs (top by score; evidence: the first hands)", aligned(view, left=left), ""]
    if len(report.players):
        parts += ["players", aligned(report.players.head(top), left=("site", "player")), ""]
    for name, title in (("by_rule", "violations by rule"), ("by_table", "violations by table"),
                        ("bursts", "bursts of violations")):
        table = getattr(report, name)
        parts += [title, aligned(table.head(top), left=tuple(c for c in ("site", "rule", "table", "rules")
                                                                if c in table.columns)) if len(table) else "none", ""]
    return "\n".join(parts).rstrip()


# ---------------------------------------------------------------------------- html


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _figure() -> Figure:
    figure = Figure(figsize=(8, 3.2), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def score_chart(report: Integrity) -> Figure:
    """Every tested pair's unadjusted -log10 p, by rank, with the line a flag must
    cross (the Bonferroni threshold over the pairs tested); flagged pairs red."""
    figure = _figure()
    axes = figure.add_subplot()
    tested = report.pairs[report.pairs["tested"]] if len(report.pairs) else report.pairs
    raw = (-np.log10(tested["raw_p"].clip(lower=1e-300))).clip(upper=20) if len(tested) else pd.Series(dtype=float)
    colours = ["#d62728" if f else "#1f77b4" for f in tested.get("flagged", [])]
    axes.bar(range(1, len(raw) + 1), raw, color=colours, width=1.0)
    line = math.log10(max(len(tested), 1) / ALPHA)
    axes.axhline(line, color="black", linestyle="--", linewidth=1, label=f"flag: family-wise p < {ALPHA}")
    axes.set_xlabel("tested pairs, by rank")
    axes.set_ylabel("-log10 p, unadjusted (cap 20)")
    axes.set_title(f"Pair tests: {len(tested)} pairs, {int(tested.get('flagged', pd.Series(dtype=bool)).sum())} flagged")
    axes.set_ylim(0, max(line * 1.3, float(raw.max()) * 1.1 if len(raw) else 1.0))
    axes.legend(loc="upper right")
    return figure


def violations_chart(report: Integrity) -> Figure:
    """Violations per hour."""
    figure = _figure()
    axes = figure.add_subplot()
    by_hour = report.by_hour
    if len(by_hour):
        axes.bar(pd.to_datetime(by_hour["hour"]).dt.tz_localize(None), by_hour["violations"], width=0.04)
    axes.set_ylabel("violations")
    axes.set_title("Violations by hour (UTC)")
    figure.autofmt_xdate()
    return figure


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1e-2 and value else f"{value:.2f}"
    return html.escape(str(value))


def _table(table: pd.DataFrame, link: Any = None) -> str:
    if table.empty:
        return "<p>none</p>"
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    rows = []
    for record in table.to_dict("records"):
        cells = []
        for column, value in record.items():
            cells.append(f"<td>{link(value) if link and column == 'evidence' else _cell(value)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def page(report: Integrity, replayer: str | None) -> str:
    """The self-contained report; hand ids link to ``replayer#site:id`` when given."""
    def links(evidence: str) -> str:
        ids = evidence.split()[:5]
        if replayer is None:
            return html.escape(" ".join(ids))
        return " ".join(f'<a href="{html.escape(replayer)}#{html.escape(i)}">{html.escape(i.split(":", 1)[1])}</a>'
                        for i in ids)

    pairs = report.pairs
    shown = pairs.head(50)[PAIR_COLUMNS + ["soft_p", "dump_p", "share_p", "pair_p", "evidence"]] if len(pairs) else pairs
    body = [
        "<h1>studbook integrity report</h1>", f"<p>{html.escape(summary(report))}</p>",
        "<p>Score = -log10 of the pair's p-value, Bonferroni-adjusted over the pairs tested: a pair is flagged "
        f"when that p is below {ALPHA}. soft_z: CMH z of the pair's bets and raises against each other (negative: "
        "fewer than against others); dump_z: CMH z of the dumper's folds to the other's bets (positive: more); "
        "share_z: CMH z of the folder's folds to a bet, multi-way, while the other is live (positive: more).</p>",
        f'<img alt="pair scores" src="{_png(score_chart(report))}">',
        "<h2>Pairs</h2>", _table(shown, links),
        "<h2>Players</h2>", _table(report.players.head(50)),
        "<h2>Violations by rule</h2>", _table(report.by_rule),
        "<h2>Violations by table</h2>", _table(report.by_table.head(50)),
        f'<img alt="violations by hour" src="{_png(violations_chart(report))}">',
        "<h2>Bursts</h2>", _table(report.bursts),
    ]
    style = ("body{font-family:sans-serif;margin:1.5em;max-width:1200px}table{border-collapse:collapse;"
             "font-size:13px;margin-bottom:1em}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
             "th{background:#eee}td:nth-child(2),td:nth-child(3),td:last-child{text-align:left}img{max-width:100%}")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>studbook integrity</title>'
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")


def _write_html(report: Integrity, hands: pd.DataFrame, args: argparse.Namespace) -> None:
    if args.output is None:
        sys.stdout.write(page(report, None))
        return
    out = Path(args.output)
    replayer = out.with_suffix(".hands.html")
    wrote = _write_replayer(report, hands, replayer)
    try:
        out.write_text(page(report, replayer.name if wrote else None), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{out}: {error.strerror}") from None
    stderr(f"wrote {out}" + (f" and {replayer} ({wrote} hands)" if wrote else ""))


def _write_replayer(report: Integrity, hands: pd.DataFrame, path: Path) -> int:
    """The replayer page of the shown pairs' supporting hands; how many it holds."""
    from studbook.cli.selection import select_from
    from studbook.view import replay
    from studbook.view.html import page as replay_page

    ids = {i.split(":", 1)[1] for e in report.pairs.head(50)["evidence"] for i in e.split()} if len(report.pairs) else set()
    if not ids:
        return 0
    chosen = hands[hands["hand_id"].astype(str).isin(ids)]
    files = [Path(f) for f in dict.fromkeys(chosen["file"].astype(str))]
    selection = select_from(files, ids=ids)
    text = replay_page([replay(h, memory=selection.memory_for(h)) for h in selection.hands],
                       title="studbook integrity: supporting hands")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{path}: {error.strerror}") from None
    return len(selection.hands)


__all__ = ["add_parser", "format_text", "page", "run", "score_chart", "summary", "violations_chart"]
