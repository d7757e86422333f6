"""local_exec.tochar beside PostgreSQL: to_char of numbers and of
timestamps over a grid of values and templates (every pattern, FM, TH,
signs, overflow, quoted text), through the engine (infinity, NULL), and
to_timestamp reading back what to_char wrote."""

from __future__ import annotations

import datetime as dt

import psycopg
import pytest

from local_exec.engine import LocalEngine
from local_exec.errors import EngineError
from local_exec.tochar import from_char, to_char_float, to_char_number, to_char_timestamp
from local_exec.udf import FunctionError

NUMBERS = ["0", "5", "-5", "0.5", "-0.5", "123.45", "-123.45", "1234567", "12345.678", "-0.004", "1e3", "99.995", "100"]
NUMBER_TEMPLATES = [
    "999", "999.99", "9.99", "0.99", "0999", "9,999", "9,999,999", "FM999.99", "FM9.99", "FM990.00", "S999.99", "999.99S", "MI999",
    "999MI", "PL999", "SG999", "999PR", "FM999PR", "99V99", "9.99EEEE", "999TH", "FM999th", '"Total:" 999.9', "999D99", "9G999",
    "00000", "FM00000", "9990.99", "FMS9999", "RN", "rn", "FMRN", "fmrn", "9RN", "L999.9", "FML999.9", "f\\\"oo999", 'f"oo999',
    "9999999999D9999900000000000000000", "99.99.9"]
FLOATS = ["0", "5", "-5", "0.5", "1.5", "2.5", "-0.0001", "0.1", "2.675", "99.9995", "999.9995", "1234567890123456", "12345678901",
          "1.7976931348623157e308", "1e-5", "3e38", "nan", "inf", "-inf"]
FLOAT_TEMPLATES = ["999.999", "FM9990.00", "9.99999999999999999999", "999999999999999999999.99", "999.", "S999.9", "99V99", "9.99EEEE",
                   "RN", "FMrn", "FM99999999999.99", "99999999999.99", "999999999999999999999.99S", "99999999999.99PR", "MI99999999999.99",
                   "9.99999999999999999S", "FM9999999999D9999900000000000000000", "L9.9", "9.9PR", "99th"]
STAMPS = ["1970-01-01 00:00:00", "2018-11-02 12:34:56.789012", "1997-02-10 17:32:01", "2001-12-31 23:59:59.5", "0097-02-10 17:32:01",
          "2024-02-29 00:00:00"]
STAMP_TEMPLATES = [
    "DAY Day day DY Dy dy MONTH Month month RM MON Mon mon", "FMDAY FMDay FMday FMMONTH FMMonth FMmonth FMRM",
    "Y,YYY YYYY YYY YY Y CC Q MM WW DDD DD D J", "FMY,YYY FMYYYY FMYYY FMYY FMY FMCC FMQ FMMM FMWW FMDDD FMDD FMD FMJ",
    "HH HH12 HH24 MI SS SSSS", '"HH:MI:SS is" HH:MI:SS "\\"text between quote marks\\""', "HH24--text--MI--text--SS",
    "YYYYTH YYYYth Jth", "YYYY A.D. YYYY a.d. YYYY bc HH:MI:SS P.M. HH:MI:SS p.m. HH:MI:SS pm", "IYYY IYY IY I IW IDDD ID",
    "FMIYYY FMIYY FMIY FMI FMIW FMIDDD FMID", "FF1 FF2 FF3 FF4 FF5 FF6  ff1 ff2 ff3 ff4 ff5 ff6  MS US", "YYYY-MM-DD HH24:MI:SS",
    "DDth Month YYYY", "W WW", "SSSSS"]


def test_numbers_as_postgres_formats_them(pg_server):
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        differ = []
        for n in NUMBERS:
            for template in NUMBER_TEMPLATES:
                expected, mine = _outcome(conn, "numeric", n, template), _outcome_of(to_char_number, n, template)
                if mine != expected:
                    differ.append((n, template, mine, expected))
    assert not differ


def test_floats_as_postgres_formats_them(pg_server):
    """double precision and real: printed with at most DBL_DIG / FLT_DIG
    digits (the template's further places dropped), of the binary value,
    NaN and Infinity as PostgreSQL's printf words, roman numerals of
    rint's."""
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        differ = []
        for sql_type, digits in (("float8", 15), ("float4", 6)):
            for n in FLOATS:
                if sql_type == "float4" and n == "1.7976931348623157e308":
                    continue  # (beyond a real)
                for template in FLOAT_TEMPLATES:
                    expected, mine = _outcome(conn, sql_type, n, template), _outcome_of(to_char_float, n, template, digits)
                    if mine != expected:
                        differ.append((sql_type, n, template, mine, expected))
    assert not differ


