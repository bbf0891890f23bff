"""``--format parquet``: each table as ``<table>.parquet`` in the folder, with the
schema version, money scale, studbook's version and the table's name in each file's
metadata (key ``studbook``). Needs pyarrow (``pip install 'studbook[parquet]'``)."""

from __future__ import annotations

import json
from pathlib import Path

from studbook.write import FramesWriter, NotWritten, TablesOut, register


def write(out: TablesOut, folder: Path) -> None:
    """The tables as ``folder/<table>.parquet``."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise NotWritten("--format parquet needs pyarrow (pip install 'studbook[parquet]')") from None
    for name, frame in out.tables:
        table = pa.Table.from_pandas(frame, preserve_index=False)
        metadata = dict(table.schema.metadata or {})
        metadata[b"studbook"] = json.dumps({**out.meta, "table": name}).encode("utf-8")
        pq.write_table(table.replace_schema_metadata(metadata), folder / f"{name}.parquet")


WRITER = register(FramesWriter("parquet", "Parquet", write))

__all__ = ["WRITER"]
