"""PostgreSQL's string and binary functions that DuckDB lacks or answers
otherwise, for the local engine (the planner renames the calls to these):

- ``format()``: DuckDB's is fmt's (``{}``); PostgreSQL's reads
  ``%[position$][flags][width]type`` with ``s`` (the value as text, NULL
  as nothing), ``I`` (a quoted identifier; NULL is 22004), ``L`` (a quoted
  literal, NULL as ``NULL``) and ``%%``. The planner rewrites
  ``format(f, a, ...)`` to ``txngate_format(f, [a, ...])`` with each
  argument as PostgreSQL prints it (``txngate_text``, local_exec.texts:
  booleans ``t``/``f``, which concat and concat_ws take too);
- ``sha224``, ``sha384``, ``sha512`` (DuckDB has only sha256, and the
  transpiler turned the others into it: a wrong digest);
- ``encode(bytea, format)`` and ``decode(text, format)`` with PostgreSQL's
  formats ``hex``, ``base64`` and ``escape`` (DuckDB's encode/decode are
  UTF-8 conversions, so decode(..., 'hex') gave the text back);
- ``split_part`` with an empty delimiter (the whole string is field 1 and
  -1, every other field empty; DuckDB split it into characters);
- ``to_hex`` of a negative integer in its type's width (``fffffb2e`` for an
  integer), in lower case;
- ``txngate_integer_text``: COPY's text for an integer column, checked as
  PostgreSQL's input function checks it (22P02 for ``34.5``);
- ``txngate_float_text``: text cast to real or double precision as the
  statement runs, checked as PostgreSQL's input checks it (22P02 for
  ``1_000``, 22003 for ``1e400`` and ``4e-400``, which DuckDB's cast read
  as infinity and 0);
- ``txngate_boolean_text``: COPY's text for a boolean column, read as
  PostgreSQL reads it (``on``, ``of``, prefixes of true/false/yes/no);
- ``txngate_zone_text``: text cast to timestamptz as the statement runs,
  its trailing time zone abbreviation read as PostgreSQL's fixed offset
  (DuckDB's ICU reads ``PST`` as Los Angeles, an hour off in summer, and
  knows no ``EDT``), a date alone at midnight; ``txngate_zone_dropped``:
  the same for timestamp, which ignores the abbreviation;
- ``txngate_datetime_read``: text cast to a date or timestamp as the
  statement runs that the engine's cast does not read (a weekday, a
  month's name, DateStyle's field order), read as a constant is;
- ``txngate_interval_read``, ``txngate_time_read``: text cast to an
  interval or a time as the statement runs, read as a constant is (the
  engine's cast knows no ISO 8601, no AM/PM);
- ``txngate_bc_text``: COPY's text for a date or timestamp column with
  PostgreSQL's ``BC`` suffix, as the astronomical year DuckDB reads
  (its timestamp cast reads ``0097-02-16 17:32:01 BC`` as AD; the planner's
  ``values.bc_input`` does the same for constants).

Errors are PostgreSQL's: an unknown format is 22023, text that is not in
the format 22P02.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re

from pglast.keywords import COL_NAME_KEYWORDS, RESERVED_KEYWORDS, TYPE_FUNC_NAME_KEYWORDS

from local_exec import udf
from local_exec.udf import FunctionError
from values import (BOOLEAN_WORDS, DATE_ORDER, INTERVAL_STYLE, ZONE_ABBREVIATIONS, ByteaInputError, InvalidInput, datetime_text, interval_text,
                    parse_bytea, time_text)

#: text ending in a time zone abbreviation after a digit and a space: (what comes before it, the abbreviation)
_ZONED = r"^(.*[0-9])\s+([A-Za-z]{2,5})\s*$"
#: PostgreSQL's fixed-offset abbreviations as DuckDB reads an offset (a MAP literal)
_FIXED_ZONES = "MAP {" + ", ".join(
    f"'{name}': '{'-' if seconds < 0 else '+'}{abs(seconds) // 3600:02d}:{abs(seconds) % 3600 // 60:02d}'"
    for name, seconds in sorted(ZONE_ABBREVIATIONS.items()) if isinstance(seconds, int)) + "}"
#: ISO date or timestamp text with PostgreSQL's BC suffix: (year, the rest)
_BC = r"\s*(\d+)(-\d{1,2}-\d{1,2}(?:[ T]\S.*?)?)\s+[Bb][Cc]\s*"

__all__ = ["FUNCTIONS", "MACROS", "decode", "encode", "pg_format", "quote_ident", "quote_literal", "register"]

_SPEC = re.compile(r"%(?:(\d+)\$)?(-)?(?:(\d+)|(\*)(?:(\d+)\$)?)?(.)?", re.DOTALL)
_PLAIN = re.compile(r"[a-z_][a-z0-9_$]*")
_KEYWORDS = set(RESERVED_KEYWORDS) | set(TYPE_FUNC_NAME_KEYWORDS) | set(COL_NAME_KEYWORDS)


def quote_ident(name: str) -> str:
    """PostgreSQL's quote_ident: as it is when it reads back the same unquoted."""
    if _PLAIN.fullmatch(name) and name not in _KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    """PostgreSQL's quote_literal: E'' form, backslashes doubled, when it has one."""
    quoted = text.replace("'", "''")
    return "E'" + quoted.replace("\\", "\\\\") + "'" if "\\" in text else "'" + quoted + "'"