def _outcome(conn, sql_type: str, n: str, template: str) -> str:
    try:
        return conn.execute(f"SELECT to_char(%s::{sql_type}, %s)", (n, template)).fetchone()[0]
    except psycopg.Error as e:
        return e.sqlstate


def _outcome_of(fn, *args) -> str:
    try:
        return fn(*args)
    except FunctionError as e:
        return e.sqlstate


def test_timestamps_as_postgres_formats_them(pg_server):
    with psycopg.connect(pg_server.url()) as conn:
        differ = []
        for stamp in STAMPS:
            micros = (dt.datetime.fromisoformat(stamp) - dt.datetime(1970, 1, 1)) // dt.timedelta(microseconds=1)
            for template in STAMP_TEMPLATES:
                expected = conn.execute("SELECT to_char(%s::timestamp, %s)", (stamp, template)).fetchone()[0]
                if to_char_timestamp(micros, template) != expected:
                    differ.append((stamp, template, to_char_timestamp(micros, template), expected))
    assert not differ


async def test_through_the_engine():
    engine = LocalEngine()
    out = await engine.run("SELECT txngate_to_char(CASE WHEN isinf(t) THEN NULL ELSE epoch_us(t) END, 'YYYY-MM-DD') AS s, "
                           "txngate_to_char_number(CAST(n AS VARCHAR), 'FM9,990.00') AS n FROM (VALUES "
                           "(TIMESTAMP '2020-02-29 10:00', 1234.5::DECIMAL(6,2)), (TIMESTAMP 'infinity', NULL)) v(t, n)")
    assert out.column("s").to_pylist() == ["2020-02-29", None]
    assert out.column("n").to_pylist() == ["1,234.50", None]
    with pytest.raises(EngineError) as info:
        await engine.run("SELECT txngate_to_char_number('1e11', 'RN')")  # (PostgreSQL's numeric_int4 of the rounded value)
    assert info.value.sqlstate == "22003"


#: templates to_timestamp and to_date read (local_exec.tochar.from_char), each written by to_char first
READ_TEMPLATES = [
    "YYYY-MM-DD HH24:MI:SS", "DD Mon YYYY HH12:MI:SS AM", "Month DD, YYYY", "YYYYMMDD HH24MISS.US", "Dy DD Mon YYYY", "YYYY DDD",
    "J", "Y,YYY MM DD", "FMDD FMMonth YYYY HH24:MI", '"date:" YYYY-MM-DD', "YY-MM-DD HH:MI P.M.", "DD/MM/YYYY SSSSS", "YYYY-MM-DD HH24:MI:SS.MS",
    "MONTH DD YYYY", "yyyy-mm-dd hh24:mi:ss.ff3", "YYYY-RM-DD", "DAY, DD MON YYYY", "HH24:MI:SS.US YYYY-MM-DD", "DD.MM.YY",
    "Mon DD YYYY HH:MI AM", 'YYYY-MM-DD"T"HH24:MI:SS', "FMMonth FMDDth, YYYY", "DDD YYYY", "YYYYMMDDHH24MISS", "Q YYYY-MM-DD D",
]


def test_templates_read_back_as_postgres_reads_them(pg_server):
    """to_timestamp(to_char(t, template), template) beside PostgreSQL's, for
    every stamp and template: the same local time (the session in UTC)."""
    with psycopg.connect(pg_server.url()) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        differ = []
        for stamp in STAMPS:
            for template in READ_TEMPLATES:
                text = conn.execute("SELECT to_char(%s::timestamp, %s)", (stamp, template)).fetchone()[0]
                expected = conn.execute("SELECT to_char(to_timestamp(%s, %s), 'YYYY-MM-DD HH24:MI:SS.US')", (text, template)).fetchone()[0]
                got = from_char(text, template, False)
                got = got if "." in got else got + ".000000"
                if got != expected:
                    differ.append((stamp, template, text, got, expected))
    assert not differ


def test_unread_patterns_are_refused():
    """Patterns whose reading txngate lacks (ISO weeks, centuries, week
    numbers) are 0A000, never misread as others."""
    for text, template in [("2020-01-05", "IYYY-MM-DD"), ("2020 01 3", "YYYY IW ID"), ("20 5", "CC YY"), ("2020 10", "YYYY WW")]:
        with pytest.raises(FunctionError) as info:
            from_char(text, template, False)
        assert info.value.sqlstate == "0A000", (text, template)
