"""Sessions: ``Session.execute(sql, params)`` runs a query string and
returns one ``Result`` per statement (columns with SQL types, rows, command
tag), or raises ``SqlError``; ``Session.stream`` yields the results one by
one (the wire front end sends each as it comes).

Every statement runs in a ``Work`` (planner.work): the session's explicit
transaction, the implicit transaction of a multi-statement string, or its
own. Statement classes and their timestamps (DESIGN.md "Transactions"):

* SELECT, EXPLAIN, COPY TO: one ``read_ts``; the catalog and every relation
  read at it; the query runs on DuckDB over Arrow snapshots.
* INSERT (and COPY FROM) that reads nothing but the catalog (no keys to
  check, no SELECT over tables, no serial column): write-only, through group
  commit at a fresh ``write_ts``.
* Every other write and all DDL: read-then-write at ``(read_ts, read_ts +
  1)``, retried automatically — without recomputing when nothing it read
  changed — so keys stay unique under concurrency (23505).

Explicit transactions (BEGIN ... COMMIT) and the implicit transaction of a
multi-statement string read at one ``read_ts``, see their own writes and
DDL, and commit everything at COMMIT (or the end of the string) atomically,
at ``read_ts + 1`` or later only if nothing they read was written in between
— else 40001 and nothing is written. That is serializable (the write-skew of
seed 001 is refused). An error puts an explicit transaction in the aborted
state: 25P02 until ROLLBACK, ROLLBACK TO a savepoint, or COMMIT (which rolls
back); it rolls back an implicit one. READ ONLY transactions refuse writes
(25006). SAVEPOINT / RELEASE / ROLLBACK TO undo the writes made since the
savepoint (Work.rollback_to); reads stay in the read set.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import contextlib
import copy
import dataclasses
import functools
import logging
import re
import secrets
import time
from typing import AsyncIterator

import pglast
import pyarrow as pa
from pglast import ast, enums
from pglast.enums import A_Expr_Kind

from local_exec import EngineError
from planner import jsonops
from planner import parse as p
from planner import builtins, decimals, scopes, sequences, textscan, waits
from values import DATE_ORDER, INTERVAL_STYLE, IntervalSyntax, InvalidInput, TextStyle, interval_input, offset_of_hours, qualified_interval, setting_of_offset, zone
from planner.bind import Binder, pg_sql, result_types, scoped_column_types
from planner.catalog import TEMP_SCHEMA_PREFIX
from planner.copy import CopySink, CopySource, copy_from, copy_to
from planner.cursors import CURSOR_OPT_HOLD, Cursors
from planner.ddl import Ddl
from planner.dml import Dml
from planner.merge import merge
from planner import writable
from planner.errors import (
    ACTIVE_SQL_TRANSACTION,
    FEATURE_NOT_SUPPORTED,
    IN_FAILED_SQL_TRANSACTION,
    INVALID_DATETIME_FORMAT,
    INVALID_PARAMETER_VALUE,
    QUERY_CANCELED,
    READ_ONLY_TRANSACTION,
    UNDEFINED_PARAMETER,
    SqlError,
    from_storage,
    not_supported,
)
from planner.pgcatalog import PgCatalog, column_origins, replace_children
from planner.result import Result, RowStream, engine_blind, result_columns, to_result
from planner.route import DEFAULT_MAX_STATEMENT_MEMORY, DEFAULT_SPARK_THRESHOLD, ExecOptions, RoutedStream, out_of_memory, parse_bytes
from planner.sqltypes import TYPE_SEARCH_PATH, canonical, type_name
from planner.work import Work
from storage.errors import TxngateError
from storage.errors import CommitUnknown

logger = logging.getLogger(__name__)

DEFAULT_SETTINGS = {
    "application_name": "",
    "bytea_output": "hex",
    "client_encoding": "UTF8",
    "client_min_messages": "notice",
    "datestyle": "ISO, MDY",
    "default_transaction_isolation": "serializable",
    "default_transaction_read_only": "off",
    "extra_float_digits": "1",
    "idle_in_transaction_session_timeout": "0",
    "in_hot_standby": "off",
    "integer_datetimes": "on",
    "intervalstyle": "postgres",
    "is_superuser": "on",
    "lock_timeout": "0",
    "log_min_duration_statement": "-1",
    "max_identifier_length": "63",
    "scram_iterations": "4096",
    "search_path": '"$user", public',
    "server_encoding": "UTF8",
    "server_version": "16.4",
    "server_version_num": "160004",
    "session_authorization": "txngate",
    "standard_conforming_strings": "on",
    "statement_timeout": "0",
    "timezone": "UTC",
    "transaction_isolation": "serializable",
    "transaction_read_only": "off",
    "txngate.engine": "auto",
    "txngate.max_statement_memory": str(DEFAULT_MAX_STATEMENT_MEMORY),
    "txngate.progress_interval": "5000",
    "txngate.spark_fallback": "off",
    "txngate.spark_threshold": str(DEFAULT_SPARK_THRESHOLD),
}
#: PostgreSQL's planner, cost and resource settings, with its defaults: clients and scripts set them
#: (ORMs, dump files, tuning advice); txngate plans with its own engines, so they are kept and shown
#: but change nothing. The enable_* ones are booleans.
PLANNER_SETTINGS = {
    **{f"enable_{name}": "on" for name in (
        "async_append", "bitmapscan", "gathermerge", "hashagg", "hashjoin", "incremental_sort", "indexonlyscan", "indexscan",
        "material", "memoize", "mergejoin", "nestloop", "parallel_append", "parallel_hash", "partition_pruning", "seqscan",
        "sort", "tidscan")},
    "enable_partitionwise_aggregate": "off", "enable_partitionwise_join": "off",
    "cpu_index_tuple_cost": "0.005", "cpu_operator_cost": "0.0025", "cpu_tuple_cost": "0.01", "effective_cache_size": "4GB",
    "from_collapse_limit": "8", "geqo": "on", "jit": "on", "jit_above_cost": "100000", "join_collapse_limit": "8",
    "maintenance_work_mem": "64MB", "max_parallel_workers_per_gather": "2", "min_parallel_index_scan_size": "512kB",
    "min_parallel_table_scan_size": "8MB", "parallel_leader_participation": "on", "parallel_setup_cost": "1000",
    "parallel_tuple_cost": "0.1", "plan_cache_mode": "auto", "random_page_cost": "4", "seq_page_cost": "1",
    "temp_buffers": "8MB", "work_mem": "4MB", "default_statistics_target": "100", "escape_string_warning": "on",
    "check_function_bodies": "on", "row_security": "on", "synchronous_commit": "on", "xmloption": "content",
    "lc_messages": "C", "lc_monetary": "C", "lc_numeric": "C", "lc_time": "C", "max_stack_depth": "2MB",
}
_PLANNER_BOOLEANS = {name for name, v in PLANNER_SETTINGS.items() if v in ("on", "off")}
DEFAULT_SETTINGS.update(PLANNER_SETTINGS)
DISPLAY_NAMES = {"datestyle": "DateStyle", "intervalstyle": "IntervalStyle", "timezone": "TimeZone"}  # as SHOW titles them
READ_ONLY_SETTINGS = {"server_version", "server_version_num", "server_encoding", "integer_datetimes", "max_identifier_length", "is_superuser",
                      "in_hot_standby"}
ISOLATION_NAMES = {"serializable", "repeatable read", "read committed", "read uncommitted"}


def parse_duration_ms(value: str, setting: str) -> int:
    """A PostgreSQL time setting (``5000``, ``'5s'``, ``'100ms'``, ``'1min'``) in ms."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|min|h|d)?\s*", str(value))
    if m is None:
        raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "{setting}": "{value}"')
    scale = {"ms": 1, None: 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}[m.group(2)]
    return int(float(m.group(1)) * scale)


@functools.lru_cache(maxsize=64)
def _duration_ms(value: str, setting: str) -> int:
    """``parse_duration_ms``, remembered: every statement asks for its timeout."""
    return parse_duration_ms(value, setting)


@functools.lru_cache(maxsize=64)
def _search_path(setting: str, user: str, temp_schema: str | None) -> tuple[str, ...]:
    """The schemas a name is looked up in: the temporary schema (as
    PostgreSQL's pg_temp), then the setting's, ``$user`` as the user's name
    (remembered: every statement looks names up)."""
    out = []
    for part in setting.split(","):
        name = part.strip().strip('"')
        out.append(user if name == "$user" else name)
    temp = (temp_schema,) if temp_schema is not None else ()
    return temp + (tuple(out) or ("public",))


