"""planner.builtins against PostgreSQL: its table of functions is the test
server's ``pg_proc``, and calls of functions PostgreSQL has not (by name
or by number of arguments) fail with PostgreSQL's SQLSTATE, where the
engine under us has functions of those names.

``python -m tests.planner.test_builtins`` writes the table again from a
PostgreSQL it starts."""

from __future__ import annotations

import sys

import psycopg
import pytest

from planner import SqlError, builtins, pgcatalog

#: the extensions txngate has (their functions are built in, wherever CREATE EXTENSION puts them)
EXTENSIONS = sorted(set(pgcatalog.EXTENSIONS) - {"plpgsql"})

#: one row per function of PostgreSQL's own schemas and of those extensions: name, arguments, defaults, variadic
PG_PROC = f"""
SELECT p.proname, p.pronargs, p.pronargdefaults, p.provariadic <> 0
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname IN ('pg_catalog', 'information_schema')
   OR EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
              WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
                AND e.extname IN ({", ".join(f"'{e}'" for e in EXTENSIONS)}))
"""


def pg_functions(url: str) -> str:
    """pg_functions.txt as the PostgreSQL at ``url`` has it (the extensions created first)."""
    with psycopg.connect(url, autocommit=True) as conn:
        for e in EXTENSIONS:
            conn.execute(f'CREATE EXTENSION IF NOT EXISTS "{e}"')
        return table_text(conn.execute(PG_PROC).fetchall())


def table_text(rows) -> str:
    """pg_functions.txt from PG_PROC's rows: ``name<TAB>counts``, sorted."""
    counts: dict[str, set[str]] = {}
    for name, nargs, ndefaults, variadic in rows:
        fewest = nargs - ndefaults
        if variadic:
            counts.setdefault(name, set()).add(f"{fewest}+")
        else:
            counts.setdefault(name, set()).update(str(k) for k in range(fewest, nargs + 1))
    order = lambda c: (int(c.rstrip("+")), c.endswith("+"))  # noqa: E731
    return "".join(f"{name}\t{','.join(sorted(cs, key=order))}\n" for name, cs in sorted(counts.items()))


def test_table_is_postgres_pg_proc(pg_url):
    expected = pg_functions(pg_url)
    with open(builtins.FILE, encoding="utf-8") as f:
        assert f.read() == expected, "planner/pg_functions.txt differs from PostgreSQL's pg_proc: python -m tests.planner.test_builtins"


@pytest.mark.parametrize("sql", [
    "SELECT array_sort(ARRAY[3, 1, 2])",          # the engine's list sort (PostgreSQL 18 has one; 15 not)
    "SELECT array_reverse(ARRAY[1, 2])",
    "SELECT gamma(5.0::float8)",
    "SELECT list_sum(ARRAY[1, 2])",
    "SELECT jsonb_strip_nulls('{\"a\": null}', true)",  # a known function, a count it does not take
    "SELECT pg_catalog.array_reverse(ARRAY[1])",
])
async def test_functions_postgres_has_not_are_refused(db, pg_url, sql):
    await assert_both_refuse(db, pg_url, sql, "42883")


async def assert_both_refuse(db, pg_url: str, sql: str, sqlstate: str) -> None:
    """``sql`` fails on PostgreSQL and on txngate, with ``sqlstate`` on both."""
    with psycopg.connect(pg_url) as conn:
        with pytest.raises(psycopg.Error) as theirs:
            conn.execute(sql)
    with pytest.raises(SqlError) as ours:
        await db.session().execute(sql)
    assert ours.value.sqlstate == theirs.value.sqlstate == sqlstate


@pytest.mark.parametrize("sql", [
    "SELECT count(*), concat('a', 1, 2), json_build_object(), coalesce(1, 2), extract(year from date '2024-01-01')",
    "SELECT trim(both 'x' from 'xax'), position('b' in 'abc'), substring('abc' from 2), overlay('abc' placing 'z' from 2)",
    "SELECT round(2.5), round(2.567, 2), pg_catalog.upper('a'), now() AT TIME ZONE 'UTC' IS NOT NULL",
    "SELECT length(gen_random_uuid()::text), length(uuid_generate_v4()::text), encode(digest('abc', 'sha256'), 'hex')",
])
async def test_builtins_called_as_written_pass(db, pg_url, sql):
    pg_functions(pg_url)  # (the extensions created)
    with psycopg.connect(pg_url) as conn:
        expected = conn.execute(sql).fetchall()
    got = await db.session().execute(sql)
    assert len(got[-1].rows) == len(expected) == 1


@pytest.mark.parametrize("sql", [
    "SELECT now() AT LOCAL",  # PostgreSQL 17's grammar: timezone() of one argument
    "SELECT * FROM (SELECT 1)",  # an alias became optional in PostgreSQL 16
    "SELECT * FROM (VALUES (1), (2))",
])
async def test_postgres_15_grammar(db, pg_url, sql):
    await assert_both_refuse(db, pg_url, sql, "42601")


def main(argv: list[str]) -> None:
    from tests.servers import PostgresServer

    server = PostgresServer().start()
    try:
        text = pg_functions(server.url())
    finally:
        server.stop()
    with open(builtins.FILE, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {builtins.FILE}: {text.count(chr(10))} functions")


if __name__ == "__main__":
    main(sys.argv[1:])
