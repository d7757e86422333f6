"""COPY FROM STDIN and COPY TO STDOUT, in text, CSV and binary formats.

COPY FROM streams: the input is cut into blocks of whole rows (about
``BLOCK_BYTES``; a CSV block never ends inside a quoted field), each block is
parsed by Arrow's CSV reader into string columns, cast to the column types
by DuckDB, checked like an INSERT, and handed to the work's txn, which spills
it to a batch in Blob. Parsing and casting run off the event loop a block or
two ahead of the block being checked and written (``_Blocks``), which keeps
input order. Memory stays bounded by a few blocks however large the
input; uniqueness is checked against a running set of keys. Nothing is
visible until the statement (or its transaction) commits; an error or a
CopyFail aborts it and deletes what was spilled.

COPY TO formats rows with ``values`` in slices of ``SLICE_ROWS`` rows.

Binary COPY (PostgreSQL's ``PGCOPY`` file format: a signature, then per row
a field count and length-prefixed fields, then -1) is framed here, in
blocks of ``BINARY_ROWS`` rows; the fields themselves are in the protocol's
binary format for their type, which the front end knows: its source's
``decode(data, sql_type)`` and its sink's ``encode(value, sql_type)``.

The front end provides a ``CopySource`` (``start`` announces the copy, e.g.
CopyInResponse; iterating yields the data) and a ``CopySink`` (``start``,
then ``write`` per chunk).
"""

from __future__ import annotations

import asyncio
import io
import re
import struct
from collections import deque
from typing import AsyncIterator, Protocol

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
from pglast import ast

from planner import parse as p
from planner.bind import quoted, transpile
from planner.dml import check_unique_on, duplicate_key, key_values
from planner.errors import BAD_COPY_FILE_FORMAT, SqlError, not_supported
from planner.result import Result
from planner.sqltypes import INTEGER_RANGES, array_texts, duckdb_type, stored_cast
from values import TextStyle, format_column, interval_text, of_arrow, python_values
from planner.work import off_loop
from local_exec import key_tuples, matching

BLOCK_BYTES = 4 << 20
SLICE_ROWS = 65536


class CopySource(Protocol):
    async def start(self, columns: int, fmt: str) -> None: ...

    # for binary COPY (optional): ``decode(data, sql_type)`` -> a value

    def __aiter__(self) -> AsyncIterator[bytes]: ...


class CopySink(Protocol):
    async def start(self, columns: int, fmt: str) -> None: ...

    # for binary COPY (optional): ``encode(value, sql_type)`` -> bytes

    async def write(self, rows: list[bytes]) -> None:
        """Rows of COPY data, each ending with a newline (one CopyData each)."""


class BytesSource:
    """A CopySource over chunks already in hand (the Session API, tests)."""

    def __init__(self, chunks):
        self._chunks = [chunks] if isinstance(chunks, (bytes, str)) else chunks

    async def start(self, columns: int, fmt: str) -> None:
        pass

    async def __aiter__(self):
        for c in self._chunks:
            yield c.encode() if isinstance(c, str) else c


class BufferSink:
    def __init__(self):
        self.chunks: list[bytes] = []

    async def start(self, columns: int, fmt: str) -> None:
        pass

    async def write(self, rows: list[bytes]) -> None:
        self.chunks.extend(rows)

    @property
    def data(self) -> bytes:
        return b"".join(self.chunks)


