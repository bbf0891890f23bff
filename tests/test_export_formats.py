"""Export formats are writers registered in studbook.write: a new format is one
module (here, one writer registered by the test) and ``studbook export`` offers it."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Iterator

import pytest

from studbook import write
from studbook.cli import main
from studbook.events import Hand, Show
from studbook.parse import read_file
from studbook.write import FramesWriter, HandOut, HandWriter, NotWritten, TablesOut

HISTORIES = Path(__file__).resolve().parent.parent / "histories"
LOG = next(iter(sorted(HISTORIES.glob("HH*Limit Stud.txt"))))


def _refused(hand: Hand) -> bool:
    """The toy format refuses hands won without a showdown."""
    return not any(isinstance(event, Show) for event in hand.events)


def _names_and_nets(hand: HandOut) -> str:
    """One line a hand: its id, then each player's net (JSON)."""
    assert hand.hand is not None
    if _refused(hand.hand):
        raise NotWritten(f"hand {hand.hand_id}: won without a showdown, not written")
    return hand.hand_id + " " + json.dumps({player: str(net) for player, net in hand.net.items()}) + "\n"


@pytest.fixture
def toy() -> Iterator[HandWriter]:
    writer = write.register(HandWriter("nets", "player nets", _names_and_nets,
                                       joined=lambda number, text: f"{number}. {text}", suffix=lambda text: ".nets"))
    yield writer
    write.unregister("nets")
    assert "nets" not in write.writers()


def test_the_builtin_formats_are_registered_writers() -> None:
    formats = write.writers()
    assert list(formats)[:5] == ["phh", "original", "parquet", "csv", "jsonl"]
    assert {name for name, w in formats.items() if isinstance(w, FramesWriter)} == {"parquet", "csv"}


def test_a_registered_writer_is_a_format_of_export(toy: HandWriter, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    usage = capsys.readouterr().out
    assert "{phh,original,parquet,csv,jsonl,nets}" in usage
    assert "(phh, original, nets)" in " ".join(usage.split())  # --split's formats
    out = tmp_path / "nets.txt"
    code = main(["export", str(LOG), "--format", "nets", "-o", str(out)])
    err = capsys.readouterr().err
    hands = read_file(LOG).hands
    written = [h for h in hands if not _refused(h)]
    assert 0 < len(written) < len(hands)
    assert code == 1  # a hand not written
    assert err.count("won without a showdown, not written") == len(hands) - len(written)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(written) > 0
    assert [line.split(" ")[1] for line in lines] == [h.hand_id for h in written]
    assert lines[0].startswith("1. ") and lines[-1].startswith(f"{len(written)}. ")
    nets = [json.loads(line.split(" ", 2)[2]) for line in lines]
    assert [set(net) for net in nets] == [{seat.player for seat in h.seats} for h in written]
    assert all(sum(Decimal(v) for v in net.values()) <= 0 for net in nets)  # the rake, if any, leaves the table
    assert any(Decimal(v) > 0 for net in nets for v in net.values())
    assert f"exported {len(written)} hand" in err
    folder = tmp_path / "split"
    main(["export", str(LOG), "--format", "nets", "--split", "-o", str(folder)])
    assert sorted(p.suffix for p in folder.iterdir()) == [".nets"] * len(written)


def test_a_registered_frames_writer_gets_every_table(tmp_path: Path) -> None:
    seen: dict[str, int] = {}

    def counts(out: TablesOut, folder: Path) -> None:
        seen.update({name: len(frame) for name, frame in out.tables})
        (folder / "counts.json").write_text(json.dumps({**seen, **out.meta}), encoding="utf-8")

    write.register(FramesWriter("counts", "row counts", counts))
    try:
        assert main(["export", str(LOG), "--format", "counts", "-o", str(tmp_path / "c")]) == 0
    finally:
        write.unregister("counts")
    written = json.loads((tmp_path / "c" / "counts.json").read_text(encoding="utf-8"))
    assert written["hands"] == len(read_file(LOG).hands) and written["schema_version"] == "6"
    assert set(seen) == {"hands", "players", "actions", "pots", "violations", "rejects", "notes"}


def test_split_is_refused_for_a_format_without_one_file_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(LOG), "--format", "jsonl", "--split", "-o", "d"]) == 2
    assert "--split goes with --format phh or original" in capsys.readouterr().err
