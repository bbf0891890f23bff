"""The fast paths of the XML formats give what the plain paths give."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from studbook.sites.merge import _utc


@pytest.mark.parametrize("started", [
    "20110204202244", "20111106013000", "20110313023000", "20111301120000", "20110231120000",
    "20110622120060", "2011062212005", "20110622240000", "", "x0110622120058",
])  # fmt: skip
def test_start_times_read_as_strptime_reads_them(started: str) -> None:
    try:
        local = datetime.strptime(started[:14], "%Y%m%d%H%M%S").replace(tzinfo=ZoneInfo("America/New_York"))
        expected: datetime | None = local.astimezone(timezone.utc)
    except ValueError:
        expected = None
    assert _utc(started) == expected
