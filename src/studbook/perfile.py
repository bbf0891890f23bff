"""The per-file loop: how every command (and ``studbook.load`` of paths) walks its files.

It owns the collector policy, so that nothing else in studbook touches the
garbage collector for speed (:mod:`studbook.gcpause` says why the policy pays):
the cyclic collector is off for the whole loop, and a young collection runs
every :data:`~studbook.gcpause.FILES_PER_COLLECTION` files, when only the file
just let go and the next are alive, and every :data:`HANDS_PER_COLLECTION`
hands of a file checked as it is read (:func:`within_file`). Library calls outside a loop
(``parse.read_file``, ``check.check_file_result``) run with the collector as
their caller has it.

    with per_file(check_paths(paths)) as files:
        for checked in files:
            ...  # let each file's results go before taking the next
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from studbook.gcpause import FILES_PER_COLLECTION, collect_young, gc_between_files

T = TypeVar("T")

HANDS_PER_COLLECTION = 2000


@contextmanager
def per_file(files: Iterable[T], every: int = FILES_PER_COLLECTION) -> Iterator[Iterator[T]]:
    """``files`` (one item per file: a path, a parsed or a checked file) to loop
    over inside the block, with the collector policy; the collector is back as
    it was when the block ends, however it ends."""
    with gc_between_files(every) as next_file:
        yield _each(files, next_file)


def _each(files: Iterable[T], next_file: Callable[[], None]) -> Iterator[T]:
    for item in files:
        next_file()
        yield item


def within_file(results: Iterable[T], every: int = HANDS_PER_COLLECTION) -> Iterator[T]:
    """A file's results one at a time, for a file read as it is consumed: with the
    collector off for the loop, a young collection every ``every`` results. Only
    the hands in flight are alive, so it is cheap, and the garbage cycles a
    damaged file makes (rejected hands' exceptions) never pile up."""
    for count, result in enumerate(results, start=1):
        yield result
        if not count % every:
            collect_young()


__all__ = ["HANDS_PER_COLLECTION", "per_file", "within_file"]