class Options:
    def __init__(self, node: ast.CopyStmt):
        self.format = "text"
        self.header = False
        self.delimiter = None
        self.null = None
        self.quote = '"'
        self.escape = None
        for opt in node.options or ():
            name = opt.defname
            value = _opt_value(opt.arg)
            if name == "format":
                self.format = str(value).lower()
            elif name == "header":
                self.header = value in (True, 1, "true", "on", "1", None) if not isinstance(value, str) or value.lower() != "match" else True
            elif name == "delimiter":
                self.delimiter = value
            elif name == "null":
                self.null = value
            elif name == "quote":
                self.quote = value
            elif name == "escape":
                self.escape = value
            elif name in ("encoding",):
                if str(value).upper().replace("-", "") not in ("UTF8",):
                    raise not_supported(f"COPY encoding {value}")
            elif name in ("freeze",):
                pass
            else:
                raise not_supported(f"COPY option {name}")
        if self.format not in ("text", "csv", "binary"):
            raise SqlError("22023", f'COPY format "{self.format}" not recognized')
        if self.format == "binary":
            for given, what in ((self.delimiter, "DELIMITER"), (self.null, "NULL"), (self.header or None, "HEADER")):
                if given is not None:
                    raise SqlError("42601", f"cannot specify {what} in BINARY mode")
            self.delimiter, self.null = "\t", ""
            return
        if self.delimiter is None:
            self.delimiter = "\t" if self.format == "text" else ","
        if self.null is None:
            self.null = "\\N" if self.format == "text" else ""
        if len(self.delimiter) != 1:
            raise SqlError("22023", "COPY delimiter must be a single one-byte character")
        if self.format == "text" and self.header:
            self.header = True  # PostgreSQL 15+ accepts HEADER with text


def _opt_value(arg):
    if arg is None:
        return None
    if isinstance(arg, ast.String):
        return arg.sval
    if isinstance(arg, ast.Integer):
        return arg.ival
    if isinstance(arg, ast.Boolean):
        return arg.boolval
    return str(getattr(arg, "sval", arg))


def _columns(node: ast.CopyStmt, rel) -> list:
    """The columns COPY moves: those listed, else every column but the
    generated ones (a listed generated column is 42P10, as in PostgreSQL 15)."""
    if node.attlist:
        cols = [rel.column(a.sval) for a in node.attlist]
        for c in cols:
            if c.generated is not None:
                raise SqlError("42P10", f'column "{c.name}" is a generated column', detail="Generated columns cannot be used in COPY.")
        return cols
    return [c for c in rel.columns if c.generated is None]


# -- COPY FROM ------------------------------------------------------------------


async def copy_from(dml, node: ast.CopyStmt, source: CopySource | None) -> Result:
    if node.filename is not None or node.is_program:
        raise not_supported("COPY to or from a file or program (use STDIN/STDOUT)")
    if node.whereClause is not None:
        raise not_supported("COPY FROM ... WHERE")
    rel = await dml.target(node.relation)
    opts = Options(node)
    cols = _columns(node, rel)
    if source is None:
        raise SqlError("57014", "COPY FROM STDIN needs a copy-in capable client")
    await source.start(len(cols), opts.format)
    guard = _KeyGuard(dml, rel)
    if opts.format == "binary":
        if getattr(source, "decode", None) is None:
            raise not_supported("binary COPY without a protocol front end")
        total = await _copy_from_binary(dml, rel, cols, source, guard)
        await guard.finish()
        return Result(f"COPY {total}")
    blocks = _Blocks(dml, rel, cols, opts, guard)
    pending = bytearray()
    done = False
    try:
        async for chunk in source:
            if done:
                continue
            pending += chunk
            while len(pending) >= BLOCK_BYTES:
                cut = _block_end(pending, opts)
                if cut <= 0:
                    break
                block = bytes(pending[:cut])
                del pending[:cut]
                block, done = _strip_end_marker(block, opts)
                await blocks.add(block)
                if done:
                    break
        if not done and pending:
            block, _ = _strip_end_marker(bytes(pending), opts)
            if block:
                await blocks.add(block)
        total = await blocks.finish()
    finally:
        await blocks.settle()
    await guard.finish()
    return Result(f"COPY {total}")


def _strip_end_marker(block: bytes, opts: Options) -> tuple[bytes, bool]:
    """Text format ends at a line holding only ``\\.``."""
    if block.startswith(b"\\.\n") or block == b"\\.":
        return b"", True
    i = block.find(b"\n\\.\n")
    if i < 0 and block.endswith(b"\n\\."):
        i = len(block) - 3
    if i >= 0:
        return block[: i + 1], True
    return block, False


