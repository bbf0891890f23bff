"""Checking many files at once: local processes, or Dask from a laptop to a cluster.

* :func:`check_files` parses and checks files in a pool of local processes
  (``jobs``; ``1`` runs in this process, no pool) and yields one
  :class:`~studbook.check.FileCheck` per file in input order, exactly what
  :func:`studbook.check.check_paths` yields.
* :func:`to_dask` builds the six frames of :mod:`studbook.frames` as lazy
  ``dask.dataframe`` DataFrames (one partition per group of files), and
  :func:`check_files_dask` yields the FileChecks computed by Dask, on the
  local scheduler or on a ``dask.distributed`` ``client``. Dask is optional:
  ``pip install 'studbook[dask]'``. On a cluster every worker must have
  studbook installed and see the files at the same paths.

The bring-in memory (rule ``bringin.amount``). Serially, one
:class:`~studbook.check.TableMemory` runs through every hand in order: a hand
whose header states no bring-in is checked against the bring-in the first
earlier hand at its table and stakes used. Files of one table can land in
different tasks, so each task checks its files with a fresh memory that
records, per hand, what it was asked (the remembered bring-in the hand was
checked against) and told (the ante and bring-in the hand posted). Then, in
input order, the results pass through the one true memory: a hand's check
stands when the true memory answers the same, or the same amount from
another hand and the check found nothing (that hand's id is used only in a
bring-in violation's message); every other hand is checked again, from its
parsed events, against the true memory. What a hand posted is read from the
log, not from the memory, so the recorded "told" is what the serial run
remembers. Only a table's first hand in a task, and hands that disagree with
it, are checked again: the results equal ``check_paths``'s exactly.
Locally that pass runs in the calling process as results arrive; under Dask
each partition's pass gets the memory of all partitions before it (a chain
of small merges), and fails loudly if a recheck would remember something the
worker did not record. :func:`to_dask` keeps no checked hands between tasks:
a partition's task makes its frames a file at a time from its own checks and
keeps each hand's header; the pass then tests on the headers whether every
check stands, and checks the files with one that does not again, against the
true memory at their start (the serial run's results for them), putting their
new frames between the other files' rows.

:func:`prepare_files` is the same pool for a caller that wants each file's
results made into something else where they were checked (``studbook import
--jobs``: the store's rows and packed originals, :func:`studbook.store.prepare_rows`;
``studbook check --jobs``: what the command prints and counts of each hand,
:func:`studbook.cli.check.show`):
the results stay in the worker, and what comes back per hand is its header
(for the memory) and, for a hand the memory may judge otherwise (a table's
first hand in its task, or one with violations), its whole check. A hand that
the pass above checks again gets its new check in :attr:`Prepared.rechecked`,
for the caller to make its rows from; one whose whole check did not come
(its task's memory found nothing wrong, the true memory differs: a table's
bring-in changed between tasks) is read again from its file first.

Results cross process boundaries in a compact pickle (:class:`_Batch`):
the frozen slots dataclasses travel as tuples of their fields and cards as
their index into the interned deck, which is faster than default pickling
and keeps cards the interned instances. Still, sending a hand back costs about
0.25 ms of a worker's CPU and 0.2 ms of the caller's, against about 0.8 ms to
parse and check it: :func:`check_files` pays off with four or more free cores,
and is capped by the caller unpickling (the commands take :func:`prepare_files`,
whose workers send a hand's header and output or rows: some 330 bytes and 20 µs
of the caller's CPU a hand for ``check``). :func:`to_dask` sends only frames
(measured on 100,000 simulated hands, 4 files a partition, 2 workers: each worker's
peak went from 1.2-1.5 GiB, when it held and sent whole checked partitions, to under 0.5).
"""

from __future__ import annotations

import dataclasses
import errno
import io
import operator
import os
import pickle
import signal
from collections import deque
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from itertools import islice
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Iterator, Sequence, TypeVar

from studbook.cards import DECK, Card
from studbook.check import (
    FileCheck, FileStream, SourcedCheck, SourcedStream, TableMemory, check_file_result, check_hand, check_paths,
    stream_file, stream_sourced, streams_sourced,
)
from studbook.engine.result import HandCheck
from studbook.events import Hand
from studbook.money import Money
from studbook.parse import FileResult, not_a_hand_history, read_file
from studbook.parse import stream_file as parse_stream
from studbook.jobs import AUTO_BYTES, AUTO_PREPARED_FREE_CORES, PathLike, auto_jobs, resolve_jobs
from studbook.jobs import file_size as _size
from studbook.perfile import per_file
from studbook.read import files_in

if TYPE_CHECKING:
    import dask.dataframe
    from multiprocessing.connection import Connection

HandKey = tuple[str, int]
Known = tuple[Money, str] | None
Told = tuple[Money | None, Money]
BringIns = dict[Any, dict[Money | None, tuple[Money, str]]]

DASK_MISSING = "Dask is not installed; install it with: pip install 'studbook[dask]'"
FILES_PER_PARTITION = 16
HANDS_PER_PARTITION = 20_000
"""Stored hands a partition of :func:`to_dask` on a store reads."""
_TASK_BYTES = (256 << 10, 8 << 20)  # a local task reads between 256 KiB and 8 MiB of logs
_TASKS_PER_WORKER = 4  # tasks per worker at least, so one slow task does not idle the pool
_IN_FLIGHT = 2  # tasks queued per worker: bounds the results held waiting for their turn


