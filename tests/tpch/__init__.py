"""The 22-query decision-support workload (TPC-H's schema and queries, with
the specification's validation parameters) for the differential test
(tests/tools/test_tpch.py) and bench/analytics.py: data made by
``tpchgen-cli`` (from PyPI), loaded with COPY through psycopg 3, answers
compared with PostgreSQL's.

``compare`` is exact: the same column names, type OIDs and rows (in order
where the query orders them; numerics with PostgreSQL's scale), except
what ``KNOWN_DIFFERENCES`` lists, in one place, with its reason (nothing
now); a listed column is still compared by value, to 12 significant
digits, so a wrong answer fails whatever is listed.
"""

from __future__ import annotations

import decimal
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = ["region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]

DDL = [
    "CREATE TABLE region (r_regionkey integer NOT NULL, r_name char(25) NOT NULL, r_comment varchar(152), PRIMARY KEY (r_regionkey))",
    "CREATE TABLE nation (n_nationkey integer NOT NULL, n_name char(25) NOT NULL, n_regionkey integer NOT NULL, n_comment varchar(152),"
    " PRIMARY KEY (n_nationkey))",
    "CREATE TABLE part (p_partkey integer NOT NULL, p_name varchar(55) NOT NULL, p_mfgr char(25) NOT NULL, p_brand char(10) NOT NULL,"
    " p_type varchar(25) NOT NULL, p_size integer NOT NULL, p_container char(10) NOT NULL, p_retailprice decimal(15,2) NOT NULL,"
    " p_comment varchar(23) NOT NULL, PRIMARY KEY (p_partkey))",
    "CREATE TABLE supplier (s_suppkey integer NOT NULL, s_name char(25) NOT NULL, s_address varchar(40) NOT NULL, s_nationkey integer NOT NULL,"
    " s_phone char(15) NOT NULL, s_acctbal decimal(15,2) NOT NULL, s_comment varchar(101) NOT NULL, PRIMARY KEY (s_suppkey))",
    "CREATE TABLE partsupp (ps_partkey integer NOT NULL, ps_suppkey integer NOT NULL, ps_availqty integer NOT NULL,"
    " ps_supplycost decimal(15,2) NOT NULL, ps_comment varchar(199) NOT NULL, PRIMARY KEY (ps_partkey, ps_suppkey))",
    "CREATE TABLE customer (c_custkey integer NOT NULL, c_name varchar(25) NOT NULL, c_address varchar(40) NOT NULL, c_nationkey integer NOT NULL,"
    " c_phone char(15) NOT NULL, c_acctbal decimal(15,2) NOT NULL, c_mktsegment char(10) NOT NULL, c_comment varchar(117) NOT NULL,"
    " PRIMARY KEY (c_custkey))",
    "CREATE TABLE orders (o_orderkey bigint NOT NULL, o_custkey integer NOT NULL, o_orderstatus char(1) NOT NULL, o_totalprice decimal(15,2) NOT NULL,"
    " o_orderdate date NOT NULL, o_orderpriority char(15) NOT NULL, o_clerk char(15) NOT NULL, o_shippriority integer NOT NULL,"
    " o_comment varchar(79) NOT NULL, PRIMARY KEY (o_orderkey))",
    "CREATE TABLE lineitem (l_orderkey bigint NOT NULL, l_partkey integer NOT NULL, l_suppkey integer NOT NULL, l_linenumber integer NOT NULL,"
    " l_quantity decimal(15,2) NOT NULL, l_extendedprice decimal(15,2) NOT NULL, l_discount decimal(15,2) NOT NULL, l_tax decimal(15,2) NOT NULL,"
    " l_returnflag char(1) NOT NULL, l_linestatus char(1) NOT NULL, l_shipdate date NOT NULL, l_commitdate date NOT NULL,"
    " l_receiptdate date NOT NULL, l_shipinstruct char(25) NOT NULL, l_shipmode char(10) NOT NULL, l_comment varchar(44) NOT NULL,"
    " PRIMARY KEY (l_orderkey, l_linenumber))",
]

#: query number -> {column: why its type (and last digits) differ from PostgreSQL's}; none left
KNOWN_DIFFERENCES: dict[int, dict[str, str]] = {}
FLOAT_OIDS = {700, 701}


def queries() -> dict[int, str]:
    out = {}
    for n in range(1, 23):
        with open(os.path.join(HERE, "queries", f"{n}.sql")) as f:
            out[n] = f.read().strip().rstrip(";")
    return out


def generate(scale: float, folder: str) -> str:
    """CSV files of every table at ``scale`` in ``folder`` (kept: made once)."""
    marker = os.path.join(folder, f".scale-{scale}")
    if not os.path.exists(marker):
        os.makedirs(folder, exist_ok=True)
        cli = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
        subprocess.run([cli, "csv", "-s", str(scale), f"--output-dir={folder}"], check=True, capture_output=True)
        open(marker, "w").close()
    return folder


def load(conn, folder: str) -> dict[str, int]:
    """Create the tables and COPY the CSV files in (a psycopg 3 connection in
    autocommit); the rows of each table."""
    for t in reversed(TABLES):
        conn.execute(f"DROP TABLE IF EXISTS {t}")
    for sql in DDL:
        conn.execute(sql)
    counts = {}
    for t in TABLES:
        with open(os.path.join(folder, f"{t}.csv"), "rb") as f:
            f.readline()  # the header
            with conn.cursor().copy(f"COPY {t} FROM STDIN WITH (FORMAT csv)") as copy:
                while chunk := f.read(1 << 20):
                    copy.write(chunk)
        counts[t] = conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
    return counts


def run(conn, sql: str):
    """(column names, type OIDs, rows) of a query."""
    cur = conn.execute(sql)
    rows = cur.fetchall()
    return [d.name for d in cur.description], [d.type_code for d in cur.description], rows


def _same(a, b, loose: bool) -> bool:
    if a is None or b is None:
        return a is b
    numbers = (int, float, decimal.Decimal)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool):
        if loose or isinstance(a, float) and isinstance(b, float):
            return math.isclose(float(a), float(b), rel_tol=1e-12)
        return decimal.Decimal(repr(a) if isinstance(a, float) else a) == decimal.Decimal(repr(b) if isinstance(b, float) else b) \
            and str(a) == str(b)  # numerics with PostgreSQL's scale too
    return a == b