def _block_end(buf: bytearray, opts: Options) -> int:
    """Where the last complete row of ``buf`` ends (0: none yet)."""
    end = buf.rfind(b"\n")
    if opts.format != "csv":
        return end + 1
    q = opts.quote.encode()
    while end >= 0:
        if buf.count(q, 0, end) % 2 == 0:
            return end + 1
        end = buf.rfind(b"\n", 0, end)
    return 0


class _Blocks:
    """COPY FROM's blocks in a pipeline: a block's parse (Arrow's CSV
    reader) and cast to the column types (DuckDB), both off the event loop,
    start as soon as it is cut, up to ``AHEAD`` blocks before the one being
    stored; storing (sequences, constraints, keys, the txn's write) takes one
    block at a time in input order. So a load uses a second core, and its
    rows, their sequence values and the error it reports (the first block's
    that fails) are a serial load's."""

    AHEAD = 2

    def __init__(self, dml, rel, cols, opts: Options, guard: "_KeyGuard"):
        self.dml, self.rel, self.cols, self.opts, self.guard = dml, rel, cols, opts, guard
        self._cast: deque[asyncio.Task] = deque()
        self._first = True
        self.total = 0

    async def add(self, block: bytes) -> None:
        skip_header = self._first and self.opts.header
        self._first = False
        self._cast.append(asyncio.ensure_future(self._parsed_and_cast(block, skip_header)))
        while len(self._cast) > self.AHEAD:
            await self._store_next()

    async def finish(self) -> int:
        while self._cast:
            await self._store_next()
        return self.total

    async def settle(self) -> None:
        """Let the blocks still being cast end (the load failed or was
        cancelled: their own failures are moot). They are waited for, not
        cancelled: a cast runs on a thread in the engine's connection, which
        a cancelled task would leave busy after the statement ended (the
        database's close then failed: "connection is busy")."""
        pending, self._cast = list(self._cast), deque()
        if pending:
            await asyncio.shield(asyncio.gather(*pending, return_exceptions=True))

    async def _parsed_and_cast(self, block: bytes, skip_header: bool) -> pa.Table:
        strings = await asyncio.to_thread(_parse_block, block, len(self.cols), self.opts, skip_header)
        return await _cast_block(self.dml, self.rel, self.cols, strings)

    async def _store_next(self) -> None:
        self.total += await _store_block(self.dml, self.rel, self.cols, await self._cast.popleft(), self.guard)


def _interval_texts(column) -> pa.Array:
    """Interval text as PostgreSQL reads it (``-41 mon -12 days +360:00``,
    which DuckDB refuses) in the form DuckDB reads exactly
    (``values.interval_text``), each distinct text read once."""
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    distinct = pc.unique(column)
    read = pa.array([None if t is None else interval_text(t) for t in distinct.to_pylist()], pa.string())
    return pc.take(read, pc.index_in(column, value_set=distinct))


async def _load_table(dml, rel, cols, strings: pa.Table, guard: "_KeyGuard") -> int:
    """Rows of ``cols`` (columns ``c0``, ``c1``, ...: text, or values of
    their types) cast, defaulted, checked and written."""
    return await _store_block(dml, rel, cols, await _cast_block(dml, rel, cols, strings), guard)