_DATE_FORMATS = {"iso": "ISO", "sql": "SQL", "postgres": "Postgres", "german": "German"}
_DATE_ORDERS = {"dmy": "DMY", "euro": "DMY", "european": "DMY", "mdy": "MDY", "us": "MDY", "noneuro": "MDY", "noneuropean": "MDY", "ymd": "YMD"}


def _boolean(value: str, setting: str) -> str:
    v = value.strip().lower()
    if v in ("on", "true", "yes", "1", "t", "y"):
        return "on"
    if v in ("off", "false", "no", "0", "f", "n"):
        return "off"
    raise SqlError(INVALID_PARAMETER_VALUE, f'parameter "{setting}" requires a Boolean value')


def _timezone(value: str) -> str:
    """A TimeZone txngate can print times in (values.zones): a number of
    hours east (stored as PostgreSQL shows it, ``<+10:30>-10:30``), a zone
    name, or a POSIX offset west (``+02:00``, ``UTC+3``). POSIX zones with
    daylight rules and offsets of a day or more are refused rather than
    printed as UTC."""
    east = offset_of_hours(value)
    if east is not None:
        value = setting_of_offset(east)
    if zone(value) is not None:
        return value
    if re.match(r"^\s*[+-]?\d|^<|^\w{3,}[+-]?\d", value):
        raise not_supported(f'time zone "{value}" (give a zone name such as Etc/GMT-2 or Europe/Oslo, or an offset under a day in whole minutes)')
    raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "TimeZone": "{value}"')


def _zone_of_interval(tc: ast.TypeCast) -> str:
    """``SET TIME ZONE INTERVAL '+02:30' HOUR TO MINUTE``: the offset east,
    as PostgreSQL stores it (a time of day, no months or days)."""
    if not (isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String)):
        raise not_supported("SET TIME ZONE to an expression")
    text = tc.arg.val.sval
    mask, *rest = [m.val.ival for m in tc.typeName.typmods or ()] or [None]
    try:
        if mask is None:
            months, days, micros = interval_input(text)
        else:
            months, days, micros = qualified_interval(text, mask, rest[0] if rest else None)
    except IntervalSyntax:
        raise SqlError(INVALID_DATETIME_FORMAT, f'invalid input syntax for type interval: "{text}"') from None
    if months or days:
        raise SqlError(INVALID_PARAMETER_VALUE, f"invalid interval value for time zone: {'month' if months else 'day'} not allowed")
    return setting_of_offset(dt.timedelta(microseconds=micros))


def _datestyle(value: str, current: str) -> str:
    """DateStyle in PostgreSQL's canonical form (``ISO, DMY``): an output
    format and a field order, each kept from ``current`` when not given."""
    fmt, order = (part.strip() for part in current.split(","))
    for token in re.split(r"[\s,]+", value.strip()):
        if token.lower() in _DATE_FORMATS:
            fmt = _DATE_FORMATS[token.lower()]
        elif token.lower() in _DATE_ORDERS:
            order = _DATE_ORDERS[token.lower()]
        elif token.lower() == "default":
            fmt, order = "ISO", "MDY"
        else:
            raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "DateStyle": "{value}"', detail=f'Unrecognized key word: "{token}".')
    if fmt != "ISO":  # dates and times are printed in ISO only (values.text)
        raise not_supported(f'DateStyle "{fmt}"')
    return f"{fmt}, {order}"


#: the output settings with a choice of values (values.TextStyle prints each)
_OUTPUT_CHOICES = {"intervalstyle": ("postgres", "sql_standard", "postgres_verbose", "iso_8601"), "bytea_output": ("hex", "escape")}


def _output_setting(name: str, value: str) -> str:
    """IntervalStyle or bytea_output, in lower case (``default``: PostgreSQL's)."""
    v = value.strip().lower()
    if v == "default":
        return DEFAULT_SETTINGS[name]
    if v not in _OUTPUT_CHOICES[name]:
        raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "{name}": "{value}"',
                       hint="Available values: " + ", ".join(_OUTPUT_CHOICES[name]) + ".")
    return v


def _extra_float_digits(value: str) -> str:
    """extra_float_digits: -15 to 3 (1 to 3: floats print shortest-exact;
    0 and below: with 15 (6 for real) plus that many digits)."""
    try:
        digits = int(value.strip())
    except ValueError:
        raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "extra_float_digits": "{value}"') from None
    if not -15 <= digits <= 3:
        raise SqlError(INVALID_PARAMETER_VALUE, f"{digits} is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)")
    return str(digits)


