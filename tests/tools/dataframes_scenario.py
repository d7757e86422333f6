"""Dataframe libraries and a pure-Python driver against one server, printing
what they saw (run as ``python -m tests.tools.dataframes_scenario URL``;
tests/tools/test_dataframes.py runs it against txngate and PostgreSQL and
compares the printouts):

* pandas ``to_sql`` (one INSERT a row, and ``method="multi"``) and
  ``read_sql`` through SQLAlchemy + psycopg 3;
* ADBC (``adbc_ingest``, which sends binary COPY FROM STDIN without a
  trailer; queries, which it runs as ``COPY (q) TO STDOUT (FORMAT binary)``
  through the extended protocol; ``adbc_get_table_schema``, which reads
  pg_attribute by ``$1::regclass``; ``adbc_get_objects``, ``= ANY($1)``);
* connectorx's default reader (binary COPY through the extended protocol)
  and polars reading through it and through ADBC;
* pg8000 (untyped parameters, ``= ANY(:list)``, COPY in and out).
"""

from __future__ import annotations

import datetime as dt
import decimal
import io
import sys
from urllib.parse import urlparse


def show(label: str, value) -> None:
    print(f"{label}: {value!r}")


def pandas_part(url: str) -> None:
    import pandas as pd
    import sqlalchemy as sa

    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    frame = pd.DataFrame({"id": range(1, 301), "name": [f"n{i}" for i in range(1, 301)], "score": [i / 4 for i in range(1, 301)],
                          "day": [dt.date(2024, 1, 1) + dt.timedelta(days=i % 40) for i in range(1, 301)]})
    frame.to_sql("df_rows", engine, index=False, if_exists="replace")
    frame.to_sql("df_multi", engine, index=False, if_exists="replace", method="multi", chunksize=100)
    for table in ("df_rows", "df_multi"):
        back = pd.read_sql(f"SELECT * FROM {table} ORDER BY id", engine)
        show(f"pandas {table}", (back.shape, list(back.dtypes.astype(str)), back.iloc[[0, -1]].to_dict("records")))
    agg = pd.read_sql("SELECT day, count(*) AS n, sum(score) AS s FROM df_rows GROUP BY day ORDER BY day LIMIT 3", engine)
    show("pandas aggregate", agg.to_dict("records"))
    engine.dispose()


def adbc_part(url: str) -> None:
    import adbc_driver_postgresql.dbapi as adbc
    import pyarrow as pa

    with adbc.connect(url) as conn:
        cur = conn.cursor()
        cur.execute("DROP TABLE IF EXISTS adbc_t")
        cur.execute("CREATE TABLE adbc_t (id int8 PRIMARY KEY, f float8, d date, ts timestamp, t text, b boolean)")
        conn.commit()
        table = pa.table({"id": pa.array([1, 2, 3], pa.int64()), "f": [1.5, None, -2.25],
                          "d": [dt.date(2020, 1, 2), None, dt.date(1999, 12, 31)],
                          "ts": [dt.datetime(2020, 1, 2, 3, 4, 5), dt.datetime(2021, 6, 7, 8, 9, 10, 500000), None],
                          "t": ["a", None, "ü"], "b": [True, False, None]})
        show("adbc ingest", cur.adbc_ingest("adbc_t", table, mode="append"))
        conn.commit()
        cur.execute("SELECT * FROM adbc_t ORDER BY id")
        show("adbc fetch", cur.fetch_arrow_table().to_pylist())
        cur.execute("SELECT id, t FROM adbc_t WHERE f > $1 ORDER BY id", parameters=(0.0,))
        show("adbc parameters", cur.fetch_arrow_table().to_pylist())
        cur.execute("SELECT count(*) AS n, sum(id) AS s, 1.5::numeric(5,2) AS x FROM adbc_t")
        show("adbc aggregate", cur.fetch_arrow_table().to_pylist())
        schema = conn.adbc_get_table_schema("adbc_t")
        show("adbc schema", [(f.name, str(f.type)) for f in schema])
        objects = conn.adbc_get_objects(depth="tables", table_name_filter="adbc_t").read_all().to_pylist()
        tables = [t["table_name"] for c in objects for s in c["catalog_db_schemas"] or () for t in s["db_schema_tables"] or ()]
        show("adbc objects", tables)


def connectorx_part(url: str) -> None:
    import connectorx as cx
    import polars as pl

    query = "SELECT id, name, score, day FROM df_rows WHERE id <= 5 ORDER BY id"
    show("connectorx", cx.read_sql(url, query, return_type="arrow").to_pylist())
    show("connectorx partitioned", sorted(cx.read_sql(url, "SELECT id, score FROM df_rows", partition_on="id", partition_num=3,
                                                   return_type="arrow").column("id").to_pylist())[-3:])
    show("polars connectorx", pl.read_database_uri(query, url, engine="connectorx").to_dicts())
    show("polars adbc", pl.read_database_uri(query, url, engine="adbc").to_dicts())


def pg8000_part(url: str) -> None:
    import pg8000.native

    u = urlparse(url)
    conn = pg8000.native.Connection(u.username, host=u.hostname, port=u.port, database=u.path.lstrip("/"))
    conn.run("DROP TABLE IF EXISTS p8")
    conn.run("CREATE TABLE p8 (id int PRIMARY KEY, v text, n numeric(8,3))")
    conn.run("INSERT INTO p8 VALUES (:id, :v, :n)", id=1, v="one", n=decimal.Decimal("1.250"))
    show("pg8000 untyped", conn.run("SELECT id + :k, v || :s FROM p8 WHERE id = :id", k=1, s="!", id=1))
    conn.run("COPY p8 FROM STDIN", stream=io.StringIO("2\ttwo\t2.5\n3\t\\N\t\\N\n"))
    out = io.StringIO()
    conn.run("COPY (SELECT * FROM p8 ORDER BY id) TO STDOUT", stream=out)
    show("pg8000 copy", out.getvalue())
    show("pg8000 any", conn.run("SELECT id FROM p8 WHERE id = ANY(:ids) ORDER BY id", ids=[1, 3, 9]))
    try:
        conn.run("INSERT INTO p8 VALUES (1, 'dup', 0)")
    except pg8000.native.DatabaseError as e:
        show("pg8000 error", (e.args[0]["C"], e.args[0]["n"]))
    conn.close()


def main(url: str) -> None:
    pandas_part(url)
    adbc_part(url)
    connectorx_part(url)
    pg8000_part(url)


if __name__ == "__main__":
    main(sys.argv[1])