def pg_format(fmt: str, args: list) -> str:
    out, i, next_arg = [], 0, 0
    while True:
        j = fmt.find("%", i)
        if j < 0:
            out.append(fmt[i:])
            return "".join(out)
        out.append(fmt[i:j])
        m = _SPEC.match(fmt, j)
        position, left, width, star, star_position, kind = m.groups()
        if kind is None:
            raise FunctionError("22023", "unterminated format() type specifier", "For a single \"%\" use \"%%\".")
        i = m.end()
        if kind == "%" and m.end() - j == 2:
            out.append("%")
            continue
        if star:  # the width is an argument: the next one, or the one numbered
            at = int(star_position) - 1 if star_position else next_arg
            if at >= len(args):
                raise FunctionError("22023", "too few arguments for format()")
            next_arg = at + 1
            width = args[at] or "0"
            if int(width) < 0:
                left, width = "-", str(-int(width))
        if kind not in "sIL":
            raise FunctionError("22023", f'unrecognized format() type specifier "{kind}"',
                                "For a single \"%\" use \"%%\".")
        index = int(position) - 1 if position is not None else next_arg
        if position is not None and int(position) == 0:
            raise FunctionError("22023", "format specifies argument 0, but arguments are numbered from 1")
        if index >= len(args):
            raise FunctionError("22023", "too few arguments for format()")
        next_arg = index + 1
        value = args[index]
        if kind == "I":
            if value is None:
                raise FunctionError("22004", "null values cannot be formatted as an SQL identifier")
            text = quote_ident(value)
        elif kind == "L":
            text = "NULL" if value is None else quote_literal(value)
        else:
            text = "" if value is None else value
        n = int(width) if width else 0
        out.append(text.ljust(n) if left else text.rjust(n))


def digest(data: bytes, algorithm: str) -> bytes:
    return hashlib.new(algorithm, data).digest()


def encode(data: bytes, fmt: str) -> str:
    fmt = fmt.lower()
    if fmt == "hex":
        return data.hex()
    if fmt == "base64":
        text = base64.b64encode(data).decode()
        return "\n".join(text[i:i + 76] for i in range(0, len(text), 76))  # PostgreSQL breaks lines at 76
    if fmt == "escape":
        return "".join("\\\\" if b == 0x5C else f"\\{b:03o}" if b == 0 or b >= 0x80 else chr(b) for b in data)
    raise FunctionError("22023", f'unrecognized encoding: "{fmt}"')


