"""The collector pauses: state restored, and garbage cycles collected between files."""

from __future__ import annotations

import gc
import weakref

from studbook.gcpause import FILES_PER_COLLECTION, gc_between_files, gc_paused


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_pauses_restore_the_collector_state() -> None:
    assert gc.isenabled()
    for pause in (gc_paused, gc_between_files):
        with pause():
            assert not gc.isenabled()
        assert gc.isenabled()
    gc.disable()
    try:
        with gc_between_files():
            pass
        assert not gc.isenabled(), "a collector the caller turned off stays off"
    finally:
        gc.enable()


def test_cycles_are_collected_every_few_files() -> None:
    with gc_between_files() as next_file:
        garbage = Node()
        alive = weakref.ref(garbage)
        del garbage
        for _ in range(FILES_PER_COLLECTION - 1):
            next_file()
        assert alive() is not None, "no collection before the count of files"
        next_file()
        assert alive() is None, "the cycle was collected at the file boundary"