# ---------------------------------------------------------------------------
# Files


def expand_paths(paths: Iterable[PathLike]) -> list[str]:
    """The files :func:`studbook.parse.parse_paths` reads for ``paths``, in its order."""
    return [str(file) for path in paths for file in files_in(path)]


def _tasks(files: list[str], workers: int) -> list[list[str]]:
    """Consecutive files grouped into tasks of similar size in bytes."""
    sizes = [_size(f) for f in files]
    low, high = _TASK_BYTES
    target = min(max(sum(sizes) // (workers * _TASKS_PER_WORKER), low), high)
    tasks: list[list[str]] = []
    task: list[str] = []
    held = 0
    for file, size in zip(files, sizes):
        if size >= STREAMED_BYTES:  # a task of its own, checked in the calling process
            if task:
                tasks.append(task)
            tasks.append([file])
            task, held = [], 0
            continue
        task.append(file)
        held += size
        if held >= target:
            tasks.append(task)
            task, held = [], 0
    if task:
        tasks.append(task)
    return tasks


def _groups(files: list[str], size: int) -> list[list[str]]:
    if size < 1:
        raise ValueError(f"files_per_partition must be 1 or more, not {size}")
    return [files[i:i + size] for i in range(0, len(files), size)]


# ---------------------------------------------------------------------------
# The bring-in memory across tasks


class _Recorder(TableMemory):
    """A TableMemory that notes what each hand asked of it and told it."""

    __slots__ = ("asked", "told")

    def __init__(self, bring_ins: BringIns | None = None) -> None:
        super().__init__({key: dict(by_ante) for key, by_ante in (bring_ins or {}).items()})
        self.asked: dict[HandKey, Known] = {}
        self.told: dict[HandKey, Told] = {}

    def bring_in_for(self, hand: Hand) -> Known:
        known = super().bring_in_for(hand)
        self.asked.setdefault((hand.file, hand.line), known)
        return known

    def remember(self, hand: Hand, ante: Money | None, amount: Money) -> None:
        self.told.setdefault((hand.file, hand.line), (ante, amount))
        super().remember(hand, ante, amount)


Checks = TypeVar("Checks")  # what a task sends back a file: its FileCheck, or a Prepared file


class _Batch(Generic[Checks]):
    """A task's FileChecks (or Prepared files), what its memory was asked and told, and what it learned."""

    __slots__ = ("checks", "asked", "told", "learned")

    def __init__(self, checks: list[Checks], asked: dict[HandKey, Known] | None = None,
                 told: dict[HandKey, Told] | None = None, learned: BringIns | None = None) -> None:
        self.checks = checks
        self.asked = asked or {}
        self.told = told or {}
        self.learned = learned or {}

    def __reduce__(self) -> tuple[Callable[[bytes], _Batch[Checks]], tuple[bytes]]:
        return _load_batch, (_dumps((self.checks, self.asked, self.told, self.learned)),)


def _load_batch(data: bytes) -> _Batch[Any]:
    return _Batch(*_loads(data))


def _check_task(files: list[str], site: str | None) -> _Batch[FileCheck]:
    memory = _Recorder()
    checks: list[FileCheck] = []
    with per_file(check_paths(files, site=site, memory=memory)) as each_file:  # as the commands run
        for checked in each_file:
            checks.append(checked)
    return _Batch(checks, memory.asked, memory.told, memory.bring_ins)


def _settle(batch: _Batch[FileCheck], memory: TableMemory) -> list[FileCheck]:
    """The batch's FileChecks as the serial run makes them, given the memory before them.

    ``memory`` is brought up to date with the batch's hands, in order."""
    settled: list[FileCheck] = []
    for checked in batch.checks:
        results = list(checked.results)
        for i, result in enumerate(results):
            if isinstance(result, HandCheck) and _check_again(batch, result.hand, result.violations, memory):
                results[i] = check_hand(result.hand, memory=memory)
        settled.append(FileCheck(checked.parsed, results))
    return settled


def _check_again(batch: _Batch[Any], hand: Hand, violations: Sequence[object], memory: TableMemory) -> bool:
    """Whether ``hand`` (checked in ``batch``'s task, finding ``violations``) is to be
    checked again against ``memory``, the serial run's; when not, ``memory`` learns
    what the hand told the task's."""
    key = (hand.file, hand.line)
    if key in batch.asked and not _stands(batch.asked[key], memory.bring_in_for(hand), bool(violations)):
        return True
    if key in batch.told:
        memory.remember(hand, *batch.told[key])
    return False


def _stands(asked: Known, true: Known, violated: bool) -> bool:
    """Whether a check made against the remembered bring-in ``asked`` stands, the
    serial run's memory saying ``true`` (``violated``: the check found violations)."""
    if asked is None or true is None:
        return asked is true
    if str(asked[0]) != str(true[0]):
        return False
    return asked[1] == true[1] or not violated


# ---------------------------------------------------------------------------
# Local processes


def check_files(
    paths: Iterable[PathLike], *, jobs: int | None = None, site: str | None = None
) -> Iterator[FileCheck | FileStream]:
    """Parse and check files (directories recursively) in ``jobs`` processes.

    Yields one FileCheck per file in the order of :func:`studbook.check.check_paths`,
    with identical results: each task checks its files with its own memory of
    bring-ins, and the hands whose check that memory could have changed are
    checked again here, in order, against the one memory of a serial run (see
    the module's note).
    ``jobs``: None or 0 for one process per CPU, 1 to run in this process.
    Consecutive files are grouped into tasks by size; at most a few tasks per
    worker are queued, so memory stays bounded however many files there are.
    A file of :data:`STREAMED_BYTES` or more is not sent to a worker (its
    results would all be held, there and here): it comes as a
    :class:`~studbook.check.FileStream`, checked here hand by hand as it is
    consumed (consume its results before taking the next file), while the
    workers go on with the tasks after it.
    """
    workers = resolve_jobs(jobs)
    paths = list(paths)
    if workers == 1:
        yield from check_paths(paths, site=site)
        return
    tasks = _tasks(expand_paths(paths), workers)
    if len(tasks) <= 1:
        yield from _here(tasks[0] if tasks else [], site, TableMemory())
        return
    def here(files: list[str], memory: TableMemory) -> Iterator[FileCheck | FileStream]:
        return _here(files, site, memory)

    yield from _pooled(tasks, min(workers, len(tasks)), _check_task, (site,), here, _settle)


STREAMED_BYTES = _TASK_BYTES[1]
"""Files this big are checked in the calling process, hand by hand (see :func:`check_files`)."""


def _here(files: list[str], site: str | None, memory: TableMemory) -> Iterator[FileCheck | FileStream]:
    """``files`` checked in this process: a big one hand by hand, the others whole."""
    for file in files:
        if _size(file) >= STREAMED_BYTES:
            yield stream_file(file, site, memory)
        else:
            yield check_file_result(read_file(file, site=site), memory)


Settled = TypeVar("Settled")


def _pooled(tasks: list[list[str]], workers: int, work: Callable[..., _Batch[Any]], arguments: tuple[Any, ...],
            here: Callable[[list[str], TableMemory], Iterator[Settled]],
            settle: Callable[[_Batch[Any], TableMemory], Iterable[Settled]]) -> Iterator[Settled]:  # fmt: skip
    """``tasks`` run in a pool of ``workers``: ``work(files, *arguments)`` in a worker,
    then ``settle``'d here in input order against the one memory; a task of one big
    file goes to ``here`` instead."""
    memory = TableMemory()
    pool = _Workers(workers)
    pending: deque[int | list[str]] = deque()  # the worker a task went to, or the task, done here
    todo = iter(tasks)
    finished = False

    def start(task: list[str]) -> int | list[str]:
        return task if _size(task[0]) >= STREAMED_BYTES else pool.submit(work, (task, *arguments))

    try:
        for task in islice(todo, workers * _IN_FLIGHT):
            pending.append(start(task))
        while pending:
            turn = pending.popleft()
            following = next(todo, None)
            if following is not None:
                pending.append(start(following))
            if isinstance(turn, list):
                yield from here(turn, memory)
            else:
                yield from settle(pool.result(turn), memory)
        finished = True
    finally:
        if finished:
            pool.close()
        else:  # an error, an interrupt, or the caller stopped early: no result is wanted
            pool.terminate()


class _Workers:
    """Worker processes, each with a pipe of its own to this one.

    Not ``multiprocessing.Pool``: its workers share one pipe for their results, and
    a worker ended while it sends one (an interrupt ends them at once) leaves half a
    message there, which ``Pool.terminate()`` then waits on for ever; nor
    ``ProcessPoolExecutor``, whose shutdown can hang after a KeyboardInterrupt in the
    waiting thread. A task goes to the worker with the fewest waiting; its result is
    read from that worker's pipe when the caller asks for it (a worker's results come
    in the order of its tasks)."""

    def __init__(self, count: int) -> None:
        import multiprocessing  # here: a run on one core never starts a worker

        context = multiprocessing.get_context()
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.pipes: list[Connection] = []
        self.waiting: list[int] = []
        for _ in range(count):
            mine, theirs = context.Pipe()
            # A forked worker holds copies of the ends this process keeps (its own and the
            # earlier workers'): it closes them, so that once this process is gone (kill -9)
            # a worker's recv ends and its send fails, where it would wait for ever
            process = context.Process(target=_serve, args=(theirs, (*self.pipes, mine)), daemon=True)
            process.start()
            theirs.close()
            self.processes.append(process)
            self.pipes.append(mine)
            self.waiting.append(0)

    def submit(self, work: Callable[..., Any], arguments: tuple[Any, ...]) -> int:
        """``work(*arguments)`` sent to a worker; its index, to ask for the result."""
        index = min(range(len(self.pipes)), key=self.waiting.__getitem__)
        self.pipes[index].send((work, arguments))
        self.waiting[index] += 1
        return index

    def result(self, index: int) -> Any:
        """The result of worker ``index``'s oldest task; its exception raised here."""
        try:
            done, value = self.pipes[index].recv()
        except EOFError:
            raise RuntimeError(f"a worker process ended while it worked (exit code "
                               f"{self.processes[index].exitcode})") from None
        self.waiting[index] -= 1
        if not done:
            raise value
        return value

    def close(self) -> None:
        """Every result read: the workers end when told to."""
        for pipe in self.pipes:
            pipe.send(None)
        self._end()

    def terminate(self) -> None:
        """No result wanted: the workers are ended at once."""
        for process in self.processes:
            process.terminate()
        self._end()

    def _end(self) -> None:
        for process in self.processes:
            process.join()
        for pipe in self.pipes:
            pipe.close()


def _serve(pipe: Connection, callers_ends: tuple[Connection, ...]) -> None:
    """A worker: each task from ``pipe`` done, its result (or exception) sent back."""
    for end in callers_ends:
        end.close()
    _worker_start()
    while True:
        try:
            task = pipe.recv()
        except EOFError:  # the caller is gone
            return
        if task is None:
            return
        work, arguments = task
        try:
            reply: tuple[bool, Any] = (True, work(*arguments))
        except BaseException as error:  # the caller raises it
            reply = (False, error)
        try:
            pipe.send(reply)
        except OSError:  # the caller is gone
            return
        except Exception as error:  # a result or exception that does not pickle
            pipe.send((False, RuntimeError(f"a worker's result could not be sent back: {error!r}")))


# ---------------------------------------------------------------------------
# Local processes that also prepare each file for its caller (import --jobs)

Made = TypeVar("Made")


@dataclass(frozen=True, slots=True)
class Prepared(Generic[Made]):
    """A file checked in a worker of :func:`prepare_files`, and what ``prepare`` made
    there of its results (each beside its original text): ``made``.

    ``hands`` has, for each result, the hand's header and place (a Hand without
    seats or events; None for a rejected or skipped result). ``rechecked`` has the
    results checked again in the calling process (by index), as the serial run
    checks them (the bring-in memory): what ``made`` says of those is stale.
    """

    parsed: FileResult  # the file's report; its results were handed on
    hands: list[Hand | None]
    made: Made
    rechecked: dict[int, HandCheck] = field(default_factory=dict)
    # from the worker: the checks the serial run's memory may change (the table's
    # first hand in the task, or a hand with violations), with their events
    risky: dict[int, HandCheck] = field(default_factory=dict)


def prepare_files(paths: Iterable[PathLike], prepare: Callable[[list[SourcedCheck]], Made], *,
                  jobs: int | None = None, site: str | None = None) -> Iterator[Prepared[Made] | SourcedStream]:
    """:func:`check_files` for a caller that wants each file's results made into
    something else where they were checked (``studbook import``: the store's rows;
    ``studbook check``: each hand's output):
    ``prepare`` (a module-level function, to reach the workers) gets each file's
    results, each beside its original text, and its value comes back in a
    :class:`Prepared`, the results themselves staying in the worker. A file
    checked in this process (a big one, or every file when one task or one job
    is all there is) comes as a :class:`~studbook.check.SourcedStream`, read once.
    """
    workers = resolve_jobs(jobs)
    files = expand_paths(paths)
    tasks = _tasks(files, workers) if workers > 1 else []
    if len(tasks) <= 1:
        yield from streams_sourced(files, site)
        return

    def here(task: list[str], memory: TableMemory) -> Iterator[Prepared[Made] | SourcedStream]:
        return (stream_sourced(file, site, memory) for file in task)

    def settle(batch: _Batch[Prepared[Made]], memory: TableMemory) -> list[Prepared[Made]]:
        return _settle_prepared(batch, memory, site)

    yield from _pooled(tasks, min(workers, len(tasks)), _prepare_task, (site, prepare), here, settle)


def _prepare_task(files: list[str], site: str | None, prepare: Callable[[list[SourcedCheck]], Made]) -> _Batch[Prepared[Made]]:
    memory = _Recorder()
    made: list[Prepared[Made]] = []
    with per_file(files) as each_file:  # as the commands run
        for file in each_file:
            stream = stream_sourced(file, site, memory)
            sourced = list(stream.results)
            hands: list[Hand | None] = []
            risky: dict[int, HandCheck] = {}
            for index, (result, _) in enumerate(sourced):
                if not isinstance(result, HandCheck):
                    hands.append(None)
                    continue
                hand = result.hand
                hands.append(_head(hand))
                if result.violations or memory.asked.get((hand.file, hand.line)) is None:
                    risky[index] = result
            made.append(Prepared(stream.parsed, hands, prepare(sourced), risky=risky))
    return _Batch(made, memory.asked, memory.told, memory.bring_ins)


def _settle_prepared(batch: _Batch[Prepared[Made]], memory: TableMemory, site: str | None) -> list[Prepared[Made]]:
    """:func:`_settle` for a batch of :class:`Prepared` files: the hands to check
    again are checked here (from the worker's events where it sent them, else read
    again from the file, which happens only when a table's bring-in differs between
    tasks), and come in ``rechecked``."""
    settled: list[Prepared[Made]] = []
    for prepared in batch.checks:
        rechecked: dict[int, HandCheck] = {}
        again: dict[int, Hand] | None = None  # the file's hands read again, by line
        for index, hand in enumerate(prepared.hands):
            if hand is None:
                continue
            risky = prepared.risky.get(index)
            if not _check_again(batch, hand, risky.violations if risky else (), memory):
                continue
            whole = risky.hand if risky else None
            if whole is None:
                again = again if again is not None else _hands_by_line(prepared.parsed.file, site)
                whole = again.get(hand.line)
                if whole is None:
                    settled.append(_changed(prepared, hand))
                    break
            rechecked[index] = check_hand(whole, memory=memory)
        else:
            settled.append(dataclasses.replace(prepared, rechecked=rechecked, risky={}))
    return settled


def _hands_by_line(file: str, site: str | None) -> dict[int, Hand]:
    """The hands of ``file`` by first line, read again as a worker read them."""
    _, results = parse_stream(file, site=site)
    return {r.line: r for r in results if isinstance(r, Hand)}


def _changed(prepared: Prepared[Any], hand: Hand) -> Prepared[Any]:
    """``prepared`` as a file that could not be read: its hand at ``hand``'s line was
    not there when it was read again (the file changed during the import)."""
    report = dataclasses.replace(prepared.parsed, unreadable=True,
                                 error=f"cannot read: the file changed while it was read (its hand at line "
                                       f"{hand.line})")
    return dataclasses.replace(prepared, parsed=report, hands=[], risky={})


def _worker_start() -> None:
    # Ctrl-C is the caller's to handle: it ends the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---------------------------------------------------------------------------
# Dask


def _dask() -> Any:
    try:
        import dask
        import dask.dataframe  # noqa: F401 - fails here, with the message below, when pandas extras are missing
    except ImportError as error:
        raise ImportError(DASK_MISSING) from error
    return dask


def _graph(paths: Iterable[PathLike], site: str | None, files_per_partition: int) -> list[Any]:
    """One Delayed ``_Batch`` of settled FileChecks per group of files, in order."""
    return _chain(paths, site, files_per_partition, _check_task, _settle_partition)


def _chain(paths: Iterable[PathLike], site: str | None, files_per_partition: int,
           check: Callable[[list[str], str | None], Any], settle: Callable[[Any, BringIns | None], Any]) -> list[Any]:
    """One Delayed ``settle(check(group, site), memory)`` per group of files, in order,
    where ``memory`` holds the bring-ins learned by every group before it (a chain
    of small merges of what each ``check`` result ``learned``)."""
    delayed = _dask().delayed
    settled = []
    memory: Any = None  # the bring-ins learned by every partition before this one
    for group in _groups(expand_paths(paths), files_per_partition):
        checked = delayed(check, pure=False)(group, site)
        settled.append(delayed(settle, pure=False)(checked, memory))
        memory = delayed(_merge, pure=False)(memory, delayed(_learned)(checked))
    return settled


def _learned(checked: _Batch[Any] | _Part) -> BringIns:
    return checked.learned


def _merge(before: BringIns | None, learned: BringIns) -> BringIns:
    """What a memory holds after ``before``'s hands, then ``learned``'s (first one wins)."""
    merged = {key: dict(by_ante) for key, by_ante in (before or {}).items()}
    for key, by_ante in learned.items():
        into = merged.setdefault(key, {})
        for ante, seen in by_ante.items():
            into.setdefault(ante, seen)
    return merged


def _settle_partition(batch: _Batch[FileCheck], before: BringIns | None) -> _Batch[FileCheck]:
    memory = _Recorder(before)
    checks = _settle(batch, memory)
    _same_told(memory, batch.told)
    return _Batch(checks)


def _same_told(memory: _Recorder, told: dict[HandKey, Told]) -> None:
    if memory.told != told:
        raise RuntimeError("a hand checked again remembered another bring-in than its first check: "
                           "the partitions of studbook.scale cannot reproduce the serial run")


class _Part:
    """A partition's frames, made on the worker by its own check (its files, with a
    fresh memory), beside what that memory was asked and told, what it learned,
    each hand's header (as a Hand with no seats or events: what the memory reads)
    with whether its check found violations, and each file's name and number of
    rows in each table. The checked hands themselves are never kept: they take
    some 20 KB a hand, the frames under 2 KB."""

    __slots__ = ("files", "site", "frames", "asked", "told", "learned", "heads", "sizes")

    def __init__(self, files: list[str], site: str | None, frames: dict[str, Any], asked: dict[HandKey, Known],
                 told: dict[HandKey, Told], learned: BringIns, heads: list[tuple[Hand, bool]],
                 sizes: list[dict[str, int]]) -> None:
        self.files, self.site, self.frames = files, site, frames
        self.asked, self.told, self.learned, self.heads, self.sizes = asked, told, learned, heads, sizes

    def __reduce__(self) -> tuple[Callable[[bytes], _Part], tuple[bytes]]:
        return _load_part, (_dumps(tuple(getattr(self, name) for name in self.__slots__)),)

    def __sizeof__(self) -> int:  # what Dask counts of a worker's memory (dask.sizeof)
        frames = sum(int(frame.memory_usage(index=True, deep=True).sum()) for frame in self.frames.values())
        return frames + _HEAD_BYTES * len(self.heads)


_HEAD_BYTES = 600  # about what a hand's header and its keys in asked and told take


def _load_part(data: bytes) -> _Part:
    return _Part(*_loads(data))


def _checked_frames(files: list[str], site: str | None, memory: _Recorder,
                    heads: list[tuple[Hand, bool]] | None = None, names: list[str] | None = None,
                    sizes: list[dict[str, int]] | None = None) -> dict[str, Any]:
    """The frames of ``files`` checked against ``memory``, made a file at a time (only
    one file's checked hands are alive at once); each hand's header to ``heads``,
    each file's name to ``names`` and its rows in each table to ``sizes``."""
    from studbook.frames import build_frames  # pandas: only Dask needs it

    def results() -> Iterator[list[Any]]:
        with per_file(check_paths(files, site=site, memory=memory)) as each_file:  # as the commands run
            for checked in each_file:
                if heads is not None:
                    heads.extend((_head(check.hand), bool(check.violations)) for check in checked.checks)
                if names is not None:
                    names.append(checked.file)
                # a file that is not a hand history gives no rows, as studbook.frames.load leaves it out
                yield [] if not_a_hand_history(checked.parsed) is not None else checked.results

    return build_frames(results(), sizes=sizes)


def _head(hand: Hand) -> Hand:
    return Hand(hand.file, hand.line, hand.end_line, hand.header, (), ())


def _check_part(files: list[str], site: str | None) -> _Part:
    memory = _Recorder()
    heads: list[tuple[Hand, bool]] = []
    names: list[str] = []
    sizes: list[dict[str, int]] = []
    frames = _checked_frames(files, site, memory, heads, names, sizes)
    return _Part(names, site, frames, memory.asked, memory.told, memory.bring_ins, heads, sizes)


def _rechecks(part: _Part, before: BringIns | None) -> dict[str, BringIns]:
    """The files of ``part`` with a check that does not stand, given the memory of the
    partitions before it (:func:`_settle`'s test, hand by hand in order, on the headers
    alone), each with the true memory at its start."""
    memory = TableMemory({key: dict(by_ante) for key, by_ante in (before or {}).items()})
    again: dict[str, BringIns] = {}
    file, at_start = None, memory.bring_ins
    for hand, violated in part.heads:
        if hand.file != file:
            file, at_start = hand.file, {key: dict(by_ante) for key, by_ante in memory.bring_ins.items()}
        key = (hand.file, hand.line)
        if key in part.asked and not _stands(part.asked[key], memory.bring_in_for(hand), violated):
            again.setdefault(hand.file, at_start)
        if key in part.told:
            memory.remember(hand, *part.told[key])  # what a check again remembers too (see _same_told)
    return again


def _settle_frames(part: _Part, before: BringIns | None) -> dict[str, Any]:
    """The partition's frames as the serial run makes them: its own when every check
    stands (the usual case); else the files with a check that does not stand checked
    again against the true memory at their start (what the serial run does for them),
    and the frames made of those files' new frames and the other files' rows."""
    from studbook.frames import joined_frames

    again = _rechecks(part, before)
    if not again:
        return part.frames
    pieces = []
    start = dict.fromkeys(part.frames, 0)
    for file, sizes in zip(part.files, part.sizes):
        if file in again:
            memory = _Recorder(again[file])
            pieces.append(_checked_frames([file], part.site, memory))
            _same_told(memory, {key: told for key, told in part.told.items() if key[0] == file})
        else:
            pieces.append({table: frame.iloc[start[table]:start[table] + sizes[table]]
                           for table, frame in part.frames.items()})
        for table in start:
            start[table] += sizes[table]
    return joined_frames(pieces, list(part.frames))


def to_dask(
    paths: Iterable[PathLike] | PathLike, *, files_per_partition: int = FILES_PER_PARTITION,
    site: str | None = None, hands_per_partition: int = HANDS_PER_PARTITION,
) -> dict[str, dask.dataframe.DataFrame]:
    """The seven frames (``hands``, ``players``, ``actions``, ``pots``, ``violations``,
    ``rejects``, ``notes``) of a store or of hand-history files as lazy Dask DataFrames.

    From a store (``studbook import``; ``paths`` is its path), or a Parquet export
    of the frames (``studbook export --format parquet -o DIR``; ``paths`` is the
    folder): one partition per ``hands_per_partition`` hands (``rejects`` in one),
    read without parsing again, equal to :func:`studbook.frames.load` of the store
    once computed: the same values, index (0 to n-1, in the store's order), dtypes
    and categories (known to Dask up front: each table's own values, in the
    frames' order). Parquet needs pyarrow.

    From files: one partition per ``files_per_partition`` files, parsed and checked
    on the workers, in the order of :func:`studbook.frames.load`, whose frames they
    equal in values (each partition has its own index from 0, and its own
    categories: Dask unites them when it concatenates partitions, unsorted, and
    knows none before; an ordered categorical holds every value of its order; an
    integer column may be wider in a partition whose values need it). Compute several tables together (``dask.compute(*frames.values())``)
    to parse each file once; for repeated queries, import the files into a store.

    Nothing is read until computed. Runs on whatever scheduler is active: the local
    default, or a ``dask.distributed.Client``.
    """
    dask = _dask()
    import dask.dataframe as dd
    from dask.dataframe.utils import clear_known_categories

    from studbook.frames import TABLES, typed_frame
    from studbook.store import is_store

    named = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if len(named) == 1 and is_store(os.fspath(named[0])):
        return _tables_dask(_StoreTables(os.fspath(named[0])), hands_per_partition)
    if len(named) == 1 and is_parquet_export(named[0]):
        return _tables_dask(_ParquetTables(os.fspath(named[0])), hands_per_partition)
    for path in named:
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", str(path))
    parts = _chain(named, site, files_per_partition, _check_part, _settle_frames)
    # each partition has its own categories (ordered ones all of their order, which Dask
    # unites only when equal), and an integer column may be wider in one that needs it
    # (see studbook.lean): the metadata is the schema's, unchecked
    whole = dask.delayed(_whole_orders, pure=True)
    return {table: dd.from_delayed([whole(part[table], table) for part in parts], verify_meta=False,
                                   meta=clear_known_categories(typed_frame(table, [])))
            for table in TABLES}


def _whole_orders(frame: Any, table: str) -> Any:
    """``frame`` with each ordered categorical holding every value of its order."""
    from studbook.lean import category_dtype
    from studbook.rows import SCHEMA

    for column in SCHEMA[table]:
        if isinstance(column.order, tuple) and column.name in frame.columns:
            frame[column.name] = frame[column.name].astype(category_dtype(column.order, column.order))
    return frame


class _StoreTables:
    """A store's tables as :func:`to_dask` reads them: rows located by rowid."""

    def __init__(self, path: str) -> None:
        self.path = path

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        from studbook.store import Store

        with Store(self.path, create=False) as store:
            return list(store.conn.execute(sql))

    def keys(self, table: str) -> list[tuple[int, str, str]]:
        return self._query(f"SELECT rowid, site, hand_id FROM {table} ORDER BY rowid")

    def span(self, table: str) -> tuple[int, int, int]:
        return self._query(f"SELECT coalesce(min(rowid), 0), coalesce(max(rowid), -1), count(*) FROM {table}")[0]

    def distinct(self, table: str, column: str) -> list[Any]:
        return [v for (v,) in self._query(f'SELECT DISTINCT "{column}" FROM {table}') if v is not None]

    def bounds(self, table: str, column: str) -> tuple[Any, Any]:
        low, high = self._query(f'SELECT min("{column}"), max("{column}") FROM {table}')[0]
        return low, high

    def rows(self, table: str, low: int, high: int) -> Any:
        from studbook.store import Store

        with Store(self.path, create=False) as store:
            return store.read_table(table, where="rowid BETWEEN ? AND ?", params=(low, high))


class _ParquetTables:
    """An export's tables (``studbook export --format parquet``: ``<table>.parquet`` in a
    folder) as :func:`to_dask` reads them: rows located by their position."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def _read(self, table: str, columns: list[str] | None = None) -> Any:
        import pyarrow.parquet as pq

        return pq.read_table(os.path.join(self.folder, f"{table}.parquet"), columns=columns)

    def keys(self, table: str) -> list[tuple[int, str, str]]:
        keys = self._read(table, ["site", "hand_id"])
        return list(zip(range(keys.num_rows), map(str, keys.column("site").to_pylist()),
                        map(str, keys.column("hand_id").to_pylist())))

    def span(self, table: str) -> tuple[int, int, int]:
        import pyarrow.parquet as pq

        rows = pq.ParquetFile(os.path.join(self.folder, f"{table}.parquet")).metadata.num_rows
        return 0, rows - 1, rows

    def distinct(self, table: str, column: str) -> list[Any]:
        values = self._read(table, [column]).column(column).to_pylist()
        return [v for v in dict.fromkeys(values) if v is not None]

    def bounds(self, table: str, column: str) -> tuple[Any, Any]:
        import pyarrow.compute as pc

        found = pc.min_max(self._read(table, [column]).column(column)).as_py()
        return found["min"], found["max"]

    def rows(self, table: str, low: int, high: int) -> Any:
        from studbook.frames import typed_frame

        return typed_frame(table, self._read(table).slice(low, high - low + 1).to_pandas())


_Tables = _StoreTables | _ParquetTables


def is_parquet_export(path: PathLike) -> bool:
    """Whether ``path`` is a folder written by ``studbook export --format parquet``."""
    return os.path.isdir(path) and os.path.isfile(os.path.join(path, "hands.parquet"))


def _tables_dask(tables: _Tables, hands_per_partition: int) -> dict[str, Any]:
    """:func:`to_dask` of a store or an export: each table's partitions by runs of
    rows of whole hands, typed as the whole table's frame is."""
    import dask.dataframe as dd

    from studbook.frames import TABLES

    delayed = _dask().delayed
    starts = {(site, hand_id): number // hands_per_partition
              for number, (_, site, hand_id) in enumerate(tables.keys("hands"))}
    partitions = max(1, -(-len(starts) // hands_per_partition))
    result = {}
    for table in TABLES:
        ranges = [tables.span(table)] if table == "rejects" else _row_ranges(tables, table, starts, partitions)
        dtypes = _whole_dtypes(tables, table)
        offset, parts = 0, []
        for low, high, rows in ranges:
            parts.append(delayed(_read_rows, pure=True)(tables, table, low, high, dtypes, offset))
            offset += rows
        result[table] = dd.from_delayed(parts, meta=_typed_like(_empty(table), dtypes, 0), verify_meta=False)
    return result


def _empty(table: str) -> Any:
    from studbook.frames import typed_frame

    return typed_frame(table, [])


def _row_ranges(tables: _Tables, table: str, starts: dict[tuple[str, str], int], partitions: int
                ) -> list[tuple[int, int, int]]:
    """(first row, last row, rows) of each partition of ``table``: its rows of each
    partition's hands, a run of rows since a file's rows go in per hand, in every table."""
    bounds: list[list[int]] = [[0, -1, 0] for _ in range(partitions)]
    last = 0
    for at, site, hand_id in tables.keys(table):
        part = starts.get((site, hand_id), last)
        if part < last:
            raise ValueError(f"{table}: rows out of the hands' order; read it with studbook.load")
        bound = bounds[part]
        if bound[2] == 0:
            bound[0] = at
        bound[1], bound[2], last = at, bound[2] + 1, part
    return [(low, high, rows) for low, high, rows in bounds]


def _whole_dtypes(tables: _Tables, table: str) -> dict[str, Any]:
    """The dtype pandas gives each column of ``table`` read whole (:func:`studbook.frames.load`):
    a categorical of the table's own values in the column's order, an integer as wide as
    its least and greatest values need."""
    import pandas as pd

    from studbook.lean import category_dtype, fitting_dtype
    from studbook.rows import SCHEMA

    dtypes: dict[str, Any] = {}
    for column in SCHEMA[table]:
        if column.dtype == "category":
            dtypes[column.name] = category_dtype(map(str, tables.distinct(table, column.name)), column.order)
        elif column.dtype.lower().startswith("int"):
            low, high = tables.bounds(table, column.name)
            width = fitting_dtype(int(low or 0), int(high or 0), column.dtype.lower())
            dtypes[column.name] = width if column.dtype.islower() else pd.api.types.pandas_dtype(width.capitalize())
    return dtypes


def _typed_like(frame: Any, dtypes: dict[str, Any], offset: int) -> Any:
    import pandas as pd

    frame = frame.astype(dtypes)
    frame.index = pd.RangeIndex(offset, offset + len(frame))
    return frame


def _read_rows(tables: _Tables, table: str, low: int, high: int, dtypes: dict[str, Any], offset: int) -> Any:
    """The rows ``low..high`` of ``table``, as the whole table's frame has them."""
    frame = tables.rows(table, low, high)
    frame.attrs.clear()
    return _typed_like(frame, dtypes, offset)


def check_files_dask(
    paths: Iterable[PathLike], client: Any = None, *, files_per_partition: int = FILES_PER_PARTITION,
    site: str | None = None, scheduler: str | None = None,
) -> Iterator[FileCheck]:
    """:func:`check_files` computed by Dask: on ``client`` (a ``dask.distributed.Client``),
    yielding each partition as soon as it and those before it are done; else
    with ``dask.compute`` on ``scheduler`` (Dask's default when None), all at once.
    """
    dask = _dask()
    settled = _graph(paths, site, files_per_partition)
    if client is None:
        for batch in dask.compute(*settled, scheduler=scheduler):
            yield from batch.checks
        return
    futures = client.compute(settled)
    for future in futures:
        batch = future.result()
        future.release()
        yield from batch.checks


# ---------------------------------------------------------------------------
# The compact pickle


def _dumps(obj: object) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


def _loads(data: bytes) -> Any:
    return pickle.loads(data)  # (in the parent, inside the command's per-file loop)


def _card(index: int) -> Card:
    return DECK[index]


def _fields_of(cls: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """A getter of the fields of a slots dataclass of studbook, else None."""
    if (cls is Card or not cls.__module__.startswith("studbook.") or issubclass(cls, Enum)
            or not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__):
        return None
    names = [f.name for f in dataclasses.fields(cls)]
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return operator.attrgetter(*names)


_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]] | None] = {}
_MAKERS: dict[type, Callable[[tuple[Any, ...]], Any]] = {}


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        try:
            get = _GETTERS[cls]
        except KeyError:
            get = _GETTERS[cls] = _fields_of(cls)
        if get is not None:
            return _rebuild, (cls, get(obj))
        if cls is Card:
            return _card, (obj.index,)
        return NotImplemented


def _rebuild(cls: type, values: tuple[Any, ...]) -> Any:
    make = _MAKERS.get(cls)
    if make is None:
        make = _MAKERS[cls] = _maker(cls)
    return make(values)


def _maker(cls: type) -> Callable[[tuple[Any, ...]], Any]:
    """A function building a ``cls`` from its field values by writing its slots
    (frozen dataclasses refuse ``setattr``; ``__init__`` would check and convert)."""
    setters = [getattr(cls, f.name).__set__ for f in dataclasses.fields(cls)]
    new = object.__new__

    def make(values: Sequence[Any]) -> Any:
        obj: Any = new(cls)
        for setter, value in zip(setters, values):
            setter(obj, value)
        return obj

    return make


__all__ = ["AUTO_BYTES", "AUTO_PREPARED_FREE_CORES", "DASK_MISSING", "FILES_PER_PARTITION",
           "Prepared", "auto_jobs", "check_files", "check_files_dask", "expand_paths", "prepare_files",
           "resolve_jobs", "to_dask"]
