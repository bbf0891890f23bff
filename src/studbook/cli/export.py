"""``studbook export PATH... | --db FILE --format FORMAT [-o OUT] [--split]``: hands out.

Formats: the writers registered in :mod:`studbook.write`, one module a format
(``studbook export --help`` lists them):

* ``phh``: the Poker Hand History format (pokerkit's standard): one ``.phhs``
  file (tables ``[1]``, ``[2]``, ...) to ``-o FILE`` or standard output, or
  with ``--split`` one ``.phh`` per hand in the folder ``-o DIR``. Pot- and
  no-limit stud hands cannot be written (PHH has fixed-limit stud only).
* ``original``: each hand's text exactly as the site wrote it (after
  decoding; an XML site's hand is its ``<game>`` element), hands separated by
  a blank line, or with ``--split`` one file per hand. From a store, the text
  it kept at import, so the files may be gone.
* ``parquet`` / ``csv``: the frames (hands, players, actions, pots,
  violations, rejects, notes) with the schema of docs/schema.md, one file per table in the
  folder ``-o DIR``; the schema version is in each Parquet file's metadata
  (key ``studbook``) and in ``schema.json`` beside the CSV files.
* ``jsonl``: one JSON object per hand with its header, seats and events.

``--hand ID`` and the filters every reading command takes (``--since``,
``--until``, ``--site``, ``--stakes``, ``--cash``/``--tournament``/
``--play-money``, ``--currency``, ``--table-size``, ``--variant``,
``--player``: hands the player was dealt into) select hands; the ``rejects``
frame is not filtered (a rejected hand has no player or variant).
``--site`` selects a site's hands as in ``stats``; ``--read-as NAME`` forces
the PATHs' format (what ``export --site`` did before the filters came: on
files of that site both give the same hands).
Hands come from hand-history PATHs (parsed and checked) or from a store
(``--db``), which re-reads each hand's kept original text for the formats that
write the parsed hand (``phh``, ``jsonl``).

Exit status: 0 when every selected hand was written, 1 when some hand could
not be (named on stderr with the reason) or the input had rejected hands,
2 on usage errors.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

from studbook import __version__
from studbook.check import check_hand
from studbook.cli.common import UsageError, expand_paths, ignored_line, not_a_hand_history, stderr
from studbook.cli.selection import add_hand_arguments, read_as
from studbook.cli.source import add_filter_arguments, filters_from_args
from studbook.filters import Filters, select, select_checks, unknown_players
from studbook.engine.result import HandCheck
from studbook.events import Hand, Rejected, Skipped
from studbook.frames import MONEY_SCALE, SCHEMA, Frames, frames_from_checks, load
from studbook.originals import hand_texts, read_again
from studbook.query import read_selected
from studbook.scale import check_files
from studbook.store import SCHEMA_VERSION, Original, Store, StoreError
from studbook.words import counted
from studbook.write import FramesWriter, HandOut, HandWriter, NotWritten, TablesOut, Writer, writers

_UNSAFE = re.compile(r"[^\w.-]+")


def add_parser(subparsers: Any) -> None:
    formats = writers()
    titles = [writer.title for writer in formats.values()]
    parser = subparsers.add_parser(
        "export", help=f"write hands as {', '.join(titles[:-1])} or {titles[-1]}",
        description="Write hands out: PHH (pokerkit's standard), each hand's original text, "
                    "the frames as Parquet or CSV, or events as JSON lines.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="hand-history files or directories")
    parser.add_argument("--db", metavar="FILE", help="a store made by 'studbook import'")
    parser.add_argument("--format", required=True, choices=list(formats), help="what to write")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help=f"the file to write ({', '.join(_named(formats, HandWriter))}; default standard "
                             f"output), or the folder ({', '.join(_named(formats, FramesWriter))}, and any "
                             "format with --split)")
    parser.add_argument("--split", action="store_true",
                        help=f"one file per hand in the folder OUT ({', '.join(_splitting(formats))})")
    add_hand_arguments(parser)
    add_filter_arguments(parser)
    parser.set_defaults(run=run)


def _named(formats: dict[str, Writer], kind: type) -> list[str]:
    return [name for name, writer in formats.items() if isinstance(writer, kind)]


def _splitting(formats: dict[str, Writer]) -> list[str]:
    """The formats that write one file a hand with ``--split``."""
    return [name for name, writer in formats.items() if isinstance(writer, HandWriter) and writer.suffix]


@dataclass(frozen=True, slots=True)
class Selection:
    """Which hands the filters and ``--hand`` keep."""

    filters: Filters = Filters()
    hands: frozenset[str] | None = None  # --hand ids; None: all

    def checks(self, checks: list[HandCheck]) -> list[HandCheck]:
        """The checked hands kept, in order (:func:`studbook.filters.select_checks`)."""
        if self.hands is not None:
            checks = [c for c in checks if c.hand.hand_id in self.hands]
        return select_checks(checks, self.filters)

    def frames(self, frames: Frames) -> Frames:
        """The selected hands' rows of every frame (the rejects all kept)."""
        hands = select(frames, self.filters).hands
        if self.hands is not None:
            hands = hands[hands["hand_id"].isin(sorted(self.hands))]
        if self.filters.players:
            players = frames.players
            seated = players[players["player"].isin(list(self.filters.players))][["site", "hand_id"]]
            hands = hands.merge(seated.drop_duplicates(), on=["site", "hand_id"], how="inner", sort=False)
        return frames.of_hands(hands)