async def _cast_block(dml, rel, cols, strings: pa.Table) -> pa.Table:
    """Rows of ``cols`` (columns ``c0``, ``c1``, ...: text, or values of
    their types) cast to the table's column types, defaulted (sequences are
    ``_store_block``'s)."""
    if strings.num_rows == 0:
        return pa.table({})
    exprs = []
    for i, col in enumerate(rel.columns):
        names = [c.name for c in cols]
        if col.name in names:
            at = names.index(col.name)
            src = f'"c{at}"'
            text = pa.types.is_string(strings.column(at).type) or pa.types.is_null(strings.column(at).type)
            if col.type.endswith("[]") and text:
                strings = strings.set_column(at, f"c{at}", array_texts(strings.column(at)))  # elements' texts, cast below
                expr = f"list_transform({src}, lambda _lx: unhex(substr(_lx, 3)))" if col.type == "bytea[]" else f"CAST({src} AS {duckdb_type(col.type)})"
            elif col.type == "bytea":
                expr = f"unhex(substr({src}, 3))" if text else f"CAST({src} AS BLOB)"
            elif col.type == "boolean" and text:
                expr = f"txngate_boolean_text({src})"
            elif col.type in INTEGER_RANGES and text:
                expr = f"CAST(txngate_integer_text({src}, '{col.type}') AS {duckdb_type(col.type)})"
            elif col.type == "interval" and text:
                strings = strings.set_column(at, f"c{at}", _interval_texts(strings.column(at)))  # PostgreSQL's forms, read alike
                expr = f"CAST({src} AS INTERVAL)"
            elif col.type in ("date", "timestamp", "timestamptz") and text:
                expr = f"CAST(txngate_bc_text({src}) AS {duckdb_type(col.type)})"
            else:
                expr = stored_cast(src, col.type)
        elif col.default is not None and not col.filled:
            expr = stored_cast(transpile(col.default), col.type)
        else:  # (a sequenced column is filled below)
            expr = f"CAST(NULL AS {duckdb_type(col.type)})"
        exprs.append(f'{expr} AS {quoted(col.name)}')
    return await dml.run(f"SELECT {', '.join(exprs)} FROM _block", {"_block": strings})


async def _store_block(dml, rel, cols, out: pa.Table, guard: "_KeyGuard") -> int:
    """Cast rows (``_cast_block``) given their sequence values, checked
    (constraints, keys, references) and written; how many."""
    if out.num_rows == 0:
        return 0
    rows = await dml.conform(await dml.fill_sequences(rel, out, [c.name for c in cols]), rel)
    await guard.check(rows)
    await dml.references.check_referencing(rel, rows)
    await dml.work.write(rel.shard, rows, 1, keep=dml.work.explicit)
    return rows.num_rows


def _parse_block(block: bytes, ncols: int, opts: Options, skip_header: bool) -> pa.Table:
    names = [f"c{i}" for i in range(ncols)]
    if opts.format == "text" and (b"\\\t" in block or b"\\\n" in block or opts.delimiter != "\t" and f"\\{opts.delimiter}".encode() in block):
        return _parse_text_slow(block, names, opts, skip_header)
    read = pacsv.ReadOptions(column_names=names, skip_rows=1 if skip_header else 0, use_threads=True, block_size=1 << 22)
    if opts.format == "csv":
        parse = pacsv.ParseOptions(
            delimiter=opts.delimiter, quote_char=opts.quote, double_quote=opts.escape in (None, opts.quote),
            escape_char=opts.escape if opts.escape not in (None, opts.quote) else False, newlines_in_values=True,
        )
    else:
        parse = pacsv.ParseOptions(delimiter=opts.delimiter, quote_char=False, escape_char=False)
    convert = pacsv.ConvertOptions(
        column_types={n: pa.string() for n in names}, null_values=[opts.null], strings_can_be_null=True,
        quoted_strings_can_be_null=False,
    )
    try:
        table = pacsv.read_csv(io.BytesIO(block), read_options=read, parse_options=parse, convert_options=convert)
    except pa.ArrowInvalid as e:
        msg = str(e)
        if "Expected" in msg and "columns" in msg:
            raise SqlError(BAD_COPY_FILE_FORMAT, "extra data after last expected column" if "got" in msg and _more(msg) else "missing data for column", detail=msg) from None
        raise SqlError(BAD_COPY_FILE_FORMAT, msg) from None
    if opts.format == "text":
        table = pa.table([_unescape_column(table.column(n)) for n in names], names=names)
    return table


def _more(msg: str) -> bool:
    m = re.search(r"Expected (\d+) columns, got (\d+)", msg)
    return bool(m) and int(m.group(2)) > int(m.group(1))


