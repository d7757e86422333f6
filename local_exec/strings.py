"""PostgreSQL's string and binary functions that DuckDB lacks or answers
otherwise, for the local engine (the planner renames the calls to these):

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
  PostgreSQL's input function checks it (22P02 for ``34.5``).

Errors are PostgreSQL's: an unknown format is 22023, text that is not in
the format 22P02.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re

from local_exec import udf
from local_exec.udf import FunctionError

__all__ = ["FUNCTIONS", "MACROS", "decode", "encode", "register"]


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


FUNCTIONS = {
    "txngate_digest": (digest, ["BLOB", "VARCHAR"], "BLOB"),
    "txngate_encode": (encode, ["BLOB", "VARCHAR"], "VARCHAR"),
    "txngate_decode": (decode, ["VARCHAR", "VARCHAR"], "BLOB"),
}

MACROS = (
    *(f"CREATE OR REPLACE MACRO txngate_{a}(x) AS txngate_digest(CAST(x AS BLOB), '{a}')" for a in ("sha224", "sha384", "sha512")),
    "CREATE OR REPLACE MACRO txngate_split_part(s, d, n) AS "
    "CASE WHEN d = '' THEN CASE WHEN n IN (1, -1) THEN s ELSE '' END ELSE split_part(s, d, n) END",
    # text PostgreSQL's integer input takes (DuckDB's cast rounds '34.5' and reads '1e2', '0x10'), as it is
    "CREATE OR REPLACE MACRO txngate_integer_text(s, t) AS CASE WHEN s IS NULL OR regexp_full_match(s, '[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*') "
    "THEN s ELSE error('[22P02] invalid input syntax for type ' || t || ': \"' || s || '\"') END",
    "CREATE OR REPLACE MACRO txngate_to_hex(x) AS lower(CASE WHEN typeof(x) IN ('INTEGER', 'SMALLINT') AND x < 0 "
    "THEN hex(CAST(x AS BIGINT) + 4294967296) ELSE hex(x) END)",
)


def register(con) -> None:
    udf.register(con, FUNCTIONS)
    for sql in MACROS:
        con.execute(sql)