class Session:
    def __init__(self, db, *, user: str = "txngate", settings: dict[str, str] | None = None):
        self.db = db
        db.sessions.add(self)
        self.user = user
        self.settings = dict(DEFAULT_SETTINGS)
        self.settings["session_authorization"] = user
        for k, v in (settings or {}).items():
            self.set(k, v)
        self.work: Work | None = None  # the open explicit (or implicit) transaction
        self._explicit = False
        #: the open work is an implicit transaction block: "pipeline" (the
        #: extended protocol's statements before a Sync) or "string" (the
        #: statements of one query string); see ``begin_implicit``
        self._implicit: str | None = None
        #: the settings when the open transaction began (a rollback restores
        #: them) and the values SET LOCAL replaced (its end restores them)
        self._settings_at_begin: dict[str, str] | None = None
        self._local_settings: dict[str, str] = {}
        self._statement_settings: dict[str, str] = {}  # set_config(..., true) outside a transaction: until the statement ends
        #: its temporary tables' ON COMMIT actions (OID -> "drop" / "delete"), see ``Ddl.on_commit``
        self._on_commit: dict[int, str] = {}
        self._savepoints: list[tuple[str, tuple]] = []  # (name, Work.mark()), innermost last
        self.cursors = Cursors()
        #: called with a prepared statement's name (None: all) on DEALLOCATE
        self.on_deallocate = None
        #: statements of SQL's PREPARE, by name: (the query, its parameters' declared types or None)
        self.prepared: dict[str, tuple[ast.Node, tuple[ast.TypeName | None, ...]]] = {}
        #: the process id clients see (pg_backend_pid(), BackendKeyData)
        self.backend_pid = 0
        #: the schema of this session's temporary tables, once it made one
        #: (dropped with them when the session closes)
        self.temp_schema: str | None = None
        #: called with a notice ("SEVERITY SQLSTATE: text") while a statement
        #: runs (Spark progress); the gateway sends it at once
        self.on_notice = None
        #: pg_cancel_backend / pg_terminate_backend of this session (set by
        #: the gateway; called on the event loop)
        self.on_cancel = None
        self.wait = waits.Slot()  # what its statement waits for (pg_stat_activity)
        self.sequence_values: dict[str, int] = {}  # each sequence's last nextval here (currval)
        self.xact_start: dt.datetime | None = None  # its open transaction's start
        self.on_terminate = None
        #: pg_stat_activity: when the session began, its last statement and when that began
        self.backend_start = dt.datetime.now(dt.timezone.utc)
        self.query, self.query_start = "", None
        self.active = False  # a statement of it runs (the gateway sets it until ReadyForQuery)

    # -- state -----------------------------------------------------------------

    @property
    def status(self) -> str:
        """ReadyForQuery status: I (idle), T (in a transaction), E (aborted)."""
        if self.work is None or not self._explicit:
            return "I"
        return "E" if self.work.failed else "T"

    @property
    def search_path(self) -> tuple[str, ...]:
        return _search_path(self.settings["search_path"], self.user, self.temp_schema)

    @property
    def timeout(self) -> float | None:
        ms = _duration_ms(self.settings["statement_timeout"], "statement_timeout")
        return ms / 1000 if ms else None

    def set(self, name: str, value: str) -> None:
        name = name.lower()
        if name not in DEFAULT_SETTINGS and "." not in name:
            raise SqlError(UNDEFINED_PARAMETER, f'unrecognized configuration parameter "{name}"')
        if name in READ_ONLY_SETTINGS and value != self.settings.get(name):
            raise SqlError("55P02", f'parameter "{name}" cannot be changed')
        if name in ("statement_timeout", "idle_in_transaction_session_timeout", "lock_timeout", "txngate.progress_interval"):
            value = str(parse_duration_ms(value, name))
        if name == "log_min_duration_statement":  # -1: off; 0: every statement
            value = "-1" if value.strip() == "-1" else str(parse_duration_ms(value, name))
        if name in ("txngate.spark_threshold", "txngate.max_statement_memory"):
            value = str(parse_bytes(value, name))
        if name == "txngate.spark_fallback" or name in _PLANNER_BOOLEANS:
            value = _boolean(value, name)
        if name in ("transaction_isolation", "default_transaction_isolation") and value.lower() not in ISOLATION_NAMES:
            raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "{name}": "{value}"')
        if name == "datestyle":
            value = _datestyle(value, self.settings["datestyle"])
        if name == "timezone":
            value = _timezone(value)
        if name in _OUTPUT_CHOICES:
            value = _output_setting(name, value)
        if name == "extra_float_digits":
            value = _extra_float_digits(value)
        if name == "txngate.engine" and value.lower() not in ("auto", "local", "spark"):
            raise SqlError(INVALID_PARAMETER_VALUE, f'invalid value for parameter "txngate.engine": "{value}"', hint="Available values: auto, local, spark.")
        self.settings[name] = value

    async def close(self) -> None:
        """The client went away: an open transaction rolls back, and its
        temporary tables are dropped."""
        self.db.sessions.discard(self)
        work, self.work, self._explicit, self._implicit = self.work, None, False, None
        self._savepoints.clear()
        self.cursors.close_all()
        if work is not None:
            await work.abort()
        if self.temp_schema is not None:
            try:
                await self.execute(f'DROP SCHEMA IF EXISTS "{self.temp_schema}" CASCADE')
            except Exception:  # noqa: BLE001 - left behind; another session's lookups never see it
                logger.warning("dropping temporary schema %s failed", self.temp_schema, exc_info=True)

    def temp(self) -> str:
        """The schema of this session's temporary tables (named on first use)."""
        if self.temp_schema is None:
            self.temp_schema = f"{TEMP_SCHEMA_PREFIX}{secrets.token_hex(6)}"
        return self.temp_schema

    def show(self, name: str) -> str:
        """A setting's value as SHOW and current_setting() print it."""
        value = self.settings[name]
        if name in ("statement_timeout", "idle_in_transaction_session_timeout", "lock_timeout", "txngate.progress_interval") and value != "0":
            ms = int(value)  # in the largest unit that divides it, as PostgreSQL shows a duration
            unit, size = next((u, size) for u, size in (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000), ("ms", 1)) if ms % size == 0)
            value = f"{ms // size}{unit}"
        return value

    def emulation(self, catalog, params: list | None = None) -> PgCatalog:
        """The pg_catalog emulation of ``catalog`` for this session (and the
        statement's parameters, which set_config() may be given)."""
        return PgCatalog(catalog, self, params)

    # -- running ---------------------------------------------------------------

    async def execute(self, sql: str, params: list | None = None, *, copy_source: CopySource | None = None, copy_sink: CopySink | None = None) -> list[Result]:
        return [r async for r in self.stream(sql, params, copy_source=copy_source, copy_sink=copy_sink)]

    async def stream(self, sql: str, params: list | None = None, *, copy_source=None, copy_sink=None, lazy: bool = False) -> AsyncIterator[Result]:
        """Run every statement of ``sql``, yielding each result when done
        (``lazy``: a SELECT's as soon as its rows can be streamed; the caller
        drains or closes that stream before asking for the next result).

        Several statements run in PostgreSQL's implicit transaction block
        (``begin_implicit``): an error rolls back all of them; a COMMIT,
        ROLLBACK or BEGIN among them ends or takes the block over."""
        self.begin_query(sql)
        limit = int(self.settings["txngate.max_statement_memory"])
        if len(sql) > limit:
            raise out_of_memory(f"the statement's text is {len(sql)} bytes", limit)
        statements = await p.parse_async(self.readable(sql), lift=params is None)
        if len(statements) < 2 or self.work is not None:
            for stmt in statements:
                yield await self.run(stmt, list(stmt.literals) if stmt.literals else params, copy_source, copy_sink, lazy=lazy)
            return
        try:
            for stmt in statements:
                if stmt.kind != p.TXN:
                    self.begin_implicit("string")
                yield await self.run(stmt, params, copy_source, copy_sink, lazy=lazy)
        except BaseException:
            self.fail()
            raise
        finally:
            await self.end_implicit()

    @property
    def in_implicit(self) -> bool:
        """An implicit transaction block is open (``begin_implicit``)."""
        return self._implicit is not None

    def readable(self, sql: str) -> str:
        """``sql`` as the parser must read it: while standard_conforming_strings
        is off, its plain string constants are escape strings
        (planner.textscan.escape_strings), and ``U&'...'`` is refused."""
        if self.settings.get("standard_conforming_strings", "on").lower() not in ("off", "false", "no", "0"):
            return sql
        try:
            return textscan.escape_strings(sql)
        except textscan.UnicodeEscapeUnsafe as e:
            raise SqlError(FEATURE_NOT_SUPPORTED, str(e)) from None

    def begin_query(self, sql: str) -> None:
        """A query string (or an extended protocol's Execute of ``sql``)
        starts: pg_stat_activity's query, and now() outside a transaction."""
        self.query, self.query_start = sql, dt.datetime.now(dt.timezone.utc)

    def begin_implicit(self, kind: str) -> None:
        """Open PostgreSQL's implicit transaction block, unless a transaction
        is open: the statements of one query string (``kind`` "string"), or
        the extended protocol's statements before a Sync ("pipeline"), commit
        together at ``end_implicit``, or not at all. A BEGIN in it makes it
        the explicit transaction; COMMIT or ROLLBACK in it ends it (with
        PostgreSQL's warning); SAVEPOINT is refused (25P01)."""
        if self.work is None:
            self.work = Work.begin(self.db)
            self.work.explicit = True
            self._implicit = kind
            self._settings_at_begin = dict(self.settings)
            self.xact_start = self.query_start  # now() is the block's start, as in PostgreSQL

    async def end_implicit(self) -> None:
        """End the implicit block, if one is open: commit it, or roll it back
        when one of its statements failed (the caller reports that error)."""
        if self._implicit is None:
            return
        work, self.work, self._implicit = self.work, None, None
        self.cursors.end_transaction()
        await self._end_block(work, commit=True)

    async def _end_block(self, work: Work, *, commit: bool) -> None:
        """Commit (``commit`` and no statement failed) or roll back the
        transaction that ended; settings changed in it are restored on
        rollback (SET LOCAL ones either way), as in PostgreSQL."""
        local, self._local_settings = self._local_settings, {}
        before, self._settings_at_begin = self._settings_at_begin, None
        self.xact_start = None
        if commit and not work.failed:
            try:
                await self._commit(work)
                self.settings.update(local)
                return
            except BaseException:
                await work.abort()  # (nothing to undo when the commit's outcome is unknown: Work.abort knows)
                self._restore(before)
                raise
        await work.abort()
        self._restore(before)

    def _restore(self, settings: dict[str, str] | None) -> None:
        if settings is not None:
            self.settings = settings

    def set_setting(self, name: str, value: str, *, local: bool = False, function: bool = False) -> list[str]:
        """SET [LOCAL] and set_config() (``function``): the notices to give.
        A LOCAL value lasts until the transaction ends (outside one: SET
        LOCAL warns and sets nothing, set_config's lasts for its statement)."""
        name = name.lower()
        if local and self.work is None:
            if not function:
                return ["WARNING 25P01: SET LOCAL can only be used in transaction blocks"]
            self._statement_settings.setdefault(name, self.settings.get(name))
            self.set(name, value)
            return []
        before = self.settings.get(name)
        self.set(name, value)
        if local:
            self._local_settings.setdefault(name, before)
        else:
            self._local_settings.pop(name, None)
        return []

    async def run(self, stmt: p.Statement, params: list | None, copy_source=None, copy_sink=None, *, lazy: bool = False) -> Result:
        """Run one parsed statement; ``lazy``: a SELECT's rows as a stream
        (``Result.stream``) computed as they are read.

        ``statement_timeout`` bounds every wait of the statement — Blob,
        Consensus, the oracle, the engines — by cancelling it (57014); a
        commit already under way still reaches its outcome first
        (``storage.txns`` awaits it to the end), and a committed statement
        is reported as such."""
        if params and (written := decimals.with_wide_parameters_written(stmt.node, params)) is not None:
            stmt = dataclasses.replace(stmt, node=written, text=pg_sql(written))
        return await self._timed(self._run(stmt, params, copy_source, copy_sink, lazy=lazy))

    async def run_batch(self, stmt: p.Statement, batch: list[list]) -> AsyncIterator[Result]:
        """``stmt`` run once with each parameter list of ``batch`` (the
        extended protocol's pipelined executions of one statement): each
        execution's Result in turn, or its error. In a transaction, an
        INSERT of constants and parameters (``parse.batchable``) writes
        every row at once; if a row would fail, nothing of that is written
        and they run one by one, so the same rows succeed before the same
        error, as PostgreSQL's executions one after another."""
        if len(batch) > 1 and p.batchable(stmt) and self.work is not None and not self.work.failed:
            started = time.monotonic()
            try:
                inserted = await self._timed(self._dml(self.work, None).insert_batch(stmt.node, batch), statements=0)
            except (SqlError, InvalidInput):
                inserted = False
            if inserted:
                for _params in batch:
                    self.db.note_statement((time.monotonic() - started) / len(batch))
                for _params in batch:
                    yield Result("INSERT 0 1")
                return
        for params in batch:
            yield await self.run(stmt, params)

    async def _timed(self, coro, *, statements: int = 1):
        """Await a statement's work (``coro``) in its settings, bounded by
        statement_timeout: every wait of it — Blob, Consensus, the oracle,
        the engines — is cancelled when it runs out (57014); counted as
        ``statements`` statements for pg_stat."""
        started, sqlstate = time.monotonic(), None
        waits.CURRENT.set(self.wait)
        DATE_ORDER.set(self.settings["datestyle"].rsplit(",", 1)[-1].strip())  # how numeric date text reads
        INTERVAL_STYLE.set(self.settings["intervalstyle"])  # how far an interval's leading minus reaches
        TYPE_SEARCH_PATH.set(self.search_path)  # where the names of the types CREATE TYPE made are found
        limit = asyncio.timeout(self.timeout)
        try:
            async with limit:
                return await coro
        except TimeoutError:
            if not limit.expired():
                raise
            sqlstate = QUERY_CANCELED
            raise SqlError(QUERY_CANCELED, "canceling statement due to statement timeout") from None
        except SqlError as e:
            sqlstate = e.sqlstate
            raise
        except asyncio.CancelledError:
            sqlstate = QUERY_CANCELED
            raise
        finally:
            if statements:
                self.db.note_statement(time.monotonic() - started, sqlstate)
            if self._statement_settings:
                restored, self._statement_settings = self._statement_settings, {}
                self.settings.update(restored)

    async def _run(self, stmt: p.Statement, params: list | None, copy_source, copy_sink, *, lazy: bool) -> Result:
        self.check_not_aborted(stmt)
        try:
            if unknown := builtins.unknown_calls(stmt):  # (rare: a user's function, or an error)
                await self._refuse_unknown(unknown)
            if stmt.kind == p.TXN:
                return await self._transaction_statement(stmt.node)
            if isinstance(stmt.node, ast.ExecuteStmt):
                return await self._run(self._executed(stmt.node), None, copy_source, copy_sink, lazy=lazy)
            if isinstance(stmt.node, ast.PrepareStmt):
                return await self._prepare(stmt.node)
            if stmt.kind == p.SESSION:
                return self._session_statement(stmt.node)
            if self.work is not None:
                self.work.refresh()  # its reads so far unchanged: read on from the latest commit
            if stmt.kind == p.CURSOR:
                return await self._cursor_statement(stmt.node, params)
            if stmt.kind == p.MAINTENANCE:
                return await self._maintenance(stmt.node)
            if stmt.kind == p.READ and (call := sequences.call_of(stmt.node)) is not None:
                if self.work is not None:
                    return await self._sequence_select(self.work, stmt, call, params)
                async with self._reading() as work:
                    return await self._sequence_select(work, stmt, call, params)
            if stmt.kind in (p.READ, p.WRITE) and sequences.CALLED.search(stmt.text) and sequences.once_calls(stmt.node):
                stmt = await self._sequence_constants(stmt, params)
            if stmt.template:  # a point query's skeleton: answered by the key search, else run as written
                async with self._reading() as work:
                    found = await self._dml(work, params).point(stmt.node)
                    if found is not None:
                        return await self._with_origins(work, stmt.node, to_result(f"SELECT {found.num_rows}", found, p.output_names(stmt.node)))
                stmt, params = p.untemplated(stmt), None
            if lazy and stmt.kind == p.READ:
                async with self._reading() as work:  # the inputs are in memory once the stream starts
                    return await self._select_stream(work, stmt, params)
            if self.work is not None:
                return await self._in_work(self.work, stmt, params, {}, copy_source, copy_sink)
            if stmt.kind in (p.READ, p.EXPLAIN) or (stmt.kind == p.COPY and not stmt.node.is_from):
                async with self._reading() as work:
                    return await self._in_work(work, stmt, params, {}, copy_source, copy_sink)
            return await self._autocommit(stmt, params, copy_source)
        except EngineError as e:
            self.fail()
            raise SqlError(e.sqlstate, e.message, position=_error_position(stmt.node, e)) from None
        except SqlError:
            self.fail()
            raise
        except asyncio.CancelledError:
            self.fail()
            raise
        except TxngateError as e:
            self.fail()
            raise from_storage(e) from e

    async def describe(self, stmt: p.Statement, param_types: list[str]) -> Result | None:
        """The result columns (and their origins) of a SELECT, or of an
        INSERT/UPDATE/DELETE's RETURNING, without running it (parameters
        bound to NULLs of their types, no rows produced); None for
        statements without rows."""
        if isinstance(stmt.node, ast.ExecuteStmt):
            stmt = self._executed(stmt.node)  # (SQL's EXECUTE: the statement it runs)
        if unknown := builtins.unknown_calls(stmt):
            await self._refuse_unknown(unknown)
        if stmt.kind == p.WRITE and isinstance(stmt.node, ast.SelectStmt):
            query = writable.shape_query(stmt.node)
        else:
            query = writable.returning_query(stmt.node) if stmt.kind == p.WRITE else stmt.node if stmt.kind == p.READ else None
        if query is None:
            return None
        probe = pglast.parse_sql(f"SELECT * FROM ({pg_sql(_typed_params(query, param_types))}) AS q LIMIT 0")[0].stmt
        try:
            async with self._shaping() as work:
                out = await self._dml(work, [None] * len(param_types)).select(probe)
                # the types Execute's results will have (declared types of table columns)
                return await self._with_origins(work, query, to_result("SELECT 0", out, p.output_names(query)))
        except EngineError as e:
            raise SqlError(e.sqlstate, e.message) from None

    def with_param_types(self, stmt: p.Statement, types: list[str | None]) -> p.Statement:
        """``stmt`` with each parameter of a type given in ``types`` (None:
        as it is) cast to that type: a client's declared type is the
        parameter's, as in PostgreSQL, where the engine would take the
        value's text for text (``SELECT $1 + interval '1 hour'`` of an
        interval parameter was 42804; a jsonb one came back as text)."""
        return dataclasses.replace(stmt, node=_typed_params(stmt.node, types), unknown_calls=None)

    async def param_types(self, stmt: p.Statement, nparams: int) -> list[str]:
        """SQL types for ``$1..$n`` from where they appear: compared with or
        assigned to a column, inserted into one, cast, or a LIMIT; else text."""
        async with self._shaping() as work:
            catalog = await work.catalog()
        nodes = list(p.walk(stmt.node))
        found = (catalog.lookup(n.relname, n.schemaname, self.search_path) for n in nodes if isinstance(n, ast.RangeVar))
        rels = [rel for rel in found if rel is not None]

        def column_type(ref) -> str | None:
            if not isinstance(ref, ast.ColumnRef) or not isinstance(ref.fields[-1], ast.String):
                return None
            name = ref.fields[-1].sval
            for rel in rels:
                if name in rel.column_names:
                    return rel.column(name).type
            return None

        def operand_type(n) -> str | None:
            """The type an operand gives a parameter on its other side:
            a column's, a typed cast's, a constant's (as PostgreSQL types
            ``1``, ``2.5``, ``true``), now()'s."""
            if isinstance(n, ast.A_Const) and not n.isnull:
                return {ast.Integer: "integer", ast.Float: "numeric", ast.Boolean: "boolean"}.get(type(n.val))
            if isinstance(n, ast.TypeCast):
                try:
                    return canonical(n.typeName, array_ok=True)
                except SqlError:
                    return None
            if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("now", "statement_timestamp", "transaction_timestamp", "clock_timestamp"):
                return "timestamptz"
            if isinstance(n, ast.SQLValueFunction) and n.op.name in ("SVFOP_CURRENT_TIMESTAMP", "SVFOP_CURRENT_TIMESTAMP_N"):
                return "timestamptz"
            return column_type(n)

        types: dict[int, str] = {}

        def infer(n):
            if isinstance(n, ast.A_Expr) and isinstance(n.rexpr, ast.ParamRef) and n.name:
                t = jsonops.right_operand_type(n.name[-1].sval, column_type(n.lexpr))
                if t:  # doc #> $1: a text[] path, doc ->> $1: a text key
                    types.setdefault(n.rexpr.number, t)
            if isinstance(n, ast.A_Expr) and isinstance(n.lexpr, ast.Node):
                quantified = n.kind in (A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL)
                for a, b in ((n.lexpr, n.rexpr), (n.rexpr, n.lexpr)):
                    if isinstance(a, ast.ParamRef):
                        t = operand_type(b) if n.kind in (A_Expr_Kind.AEXPR_OP, A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL) \
                            and n.name[-1].sval != "||" else column_type(b)
                        if quantified and a is n.rexpr:  # x = ANY($1): an array of x's type (of text when x's is not known)
                            t = t if t and t.endswith("[]") else (t or "text") + "[]"
                        elif t and quantified:  # $1 = ANY(a): a's element type
                            t = t.removesuffix("[]")
                        if t:
                            types.setdefault(a.number, t)
                if isinstance(n.rexpr, (list, tuple)):  # x IN ($1, $2)
                    t = column_type(n.lexpr)
                    for x in n.rexpr:
                        if isinstance(x, ast.ParamRef) and t:
                            types.setdefault(x.number, t)
            elif isinstance(n, ast.TypeCast) and isinstance(n.arg, ast.ParamRef):
                if n.typeName.names[-1].sval.lower() in ("regclass", "regtype", "regnamespace"):
                    types.setdefault(n.arg.number, "text")  # a name, looked up
                try:
                    types.setdefault(n.arg.number, canonical(n.typeName, array_ok=True))
                except SqlError:
                    pass
            elif isinstance(n, ast.SelectStmt):
                for lim in (n.limitCount, n.limitOffset):
                    if isinstance(lim, ast.ParamRef):
                        types.setdefault(lim.number, "bigint")

        for n in nodes:
            infer(n)
        node = stmt.node
        if isinstance(node, ast.InsertStmt) and rels:
            target = catalog.lookup(node.relation.relname, node.relation.schemaname, self.search_path)
            if target is not None and node.selectStmt is not None and node.selectStmt.valuesLists:
                cols = [c.name for c in node.cols] if node.cols else target.column_names
                for row in node.selectStmt.valuesLists:
                    for i, v in enumerate(row):
                        if isinstance(v, ast.ParamRef) and i < len(cols) and cols[i] in target.column_names:
                            types.setdefault(v.number, target.column(cols[i]).type)
        if isinstance(node, ast.UpdateStmt):
            target = catalog.lookup(node.relation.relname, node.relation.schemaname, self.search_path)
            for t in node.targetList or ():
                if isinstance(t.val, ast.ParamRef) and target is not None and t.name in target.column_names:
                    types.setdefault(t.val.number, target.column(t.name).type)
        return [types.get(i + 1, "text") for i in range(nparams)]

    @contextlib.asynccontextmanager
    async def _shaping(self):
        """``_reading``, for finding a statement's shape (Describe, parameter
        types): what it reads does not join the transaction's read set, as
        the shape depends on no row (a Describe inside a transaction read
        the whole table, so two transactions inserting different keys
        conflicted at COMMIT). Execute records what it really reads."""
        async with self._reading() as work:
            reads, points = list(work.reads), {shard: set(keys) for shard, keys in work.points.items()}
            try:
                yield work
            finally:
                work.reads[:] = reads
                work.points.clear()
                work.points.update(points)

    async def _refuse_unknown(self, calls: tuple[ast.FuncCall, ...]) -> None:
        """42883 for a call of a function neither PostgreSQL has built in
        nor the catalog holds (``planner.builtins``)."""
        async with self._reading() as work:
            catalog = await work.catalog()
        builtins.refuse_unknown(calls, lambda names: bool(catalog.functions_named(names[-1], names[0] if len(names) == 2 else None,
                                                                                  self.search_path)))

    @contextlib.asynccontextmanager
    async def _reading(self):
        """The open transaction's Work, else a Work of its own for reading,
        aborted afterwards."""
        if self.work is not None:
            yield self.work
            return
        work = Work.begin(self.db, discarded=True)
        try:
            yield work
        finally:
            await work.abort()

    async def _sequence_constants(self, stmt: p.Statement, params) -> p.Statement:
        """``stmt`` with each sequence call that runs once per statement
        (``sequences.once_calls``) applied now, in order, and replaced by
        its value; as it was when a call's arguments are not constants."""
        node = copy.deepcopy(stmt.node)
        values = {}
        async with self._reading() as work:
            catalog, dml = await work.catalog(), self._dml(work, params)
            for call in sequences.once_calls(node):
                name, args = sequences.function_name(call), sequences.constant_arguments(call, params)
                if args is None:
                    return stmt
                if name == "lastval":
                    value = sequences.last_value(self)
                elif not args or any(a is None for a in args):
                    value = None  # strict: NULL in, NULL out
                else:
                    value = await sequences.call_value(self, dml, name, sequences.resolve(catalog, self.search_path, str(args[0])), args[1:])
                values[id(call)] = sequences.value_constant(value)
        if isinstance(node, ast.SelectStmt):
            for t in node.targetList:
                if t.name is None and id(t.val) in values:
                    t.name = sequences.function_name(t.val)  # the column's name is the call's, not its value's type
        return dataclasses.replace(stmt, node=sequences.substituted(node, values), template=False)

    async def _sequence_select(self, work: Work, stmt: p.Statement, call, params) -> Result:
        """``SELECT nextval(...)`` and friends (``planner.sequences``): the
        engine computes the arguments, then each row's call is applied."""
        query = copy.deepcopy(stmt.node)
        query.targetList = tuple(ast.ResTarget(name=f"a{i}", val=arg) for i, arg in enumerate(call.args or ())) \
            or (ast.ResTarget(name="a", val=ast.A_Const(val=ast.Integer(ival=0))),)  # lastval(): one row per row
        dml = self._dml(work, params)
        table = await sequences.apply(self, dml, call, await dml.select(query))
        return to_result(f"SELECT {table.num_rows}", table, table.column_names)

    async def _select_stream(self, work: Work, stmt: p.Statement, params) -> Result:
        if p.selects_nothing(stmt.node):  # its rows, of no columns (the engine computed one, planner.bind.NOTHING)
            out = await self._dml(work, params).select(stmt.node)
            return to_result(f"SELECT {out.num_rows}", out, [])
        out = await self._dml(work, params).select_stream(stmt.node)
        names = p.output_names(stmt.node)
        if isinstance(out, pa.Table):
            return await self._with_origins(work, stmt.node, to_result(f"SELECT {out.num_rows}", out, names))

        engine = "Spark" if isinstance(out, RoutedStream) else "DuckDB"

        async def fetch():
            try:
                with waits.waiting("Extension", engine):
                    return await out.next()
            except EngineError as e:
                self.fail()
                raise SqlError(e.sqlstate, e.message) from None
            except (SqlError, asyncio.CancelledError):
                self.fail()
                raise

        columns = result_columns(out.schema, names)
        return await self._with_origins(work, stmt.node, Result(None, columns, stream=RowStream(fetch, out.close)))

    async def _with_origins(self, work: Work, node, result: Result) -> Result:
        """``result`` with the table columns its SELECT reads, for
        RowDescription, and its computed json/jsonb columns and passed-on
        char(n) columns typed so."""
        if not isinstance(node, ast.SelectStmt):
            return result

        def describe(catalog):
            origins = column_origins(node.targetList, node.fromClause, catalog, self.search_path)
            kinds = result_types(node, lambda: scoped_column_types(node, catalog, self.search_path), computed_only=True)
            starred = scopes.star_result_columns(node, lambda rv: catalog.column_types(rv, self.search_path))
            if starred is not None and origins is None:  # a star over joins or subqueries: the columns it passes through
                kinds = [k or (t if t is not None and engine_blind(t) else None) for k, (_n, t) in zip(kinds or [None] * len(starred), starred)]
            return origins, kinds, None if starred is None else [name for name, _t in starred]

        origins, kinds, names = self.db.bind_cache.described(node, await work.catalog(), self.search_path, describe)
        result.set_names(names)
        result.set_origins(origins)
        if kinds is not None:
            result.set_kinds(kinds)
        return result

    def check_not_aborted(self, stmt: p.Statement | None) -> None:
        """25P02 for a statement other than COMMIT/ROLLBACK in an aborted
        transaction (checked at Parse and Bind too, as PostgreSQL does)."""
        if self.work is not None and self.work.failed and (stmt is None or not _ends_txn(stmt)):
            raise SqlError(IN_FAILED_SQL_TRANSACTION, "current transaction is aborted, commands ignored until end of transaction block")

    def fail(self) -> None:
        """The running statement failed: an open transaction is now aborted."""
        if self.work is not None:
            self.work.failed = True

    async def _in_work(self, work: Work, stmt: p.Statement, params, memo: dict, copy_source=None, copy_sink=None) -> Result:
        node = stmt.node
        if stmt.kind == p.READ:
            out = await self._dml(work, params).select(node)
            return await self._with_origins(work, node, to_result(f"SELECT {out.num_rows}", out, p.output_names(node)))
        if stmt.kind == p.EXPLAIN:
            return await self._explain(work, node, params)
        if work.read_only and stmt.kind in (p.WRITE, p.DDL, p.COPY) and not (stmt.kind == p.COPY and not node.is_from):
            verb = stmt.text.split(None, 1)[0].upper() if stmt.text else "this statement"
            raise SqlError(READ_ONLY_TRANSACTION, f"cannot execute {verb} in a read-only transaction")
        if stmt.kind == p.WRITE and isinstance(node, ast.SelectStmt):  # data-modifying statements in WITH
            main, deferred = await writable.with_writes(work, node, lambda w: self._dml(w, params), _run_write)
            out = await self._dml(deferred, params).select(main)
            result = await self._with_origins(work, main, to_result(f"SELECT {out.num_rows}", out, p.output_names(main)))
            await deferred.apply()
            return result
        if stmt.kind == p.WRITE and writable.writes_in_with(node):  # INSERT / UPDATE / DELETE / MERGE under data-modifying CTEs
            main, deferred = await writable.with_writes(work, node, lambda w: self._dml(w, params), _run_write)
            if writable.inserts_into_written(node):  # its keys checked against the sub-statements' writes
                await deferred.apply()
                return await _run_write(self._dml(work, params), main)
            # reads from before the sub-statements' writes; its own writes join theirs, checked together
            result = await _run_write(self._dml(deferred, params), main)
            await deferred.apply(merge=isinstance(node, ast.MergeStmt))
            return result
        if stmt.kind == p.WRITE:
            return await _run_write(self._dml(work, params), node)
        if stmt.kind == p.COPY:
            dml = self._dml(work, params)
            if node.is_from:
                return await copy_from(dml, node, copy_source)
            return await copy_to(dml, node, copy_sink)
        ddl = self._dml(work, params, Ddl, memo=memo, temp=self.temp, user=self.user, on_commit=self._on_commit)
        if isinstance(node, ast.SelectStmt):  # SELECT INTO
            query = copy.copy(node)
            query.intoClause = None
            node = ast.CreateTableAsStmt(query=query, into=node.intoClause, objtype=enums.ObjectType.OBJECT_TABLE, if_not_exists=False)
        handler = {
            ast.CreateStmt: ddl.create_table, ast.CreateTableAsStmt: ddl.create_table_as, ast.ViewStmt: ddl.create_view,
            ast.DropStmt: ddl.drop, ast.CreateSchemaStmt: ddl.create_schema, ast.AlterTableStmt: ddl.alter_table,
            ast.RenameStmt: ddl.rename, ast.IndexStmt: ddl.create_index, ast.RefreshMatViewStmt: ddl.refresh,
            ast.CommentStmt: ddl.comment, ast.GrantStmt: ddl.grant, ast.AlterDefaultPrivilegesStmt: ddl.default_privileges,
            ast.AlterOwnerStmt: ddl.alter_owner, ast.CreateExtensionStmt: ddl.create_extension, ast.CreateFunctionStmt: ddl.create_function,
            ast.CreateSeqStmt: ddl.create_sequence, ast.AlterSeqStmt: ddl.alter_sequence,
            ast.CreateEnumStmt: ddl.create_enum, ast.AlterEnumStmt: ddl.alter_enum, ast.CompositeTypeStmt: ddl.create_composite,
            ast.CreateDomainStmt: ddl.create_domain,
        }[type(node)]
        return await handler(node)

    def _dml(self, work: Work, params, cls=Dml, **kwargs):
        emulation = functools.partial(self.emulation, params=params) if params else self.emulation
        return cls(work, self.search_path, params, self.timeout, emulation, self.text_style(), self.exec_options(),
                   now=self.transaction_time(), **kwargs)

    def transaction_time(self) -> dt.datetime | None:
        """now() and CURRENT_TIMESTAMP: the start of the open transaction
        (an explicit one's BEGIN, an implicit block's first statement), else
        of the query; None before any."""
        return self.xact_start if self.work is not None and self.xact_start is not None else self.query_start

    def text_style(self) -> TextStyle:
        """How this session prints values (its TimeZone, IntervalStyle, bytea_output and extra_float_digits)."""
        st = self.settings
        return TextStyle.of(st["timezone"], st["intervalstyle"], st["bytea_output"], st["extra_float_digits"])

    def exec_options(self) -> ExecOptions:
        return ExecOptions(
            engine=self.settings["txngate.engine"].lower(),
            spark_threshold=int(self.settings["txngate.spark_threshold"]),
            max_memory=int(self.settings["txngate.max_statement_memory"]),
            spark_fallback=self.settings["txngate.spark_fallback"] == "on",
            progress_every=max(0.1, int(self.settings["txngate.progress_interval"]) / 1000),
            on_notice=self.on_notice,
        )

    async def _autocommit(self, stmt: p.Statement, params, copy_source) -> Result:
        """A write or DDL statement on its own: write-only when it read no
        data, else read-then-write, recomputed as needed (never 40001,
        except for COPY, whose input cannot be read twice)."""
        memo: dict = {}
        inputs: list[str] = []
        points: dict[str, set[int]] = {}
        works: list[Work] = [Work.begin(self.db, reads=inputs, points=points)]
        results: list[Result] = []
        try:
            results.append(await self._in_work(works[0], stmt, params, memo, copy_source))
            await self._before_commit(works[0])
            first = works[0]
            write_only = stmt.kind in (p.WRITE, p.COPY) and isinstance(stmt.node, (ast.InsertStmt, ast.CopyStmt)) and not first.data_reads
            if not first.wrote or write_only or stmt.kind == p.COPY:
                # write-only: it read only the catalog (a drop meanwhile fails
                # its commit's registration check), so it commits grouped
                await first.commit(write_only=write_only)
                return results[-1]

            async def compute(read_ts: int):
                work = Work.begin(self.db, read_ts=read_ts, reads=inputs, points=points)
                works.append(work)
                results.append(await self._in_work(work, stmt, params, memo))
                await self._before_commit(work)
                work.note_written()
                return work.txn

            first.note_written()
            try:
                await self.db.committer.commit(first.txn, read_ts=first.read_ts, reads=inputs, points=points, recompute=compute)
            except CommitUnknown:
                for w in works:
                    w.outcome_unknown = True
                raise
            last = works[-1]
            for w in works:
                w.done = True
            await last.committed()
            return results[-1]
        except BaseException:
            for w in works:
                w.done = False
                await w.abort()
            if not any(w.outcome_unknown for w in works):
                for shard in memo.values():
                    if not any(shard in w.created for w in works):
                        await self.db.txns.forget(shard, 0)
            raise
        finally:
            for w in works:
                w.release()

    # -- transactions ------------------------------------------------------------

    async def _transaction_statement(self, node: ast.TransactionStmt) -> Result:
        if isinstance(node, ast.ConstraintsSetStmt):
            if self.work is None or not self._explicit:
                return Result("SET CONSTRAINTS", notices=["WARNING 25P01: SET CONSTRAINTS can only be used in transaction blocks"])
            names = None if node.constraints is None else [rv.relname for rv in node.constraints]
            await self._dml(self.work, None).references.set_constraints(names, bool(node.deferred))
            return Result("SET CONSTRAINTS")
        kind = node.kind.name
        if kind in ("TRANS_STMT_BEGIN", "TRANS_STMT_START"):
            tag = "BEGIN" if kind == "TRANS_STMT_BEGIN" else "START TRANSACTION"
            if self.work is not None and self._explicit:
                return Result(tag, notices=[f"WARNING {ACTIVE_SQL_TRANSACTION}: there is already a transaction in progress"])
            read_only = self.settings["default_transaction_read_only"] in ("on", "true", "1")
            for opt in node.options or ():
                if opt.defname == "transaction_read_only":
                    read_only = bool(opt.arg.val.ival)
                elif opt.defname == "transaction_isolation":
                    level = opt.arg.val.sval
                    if level not in ISOLATION_NAMES:
                        raise SqlError(INVALID_PARAMETER_VALUE, f'invalid isolation level "{level}"')
            if self._implicit is None:
                self.work = Work.begin(self.db)
                self._settings_at_begin = dict(self.settings)
                self.xact_start = dt.datetime.now(dt.timezone.utc)
            self._implicit = None  # an implicit block's statements join the transaction, as in PostgreSQL
            self.work.read_only = read_only
            self.work.explicit = True
            self._explicit = True
            return Result(tag)
        if kind in ("TRANS_STMT_COMMIT", "TRANS_STMT_ROLLBACK"):
            word = "COMMIT" if kind == "TRANS_STMT_COMMIT" else "ROLLBACK"
            if node.chain:
                raise not_supported(f"{word} AND CHAIN")
            if self._implicit is not None:  # ends the implicit block: PostgreSQL warns, and commits or rolls back
                if word == "ROLLBACK":
                    self.fail()
                await self.end_implicit()
                return Result(word, notices=["WARNING 25P01: there is no transaction in progress"])
            if self.work is None or not self._explicit:
                return Result(word, notices=["WARNING 25P01: there is no transaction in progress"])
            work, self.work, self._explicit = self.work, None, False
            self._savepoints.clear()
            self.cursors.end_transaction()
            rollback = word == "ROLLBACK" or work.failed
            await self._end_block(work, commit=not rollback)
            return Result("ROLLBACK" if rollback else "COMMIT")
        if kind in ("TRANS_STMT_SAVEPOINT", "TRANS_STMT_RELEASE", "TRANS_STMT_ROLLBACK_TO"):
            return await self._savepoint(kind, node.savepoint_name)
        raise not_supported(f"{kind.removeprefix('TRANS_STMT_')} (two-phase commit)")

    async def _commit(self, work: Work) -> None:
        """Commit a transaction block: its deferred foreign-key checks
        first (a violation fails the COMMIT), then the one commit lifecycle."""
        if work.deferred:
            await self._dml(work, None).references.check_deferred()
        await self._before_commit(work)
        await work.commit()

    async def _before_commit(self, work: Work) -> None:
        """The ON COMMIT actions of this session's temporary tables, in the
        work about to commit."""
        if self._on_commit and work.wrote:
            await self._dml(work, None, Ddl, memo={}, temp=self.temp, user=self.user, on_commit=self._on_commit).on_commit()

    async def _savepoint(self, kind: str, name: str) -> Result:
        """SAVEPOINT, RELEASE [SAVEPOINT], ROLLBACK TO [SAVEPOINT]."""
        word = {"TRANS_STMT_SAVEPOINT": "SAVEPOINT", "TRANS_STMT_RELEASE": "RELEASE", "TRANS_STMT_ROLLBACK_TO": "ROLLBACK"}[kind]
        if self.work is None or not self._explicit:
            raise SqlError("25P01", f"{word if word != 'ROLLBACK' else 'ROLLBACK TO SAVEPOINT'} can only be used in transaction blocks")
        if kind == "TRANS_STMT_SAVEPOINT":
            self._savepoints.append((name, self.work.mark()))
            return Result("SAVEPOINT")
        for i in range(len(self._savepoints) - 1, -1, -1):
            if self._savepoints[i][0] == name:
                break
        else:
            raise SqlError("3B001", f'savepoint "{name}" does not exist')
        if kind == "TRANS_STMT_RELEASE":
            del self._savepoints[i:]
            return Result("RELEASE")
        del self._savepoints[i + 1:]
        await self.work.rollback_to(self._savepoints[i][1])
        return Result("ROLLBACK")

    # -- cursors -------------------------------------------------------------------

    async def _cursor_statement(self, node: ast.Node, params) -> Result:
        if isinstance(node, ast.DeclareCursorStmt):
            hold = bool(node.options & CURSOR_OPT_HOLD)
            if not hold and self.work is None:
                raise SqlError("25P01", "DECLARE CURSOR can only be used in transaction blocks")
            if node.portalname in self.cursors.open:
                raise SqlError("42P03", f'cursor "{node.portalname}" already exists')
            query = p.Statement(node.query, pg_sql(node.query), p.READ)
            if hold:  # it outlives the transaction: computed whole now, as PostgreSQL does at commit
                async with self._reading() as work:
                    result = await self._in_work(work, query, params, {})
            else:  # rows read as FETCH reaches them
                result = await self._select_stream(self.work, query, params)
            return self.cursors.declare(node, result)
        if isinstance(node, ast.FetchStmt):
            return await self.cursors.fetch(node)
        return self.cursors.close(node)

    # -- EXPLAIN -------------------------------------------------------------------

    async def _explain(self, work: Work, node: ast.ExplainStmt, params) -> Result:
        query = node.query
        lines = []
        if isinstance(query, ast.SelectStmt) and query.intoClause is None:
            klass = "read-only"
        elif isinstance(query, ast.InsertStmt):
            klass = "write-only or read-then-write (keys, serial columns or a SELECT over tables read)"
        elif isinstance(query, (ast.UpdateStmt, ast.DeleteStmt)):
            klass = "read-then-write"
        else:
            raise not_supported(f"EXPLAIN of {type(query).__name__.removesuffix('Stmt')}")
        ts = await work.ts()
        lines.append(f"Transaction: {klass}{' (in transaction block)' if self._explicit else ''}")
        lines.append(f"Timestamps: read_ts={ts}" + ("" if klass == "read-only" else f", write_ts>={ts + 1}"))
        select = query if isinstance(query, ast.SelectStmt) else getattr(query, "selectStmt", None)
        catalog = await work.catalog()
        binder = Binder(catalog, self.search_path, self.emulation)
        if select is not None:
            bound = binder.bind(select)
        else:
            bound = binder.bind(ast.SelectStmt(targetList=(), fromClause=(query.relation,)))
        target = None
        if not isinstance(query, ast.SelectStmt):
            target = catalog.table(query.relation.relname, query.relation.schemaname, self.search_path)
        dml = self._dml(work, params)
        choice = await dml.router.choose(select if select is not None else query, bound)
        try:
            spark_sql = dml.router.spark_sql(select, catalog, forced=False) if choice.engine == "spark" and select is not None else None
        finally:
            choice.release()
        engine = "spark" if choice.engine == "spark" and (spark_sql is not None or select is None) else "local (DuckDB)"
        lines.append(f"Engine: {engine}: {choice.reason}")
        if choice.estimate is not None:
            lines.append(f"Estimated bytes read: {choice.estimate}")
        if target is not None:
            bound.tables.setdefault(binder.internal(target), target)
        for _name, rel in bound.tables.items():
            if engine == "spark" or choice.estimate is not None and choice.estimate >= dml.router.options.spark_threshold:
                lines.append(f"Shard {rel.shard} ({rel.qualified})")
                continue
            contents = await work.contents(rel)
            lines.append(f"Shard {rel.shard} ({rel.qualified}): {contents.num_rows} rows, ~{contents.nbytes} bytes")
        for name, sql in bound.views:
            lines.append(f"View {name}: {sql}")
        if spark_sql is not None:
            lines.append(f"Spark query: {spark_sql}")
        lines.append(f"DuckDB query: {bound.sql}")
        return to_result("EXPLAIN", pa.table({"QUERY PLAN": pa.array(lines, pa.string())}))

    # -- session statements ------------------------------------------------------

    async def _maintenance(self, node: ast.VacuumStmt) -> Result:
        """VACUUM and ANALYZE of the named tables (they must exist), or all.
        VACUUM lets compaction forget the row history no session reads any
        more (``Database.downgrade_sinces``); ANALYZE has nothing to gather,
        as no plan uses statistics."""
        if node.is_vacuumcmd and self._implicit == "pipeline":
            raise SqlError(ACTIVE_SQL_TRANSACTION, "VACUUM cannot be executed within a pipeline")
        if node.is_vacuumcmd and self.work is not None:
            raise SqlError(ACTIVE_SQL_TRANSACTION, "VACUUM cannot run inside a transaction block")
        verb = "vacuum" if node.is_vacuumcmd else "analyze"
        notices = []
        async with self._reading() as work:
            catalog = await work.catalog()
            for target in node.rels or ():
                rv = target.relation
                if catalog.relation(rv.relname, rv.schemaname, self.search_path).kind == "view":
                    notices.append(f'WARNING 01000: skipping "{rv.relname}" --- cannot {verb} non-tables or special system tables')
        if node.is_vacuumcmd:
            await self.db.downgrade_sinces()
        return Result(verb.upper(), notices=notices)

    async def _prepare(self, node: ast.PrepareStmt) -> Result:
        """SQL's PREPARE: the query kept under its name (its kind and the
        tables it names checked now, as PostgreSQL analyzes it now)."""
        if node.name in self.prepared:
            raise SqlError("42P05", f'prepared statement "{node.name}" already exists')
        p.classify(node.query)  # (the grammar admits SELECT, VALUES, INSERT, UPDATE, DELETE and MERGE only)
        ctes = p.cte_names(node.query)
        async with self._shaping() as work:
            catalog = await work.catalog()
            for rv in p.walk(node.query):
                if isinstance(rv, ast.RangeVar) and not (rv.schemaname is None and rv.relname in ctes):
                    catalog.relation(rv.relname, rv.schemaname, self.search_path, position=rv.location + 1)
        self.prepared[node.name] = (node.query, tuple(node.argtypes or ()))
        return Result("PREPARE")

    def _executed(self, node: ast.ExecuteStmt) -> p.Statement:
        """SQL's EXECUTE: the prepared query with each parameter ``$n``
        replaced by the n-th argument (cast to the type PREPARE declared for
        it; an undeclared one takes its type from where it stands, as a
        constant does)."""
        found = self.prepared.get(node.name)
        if found is None:
            raise SqlError("26000", f'prepared statement "{node.name}" does not exist')
        query, types = found
        args = list(node.params or ())
        wanted = max([len(types)] + [n.number for n in p.walk(query) if isinstance(n, ast.ParamRef)])
        if len(args) != wanted:
            raise SqlError("42601", f'wrong number of parameters for prepared statement "{node.name}"',
                           detail=f"Expected {wanted} parameters but got {len(args)}.")
        for arg in args:
            if any(isinstance(n, (ast.ColumnRef, ast.SubLink)) for n in p.walk(arg)):
                raise SqlError("0A000", "cannot use subquery in EXECUTE parameter" if isinstance(arg, ast.SubLink) else
                               "EXECUTE parameters cannot read columns")
        typed = [ast.TypeCast(arg=arg, typeName=types[i]) if i < len(types) else arg for i, arg in enumerate(args)]
        query = p.copy_tree(query)
        outputs = query
        while isinstance(outputs, ast.SelectStmt) and outputs.op is not None and outputs.op.name != "SETOP_NONE":
            outputs = outputs.larg
        for target in (getattr(outputs, "targetList", None) or ()) + (getattr(query, "returningList", None) or ()):
            if target.name is None and not (isinstance(target.val, ast.ColumnRef) and isinstance(target.val.fields[-1], ast.A_Star)):
                target.name = p.figure_name(target.val)  # named as written ($1 is ?column?), not as its argument
        query = _with_arguments(query, typed)
        return p.Statement(query, pg_sql(query), p.classify(query))

    def _session_statement(self, node: ast.Node) -> Result:
        if isinstance(node, ast.DeallocateStmt):
            if node.name is None:
                self.prepared.clear()
            if node.name is None or self.prepared.pop(node.name, None) is None:
                if self.on_deallocate is not None:
                    self.on_deallocate(node.name)  # the protocol's prepared statements (the gateway's)
                elif node.name is not None:
                    raise SqlError("26000", f'prepared statement "{node.name}" does not exist')
            return Result("DEALLOCATE ALL" if node.name is None else "DEALLOCATE")
        if isinstance(node, ast.UnlistenStmt):
            return Result("UNLISTEN")  # LISTEN is refused, so there is never a channel to leave
        if isinstance(node, ast.DiscardStmt):
            if self.work is not None:
                raise SqlError(ACTIVE_SQL_TRANSACTION, "DISCARD ALL cannot run inside a transaction block")
            if node.target.name == "DISCARD_ALL":
                self.settings = dict(DEFAULT_SETTINGS)
                self.settings["session_authorization"] = self.user
                self.cursors.close_all()
                self.prepared.clear()
                if self.on_deallocate is not None:
                    self.on_deallocate(None)
            return Result("DISCARD ALL" if node.target.name == "DISCARD_ALL" else "DISCARD")
        if isinstance(node, ast.VariableShowStmt):
            name = node.name.lower()
            if name == "all":
                items = sorted(self.settings.items())
                return to_result("SHOW", pa.table({"name": [k for k, _ in items], "setting": [v for _, v in items]}))
            name = {"transaction isolation level": "transaction_isolation", "session authorization": "session_authorization"}.get(name, name)
            if name not in self.settings:
                raise SqlError(UNDEFINED_PARAMETER, f'unrecognized configuration parameter "{node.name}"')
            return to_result("SHOW", pa.table({DISPLAY_NAMES.get(name, name): pa.array([self.show(name)], pa.string())}))
        kind = node.kind.name
        name = (node.name or "").lower()
        if kind == "VAR_SET_MULTI":  # SET TRANSACTION / SESSION CHARACTERISTICS
            for opt in node.args or ():
                if opt.defname == "transaction_read_only" and self.work is not None:
                    self.work.read_only = bool(opt.arg.val.ival)
            return Result("SET")
        if kind in ("VAR_RESET", "VAR_SET_DEFAULT"):
            if name in DEFAULT_SETTINGS and name not in READ_ONLY_SETTINGS:
                self.settings[name] = DEFAULT_SETTINGS[name]
            elif name not in self.settings and "." not in name:
                raise SqlError(UNDEFINED_PARAMETER, f'unrecognized configuration parameter "{name}"')
            return Result("RESET" if kind == "VAR_RESET" else "SET")
        if kind == "VAR_RESET_ALL":
            keep = {k: self.settings[k] for k in READ_ONLY_SETTINGS | {"session_authorization"}}
            self.settings = {**DEFAULT_SETTINGS, **keep}
            return Result("RESET")
        if kind != "VAR_SET_VALUE":
            raise not_supported(f"SET form {kind}")
        values = []
        for a in node.args or ():
            v = a.val if isinstance(a, ast.A_Const) else None
            if v is None and name == "timezone" and isinstance(a, ast.TypeCast) and a.typeName.names[-1].sval == "interval":
                values.append(_zone_of_interval(a))
                continue
            if v is None:
                if isinstance(a, ast.TypeCast) and isinstance(a.arg, ast.A_Const):
                    v = a.arg.val
                else:
                    raise not_supported("SET to an expression")
            for attr in ("sval", "ival", "fval", "boolval"):
                x = getattr(v, attr, None)
                if x is not None:
                    values.append(("on" if x else "off") if attr == "boolval" else str(x))
                    break
        name = {"time zone": "timezone"}.get(name, name)
        return Result("SET", notices=self.set_setting(name, ", ".join(values), local=bool(node.is_local)))