def decode(text: str, fmt: str) -> bytes:
    fmt = fmt.lower()
    if fmt == "hex":
        compact = re.sub(r"\s", "", text)
        try:
            return bytes.fromhex(compact)
        except ValueError:
            bad = next((c for c in compact if c not in "0123456789abcdefABCDEF"), None)
            if bad is not None:
                raise FunctionError("22023", f'invalid hexadecimal digit: "{bad}"') from None
            raise FunctionError("22023", "invalid hexadecimal data: odd number of digits") from None
    if fmt == "base64":
        try:
            return base64.b64decode(re.sub(r"\s", "", text), validate=True)
        except binascii.Error:
            raise FunctionError("22023", "invalid base64 end sequence") from None
    if fmt == "escape":
        out = bytearray()
        for piece in re.split(r"(\\\\|\\[0-3][0-7]{2}|\\)", text):
            if piece == "\\\\":
                out.append(0x5C)
            elif len(piece) == 4 and piece.startswith("\\"):
                out.append(int(piece[1:], 8))
            elif piece == "\\":
                raise FunctionError("22P02", "invalid input syntax for type bytea")
            else:
                out += piece.encode()
        return bytes(out)
    raise FunctionError("22023", f'unrecognized encoding: "{fmt}"')


_UNICODE_ESCAPE = re.compile(r"\\(?:\\|([0-9A-Fa-f]{4})|\+([0-9A-Fa-f]{6})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))")


def initcap(text: str) -> str:
    """PostgreSQL's initcap: the first letter or digit of each run of them
    upper case, the rest lower case (sqlglot's emulation joined a
    concat's arguments with ``||``, so a NULL among them gave NULL)."""
    out, inside = [], False
    for ch in text:
        out.append(ch.lower() if inside else ch.upper())
        inside = ch.isalnum()
    return "".join(out)


def unistr(text: str) -> str:
    """PostgreSQL's unistr: ``\\XXXX``, ``\\+XXXXXX``, ``\\uXXXX`` and
    ``\\UXXXXXXXX`` are the code points they spell (a UTF-16 surrogate
    pair the one it makes), ``\\\\`` a backslash; any other backslash is
    42601, a code point past U+10FFFF 22023, an unpaired surrogate 42601."""
    out, pos, high = [], 0, None

    def unpaired():
        return FunctionError("42601", "invalid Unicode surrogate pair")

    for m in _UNICODE_ESCAPE.finditer(text):
        if "\\" in text[pos:m.start()]:
            break
        if text[pos:m.start()] and high is not None:
            raise unpaired()
        out.append(text[pos:m.start()])
        pos = m.end()
        if m.group(0) == "\\\\":
            if high is not None:
                raise unpaired()
            out.append("\\")
            continue
        cp = int(next(g for g in m.groups() if g is not None), 16)
        if cp > 0x10FFFF:
            raise FunctionError("22023", f"invalid Unicode code point: {cp:04X}")
        if 0xD800 <= cp <= 0xDBFF:
            if high is not None:
                raise unpaired()
            high = cp
        elif 0xDC00 <= cp <= 0xDFFF:
            if high is None:
                raise unpaired()
            out.append(chr(0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00)))
            high = None
        else:
            if high is not None:
                raise unpaired()
            out.append(chr(cp))
    if "\\" in text[pos:]:
        raise FunctionError("42601", "invalid Unicode escape", "Unicode escapes must be \\XXXX, \\+XXXXXX, \\uXXXX, or \\UXXXXXXXX.")
    if high is not None:
        raise unpaired()
    out.append(text[pos:])
    return "".join(out)


def bytea_text(text: str) -> bytes:
    try:
        return parse_bytea(text)
    except ByteaInputError as e:
        raise FunctionError(e.sqlstate, e.message) from None


