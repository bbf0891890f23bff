"""Lean columns: the frames' dtypes, built a chunk of rows at a time.

Frames hold a million hands in a few GB only with compact dtypes, and only
when they are built without ever holding every row as Python objects (what
reading a whole store at once would take): :class:`TableBuilder` takes rows a
chunk at a time (tuples in column order, as SQLite or
:func:`studbook.frames.rows_from_checks` give them), converts each chunk to
its column's dtype and writes it into arrays made once for the whole table
(when the number of rows is known beforehand; else they grow by doubling).

* ``category``: a pandas Categorical whose categories are the values seen
  (only those: ``value_counts()`` lists no value the table does not hold),
  in the column's order (``Column.order``): sorted as text; ids that are all
  digits by their number (``natural``); or a fixed order, as an *ordered*
  categorical (starting classes, cards). Sorting and ``groupby(sort=True)``
  follow that order.
* ``string``: pandas' string dtype, Arrow-backed when pyarrow is installed.
* integers: the column's dtype when every value fits it, else the narrowest
  wider one that holds them (never wrapped); ``Int8`` ... ``Int64`` take NA.
* ``bool``, ``float64``, ``datetime64[ns, UTC]`` as named.

:func:`share_categories` gives columns of several tables that hold the same
kind of value and the same values (every ``hand_id`` of ``hands`` and of
``players``, say) one categorical dtype object, so that those categories are
held once and joins between them compare codes, not strings.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

try:
    import pyarrow
except ImportError:  # pandas' own strings, in Python objects
    pyarrow = None
STRING: pd.StringDtype = pd.StringDtype() if pyarrow is None else pd.StringDtype("pyarrow")
"""The dtype of ``string`` columns."""

_SIGNED = ("int8", "int16", "int32", "int64")
_NULLABLE = ("Int8", "Int16", "Int32", "Int64")
_LIMITS = {name: (int(np.iinfo(name).min), int(np.iinfo(name).max)) for name in _SIGNED}
_CATEGORY_INDEX = pd.Index(["x"]).dtype  # the dtype pandas gives an index of strings
_FIRST_CAPACITY = 1 << 16


def fitting_dtype(low: int, high: int, dtype: str) -> str:
    """``dtype`` (a numpy integer name), or the narrowest wider one that holds ``low..high``."""
    for name in _SIGNED[_SIGNED.index(dtype):]:
        least, most = _LIMITS[name]
        if least <= low and high <= most:
            return name
    raise ValueError(f"integer out of the int64 range: {low}..{high}")


def _ints(values: list[Any], name: str, dtype: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.int64) if values else np.zeros(0, np.int64)
    except TypeError:  # None among them
        raise ValueError(f"{name}: missing values in a {dtype} column") from None


def _strings(values: list[Any]) -> Any:
    if pyarrow is None:
        return pd.array(values, dtype=STRING)
    # straight to Arrow: pandas would first check every value in Python
    return pd.arrays.ArrowStringArray(pyarrow.array(values, type=pyarrow.large_string(),
                                                    from_pandas=True))


def _values(values: Sequence[Any] | pd.Series) -> list[Any]:
    if isinstance(values, pd.Series):
        if values.dtype == object:
            values = values.where(values.notna(), None)
        return values.tolist()
    return values if isinstance(values, list) else list(values)


# ---------------------------------------------------------------------------
# One column


class _Column:
    """A column being built: ``add`` a chunk of values, then ``result``."""

    def __init__(self, name: str, dtype: str, capacity: int | None) -> None:
        self.name = name
        self.dtype = dtype
        self.capacity = capacity or _FIRST_CAPACITY
        self.size = 0

    def add(self, values: Sequence[Any] | pd.Series) -> None:
        raise NotImplementedError

    def result(self) -> Any:
        raise NotImplementedError

    def _room(self, arrays: list[np.ndarray], count: int) -> list[np.ndarray]:
        """``arrays`` with room for ``count`` more values (doubled as needed)."""
        need = self.size + count
        if need <= len(arrays[0]):
            return arrays
        capacity = max(need, 2 * len(arrays[0]))
        grown = []
        for array in arrays:
            bigger = np.empty(capacity, dtype=array.dtype)
            bigger[:self.size] = array[:self.size]
            grown.append(bigger)
        return grown

    def _trimmed(self, array: np.ndarray) -> np.ndarray:
        return array if len(array) == self.size else array[:self.size].copy()


class _Numbers(_Column):
    """int8 ... int64 (widened as needed), bool, float64."""

    def __init__(self, name: str, dtype: str, capacity: int | None) -> None:
        super().__init__(name, dtype, capacity)
        self.array = np.empty(self.capacity, dtype=dtype)

    def add(self, values: Sequence[Any] | pd.Series) -> None:
        chunk = self.convert(_values(values))
        if chunk.dtype != self.array.dtype:  # a wider integer type
            self.array = self.array.astype(chunk.dtype)
        (self.array,) = self._room([self.array], len(chunk))
        self.array[self.size:self.size + len(chunk)] = chunk
        self.size += len(chunk)

    def convert(self, values: list[Any]) -> np.ndarray:
        if self.dtype == "float64":
            return np.asarray(values, dtype=np.float64) if values else np.zeros(0)
        array = _ints(values, self.name, self.dtype)
        if self.dtype == "bool":
            return array.astype(bool)
        current = str(self.array.dtype)
        if not len(array):
            return array.astype(current)
        return array.astype(fitting_dtype(int(array.min()), int(array.max()), current))

    def result(self) -> np.ndarray:
        return self._trimmed(self.array)


class _Nullable(_Numbers):
    """Int8 ... Int64: numbers and a mask of the missing ones."""

    def __init__(self, name: str, dtype: str, capacity: int | None) -> None:
        super().__init__(name, dtype.lower(), capacity)
        self.mask = np.empty(self.capacity, dtype=bool)

    def add(self, values: Sequence[Any] | pd.Series) -> None:
        masked = pd.array(_values(values), dtype="Int64")
        missing = np.asarray(masked.isna())
        numbers = masked.to_numpy(dtype=np.int64, na_value=0)
        if len(numbers) and not missing.all():
            present = numbers[~missing]
            fitting = fitting_dtype(int(present.min()), int(present.max()), str(self.array.dtype))
            if fitting != str(self.array.dtype):
                self.array = self.array.astype(fitting)
        self.array, self.mask = self._room([self.array, self.mask], len(numbers))
        end = self.size + len(numbers)
        self.array[self.size:end] = numbers
        self.mask[self.size:end] = missing
        self.size = end

    def result(self) -> Any:
        return pd.arrays.IntegerArray(self._trimmed(self.array), self._trimmed(self.mask))


class _Times(_Numbers):
    """datetime64[ns, UTC], from datetimes or ISO-8601 text."""

    def __init__(self, name: str, dtype: str, capacity: int | None) -> None:
        super().__init__(name, "int64", capacity)

    def convert(self, values: list[Any]) -> np.ndarray:
        text = next((v for v in values if v is not None), None)
        times = pd.to_datetime(values, utc=True, **({"format": "ISO8601"} if isinstance(text, str) else {}))
        return np.asarray(pd.DatetimeIndex(times).as_unit("ns").asi8)

    def result(self) -> Any:
        nanoseconds = self._trimmed(self.array).view("M8[ns]")  # NaT is int64's least value
        return pd.DatetimeIndex(nanoseconds).tz_localize("UTC").array


class _Strings(_Column):
    def __init__(self, name: str, dtype: str, capacity: int | None) -> None:
        super().__init__(name, dtype, capacity)
        self.parts: list[Any] = []

    def add(self, values: Sequence[Any] | pd.Series) -> None:
        self.parts.append(_strings(_values(values)))

    def result(self) -> Any:
        if not self.parts:
            return _strings([])
        if len(self.parts) == 1:
            return self.parts[0]
        # Arrow-backed: the chunks are kept as they are, not copied
        return pd.concat([pd.Series(part, copy=False) for part in self.parts], ignore_index=True).array


class _Categories(_Column):
    """Codes into the categories of each chunk in turn (a chunk's categories are
    numbered after those of the chunks before it); at the end, the categories
    of all chunks are put in the column's order and the duplicates merged, and
    the codes renumbered."""

    def __init__(self, name: str, dtype: str, capacity: int | None, order: Any = None) -> None:
        super().__init__(name, dtype, capacity)
        self.order = order
        self.codes = np.empty(self.capacity, dtype=np.int32)
        self.categories: list[Any] = []  # each chunk's, in strings of the STRING dtype
        self.seen = 0  # categories so far, duplicates counted

    def add(self, values: Sequence[Any] | pd.Series) -> None:
        if isinstance(values, pd.Series) and isinstance(values.dtype, pd.CategoricalDtype):
            codes = values.cat.codes.to_numpy().astype(np.int64)
            uniques = _strings(values.cat.categories.tolist())
        else:
            codes, found = pd.factorize(np.asarray(_values(values), dtype=object))
            uniques = _strings(found.tolist())
        (self.codes,) = self._room([self.codes], len(codes))
        self.codes[self.size:self.size + len(codes)] = np.where(codes >= 0, codes + self.seen, -1)
        self.size += len(codes)
        self.categories.append(uniques)
        self.seen += len(uniques)

    def result(self) -> pd.Categorical:
        codes = self._trimmed(self.codes)
        if not self.categories:
            return pd.Categorical.from_codes(codes, dtype=category_dtype([], self.order))
        every = pd.concat([pd.Series(part, copy=False) for part in self.categories], ignore_index=True)
        self.categories = []
        renumber, categories = pd.factorize(every, sort=True)
        dtype = category_dtype(categories, self.order)
        if self.order is not None:  # the factorized values' positions in the column's order
            renumber = dtype.categories.get_indexer(categories)[renumber]
        renumber = np.append(renumber.astype(np.int32), np.int32(-1))  # code -1 stays -1 (NA)
        return pd.Categorical.from_codes(renumber[codes], dtype=dtype)


def category_dtype(values: Iterable[Any], order: Any = None) -> pd.CategoricalDtype:
    """The categorical dtype of a column of ``order`` (see ``Column.order``) holding
    ``values``: those values (each once) in that order."""
    present = list(dict.fromkeys(values))
    if order is None:
        return pd.CategoricalDtype(pd.Index(sorted(present), dtype=_CATEGORY_INDEX))
    if isinstance(order, str):  # natural: numbers by value, then the rest as text
        ranked = sorted(present, key=lambda v: (0, int(v), v) if v.isdigit() else (1, 0, v))
        return pd.CategoricalDtype(pd.Index(ranked, dtype=_CATEGORY_INDEX))
    known = set(present)
    unknown = sorted(known.difference(order))  # a value the order does not name goes last
    return pd.CategoricalDtype(pd.Index([v for v in order if v in known] + unknown, dtype=_CATEGORY_INDEX),
                               ordered=True)


def _column(name: str, dtype: str, capacity: int | None, order: Any = None) -> _Column:
    if dtype == "category":
        return _Categories(name, dtype, capacity, order)
    if dtype == "string":
        return _Strings(name, dtype, capacity)
    if dtype in _NULLABLE:
        return _Nullable(name, dtype, capacity)
    if dtype.startswith("datetime64"):
        return _Times(name, dtype, capacity)
    if dtype in _SIGNED or dtype in ("bool", "float64"):
        return _Numbers(name, dtype, capacity)
    raise ValueError(f"{name}: unknown dtype {dtype}")


# ---------------------------------------------------------------------------
# A table


class TableBuilder:
    """Rows in, one chunk at a time; a DataFrame of the columns' dtypes out.

    ``columns`` have a ``name`` and a ``dtype`` (``studbook.frames.Column``);
    ``rows``, when given, is the number of rows to come (or more): the
    columns' arrays are made that long at once."""

    def __init__(self, columns: Sequence[Any], rows: int | None = None) -> None:
        self.columns = [_column(c.name, c.dtype, rows, getattr(c, "order", None)) for c in columns]
        self.names = [c.name for c in columns]
        self.units = {c.name: c.unit for c in columns if getattr(c, "unit", "")}

    def add(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """A chunk of rows: tuples with a value for each column, in order."""
        if not rows:
            return
        for column, values in zip(self.columns, zip(*rows)):
            column.add(values)

    def add_columns(self, data: Mapping[str, Any]) -> None:
        """A chunk given as columns (a DataFrame, or a mapping of name to values)."""
        for column in self.columns:
            column.add(data[column.name])

    def frame(self) -> pd.DataFrame:
        """The table, its columns' units in ``attrs["units"]`` (name -> unit, for the
        columns that have one); the builder is spent."""
        arrays = {}
        for column in self.columns:
            arrays[column.name] = column.result()
        self.columns = []
        frame = pd.DataFrame(arrays, copy=False)
        if self.units:
            frame.attrs["units"] = dict(self.units)
        return frame


def share_categories(tables: Mapping[str, pd.DataFrame], domains: Mapping[str, str]) -> None:
    """Give the categorical columns named in ``domains`` (column name -> domain)
    that hold the same values one dtype object per domain and set of values, in
    place: the categories are held once, and joins between them compare codes.
    Each column keeps its own values as categories (no table gains a category
    it does not hold)."""
    for frame in tables.values():
        for column in domains:
            if column in frame.columns and isinstance(frame[column].dtype, pd.CategoricalDtype):
                values = frame[column].array
                pruned = values.remove_unused_categories()
                # written back only when it drops a category: a new dtype object for every column
                # on every call made every later call replace every column (del + insert) again
                if len(pruned.categories) != len(values.categories):
                    frame[column] = pruned
    found: dict[tuple[str, int], list[tuple[pd.DataFrame, str]]] = {}
    for frame in tables.values():
        for column, domain in domains.items():
            if column in frame.columns and isinstance(frame[column].dtype, pd.CategoricalDtype):
                found.setdefault((domain, len(frame[column].cat.categories)), []).append((frame, column))
    for members in found.values():
        dtypes: list[pd.CategoricalDtype] = []
        for frame, column in members:
            own = frame[column].dtype
            dtype = next((d for d in dtypes if d.ordered == own.ordered and d.categories.equals(own.categories)),
                         None)
            if dtype is None:
                dtypes.append(own)
            elif dtype is not own:
                # a new column: pandas 2.1 writes values of an equal dtype into the old one in place
                at = frame.columns.get_loc(column)
                values = pd.Categorical.from_codes(frame[column].cat.codes, dtype=dtype)
                del frame[column]
                frame.insert(at, column, values)


def filled(series: pd.Series, value: str) -> pd.Series:
    """``series.fillna(value)``, for categoricals too (``value`` becomes a category)."""
    if isinstance(series.dtype, pd.CategoricalDtype) and value not in series.cat.categories:
        series = series.cat.add_categories([value])
    return series.fillna(value)


def release_memory() -> None:
    """Give the memory freed while building frames back to the system: Arrow's
    pool keeps what it freed, and so does the C library's heap in the holes the
    chunks leave (``malloc_trim``, where the C library is glibc)."""
    if pyarrow is not None:
        pyarrow.default_memory_pool().release_unused()
    if _TRIM is not None:
        _TRIM(0)


def _malloc_trim() -> Any:
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim()


__all__ = ["STRING", "TableBuilder", "category_dtype", "filled", "fitting_dtype", "release_memory", "share_categories"]
