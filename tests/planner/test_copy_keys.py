"""COPY into a keyed table checks uniqueness as INSERT does, block by block
by key search (the table is never read whole, ``copy._KeyGuard``), and
across blocks once all have arrived: a key repeated in a later block, or
one already in the table, fails the COPY with 23505 (the first repeating
row's key in DETAIL), and nothing of it is written."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

from planner.errors import SqlError

ROWS = 400_000  # several 4 MiB blocks of CSV
CHUNK = 50_000


class Rows:
    """A CopySource of CSV rows (id, k, s) for ids ``range(n)``, k =
    ``k(id)`` (id % 7), with ``extra`` rows appended at the end."""

    def __init__(self, n: int, extra: list[tuple] = (), k=lambda i: i % 7):
        self.n, self.extra, self.k = n, list(extra), k

    async def start(self, columns: int, fmt: str) -> None:
        pass

    async def __aiter__(self):
        for start in range(0, self.n, CHUNK):
            ids = list(range(start, min(start + CHUNK, self.n)))
            yield self._csv(ids, [self.k(i) for i in ids], [f"row {i}" for i in ids])
        if self.extra:
            yield self._csv(*map(list, zip(*self.extra)))

    @staticmethod
    def _csv(ids, ks, ss) -> bytes:
        out = io.BytesIO()
        table = pa.table({"id": pa.array(ids, pa.int64()), "k": pa.array(ks, pa.int32()), "s": pa.array(ss, pa.string())})
        pacsv.write_csv(table, out, pacsv.WriteOptions(include_header=False))
        return out.getvalue()


async def count(s) -> int:
    return (await s.execute("SELECT count(*) FROM ck"))[-1].rows[0][0]


async def test_keyed_copy_across_blocks(db):
    s = db.session()
    await s.execute("CREATE TABLE ck (id bigint, k integer, s text, PRIMARY KEY (id, k))")
    tag = (await s.execute("COPY ck FROM STDIN (FORMAT csv)", copy_source=Rows(ROWS)))[-1].tag
    assert tag == f"COPY {ROWS}" and await count(s) == ROWS

    # a key of the table, in a new COPY: found by key search, the table not read whole
    before = dict(db.snapshots.stats)
    with pytest.raises(SqlError) as e:
        await s.execute("COPY ck FROM STDIN (FORMAT csv)", copy_source=Rows(0, [(ROWS + 1, 1, "a"), (12, 5, "b")]))
    assert (e.value.sqlstate, e.value.detail) == ("23505", "Key (id, k)=(12, 5) already exists.")
    assert db.snapshots.stats["scanned"] == before.get("scanned", 0)

    # a key repeating one of an earlier block of the same COPY (the first repeat is reported)
    await s.execute("DELETE FROM ck")
    dupes = [(ROWS - 1, (ROWS - 1) % 7, "again"), (3, 3, "again"), (3, 3, "and again")]
    with pytest.raises(SqlError) as e:
        await s.execute("COPY ck FROM STDIN (FORMAT csv)", copy_source=Rows(ROWS, dupes))
    assert (e.value.sqlstate, e.value.detail) == ("23505", f"Key (id, k)=({ROWS - 1}, {(ROWS - 1) % 7}) already exists.")
    assert e.value.message == 'duplicate key value violates unique constraint "ck_pkey"'
    assert await count(s) == 0  # nothing of a failed COPY

    # NULL keys never repeat; a unique constraint on a nullable column
    await s.execute("CREATE TABLE cu (id bigint PRIMARY KEY, k integer UNIQUE, s text)")
    source = Rows(ROWS, [(ROWS + 1, None, "n1")], k=lambda i: None if i % 2 else i)
    tag = (await s.execute("COPY cu FROM STDIN (FORMAT csv)", copy_source=source))[-1].tag
    assert tag == f"COPY {ROWS + 1}"
    with pytest.raises(SqlError) as e:
        await s.execute("COPY cu FROM STDIN (FORMAT csv)", copy_source=Rows(0, [(ROWS + 2, 8, "x")]))
    assert e.value.detail == "Key (k)=(8) already exists."


class Bad(Rows):
    """Rows whose k is not an integer at the ids in ``bad`` (text ``x<id>``)."""

    def __init__(self, n: int, bad: set[int]):
        super().__init__(n)
        self.bad = bad

    async def __aiter__(self):
        async for chunk in super().__aiter__():
            lines = chunk.split(b"\n")
            for i, line in enumerate(lines):
                row = line.split(b",", 2)
                if len(row) == 3 and int(row[0]) in self.bad:
                    lines[i] = b",".join([row[0], b"x" + row[0], row[2]])
            yield b"\n".join(lines)


async def test_blocks_load_in_input_order(db):
    """Blocks are parsed and cast ahead of the one being written
    (``copy._Blocks``), and still: sequence values follow the input's
    rows, and of bad values in two blocks the first one's error is
    reported, whichever block's cast fails first; nothing is written."""
    s = db.session()
    await s.execute("CREATE TABLE cs (id bigint, k integer, s text, n serial)")
    tag = (await s.execute("COPY cs (id, k, s) FROM STDIN (FORMAT csv)", copy_source=Rows(ROWS)))[-1].tag
    assert tag == f"COPY {ROWS}"
    out = (await s.execute("SELECT count(*) FILTER (WHERE n = id + 1), min(n), max(n) FROM cs"))[-1].rows
    assert out == [(ROWS, 1, ROWS)]
    with pytest.raises(SqlError) as e:
        await s.execute("COPY cs (id, k, s) FROM STDIN (FORMAT csv)", copy_source=Bad(ROWS, {ROWS - 5, 20}))
    assert (e.value.sqlstate, e.value.message) == ("22P02", 'invalid input syntax for type integer: "x20"')
    assert (await s.execute("SELECT count(*) FROM cs"))[-1].rows == [(ROWS,)]
