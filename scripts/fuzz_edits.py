"""Fuzz ``check`` and ``import`` with real hands edited at random.

Each input is one to three real hands (the project's ``histories/``, the corpus
beside the repository, the hand-made samples) or a whole small XML file, edited
one to four times at random: bytes flipped, put in or taken out; lines dropped,
doubled, swapped or cut; an amount made odd (31 digits, 150 decimal places,
negative); a player renamed to a hostile name (a formula, terminal escapes, a
name of another line's shape); blank space or junk before the first hand, a
bad tail, other line endings, the file cut at any character.

Every input goes through ``check`` (parse + engine, as the command does) and
``import`` (into a new store), and must end with no traceback and every hand
accounted for: each header found in the input gives a result (a hand, or a
rejection or skip with a reason), no rejection is an "internal error", and
the store holds every result: its hands, plus its rejects table (rejected and
skipped hands), plus the ids repeated within the input.

    python scripts/fuzz_edits.py -n 100000 [--seed S] [--jobs N] [--batch B] [--corpus ../shared/corpus]

Input ``n`` of seed ``S`` is the same bytes however the run is split: each is
checked alone, and a batch of ``B`` inputs is imported in one run into a new
store (the store's cost shared); when a batch's store does not add up, each of
its inputs is imported alone to name the one at fault.

prints a progress bar, then one summary line (also when stopped by SIGTERM or Ctrl-C) (inputs, hands, rejected, rate,
failures). A failing input is saved under ``--keep`` (default
``fuzz-failures/``) with the traceback, so it can become a fixed test.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import multiprocessing
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Iterator, Sequence

from tqdm import tqdm

from studbook.check import stream_file
from studbook.cli import main as cli_main
from studbook.events import Rejected
from studbook.parse import read_file
from studbook.read import decode
from studbook.sites import all_sites

ROOT = Path(__file__).resolve().parents[1]
ODD_AMOUNTS = ("0", "1" + "0" * 30, str(2**63), "1500." + "0" * 149 + "1", "-5", "0.001", "999999999999.99",
               "1e5", "1,000,000,000,000", "")  # fmt: skip
HOSTILE = ('=HYPERLINK("http://x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "ev\x1b[31mil\x07\x08",
           "\x9b2J", "Seat 1:", "a" * 150, "", " ", "<script>x</script>", "Hero", "x: folds")  # fmt: skip
ENDINGS = ("\n", "\r\n", "\r", "\r\r\n", "\n\r")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SEAT_NAME = re.compile(r"^Seat \d+: (.+?) \(", re.M)


@dataclass
class Seed:
    site: str
    text: str  # one to three hands, or a whole XML file


@dataclass
class Tally:
    inputs: int = 0
    hands: int = 0
    ok: int = 0
    rejected: int = 0
    skipped: int = 0
    failures: list[str] = field(default_factory=list)
    numbers: range = range(0)  # the inputs of a batch


def seeds(corpus: Path | None, roots: list[Path] | None = None) -> list[Seed]:
    """Runs of one to three consecutive hands of every readable file (whole files for XML)
    below ``roots`` (default: the project's histories and hand-made samples) and ``corpus``."""
    roots = roots if roots is not None else [ROOT / "histories", ROOT / "tests" / "handmade"]
    roots = roots + ([corpus] if corpus and corpus.is_dir() else [])
    out: list[Seed] = []
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in (p for p in files if p.is_file() and p.suffix in (".txt", ".xml", ".phh", "")):
            if "summaries" in path.parts or path.stat().st_size > 4 << 20:
                continue
            result = read_file(path)
            if not result.hands or result.site is None:
                continue
            text = decode(path.read_bytes()).text.replace("\r\n", "\n")
            if text.lstrip().startswith("<"):
                out.append(Seed(result.site, text))
                continue
            lines = text.split("\n")
            hands = result.hands[:60]
            for i in range(0, len(hands), 3):
                run = hands[i : i + random.Random(i).randint(1, 3)]
                out.append(Seed(result.site, "\n".join(lines[run[0].line - 1 : run[-1].end_line]) + "\n\n\n"))
    return out


def edit(text: str, rng: random.Random) -> bytes:
    """``text`` with one to four random edits, as the bytes of a file."""
    ending = "\n"
    data: bytes | None = None
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(("byte", "byte", "line", "line", "amount", "amount", "name", "name", "lead", "junk",
                         "ending", "tail", "cut"))  # fmt: skip
        if op == "byte":
            raw = bytearray(text.encode("utf-8", "surrogatepass"))
            for _ in range(rng.randint(1, 5)):
                at = rng.randrange(len(raw) + 1)
                kind = rng.randrange(3)
                if kind == 0 and at < len(raw):
                    raw[at] = rng.randrange(256)
                elif kind == 1:
                    raw[at:at] = bytes([rng.randrange(256)])
                elif at < len(raw):
                    del raw[at]
            text = raw.decode("utf-8", "replace")
        elif op == "line":
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            how = rng.randrange(4)
            if how == 0:
                del lines[i]
            elif how == 1:
                lines.insert(i, lines[j])
            elif how == 2:
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines = lines[: i + 1]
            text = "\n".join(lines)
        elif op == "amount" and (numbers := list(_NUMBER.finditer(text))):
            m = rng.choice(numbers)
            text = text[: m.start()] + rng.choice(ODD_AMOUNTS) + text[m.end() :]
        elif op == "name" and (names := sorted(set(_SEAT_NAME.findall(text)))):
            text = text.replace(rng.choice(names), rng.choice(HOSTILE))
        elif op == "lead":
            text = rng.choice((" ", "\n", "\t", "\r\n")) * rng.randrange(1, 20000) + text
        elif op == "junk":
            text = rng.choice(("XYZ", "PK\x03\x04", "\ufeff", "some note\n", "<")) + text
        elif op == "ending":
            ending = rng.choice(ENDINGS)
        elif op == "tail":
            text += rng.choice(("\n\n\ngarbage\x01\x02\n", '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n',
                                "<game ", "\n\n\n" + text[: rng.randrange(len(text) + 1)]))  # fmt: skip
        elif op == "cut":
            text = text[: rng.randrange(len(text) + 1)]
    data = text.replace("\n", ending).encode("utf-8", "surrogatepass")
    return data


def headers_in(data: bytes) -> int:
    """How many hands the input holds: lines starting with a text site's hand header."""
    text = decode(data).text
    count = 0
    for fmt in all_sites():
        header = getattr(fmt, "header", None)
        if isinstance(header, re.Pattern):
            count = max(count, sum(1 for _ in header.finditer(text)))
    return count


def _file_errors(results: Sequence[object], stream: object) -> int:
    return 1 if getattr(stream, "error", None) and len(results) == 1 else 0


def input_for(pool: list[Seed], seed: int, n: int) -> bytes:
    """Input number ``n`` of run ``seed``: the same bytes whichever worker or batch makes it."""
    rng = random.Random(f"{seed}:{n}")
    return edit(rng.choice(pool).text, rng)


def check_one(data: bytes, path: Path, tally: Tally) -> tuple[int, list[tuple[str, str]], int]:
    """``data`` (written at ``path``) through check: its results counted in ``tally``; raises
    AssertionError when a hand is unaccounted for. Gives what the store must then hold: the
    number of results, the results' hand keys, and how many of them are a file error."""
    path.write_bytes(data)
    stream = stream_file(path)
    results = list(stream.results)
    internal = [r for r in results if isinstance(r, Rejected) and r.reason.startswith("internal error")]
    assert not internal, f"internal error: {internal[0].message()}"
    file_errors = _file_errors(results, stream)
    found = headers_in(data)  # lines a site splits at; when no site knows the file, it is one file error
    assert len(results) >= found or file_errors, f"{found} hand headers, {len(results)} results"
    for r in results:
        status = getattr(r, "status", None)
        if status is not None:
            tally.hands += 1
            tally.ok += status == "ok"
        elif isinstance(r, Rejected):
            tally.rejected += 1
        else:
            tally.skipped += 1
    keys = [(r.hand.site, r.hand.hand_id) for r in results if hasattr(r, "hand")]
    return len(results), keys, file_errors


def import_and_count(paths: list[Path], db: Path, expected: int, keys: list[tuple[str, str]],
                     file_errors: int) -> None:
    """``paths`` imported in one run into a new store at ``db``, which must then hold every result
    (``expected`` of them, with ``keys`` the hand keys among them): its hands, plus its rejects
    table (a file that is not a hand history too), plus the keys met more than once (a repeated
    hand is stored once). No store is made when every file is a file error (``file_errors``)."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = cli_main(["import", *map(str, paths), "--db", str(db), "-q", "--jobs", "1"])
    assert code in (0, 2), f"import exit status {code}: {err.getvalue()[-300:]}"
    if not db.exists():
        assert expected == file_errors, f"no store made for {expected} results (exit status {code})"
        return
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT count(*) FROM hands").fetchone()[0]
        listed = conn.execute("SELECT count(*) FROM rejects").fetchone()[0]
    repeated = len(keys) - len(set(keys))
    assert stored + listed + repeated >= expected, (
        f"{expected} results; the store holds {stored} hands and {listed} rejects, {repeated} repeated")


def run_batch(pool: list[Seed], seed: int, numbers: range, folder: Path, keep: Path) -> Tally:
    """Inputs ``numbers`` of run ``seed``: each checked alone, then all imported in one run (the
    cost of a new store shared); when the batch's store does not add up, each input is imported
    alone to name the one at fault."""
    tally = Tally(numbers=numbers)
    paths, datas, keys, expected, errors = [], [], [], 0, 0
    for n in numbers:
        data = input_for(pool, seed, n)
        path = folder / f"input-{n}.txt"
        tally.inputs += 1
        try:
            count, hand_keys, file_errors = check_one(data, path, tally)
        except (Exception, SystemExit):  # noqa: BLE001 - every failure is kept with its input
            _keep(tally, keep, seed, n, data)
            path.unlink(missing_ok=True)
            continue
        paths.append(path)
        datas.append((n, data, count, hand_keys, file_errors))
        keys += hand_keys
        expected += count
        errors += file_errors
    try:
        import_and_count(paths, folder / "store.db", expected, keys, errors)
    except (Exception, SystemExit):  # noqa: BLE001 - find which input the store lost
        for path, (n, data, alone, hand_keys, file_errors) in zip(paths, datas):
            try:
                import_and_count([path], folder / "one.db", alone, hand_keys, file_errors)
            except (Exception, SystemExit):  # noqa: BLE001
                _keep(tally, keep, seed, n, data)
    for path in paths:
        path.unlink(missing_ok=True)
    return tally


def _keep(tally: Tally, keep: Path, seed: int, n: int, data: bytes) -> None:
    tally.failures.append(traceback.format_exc())
    keep.mkdir(parents=True, exist_ok=True)
    (keep / f"input-{seed}-{n}.txt").write_bytes(data)
    (keep / f"input-{seed}-{n}.traceback").write_text(tally.failures[-1], encoding="utf-8")


_POOL: list[Seed] = []  # each worker process's seeds, made once


def _work(job: tuple[int, range, Path | None, list[Path] | None, Path]) -> Tally:
    seed, numbers, corpus, roots, keep = job
    if not _POOL:
        _POOL.extend(seeds(corpus, roots))
    with tempfile.TemporaryDirectory(prefix="studbook-fuzz-") as tmp:
        return run_batch(_POOL, seed, numbers, Path(tmp), keep)


def fuzz(count: int, seed: int, corpus: Path | None, keep: Path, progress: bool = True,
         roots: list[Path] | None = None, batch: int = 50, workers: int = 1, journal: Path | None = None) -> Tally:
    """Inputs ``0 .. count - 1`` of ``seed``, less the batches ``journal`` says are done (a long
    run goes on where a stopped one ended); each finished batch is written to ``journal``."""
    finished: set[range] = _journal(journal).get(seed, set())
    jobs = [(seed, numbers, corpus, roots, keep) for start in range(0, count, batch)
            if (numbers := range(start, min(start + batch, count))) not in finished]
    tally = Tally()
    with contextlib.ExitStack() as stack:
        if workers > 1:  # the workers are forked before the progress bar starts its thread
            context = multiprocessing.get_context("fork")
            pool = stack.enter_context(ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint))
            done: Iterator[Tally] = _as_done(pool, jobs, workers)
        else:
            done = map(_work, jobs)
        bar = stack.enter_context(tqdm(total=count, initial=sum(map(len, finished)), unit="input",
                                       disable=not progress, file=sys.stderr, dynamic_ncols=True, mininterval=5))
        for part in done:
            if journal is not None:
                with journal.open("a", encoding="utf-8") as out:
                    out.write(f"{seed}\t{part.numbers.start}\t{part.numbers.stop}\t{len(part.failures)}\n")
            for name in ("inputs", "hands", "ok", "rejected", "skipped"):
                setattr(tally, name, getattr(tally, name) + getattr(part, name))
            tally.failures += part.failures
            bar.update(part.inputs)
            if _STOP:
                break
    return tally


def _journal(path: Path | None) -> dict[int, set[range]]:
    """The batches a journal records as done, by seed (lines of seed, start, stop, failures)."""
    done: dict[int, set[range]] = {}
    if path is not None and path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            seed, start, stop, _ = map(int, line.split("\t"))
            done.setdefault(seed, set()).add(range(start, stop))
    return done


def journal_summary(path: Path, seed: int) -> str:
    """What a journal says of ``seed``: the inputs done in all, and the first not done."""
    done = _journal(path).get(seed, set())
    covered = {n for numbers in done for n in numbers}
    first_gap = next(n for n in itertools.count() if n not in covered)
    failures = sum(int(line.split("\t")[3]) for line in path.read_text(encoding="utf-8").splitlines()
                   if line.split("\t")[0] == str(seed))
    return (f"{len(covered):,} inputs of seed {seed} done in all runs ({first_gap:,} of them from input 0 "
            f"without a gap), {failures} failures")


def _as_done(pool: ProcessPoolExecutor, jobs: list[tuple[int, range, Path | None, list[Path] | None, Path]],
             workers: int) -> Iterator[Tally]:
    """The jobs' tallies as they finish, a few jobs queued ahead of each worker (not all at once: a
    stop then ends the run soon)."""
    pending: set[Future[Tally]] = set()
    queue = iter(jobs)
    while True:
        while len(pending) < 2 * workers and not _STOP and (job := next(queue, None)) is not None:
            pending.add(pool.submit(_work, job))
        if not pending:
            return
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        yield from (future.result() for future in finished)


def _ignore_sigint() -> None:
    # the parent stops the run and prints the summary: a Ctrl-C or a SIGTERM sent to the whole
    # group (pkill -f) must not kill a worker in the middle of a batch (a broken pool)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


_STOP: list[int] = []  # a SIGTERM or Ctrl-C ends the run after the input in hand, with its summary


def _stop(signum: int, _frame: object) -> None:
    _STOP.append(signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="inputs to generate (default 1000)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--keep", type=Path, default=Path("fuzz-failures"), help="where failing inputs go")
    parser.add_argument("--batch", type=int, default=50, help="inputs imported into one new store (default 50)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--journal", type=Path, default=None,
                        help="a file of the batches done: a run with the same seed skips them (resumes)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    start = time.monotonic()
    tally = fuzz(args.n, seed, args.corpus, args.keep, batch=args.batch, workers=args.jobs, journal=args.journal)
    took = time.monotonic() - start
    print(f"fuzz: {tally.inputs:,} inputs (seed {seed}) in {took:.0f} s, {tally.inputs / max(took, 1e-9):.1f}/s: "
          f"{tally.hands:,} hands checked ({tally.ok:,} ok), {tally.rejected:,} rejected, {tally.skipped:,} skipped; "
          f"{len(tally.failures)} failures" + (f" (inputs kept in {args.keep})" if tally.failures else ""))
    if args.journal is not None:
        print(f"journal {args.journal}: {journal_summary(args.journal, seed)}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
