"""planner.resolve on an in-memory catalog: which column each reference
reads, as PostgreSQL scopes it, and that a reference whose resolution is
not certain is left unrecorded (the name dict answers it, as before)."""

from __future__ import annotations

from pglast import ast

from planner.bind import scoped_column_types
from planner.catalog import Catalog, Column, Relation
from planner.parse import parse, walk
from planner.resolve import ColumnTypes, column_type, scoped_type

T = Relation("t", "public", "table", (Column("i", "integer"), Column("c", "char(4)"), Column("v", "varchar(6)")), shard="s1")
U = Relation("u", "public", "table", (Column("i", "bigint"), Column("k", "integer")), shard="s2")
CATALOG = Catalog({"public.t": T, "public.u": U})  # i has two types there: not known by name


def refs(sql: str) -> tuple[ColumnTypes, list[ast.ColumnRef]]:
    node = parse(sql)[0].node
    types = scoped_column_types(node, CATALOG, ("public",))
    return types, [n for n in walk(node) if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String)]


def scoped(sql: str) -> list[tuple[str, str | None]]:
    """Each reference (as written) with its recorded type, in the order a walk meets them."""
    types, found = refs(sql)
    return [(".".join(f.sval for f in n.fields), scoped_type(n, types)) for n in found]


def test_a_table_column_and_a_subquery_output_of_one_name_each_as_declared():
    assert scoped("SELECT i FROM (SELECT avg(i) AS i FROM t) q") == [("i", "numeric"), ("i", "integer")]
    assert scoped("SELECT q.c FROM (SELECT count(*) AS c FROM t) q") == [("q.c", "bigint")]


def test_qualified_names_read_their_own_item_and_outer_levels():
    assert scoped("SELECT t.i, u.i FROM t JOIN u ON u.k = t.i") == [("t.i", "integer"), ("u.i", "bigint"), ("u.k", "integer"), ("t.i", "integer")]
    assert scoped("SELECT (SELECT max(k) FROM u WHERE u.k = t.i) FROM t") == [("k", "integer"), ("u.k", "integer"), ("t.i", "integer")]


def test_ctes_with_column_aliases_and_lateral():
    assert scoped("WITH w(x) AS (SELECT v FROM t) SELECT x FROM w") == [("x", "varchar(6)"), ("v", "varchar(6)")]
    assert scoped("SELECT l.x FROM t, LATERAL (SELECT t.i * 2 AS x) l") == [("l.x", "integer"), ("t.i", "integer")]


def test_uncertain_references_are_left_to_the_name_dict():
    # two items have i (of two types): ambiguous; a function's columns are not known; ORDER BY may name an output
    assert scoped("SELECT i FROM t, u") == [("i", None)]
    assert scoped("SELECT c FROM t, unnest(ARRAY[1, 2]) g") == [("c", None)]
    types, found = refs("SELECT c FROM t, unnest(ARRAY[1, 2]) g")
    assert column_type(found[0], types) == "char(4)"  # the fallback by name
    assert scoped("SELECT i AS k FROM t ORDER BY k") == [("i", "integer"), ("k", None)]


def test_a_function_of_one_column_in_from_is_typed():
    assert scoped("SELECT g, c FROM t, generate_series(1, 2) g") == [("g", "integer"), ("c", "char(4)")]
    assert scoped("SELECT generate_series FROM generate_series(1, 2::bigint)") == [("generate_series", "bigint")]
    assert scoped("SELECT g FROM generate_series(1, 2, 0.5) g") == [("g", "numeric")]  # its step makes it numeric
    assert scoped("SELECT u.x, n FROM upper('a') WITH ORDINALITY u(x, n)") == [("u.x", "text"), ("n", "bigint")]


def test_a_join_alias_reads_its_tables_columns():
    assert scoped("SELECT j.v FROM (t JOIN u USING (i)) AS j") == [("j.v", "varchar(6)")]
    assert scoped("SELECT j.i FROM (t JOIN u USING (i)) AS j") == [("j.i", None)]  # integer and bigint: not one type
