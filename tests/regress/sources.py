"""Where PostgreSQL's regression scripts come from.

PostgreSQL's ``src/test/regress/sql`` files travel inside libpg_query's
test folder, which pglast's source distribution on PyPI carries: the
pinned pglast (pyproject.toml) is downloaded once with pip (a package
registry, so a fresh machine needs nothing installed by hand) and the
scripts are unpacked under ``.venv/share/pg-regress/<version>``.

Invariant: the scripts are the ones of the pglast version installed, so
a run is reproducible from the lock of versions alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from importlib import metadata

__all__ = ["FILES", "regress_dir"]

#: the files issue 17 names: the SQL txngate supports
FILES = ["boolean", "int2", "int4", "int8", "numeric", "float8", "text", "strings", "case", "date", "time", "timestamp",
         "timestamptz", "interval", "select", "select_distinct", "aggregates", "join", "subselect", "union", "window", "with",
         "json", "jsonb", "arrays"]

_MEMBER = "libpg_query/test/sql/postgres_regress/"


def regress_dir() -> str:
    """The folder of the regression scripts (test_setup.sql and the rest),
    fetched on first use."""
    version = metadata.version("pglast")
    root = os.path.join(sys.prefix, "share", "pg-regress", version)
    if os.path.exists(os.path.join(root, "test_setup.sql")):
        return root
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        f"pglast=={version}", "-d", tmp], check=True)
        (archive,) = [os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".tar.gz")]
        staging = root + ".partial"
        os.makedirs(staging, exist_ok=True)
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                if _MEMBER in member.name and member.name.endswith(".sql") and member.isfile():
                    with tar.extractfile(member) as src, open(os.path.join(staging, os.path.basename(member.name)), "wb") as dst:
                        dst.write(src.read())
        os.replace(staging, root)
    return root