def bytea_substr(data: bytes, start: int, count: int) -> bytes:
    """PostgreSQL's substring of a bytea: ``count`` bytes from the
    ``start``-th (1-based), the positions before the first counted too."""
    if count < 0:
        raise FunctionError("22011", "negative substring length not allowed")
    return bytea_substr_from(data, start)[:max(start + count - max(start, 1), 0)]


def bytea_substr_from(data: bytes, start: int) -> bytes:
    """substring(data FROM start): every byte from the ``start``-th on."""
    return data[max(start, 1) - 1:]


def bytea_trim(data: bytes, chars: bytes, side: str) -> bytes:
    """btrim, ltrim and rtrim of a bytea: the bytes in ``chars`` taken off
    both ends, the start or the end."""
    return data.strip(chars) if side == "both" else data.lstrip(chars) if side == "leading" else data.rstrip(chars)


def _read(reader, text: str, *args, setting=None, value: str = "") -> str:
    """``reader(text, *args)`` (one of values' input readers, the
    constants'), with the session setting ``setting`` (a context variable)
    at ``value`` meanwhile; PostgreSQL's error as the function's."""
    token = setting.set(value) if setting is not None else None
    try:
        return reader(text, *args)
    except InvalidInput as e:
        raise FunctionError(e.sqlstate, e.message) from None
    finally:
        if token is not None:
            setting.reset(token)


def datetime_read(text: str, sql_type: str, order: str) -> str:
    """Text cast to a date, timestamp or timestamptz as the statement
    runs, that the engine's own cast does not read (``Tue Feb 29 2000``,
    ``01/02/2000`` in DateStyle ``order``): as PostgreSQL's input reads it
    (values.datetime_text), in ISO text the engine reads; 22007 / 22008
    when PostgreSQL refuses it."""
    return _read(datetime_text, text, sql_type, setting=DATE_ORDER, value=order)


def interval_read(text: str, style: str) -> str:
    """Text cast to an interval as the statement runs, as PostgreSQL's
    input reads it under IntervalStyle ``style`` (values.interval_text: ISO
    8601, ``-1 day +03:00``, ``@ 3 days ago``, ...), in the text the engine
    reads; 22007 / 22015 when PostgreSQL refuses it."""
    return _read(interval_text, text, setting=INTERVAL_STYLE, value=style)


def time_read(text: str) -> str:
    """Text cast to a time as the statement runs, as PostgreSQL's input
    reads it (values.time_text: AM/PM, 040506, a zone dropped, a long
    fraction rounded), in the text the engine reads."""
    return _read(time_text, text)


