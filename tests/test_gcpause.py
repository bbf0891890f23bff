"""The collector policy of the per-file loop: state restored, and garbage cycles
collected between files and every few thousand hands of a file."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from studbook.gcpause import FILES_PER_COLLECTION, gc_between_files
from studbook.perfile import HANDS_PER_COLLECTION, per_file, within_file

SRC = Path(__file__).resolve().parent.parent / "src" / "studbook"


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_the_loop_restores_the_collector_state() -> None:
    assert gc.isenabled()
    with gc_between_files():
        assert not gc.isenabled()
    assert gc.isenabled()
    with per_file(range(3)) as files:
        assert list(files) == [0, 1, 2]
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), per_file(range(3)) as files:
        for _ in files:
            raise ZeroDivisionError
    assert gc.isenabled(), "the collector comes back however the loop ends"
    gc.disable()
    try:
        with per_file(range(1)) as files:
            list(files)
        assert not gc.isenabled(), "a collector the caller turned off stays off"
    finally:
        gc.enable()


def test_cycles_are_collected_every_few_files() -> None:
    garbage = Node()
    alive = weakref.ref(garbage)
    del garbage
    with per_file(range(1, FILES_PER_COLLECTION + 1)) as files:  # numbered from 1
        for number in files:
            if number == FILES_PER_COLLECTION - 1:
                assert alive() is not None, "no collection before the count of files"
            if number == FILES_PER_COLLECTION:
                assert alive() is None, "the cycle was collected as that file was taken"


def test_a_long_file_collects_every_few_thousand_hands() -> None:
    garbage = Node()
    alive = weakref.ref(garbage)
    del garbage
    with per_file([within_file(range(HANDS_PER_COLLECTION + 1))]) as files:
        for results in files:
            for number in results:
                if number == HANDS_PER_COLLECTION - 1:
                    assert alive() is not None
                if number == HANDS_PER_COLLECTION:
                    assert alive() is None, "collected after the count of hands"


def test_only_the_per_file_loop_touches_the_collector() -> None:
    """The collector policy has one seam: nothing else imports gcpause or gc."""
    users = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
                   if any(line.startswith(("import gc", "from studbook.gcpause", "from studbook import gcpause"))
                          for line in path.read_text(encoding="utf-8").splitlines()))
    assert users == ["gcpause.py", "perfile.py"]
