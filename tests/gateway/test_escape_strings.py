"""standard_conforming_strings off: a plain string constant's backslashes
are escapes, as in PostgreSQL (txngate accepted the setting and read them
as written: ``'a\\nb'`` kept its backslash, a silent wrong value), and a
``U&'...'`` string is refused (0A000). Over the simple protocol and the
extended one (psycopg's parameters), each ends on txngate as on
PostgreSQL."""

from __future__ import annotations

import psycopg

QUERIES = [
    r"SELECT 'a\\bcd' AS f1, 'a\\b\'cd' AS f2, 'a\\b\'''cd' AS f3, 'abcd\\' AS f4, 'ab\\\'cd' AS f5, '\\\\' AS f6",
    r"SELECT 'x' || 'a\nb', E'tab\there', $$ dollar \n $$, length('\101')",
    r"SELECT 'a\bcd' -- a comment's ' quote",
    r"SELECT U&'d\0061t\+000061'",
]


def run(dsn: str) -> list:
    out = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        for setting in ("off", "on"):
            conn.execute(f"SET standard_conforming_strings = {setting}")
            for sql in QUERIES:
                for params in (None, [1]):  # simple protocol; extended, with a parameter
                    text = sql if params is None else sql + " WHERE %s = 1"
                    try:
                        with conn.cursor() as cur:
                            cur.execute(text, params)
                            out.append(cur.fetchall())
                    except psycopg.Error as e:
                        out.append(e.sqlstate)
    return out


def test_escape_strings_as_in_postgres(gateway, pg_server):
    ours = run(gateway.dsn())
    assert ours == run(pg_server.url())
    assert ours[0] == [("a\\bcd", "a\\b'cd", "a\\b''cd", "abcd\\", "ab\\'cd", "\\\\")] and "0A000" in ours[:8]
