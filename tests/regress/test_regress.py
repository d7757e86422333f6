"""PostgreSQL's own regression scripts (tests/regress) in the suite: every
file of ``sources.FILES`` is played against txngate and PostgreSQL, and
no file may fall below the agreement ``baseline.json`` records for it, or
rise above its recorded count of wrong rows (the worst category). A fix
that raises a file's agreement is recorded with
``python -m tests.regress --record`` so the ratchet keeps it.

A small slack absorbs statements whose outcome depends on timing (one
that runs near the statement timeout on a loaded machine)."""

from __future__ import annotations

import json

import pytest

from tests.regress import sources
from tests.regress.__main__ import BASELINE, run
from tests.regress.runner import Side
from tests.servers import Gateway

SLACK = 3


@pytest.fixture(scope="module")
def regress_db(pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS regression")
    pg_server.psql("CREATE DATABASE regression")
    return pg_server.url(database="regression")


@pytest.mark.timeout(900)
def test_regression_scripts_agree_with_postgres(tmp_path, regress_db):
    with open(BASELINE) as f:
        baseline = json.load(f)
    assert set(baseline) == set(sources.FILES)
    gateway = Gateway(str(tmp_path))
    try:
        reports = run(sources.regress_dir(), sources.FILES, Side(gateway.dsn()), Side(regress_db), None)
    finally:
        gateway.stop()
    worse = []
    for r in reports:
        floor = baseline[r.name]
        if r.agreed < floor["agreed"] - SLACK:
            worse.append(f"{r.name}: {r.agreed} statements agree, {floor['agreed']} recorded")
        if r.categories["wrong rows"] > floor["wrong rows"] + SLACK:
            worse.append(f"{r.name}: {r.categories['wrong rows']} wrong rows, {floor['wrong rows']} recorded")
            worse += [f"  {r.name}.sql:{step.line}: {step.sql[-200:]}\n    txngate:    {got.brief()}\n    PostgreSQL: {expected.brief()}"
                      for step, category, got, expected in r.differences if category == "wrong rows"][:5]
    assert not worse, "\n".join(worse)