_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}


def _unescape(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 >= len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n in _ESCAPES:
            out.append(_ESCAPES[n])
            i += 2
        elif n == "x" and i + 2 < len(s) and s[i + 2] in "0123456789abcdefABCDEF":
            j = i + 2
            while j < len(s) and j < i + 4 and s[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(chr(int(s[i + 2 : j], 16)))
            i = j
        elif n in "01234567":
            j = i + 1
            while j < len(s) and j < i + 4 and s[j] in "01234567":
                j += 1
            out.append(chr(int(s[i + 1 : j], 8)))
            i = j
        else:
            out.append(n)
            i += 2
    return "".join(out)


def _unescape_column(col) -> pa.Array:
    if col.null_count == len(col) or not pc.any(pc.match_substring(col, "\\")).as_py():
        return col
    return pa.array([None if v is None else _unescape(v) for v in col.to_pylist()], pa.string())


def _parse_text_slow(block: bytes, names: list[str], opts: Options, skip_header: bool) -> pa.Table:
    text = block.decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if skip_header and lines:
        lines = lines[1:]
    cols: list[list] = [[] for _ in names]
    for n, line in enumerate(lines, 1):
        fields, cur, i = [], [], 0
        while i < len(line):
            c = line[i]
            if c == "\\" and i + 1 < len(line):
                cur.append(line[i : i + 2])
                i += 2
                continue
            if c == opts.delimiter:
                fields.append("".join(cur))
                cur = []
            else:
                cur.append(c)
            i += 1
        fields.append("".join(cur))
        if len(fields) != len(names):
            raise SqlError(BAD_COPY_FILE_FORMAT, "missing data for column" if len(fields) < len(names) else "extra data after last expected column")
        for i, f in enumerate(fields):
            cols[i].append(None if f == opts.null else _unescape(f))
    return pa.table([pa.array(c, pa.string()) for c in cols], names=names)


class _KeyGuard:
    """Uniqueness of COPY input, in memory bounded by Arrow's bytes of the
    key columns (no Python object per row, and the table is never read
    whole): each block's keys are looked up in the table by key search
    (the cost does not grow with the table; an empty table costs nothing),
    and every block's keys are checked against each other by Arrow
    grouping once all have arrived (``finish``). A COPY that fails writes
    nothing, so finding a repeat at the end is as good as at its row; it is
    reported as the first row repeating a key."""

    def __init__(self, dml, rel):
        self.dml = dml
        self.rel = rel
        self.seen: list[list[pa.Table]] = [[] for _ in rel.unique_keys]  # per constraint: each block's keys

    async def check(self, rows: pa.Table) -> None:
        if not self.rel.unique_keys or not rows.num_rows:
            return
        for (name, cols, predicate), seen in zip(self.rel.unique_keys, self.seen):
            held = rows if predicate is None else await self.dml.satisfying(self.rel, predicate, rows)  # a partial index's rows
            keys = held.select(list(cols))
            existing = await self.dml.work.lookup(self.rel, list(cols), keys)
            if predicate is not None and existing.num_rows:
                existing = await self.dml.satisfying(self.rel, predicate, existing)
            if existing.num_rows:
                await off_loop(held.num_rows, check_unique_on, self.rel, name, list(cols), existing, held)
            seen.append(keys.take(pa.array(range(keys.num_rows), pa.int64())))  # a copy: a slice would keep the whole block's buffers alive

    async def finish(self) -> None:
        for (name, cols, _predicate), seen in zip(self.rel.unique_keys, self.seen):
            if not seen:
                continue
            keys = pa.concat_tables(seen)
            error = await off_loop(keys.num_rows, self._repeat, name, list(cols), keys)
            if error is not None:
                raise error
        self.seen = [[] for _ in self.rel.unique_keys]

    def _repeat(self, name: str, cols: list[str], keys: pa.Table) -> SqlError | None:
        for c in cols:
            keys = keys.filter(pc.is_valid(keys.column(c)))  # a key with a NULL equals nothing
        try:
            counts = keys.group_by(cols, use_threads=False).aggregate([([], "count_all")])
            repeated = counts.filter(pc.greater(counts.column("count_all"), 1)).select(cols)
        except pa.ArrowNotImplementedError:  # array keys, which Arrow cannot group: every row is a candidate
            repeated = keys
        return self._first_repeat(name, cols, keys, repeated) if repeated.num_rows else None

    def _first_repeat(self, name: str, cols: list[str], keys: pa.Table, repeated: pa.Table) -> SqlError | None:
        """23505 for the first of ``keys`` (in input order) repeating an
        earlier one, looked for among the rows with ``repeated`` keys."""
        rows = keys if repeated is keys else keys.filter(matching(keys, cols, key_tuples(repeated, cols)))
        seen = set()
        for key in zip(*(key_values(rows.column(c)) for c in cols)):
            if key in seen:
                return duplicate_key(self.rel, name, cols, key)
            seen.add(key)
        return None


BINARY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"
BINARY_ROWS = 20_000


async def _copy_from_binary(dml, rel, cols, source, guard: "_KeyGuard") -> int:
    """Binary COPY FROM: framed here, fields decoded by ``source.decode``."""
    buf = bytearray()
    pos = 0
    header = False
    columns: list[list] = [[] for _ in cols]
    total = 0
    ended = False

    def bad(message: str) -> SqlError:
        return SqlError(BAD_COPY_FILE_FORMAT, message)

    async def flush() -> int:
        nonlocal columns
        if not columns[0]:
            return 0
        arrays = []
        for values, col in zip(columns, cols):
            try:
                arrays.append(pa.array(values))
            except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
                raise bad(f"invalid binary data for column {col.name}: {e}") from None
        columns = [[] for _ in cols]
        return await _load_table(dml, rel, cols, pa.table(arrays, names=[f"c{i}" for i in range(len(cols))]), guard)

    async for chunk in source:
        if ended:
            continue
        buf += chunk
        if not header:
            if len(buf) < 19:
                continue
            if bytes(buf[:11]) != BINARY_SIGNATURE:
                raise bad("COPY file signature not recognized")
            (ext,) = struct.unpack_from("!i", buf, 15)
            if len(buf) < 19 + ext:
                continue
            pos, header = 19 + ext, True
        while True:
            if len(buf) - pos < 2:
                break
            (nfields,) = struct.unpack_from("!h", buf, pos)
            if nfields == -1:
                ended = True
                break
            if nfields != len(cols):
                raise bad(f"row field count is {nfields}, expected {len(cols)}")
            at, values = pos + 2, []
            for col in cols:
                if len(buf) - at < 4:
                    break
                (n,) = struct.unpack_from("!i", buf, at)
                at += 4
                if n == -1:
                    values.append(None)
                    continue
                if len(buf) - at < n:
                    break
                try:
                    values.append(source.decode(bytes(buf[at:at + n]), col.type))
                except (struct.error, ValueError, IndexError, UnicodeDecodeError) as e:
                    raise SqlError("22P03", f'incorrect binary data format in column "{col.name}": {e}') from None
                at += n
            if len(values) < len(cols):
                break  # the row goes on in the next chunk
            for column, v in zip(columns, values):
                column.append(v)
            pos = at
            if len(columns[0]) >= BINARY_ROWS:
                total += await flush()
        del buf[:pos]
        pos = 0
    if not header or (not ended and len(buf) > pos):  # PostgreSQL takes the end of data at a row's end as the trailer
        raise bad("unexpected EOF in COPY data")
    return total + await flush()


# -- COPY TO --------------------------------------------------------------------


async def copy_to(dml, node: ast.CopyStmt, sink: CopySink | None) -> Result:
    if node.filename is not None or node.is_program:
        raise not_supported("COPY to or from a file or program (use STDIN/STDOUT)")
    if sink is None:
        raise SqlError("57014", "COPY TO STDOUT needs a copy-out capable client")
    opts = Options(node)
    if node.query is not None:
        out = await dml.select(node.query)
        names = p.result_names(node.query)
        if names is not None and len(names) == out.num_columns:
            out = out.rename_columns(names)
        types = [of_arrow(f) for f in out.schema]
    else:
        catalog = await dml.work.catalog()
        rel = catalog.relation(node.relation.relname, node.relation.schemaname, dml.search_path)
        if rel.kind == "view":
            raise SqlError("42809", f'cannot copy from view "{rel.name}"', hint="Try the COPY (SELECT ...) TO variant.")
        cols = _columns(node, rel)
        out = (await dml.work.contents(rel)).select([c.name for c in cols])
        types = [c.type for c in cols]
    if opts.format == "binary" and getattr(sink, "encode", None) is None:
        raise not_supported("binary COPY without a protocol front end")
    await sink.start(out.num_columns, opts.format)
    if opts.format == "binary":
        # as PostgreSQL sends it: the header with the first row, then a row
        # per message, then the trailer on its own (with the header if no rows)
        header = BINARY_SIGNATURE + struct.pack("!ii", 0, 0)
        for start in range(0, out.num_rows, SLICE_ROWS):
            part = out.slice(start, SLICE_ROWS)
            values = [python_values(c) for c in part.columns]
            rows = []
            for i in range(part.num_rows):
                fields = [header, struct.pack("!h", len(values))]
                header = b""
                for column, sql_type in zip(values, types):
                    v = column[i]
                    if v is None:
                        fields.append(b"\xff\xff\xff\xff")
                    else:
                        data = sink.encode(v, sql_type)
                        fields.append(struct.pack("!i", len(data)) + data)
                rows.append(b"".join(fields))
            await sink.write(rows)
        await sink.write([header + b"\xff\xff"])
        return Result(f"COPY {out.num_rows}")
    if opts.header:
        await sink.write([(opts.delimiter.join(_csv_quote(n, opts) if opts.format == "csv" else n for n in out.column_names) + "\n").encode()])
    for start in range(0, out.num_rows, SLICE_ROWS):
        part = out.slice(start, SLICE_ROWS)
        await sink.write(format_rows(part, types, opts, dml.style))
    return Result(f"COPY {out.num_rows}")


def _csv_quote(s: str, opts: Options) -> str:
    q = opts.quote
    esc = opts.escape or q
    if s == "" or any(c in s for c in (opts.delimiter, q, "\n", "\r", esc)) or s == opts.null:
        body = s.replace(esc, esc + esc).replace(q, esc + q) if esc != q else s.replace(q, q + q)
        return q + body + q
    return s


def format_rows(table: pa.Table, types: list[str], opts: Options, style: TextStyle | None = None) -> list[bytes]:
    """Rows in COPY text or CSV format, one bytes object per row."""
    cols = []
    for col, t in zip(table.columns, types):
        s = format_column(col, t, style)
        if opts.format == "text":
            if s.null_count < len(s) and pc.any(pc.match_substring_regex(s, r"[\\\t\n\r]")).as_py():
                s = pc.replace_substring(s, "\\", "\\\\")
                for raw, esc in (("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r")):
                    s = pc.replace_substring(s, raw, esc)
            if opts.delimiter != "\t":
                s = pc.replace_substring(s, opts.delimiter, "\\" + opts.delimiter)
        else:
            s = pa.array([None if v is None else _csv_quote(v, opts) for v in s.to_pylist()], pa.string())
        cols.append(s)
    if not cols:
        return [b"\n"] * table.num_rows
    if len(cols) == 1:
        lines = pc.fill_null(cols[0], opts.null)
    else:
        lines = pc.binary_join_element_wise(*cols, opts.delimiter, null_handling="replace", null_replacement=opts.null)
    return [(line + "\n").encode() for line in lines.to_pylist()]


__all__ = ["BufferSink", "BytesSource", "CopySink", "CopySource", "copy_from", "copy_to", "format_rows"]
