"""Fuzzing every site: real hands of each site, mutated line by line, never
make the parser or the checker raise. Each result is a Hand, Skipped or
Rejected naming the file and a line, and every Hand checks without an
exception (violations are expected; a traceback never is). A hand rejected
as an "internal error" is a reader's bug that the catch-all in ``parse_hand``
hid, so it fails the test too."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from budget import examples
from mutations import mutate

from samples import sample_files
from studbook.check import check_hand
from studbook.events import Hand, Rejected, Skipped, Structure
from studbook.parse import parse_text, read_file
from studbook.read import decode, read_bytes
from studbook.sites import site_names
from studbook.write.phh import write_phhs

WINDOW = 12_000  # characters of a file a case starts from: a few hands


@pytest.fixture(scope="module")
def site_texts(corpus: Path) -> dict[str, list[str]]:
    """The decoded text of every sample file with hands (tests/samples.py), by site."""
    texts: dict[str, list[str]] = {}
    for _name, path in sample_files(corpus):
        if (result := read_file(path)).site is not None and result.hands:
            texts.setdefault(result.site, []).append(decode(read_bytes(path)).text)
    # PHH is not a site's log: its real hands are the corpus's, written as PHH
    texts["phh"] = [write_phhs((h, None) for h in read_file(path).hands if h.header.structure is Structure.FIXED)
                    for path in sorted((corpus / "PokerStars").glob("*.txt"))[:6]]
    assert set(texts) == set(site_names()), "every site has hands in its samples"
    return texts


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_mutated_real_hands_of_every_site_never_raise(site_texts: dict[str, list[str]], data: st.DataObject) -> None:
    site = data.draw(st.sampled_from(sorted(site_texts)))
    text = data.draw(st.sampled_from(site_texts[site]))
    start = data.draw(st.integers(0, max(0, len(text) - WINDOW)))
    text = mutate(text[text.rfind("\n", 0, start) + 1 :][:WINDOW], data)
    for result in parse_text(text, file="fuzz.txt", site=site):
        assert isinstance(result, (Hand, Skipped, Rejected))
        assert result.file == "fuzz.txt" and result.line >= 1
        if isinstance(result, Rejected):
            assert result.reason and not result.reason.startswith("internal error"), result.reason
        if isinstance(result, Hand):
            check_hand(result)
