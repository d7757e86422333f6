"""The PostgreSQL -> Spark SQL rewrite (planner/spark_sql.py), without
Spark: the constructs sqlglot alone gets wrong for PostgreSQL semantics."""

from __future__ import annotations

import datetime
import decimal

import pytest

from planner.catalog import Column, Relation
from planner.spark_sql import SparkRewriteError, to_spark

T = {"_r0": Relation("t", "public", "table", (Column("id", "bigint"), Column("k", "integer"), Column("v", "double precision"),
                                               Column("n", "numeric(10,2)"), Column("s", "text")), shard="s0")}


def spark(sql: str, views=(), params=None) -> str:
    return to_spark(sql, list(views), T, params)


def test_integer_division_truncates_and_fractions_do_not():
    out = spark("SELECT id / k, v / k, 7 / 2, n / 2 FROM _r0 AS t")
    assert "`t`.`id` DIV `t`.`k`" in out and "7 DIV 2" in out
    assert "`t`.`v` / `t`.`k`" in out and "DIV 2" not in out.split("7 DIV 2")[1]


def test_casts_of_fractions_to_integers_round():
    out = spark("SELECT CAST(v AS integer), n::bigint, k::integer FROM _r0 AS t")
    assert "CAST(RINT(`t`.`v`) AS INT)" in out
    assert "CAST(ROUND(`t`.`n`) AS BIGINT)" in out
    assert "CAST(`t`.`k` AS INT)" in out


def test_generate_series_in_from_becomes_a_subquery_with_postgres_names():
    assert "EXPLODE(SEQUENCE(1, 5)) AS `g`" in spark("SELECT g FROM generate_series(1, 5) AS g")
    assert "EXPLODE(SEQUENCE(1, 9, 2)) AS `x`" in spark("SELECT s.x FROM generate_series(1, 9, 2) AS s(x)")
    assert "AS `generate_series`" in spark("SELECT * FROM generate_series(1, 3)")


def test_parameters_become_typed_literals():
    out = spark("SELECT id FROM _r0 AS t WHERE id = $1 AND s = $2 AND v < $3 AND n = $4 AND k IS NOT $5",
                params=[7, "it's", 1.5, decimal.Decimal("2.50"), None])
    assert "= 7" in out
    assert "'it''s'" in out or "'it\\'s'" in out
    assert "CAST('1.5' AS DOUBLE)" in out and "CAST('2.50' AS DECIMAL(38, 2))" in out and "NULL" in out
    assert "CAST('2024-01-02' AS DATE)" in spark("SELECT $1", params=[datetime.date(2024, 1, 2)])
    with pytest.raises(SparkRewriteError):
        spark("SELECT $2", params=[1])


def test_views_become_ctes_in_dependency_order_and_names_stay_unique():
    out = spark("SELECT a.id, b.id FROM _r1 AS a JOIN _r2 AS b ON a.id = b.id",
                views=[("_r1", "SELECT id FROM _r0 AS t WHERE k > 1"), ("_r2", "SELECT id FROM _r1 AS x")])
    assert out.index("`_r1` AS (") < out.index("`_r2` AS (") < out.index("JOIN")
    assert "AS `id`" in out and "AS `id_1`" in out


def test_postgres_null_ordering_is_explicit():
    out = spark("SELECT id FROM _r0 AS t ORDER BY v, s DESC")
    assert "`t`.`v` NULLS LAST" in out and "`t`.`s` DESC NULLS FIRST" in out