@dataclass
class _Tally:
    written: int = 0
    problems: int = 0
    seated: set[str] = field(default_factory=set)  # every player of the hands read, exported or not

    def problem(self, message: str) -> None:
        self.problems += 1
        stderr(f"studbook export: {message}")


def run(args: argparse.Namespace) -> int:
    selection = Selection(filters_from_args(args), frozenset(args.hand) if args.hand else None)
    args.read_as = read_as(args)
    formats = writers()
    writer = formats[args.format]
    if bool(args.db) == bool(args.paths):
        raise UsageError("give either --db FILE or hand-history PATHs")
    if isinstance(writer, FramesWriter) or args.split:
        if not args.output:
            raise UsageError(f"--format {args.format}{' --split' if args.split else ''} needs -o DIR")
        if Path(args.output).exists() and not Path(args.output).is_dir():
            raise UsageError(f"{args.output}: not a folder")
    if args.split and args.format not in _splitting(formats):
        raise UsageError(f"--split goes with --format {' or '.join(_splitting(formats))}")
    tally = _Tally()
    if isinstance(writer, FramesWriter):
        every = _frames(args, selection.filters)
        tally.seated.update(every.players["player"].astype(str))
        frames = selection.frames(every)
        write_frames(frames, Path(args.output), writer)
        tally.written = len(frames.hands)
    elif args.db:
        _from_store(args, writer, selection, tally)
    else:
        _from_paths(args, writer, selection, tally)
    where = args.output or "standard output"
    stderr(f"exported {counted(tally.written, 'hand')} as {args.format} to {where}")
    filters = selection.filters
    unknown = unknown_players(tally.seated, filters.named_players)
    if unknown and not tally.written:  # a misspelt --player or --hero: stats' usage error, with a near name
        raise UsageError(unknown)
    if unknown:  # the hands of the other names were written
        tally.problem(unknown)
    return 1 if tally.problems else 0


# -- sources ---------------------------------------------------------------


def _open_store(path: str) -> Store:
    try:  # read-only; missing, empty, damaged or not a store: the store's own one-line error
        return Store(path, create=False)
    except (StoreError, sqlite3.DatabaseError) as error:
        raise UsageError(str(error)) from None


def _frames(args: argparse.Namespace, filters: Filters) -> Frames:
    if args.db:
        try:  # read-only, the hand criteria in SQL; missing, empty, damaged: the store's own line
            return read_selected(args.db, filters).read_all()  # every table is written
        except StoreError as error:
            raise UsageError(str(error)) from None
    if args.read_as:  # the files read as that site's format
        files = [str(p) for p in expand_paths(args.paths)]
        return frames_from_checks(r for check in check_files(files, site=args.read_as) for r in check.results)
    return load(expand_paths(args.paths))