FUNCTIONS = {
    "txngate_datetime_read": (datetime_read, ["VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_time_read": (time_read, ["VARCHAR"], "VARCHAR"),
    "txngate_interval_read": (interval_read, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_bytea_substr": (bytea_substr, ["BLOB", "BIGINT", "BIGINT"], "BLOB"),
    "txngate_bytea_substr_from": (bytea_substr_from, ["BLOB", "BIGINT"], "BLOB"),
    "txngate_bytea_trim": (bytea_trim, ["BLOB", "BLOB", "VARCHAR"], "BLOB"),
    "txngate_format": (lambda fmt, args: pg_format(fmt, list(args)), ["VARCHAR", "VARCHAR[]"], "VARCHAR"),
    "txngate_digest": (digest, ["BLOB", "VARCHAR"], "BLOB"),
    "txngate_encode": (encode, ["BLOB", "VARCHAR"], "VARCHAR"),
    "txngate_decode": (decode, ["VARCHAR", "VARCHAR"], "BLOB"),
    # text read as bytea's input reads it (values.parse_bytea; DuckDB's cast reads \xNN escapes only)
    "txngate_bytea_text": (bytea_text, ["VARCHAR"], "BLOB"),
    "txngate_unistr": (unistr, ["VARCHAR"], "VARCHAR"),
    "txngate_initcap": (initcap, ["VARCHAR"], "VARCHAR"),
}

MACROS = (
    *(f"CREATE OR REPLACE MACRO txngate_{a}(x) AS txngate_digest(CAST(x AS BLOB), '{a}')" for a in ("sha224", "sha384", "sha512")),
    # pgcrypto's digest(data, 'sha256'): text or bytea in, bytea out
    "CREATE OR REPLACE MACRO txngate_pgcrypto_digest(x, a) AS txngate_digest(CAST(x AS BLOB), lower(a))",
    # (an error here is a failing cast of its text, '[SQLSTATE] message', to DOUBLE, which local_exec.errors reads back,
    # typed as the CASE it stands in: error() is volatile, and a volatile macro is refused in PARTITION BY)
    "CREATE OR REPLACE MACRO txngate_split_part(s, d, n) AS "
    "CASE WHEN n = 0 THEN CAST(CAST('[22023] field position must not be zero' AS DOUBLE) AS VARCHAR) WHEN d = '' THEN CASE WHEN n IN (1, -1) THEN s ELSE '' END ELSE split_part(s, d, n) END",
    # chr(n) with PostgreSQL's errors (DuckDB's gives a NUL character for 0)
    "CREATE OR REPLACE MACRO txngate_chr(n) AS CASE WHEN n = 0 THEN CAST(CAST('[54000] null character not permitted' AS DOUBLE) AS VARCHAR) "
    "WHEN n < 0 THEN CAST(CAST('[22023] character number must be positive' AS DOUBLE) AS VARCHAR) "
    "WHEN n > 1114111 THEN CAST(CAST('[54000] requested character too large for encoding: ' || n AS DOUBLE) AS VARCHAR) "
    "WHEN n BETWEEN 55296 AND 57343 THEN CAST(CAST('[54000] requested character not valid for encoding: ' || n AS DOUBLE) AS VARCHAR) ELSE chr(n) END",
    # text PostgreSQL's integer input takes (DuckDB's cast rounds '34.5' and reads '1e2', '0x10'), as it is
    "CREATE OR REPLACE MACRO txngate_integer_text(s, t) AS CASE WHEN s IS NULL OR regexp_full_match(s, '[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*') "
    "THEN s ELSE CAST(CAST('[22P02] invalid input syntax for type ' || t || ': \"' || s || '\"' AS DOUBLE) AS VARCHAR) END",
    # text PostgreSQL's real and double precision input take, as it is (DuckDB's cast reads '1_000', and overflows to
    # infinity or underflows to 0 where PostgreSQL refuses with 22003)
    # (list_transform([s_in], lambda s: ...)[1]: the argument computed once, however often the body names it; macros
    # nest, and a json member's text read through three of them was a Python call 50 times over)
    "CREATE OR REPLACE MACRO txngate_float_text(s_in, t) AS list_transform([s_in], lambda s: CASE WHEN s IS NULL THEN NULL "
    "WHEN regexp_full_match(s, '[ \t\n\r\v\f]*[+-]?(nan|inf|infinity)[ \t\n\r\v\f]*', 'i') THEN s "
    "WHEN NOT regexp_full_match(s, '[ \t\n\r\v\f]*[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\v\f]*') "
    "THEN CAST(CAST('[22P02] invalid input syntax for type ' || t || ': \"' || s || '\"' AS DOUBLE) AS VARCHAR) "
    "WHEN abs(CAST(s AS DOUBLE)) > CASE WHEN t = 'real' THEN 3.4028234663852886e38 ELSE 1.7976931348623157e308 END "
    "OR (abs(CAST(s AS DOUBLE)) < CASE WHEN t = 'real' THEN 1.1754943508222875e-38 ELSE 2.2250738585072014e-308 END "
    "AND regexp_matches(regexp_extract(s, '^[^eE]*'), '[1-9]')) "
    "THEN CAST(CAST('[22003] \"' || trim(s, ' \t\n\r\v\f') || '\" is out of range for type ' || t AS DOUBLE) AS VARCHAR) ELSE s END)[1]",
    "CREATE OR REPLACE MACRO txngate_boolean_text(s_in) AS list_transform([s_in], lambda s: CASE WHEN s IS NULL THEN NULL "
    "WHEN lower(trim(s, ' \t\n\r\v\f')) IN (" + ", ".join(f"'{w}'" for w, v in BOOLEAN_WORDS.items() if v) + ") THEN true "
    "WHEN lower(trim(s, ' \t\n\r\v\f')) IN (" + ", ".join(f"'{w}'" for w, v in BOOLEAN_WORDS.items() if not v) + ") THEN false "
    "ELSE CAST(CAST('[22P02] invalid input syntax for type boolean: \"' || s || '\"' AS DOUBLE) AS BOOLEAN) END)[1]",
    "CREATE OR REPLACE MACRO txngate_zone_text(s_in) AS list_transform([s_in], lambda s: CASE WHEN regexp_matches(s, '" + _ZONED + "') AND "
    "(" + _FIXED_ZONES + ")[lower(regexp_extract(s, '" + _ZONED + "', 2))] IS NOT NULL THEN regexp_extract(s, '" + _ZONED + "', 1) "
    "|| CASE WHEN strpos(regexp_extract(s, '" + _ZONED + "', 1), ':') = 0 THEN ' 00:00' ELSE '' END "
    "|| (" + _FIXED_ZONES + ")[lower(regexp_extract(s, '" + _ZONED + "', 2))] ELSE s END)[1]",
    "CREATE OR REPLACE MACRO txngate_zone_dropped(s_in) AS list_transform([s_in], lambda s: CASE WHEN regexp_matches(s, '" + _ZONED + "') AND "
    "lower(regexp_extract(s, '" + _ZONED + "', 2)) IN (" + ", ".join(f"'{a}'" for a in sorted(ZONE_ABBREVIATIONS)) + ") "
    "THEN regexp_extract(s, '" + _ZONED + "', 1) ELSE s END)[1]",
    "CREATE OR REPLACE MACRO txngate_bc_text(s_in) AS list_transform([s_in], lambda s: CASE WHEN s IS NULL OR NOT regexp_full_match(s, '" + _BC + "') THEN s "
    "WHEN TRY_CAST(regexp_extract(s, '" + _BC + "', 1) AS HUGEINT) = 0 THEN CAST(CAST('[22008] date/time field value out of range: \"' || s || '\"' AS DOUBLE) AS VARCHAR) "
    "ELSE (CASE WHEN TRY_CAST(regexp_extract(s, '" + _BC + "', 1) AS HUGEINT) = 1 THEN '0000' "
    "ELSE '-' || lpad(CAST(TRY_CAST(regexp_extract(s, '" + _BC + "', 1) AS HUGEINT) - 1 AS VARCHAR), 4, '0') END) "
    "|| regexp_extract(s, '" + _BC + "', 2) END)[1]",
    # text the engine's cast reads as it is, else PostgreSQL's reading of its raw text (txngate_datetime_read: a Python call
    # only for the rows the cast does not read)
    *(f"CREATE OR REPLACE MACRO txngate_{t}_or_read(s_in, raw, o) AS list_transform([s_in], lambda s: CASE WHEN s IS NULL "
      f"OR TRY_CAST(s AS {duck}) IS NOT NULL THEN s ELSE txngate_datetime_read(raw, '{t}', o) END)[1]"
      for t, duck in (("date", "DATE"), ("timestamp", "TIMESTAMP"), ("timestamptz", "TIMESTAMPTZ"))),
    "CREATE OR REPLACE MACRO txngate_to_hex(x) AS lower(CASE WHEN typeof(x) IN ('INTEGER', 'SMALLINT') AND x < 0 "
    "THEN hex(CAST(x AS BIGINT) + 4294967296) ELSE hex(x) END)",
)


def register(con) -> None:
    udf.register(con, FUNCTIONS)
    for sql in MACROS:
        con.execute(sql)