def _typed_params(node, types: list[str | None]):
    """A copy of ``node`` with each parameter cast to its type (a NULL
    parameter has none, and the engine would type what it touches text);
    a parameter whose type is None is left as it is."""
    node = copy.deepcopy(node)
    cast_already: set[int] = set()

    def cast(n):
        if isinstance(n, ast.ParamRef) and 0 < n.number <= len(types) and types[n.number - 1] not in ("text", None) \
                and id(n) not in cast_already:
            cast_already.add(id(n))  # (the walk goes on into the new cast)
            return ast.TypeCast(arg=n, typeName=type_name(types[n.number - 1]))
        return None

    for n in p.walk(node):
        replace_children(n, cast)
    return node


async def _run_write(dml: Dml, node: ast.Node) -> Result:
    """INSERT, UPDATE, DELETE, TRUNCATE or MERGE ``node`` run by ``dml``."""
    handler = {
        ast.InsertStmt: dml.insert, ast.UpdateStmt: dml.update, ast.DeleteStmt: dml.delete, ast.TruncateStmt: dml.truncate,
        ast.MergeStmt: functools.partial(merge, dml),
    }[type(node)]
    return await handler(node)


def _error_position(node, e: EngineError) -> int | None:
    """Where in the query an engine error points, as PostgreSQL reports it
    (1-based): the column reference an unknown (42703), ambiguous (42702)
    or ungrouped (42803) column error names."""
    m = re.match(r'column (?:reference )?"?([^" ]+)"? ', e.message) if e.sqlstate in ("42703", "42702", "42803") else None
    if m is None:
        return None
    for n in p.walk(node):
        if isinstance(n, ast.ColumnRef) and all(isinstance(f, ast.String) for f in n.fields):
            names = [f.sval for f in n.fields]
            if m.group(1) in (names[-1], ".".join(names[-2:])):
                return n.location + 1
    return None


def _with_arguments(node, args: list):
    """``node`` with each parameter ``$n`` replaced by a copy of ``args[n-1]``
    (in lists of lists too: a VALUES list)."""
    if isinstance(node, ast.ParamRef):
        return p.copy_tree(args[node.number - 1])
    if isinstance(node, (tuple, list)):
        return type(node)(_with_arguments(v, args) for v in node)
    if isinstance(node, ast.Node):
        for attr in node:
            value = getattr(node, attr)
            if isinstance(value, (ast.Node, tuple, list)):
                setattr(node, attr, _with_arguments(value, args))
    return node


def _ends_txn(stmt: p.Statement) -> bool:
    return stmt.kind == p.TXN and stmt.node.kind.name in ("TRANS_STMT_COMMIT", "TRANS_STMT_ROLLBACK", "TRANS_STMT_ROLLBACK_TO")


__all__ = ["Result", "Session"]
