"""UPDATE and DELETE whose WHERE pins keys and says nothing more, and
INSERT of plain values, run without an engine (``Dml._probed``,
``_point_assignments``, ``_constant_rows``): each
statement here, on txngate and on the real PostgreSQL, must end alike
(command tag and rows, or SQLSTATE and message) and leave the same rows,
whether it takes that path (constants, parameters, ``col + k``) or falls
back to the engine (``k - col``, other types, NULL)."""

from __future__ import annotations


from tests.planner.helpers import assert_same_outcomes, beside_postgres

SETUP = [
    "CREATE TABLE pw (id integer PRIMARY KEY, code text UNIQUE, n integer, b bigint, s smallint, name varchar(5), CHECK (n <> 999))",
    "INSERT INTO pw SELECT g, 'c' || g, g * 10, 9223372036854775800 + g, g, 'n' || g FROM generate_series(1, 7) AS g",
    "INSERT INTO pw VALUES (8, 'c8', 2147483600, 0, 32767, 'n8'), (9, NULL, NULL, NULL, NULL, NULL)",
]

STATEMENTS: list[tuple[str, list]] = [
    ("UPDATE pw SET n = n + 1 WHERE id = 1", []),
    ("UPDATE pw SET n = 1 + n, name = 'ab' WHERE id = 2", []),
    ("UPDATE pw SET n = 5 - n WHERE id = 3", []),
    ("UPDATE pw SET n = n + 100 WHERE id = 8", []),
    ("UPDATE pw SET n = n - -100 WHERE id = 8", []),
    ("UPDATE pw SET b = b + 10 WHERE id = 6", []),
    ("UPDATE pw SET b = b - 1 WHERE id = 6", []),
    ("UPDATE pw SET s = s + 1 WHERE id = 8", []),
    ("UPDATE pw SET n = 999 WHERE id = 1", []),
    ("UPDATE pw SET name = 'toolong' WHERE id = 1", []),
    ("UPDATE pw SET code = 'c2' WHERE id = 1", []),
    ("UPDATE pw SET id = 10 WHERE id IN (1, 2)", []),
    ("UPDATE pw SET id = 20, code = code WHERE id = 5", []),
    ("UPDATE pw SET n = b WHERE id = 4", []),
    ("UPDATE pw SET n = NULL WHERE id = 4", []),
    ("UPDATE pw SET n = n + 1 WHERE id = 9", []),
    ("UPDATE pw SET n = n - 3, name = code WHERE id = 3 AND id = 3", []),
    ("UPDATE pw SET n = $1 WHERE id = $2", [42, 3]),
    ("UPDATE pw SET n = n + $1 WHERE id = $2", [7, 3]),
    ("UPDATE pw SET n = n + 1 WHERE id = 999", []),
    ("UPDATE pw SET n = n + 1 WHERE id = 3 AND n > 1000", []),
    ("UPDATE pw SET n = n + 988 WHERE id = 1", []),
    ("UPDATE pw SET n = n + 1 WHERE code = 'c7' RETURNING id, n", []),
    ("INSERT INTO pw (id, code, n, b) VALUES ($1::BIGINT, $2::VARCHAR, $3, 5::bigint), (31, NULL, NULL, NULL)", [30, "c30", 3]),
    ("INSERT INTO pw (id, n) VALUES (32, 3000000000::bigint)", []),
    ("INSERT INTO pw (id, name) VALUES (33, 'toolong'::varchar)", []),
    ("INSERT INTO pw (id, s) VALUES (34, 1.5)", []),
    ("INSERT INTO pw (id, s) VALUES (35, '7')", []),
    ("DELETE FROM pw WHERE id = '4'", []),
    ("DELETE FROM pw WHERE id IN (6, 7, 999)", []),
    ("DELETE FROM pw WHERE code = 'c20' RETURNING id", []),
    ("DELETE FROM pw WHERE id = 3 AND n < 0", []),
]


async def test_point_writes_end_as_in_postgres(db, pg_url):
    async with beside_postgres(db, pg_url, SETUP, ["pw"]) as (s, conn):
        await assert_same_outcomes(s, conn, STATEMENTS, "SELECT * FROM pw ORDER BY id")
