"""Native copies of Arrow snapshots, for the engine's scans.

DuckDB scans an Arrow table registered on a cursor more slowly than a table
in its own storage, and plans joins over it without statistics: the 22
TPC-H queries at scale factor 1 took 1.48x as long (geometric mean) over
registered Arrow tables as over DuckDB's own tables, the whole of txngate's
distance to bare DuckDB then. A snapshot read again unchanged is the very
same ``pa.Table`` object (``SnapshotCache`` keeps one per shard and time),
so the engine keeps a native copy of each one it has seen read twice,
built in the background, and a query scans the copy instead. Small tables
too: DuckDB plans a join of its own tables with an Arrow one badly (TPC-H
Q21 with only nation, 25 rows, left as Arrow took 3.4x as long).

``use(table)`` gives the copy's name (leased: it is not dropped while the
lease lasts) or None, noting the sighting; ``release(names)`` ends leases.

Invariants:
* a copy is keyed by its Arrow table's identity and lives no longer than
  that table (a weak reference retires it when the table goes);
* a copy holds exactly its table's rows, in its order and in the DuckDB
  types a registration of the table gives (``CREATE TABLE AS SELECT *``
  over the registration, ``prepare`` applied as for a query);
* the copies' estimated sizes (their tables' ``nbytes``, and a block of
  DuckDB's storage per column) stay under ``max_bytes`` and their number
  under ``MAX_COPIES``: building one retires the least recently used first;
* a query never waits for a copy: until one is ready it scans the table;
  a retired copy is dropped only once no query holds a lease on it.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import weakref
from collections import Counter, OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import duckdb
import pyarrow as pa

logger = logging.getLogger(__name__)

#: Tables seen once, remembered so a second read starts a copy.
SEEN_MAX = 256
#: Copies kept at most (each is a table in DuckDB's catalog).
MAX_COPIES = 512
#: DuckDB's storage block: what each column of a copy takes at least.
BLOCK_BYTES = 256 << 10


@dataclass
class _Copy:
    name: str
    table: weakref.ref
    nbytes: int
    ready: bool = False
    building: bool = True
    retired: bool = False
    leases: int = field(default=0)


def estimated_bytes(table: pa.Table) -> int:
    """What a native copy of ``table`` is reckoned to take."""
    return table.nbytes + table.num_columns * BLOCK_BYTES


def _never_null(table: pa.Table) -> list[str]:
    """The columns of ``table`` (of some rows) holding no NULL: declared NOT
    NULL in its copy, which the copy's rows never change. DuckDB plans over
    it the better for that (TPC-H Q12 at scale factor 0.1: 9.1 ms over a
    copy without, 7.6 ms with its keys NOT NULL, 6.9 ms over tables loaded
    with their declared NOT NULLs)."""
    if table.num_rows == 0:
        return []
    return [f.name for f, col in zip(table.schema, table.columns) if col.null_count == 0]


class NativeTables:
    def __init__(self, cursor: Callable[[], duckdb.DuckDBPyConnection], prepare: Callable[[pa.Table], pa.Table], *, max_bytes: int):
        self._cursor, self._prepare = cursor, prepare
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._copies: OrderedDict[str, _Copy] = OrderedDict()  # by name, least recently used first
        self._current: dict[int, str] = {}  # id(table) -> its copy (another table may have had the id before)
        self._seen: OrderedDict[int, weakref.ref] = OrderedDict()
        self._gone: deque[int] = deque()  # tables died (weakref callbacks append: no lock taken there)
        self._names = itertools.count(1)
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="native-copy")
        self.hits = self.built = self.dropped = 0

    def use(self, table: pa.Table) -> str | None:
        """The name of ``table``'s native copy, leased, if one is ready;
        else None (the caller scans ``table``), starting a copy on the
        second sighting."""
        key = id(table)
        with self._lock:
            self._forget_gone()
            copy = self._copy_of(key, table)
            if copy is not None:
                self._copies.move_to_end(copy.name)
                if not copy.ready:
                    return None  # being built
                copy.leases += 1
                self.hits += 1
                return copy.name
        # Sized only when no copy answers: the nbytes of a table of many
        # chunks visits every buffer (0.7 ms for TPC-H's lineitem at SF 0.1).
        nbytes = estimated_bytes(table)
        if nbytes > self.max_bytes:
            return None
        with self._lock:
            if self._copy_of(key, table) is not None:
                return None  # another query started its copy meanwhile
            seen = self._seen.pop(key, None)
            if seen is None or seen() is not table:
                self._seen[key] = weakref.ref(table)
                while len(self._seen) > SEEN_MAX:
                    self._seen.popitem(last=False)
                return None
            copy = _Copy(f"txngate_native_{next(self._names)}", weakref.ref(table, lambda _r: self._gone.append(1)), nbytes)
            self._copies[copy.name] = copy
            self._current[key] = copy.name
        self._builder.submit(self._build, copy, table)
        return None

    def _copy_of(self, key: int, table: pa.Table) -> _Copy | None:
        """``table``'s copy (ready or being built), unless retired."""
        copy = self._copies.get(self._current.get(key, ""))
        if copy is not None and copy.table() is table and not copy.retired:
            return copy
        return None

    def release(self, names: list[str]) -> None:
        """End a lease on each copy named (once per mention)."""
        if not names:
            return
        with self._lock:
            for name, n in Counter(names).items():
                copy = self._copies[name]
                copy.leases -= n
                assert copy.leases >= 0, "a lease released twice"
            droppable = any(self._copies[name].retired and not self._copies[name].leases for name in names)
        if droppable:
            self._builder.submit(self._drop_retired)

    def _forget_gone(self) -> None:
        """Retire the copies whose tables died (under the lock)."""
        if not self._gone:
            return
        self._gone.clear()
        for copy in self._copies.values():
            if copy.table() is None:
                copy.retired = True

    def _build(self, copy: _Copy, table: pa.Table) -> None:
        with self._lock:
            self._forget_gone()
            self._make_room(copy)
        self._drop_retired()
        started = time.monotonic()
        cur = self._cursor()
        try:
            source = self._prepare(table)
            cur.register("txngate_native_source", source)
            cur.execute(f'CREATE TABLE "{copy.name}" AS SELECT * FROM txngate_native_source')
            for name in _never_null(source):
                cur.execute(f'ALTER TABLE "{copy.name}" ALTER COLUMN "{name.replace(chr(34), chr(34) * 2)}" SET NOT NULL')
        except duckdb.Error:
            logger.warning("a native copy of a %d-row snapshot failed: queries scan it as Arrow", table.num_rows, exc_info=True)
            copy.retired = True
        finally:
            cur.close()
        with self._lock:
            copy.building = False
            copy.ready = not copy.retired
            self.built += copy.ready
        logger.info("native copy %s: %d rows, %d bytes, %.2f s", copy.name, table.num_rows, copy.nbytes, time.monotonic() - started)
        self._drop_retired()  # retired while it was built (its table died, or room was made)

    def _make_room(self, new: _Copy) -> None:
        """Retire the least recently used copies until ``new`` fits (under the lock)."""
        live = [c for c in self._copies.values() if not c.retired and c is not new]
        total = sum(c.nbytes for c in live)
        while live and (total + new.nbytes > self.max_bytes or len(live) >= MAX_COPIES):
            oldest = live.pop(0)
            oldest.retired = True
            total -= oldest.nbytes

    def _drop_retired(self) -> None:
        """Drop the retired copies no query leases (on the builder's thread)."""
        with self._lock:
            self._forget_gone()
            done = [c for c in self._copies.values() if c.retired and c.leases == 0 and not c.building]
            for c in done:
                del self._copies[c.name]
            self._current = {k: name for k, name in self._current.items() if name in self._copies}
        if not done:
            return
        cur = self._cursor()
        try:
            for c in done:
                cur.execute(f'DROP TABLE IF EXISTS "{c.name}"')
                self.dropped += 1
                logger.info("native copy %s dropped", c.name)
        finally:
            cur.close()

    def settle(self) -> None:
        """Wait until the copies asked for so far are built and the retired
        ones without leases dropped."""
        self._builder.submit(self._drop_retired).result()

    def names(self) -> list[str]:
        """The copies ready to scan, least recently used first."""
        with self._lock:
            return [c.name for c in self._copies.values() if c.ready and not c.retired]

    def close(self) -> None:
        self._builder.shutdown(wait=True)