def compare(n: int, sql: str, expected, got) -> list[str]:
    """What differs between PostgreSQL's answer and txngate's, beyond ``KNOWN_DIFFERENCES[n]``."""
    (pn, po, pr), (tn, to, tr) = expected, got
    known = KNOWN_DIFFERENCES.get(n, {})
    problems = []
    if pn != tn:
        problems.append(f"names {tn} != {pn}")
    types = [f"{name}: {b} != {a}" for name, a, b in zip(pn, po, to) if a != b and name not in known]
    if types or len(po) != len(to):
        problems.append("types " + ", ".join(types))
    loose = [name in known or o in FLOAT_OIDS for name, o in zip(pn, po)]

    def same_row(a, b):
        return len(a) == len(b) and all(_same(x, y, loose[i]) for i, (x, y) in enumerate(zip(a, b)))

    if not re.search(r"\border\s+by\b", sql, re.I):
        pr, tr = sorted(pr, key=repr), sorted(tr, key=repr)
    if len(pr) != len(tr):
        problems.append(f"{len(tr)} rows != {len(pr)}")
    bad = [(i, a, b) for i, (a, b) in enumerate(zip(pr, tr)) if not same_row(a, b)]
    if bad:
        i, a, b = bad[0]
        problems.append(f"{len(bad)} rows differ, first at {i}: {b!r} != {a!r}")
    return problems


def stale_known_differences(n: int, expected, got) -> list[str]:
    """Listed columns whose types now agree (the list must stay true)."""
    pn, po, to = expected[0], expected[1], got[1]
    return [name for name in KNOWN_DIFFERENCES.get(n, {}) if name in pn and po[pn.index(name)] == to[pn.index(name)]]