def _from_paths(args: argparse.Namespace, writer: HandWriter, selection: Selection, tally: _Tally) -> None:
    files = [str(p) for p in expand_paths(args.paths)]

    def hands() -> Iterator[HandOut]:
        for file_check in check_files(files, site=args.read_as):
            ignored = not_a_hand_history(file_check.parsed)
            if ignored is not None:
                stderr(ignored_line(file_check.file, ignored))
                continue
            texts = hand_texts(file_check.file, file_check.site) if writer.wants_text else {}
            for result in file_check.results:
                if isinstance(result, Rejected):
                    tally.problem(f"rejected: {result.message()}")
            checks = [r for r in file_check.results if isinstance(r, HandCheck)]
            tally.seated.update(seat.player for check in checks for seat in check.hand.seats)
            for check in selection.checks(checks):
                hand = check.hand
                source = texts.get((hand.file, hand.line))
                yield _hand_out(check, source.text if source else None)

    _write_hands(args, writer, hands(), tally)


def _from_store(args: argparse.Namespace, writer: HandWriter, selection: Selection, tally: _Tally) -> None:
    every = _frames(args, selection.filters)
    tally.seated.update(every.players["player"].astype(str))
    frames = selection.frames(every)
    keys = list(zip(frames.hands["site"].astype(str), frames.hands["hand_id"].astype(str)))
    store = _open_store(args.db)
    try:
        kept = list(store.originals(keys))
    finally:
        store.close()
    missing = len(keys) - len(kept)
    if missing:
        tally.problem(f"{counted(missing, 'selected hand')} without original text in {args.db}")

    def hands() -> Iterator[HandOut]:
        for original in kept:
            if not writer.wants_hand:
                yield HandOut(original.site, original.hand_id, None, original.text)
                continue
            result = reread(original)
            if isinstance(result, HandCheck):
                yield _hand_out(result, original.text)
            else:
                tally.problem(f"{original.file}:{original.line}: hand {original.hand_id}: cannot read the kept "
                              f"text again: {getattr(result, 'reason', result)}")

    _write_hands(args, writer, hands(), tally)


def reread(original: Original) -> HandCheck | Rejected | Skipped:
    """A stored hand parsed again from its original text and checked."""
    result = read_again(original.site, original.source, original.file, original.line)
    return check_hand(result) if isinstance(result, Hand) else result


# -- writing hands -----------------------------------------------------------


def _hand_out(check: HandCheck, text: str | None) -> HandOut:
    """A checked hand as the writers get it: the hand, its text, what the checker settled."""
    hand = check.hand
    return HandOut(hand.site, hand.hand_id, hand, text, {p.player: p.collected for p in check.players}, check.net)


def _write_hands(args: argparse.Namespace, writer: HandWriter, hands: Iterable[HandOut], tally: _Tally) -> None:
    out: TextIO | None = None
    folder = Path(args.output) if args.split else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    elif args.output:
        out = open(args.output, "w", encoding="utf-8", newline="\n")
    else:
        out = sys.stdout
    try:
        for item in hands:
            try:
                text = writer.render(item)
            except NotWritten as error:
                tally.problem(str(error))
                continue
            if folder is not None:
                assert writer.suffix is not None  # --split goes with the formats that have one
                name = _UNSAFE.sub("_", f"{item.site}-{item.hand_id}") + writer.suffix(text)
                (folder / name).write_text(text, encoding="utf-8", newline="\n")
            else:
                assert out is not None
                out.write(writer.joined(tally.written + 1, text))
            tally.written += 1
    finally:
        if out is not None and out is not sys.stdout:
            out.close()


# -- frames ------------------------------------------------------------------


def write_frames(frames: Frames, folder: Path, writer: FramesWriter) -> None:
    """The frames into ``folder`` as ``writer`` writes them (``folder/<table>.parquet``, say)."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"schema_version": SCHEMA_VERSION, "money_scale": MONEY_SCALE, "studbook": __version__}
    dtypes = {name: {c.name: c.dtype for c in columns} for name, columns in SCHEMA.items()}
    try:
        writer.write(TablesOut(list(frames.tables()), meta, dtypes), folder)
    except NotWritten as error:
        raise UsageError(str(error)) from None
