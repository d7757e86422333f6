"""Sorted runs (local_exec.runs) against a reference model: after every
version, the contents and every key search at every time the runs cover
equal the model's, and ``validate`` holds. A small ``TAIL_MAX`` makes the
tail fold into runs and the runs merge many times."""

from __future__ import annotations

import random
from collections import Counter

import pyarrow as pa
import pytest

from local_exec import runs as runs_mod
from local_exec.runs import Runs, key_tuples
from storage.persist import DIFF, TS

SCHEMA = pa.schema([("a", pa.int32()), ("b", pa.string()), ("v", pa.int64()), pa.field(DIFF, pa.int64(), False)])  # as the codec reads them


def _updates(rows: list[tuple], ts: int | None = None) -> pa.Table:
    cols = {"a": pa.array([r[0] for r in rows], pa.int32()), "b": pa.array([r[1] for r in rows], pa.string()),
            "v": pa.array([r[2] for r in rows], pa.int64())}
    if ts is not None:
        cols[TS] = pa.array([ts] * len(rows), pa.int64())
    cols[DIFF] = pa.array([r[3] for r in rows], pa.int64())
    return pa.table(cols)


def _keys(probes: list[tuple], cols) -> list[tuple]:
    """The probes as a search takes them: distinct, without NULL."""
    types = {"a": pa.int32(), "b": pa.string()}
    return key_tuples(pa.table({c: pa.array([p[i] for p in probes], types[c]) for i, c in enumerate(cols)}), cols)


def _multiset(table: pa.Table) -> Counter:
    return Counter(tuple(r.values()) for r in table.to_pylist())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_runs_equal_a_model_at_every_covered_time(monkeypatch, seed):
    monkeypatch.setattr(runs_mod, "TAIL_MAX", 16)
    rng = random.Random(seed)
    history: dict[int, Counter] = {}
    live: Counter = Counter()
    for i in range(rng.randint(0, 30)):
        live[(rng.randint(0, 40), rng.choice(["x", "y", None, "é"]), i)] += 1
    runs = Runs(0, _updates([(*row, n) for row, n in live.items()]).cast(SCHEMA))
    history[0] = Counter(live)
    for ts in range(1, 120):
        batch = []
        for _ in range(rng.randint(0, 12)):
            if live and rng.random() < 0.45:
                row = rng.choice(sorted(live, key=repr))
                live[row] -= 1
                if not live[row]:
                    del live[row]
                batch.append((*row, -1))
            else:
                row = (rng.choice([rng.randint(0, 40), None]), rng.choice(["x", "y", None, "é"]), ts)
                live[row] += 1
                batch.append((*row, 1))
        runs.advance(_updates(batch, ts), ts)
        if runs.upkeep_rows():
            runs.upkeep()
        history[ts] = Counter(live)
        for cols in (("a",), ("a", "b")):
            for run in runs.unsorted(cols):
                run.sort(cols)
        runs.validate()
        for at in {ts, rng.randint(runs.run_ts, ts)}:
            expected = history[at]
            assert _multiset(runs.rows(at)) == expected, (seed, ts, at)
            probes = [(rng.randint(0, 40), rng.choice(["x", "y", "é"])) for _ in range(3)] + [(None, "x")]
            got = _multiset(runs.search(("a", "b"), _keys(probes, ("a", "b")), at))
            want = Counter({r: n for r, n in expected.items() if (r[0], r[1]) in probes and r[0] is not None and r[1] is not None})
            assert got == want, (seed, ts, at, probes)
            ones = [(p[0],) for p in probes]
            got = _multiset(runs.search(("a",), _keys(ones, ("a",)), at))
            want = Counter({r: n for r, n in expected.items() if (r[0],) in ones and r[0] is not None})
            assert got == want, (seed, ts, at, ones)
            for key in (rng.randint(0, 40), 7):  # one key at a time: found again from its earlier answer (``points``)
                got = _multiset(runs.search(("a",), [(key,)], at))
                assert got == Counter({r: n for r, n in expected.items() if r[0] == key}), (seed, ts, at, key)
    assert len(runs.runs) <= 8, "runs merge geometrically"


def test_a_key_updated_in_every_version_is_found_from_its_last_answer():
    """A row updated in every version (pgbench's branch): each lookup at the
    next version starts from the previous answer and the tail's updates of
    the key since, and answers exactly, also at older times the runs cover."""
    runs = Runs(0, _updates([(1, "b", 0, 1), (2, "b", 0, 1)]).cast(SCHEMA))
    for ts in range(1, 300):
        runs.advance(_updates([(1, "b", ts - 1, -1), (1, "b", ts, 1)], ts), ts)
        assert runs.search(("a",), [(1,)], ts).to_pylist() == [{"a": 1, "b": "b", "v": ts}]
        assert (("a",), (1,)) in runs.points and runs.points[(("a",), (1,))][0] == ts
        older = max(runs.run_ts, ts - 5)
        assert runs.search(("a",), [(1,)], older).to_pylist() == [{"a": 1, "b": "b", "v": older}]
        assert runs.search(("a",), [(2,)], ts).to_pylist() == [{"a": 2, "b": "b", "v": 0}]
        if runs.upkeep_rows():
            runs.upkeep()
        runs.validate()


def test_a_hot_keys_older_versions_in_the_tail_are_passed_over(monkeypatch):
    """A row updated in every version reads from the tail only the updates
    after its last answer (two per version here), not every version the
    tail holds: a lookup's cost stays flat however long since the upkeep."""
    monkeypatch.setattr(runs_mod, "TAIL_MAX", 4096)
    runs = Runs(0, _updates([(1, "b", 0, 1), (2, "b", 0, 1)]).cast(SCHEMA))
    read = []
    tail_hits = runs._tail_hits

    def counted(*args):
        hits = tail_hits(*args)
        read.append(hits.num_rows)
        return hits

    monkeypatch.setattr(runs, "_tail_hits", counted)
    for ts in range(1, 400):
        runs.advance(_updates([(1, "b", ts - 1, -1), (1, "b", ts, 1)], ts), ts)
        assert runs.search(("a",), [(1,)], ts).to_pylist() == [{"a": 1, "b": "b", "v": ts}]
    assert runs.tail.num_rows == 2 * 399 and runs.upkeep_rows() == 0
    assert max(read[1:]) == 2, "only the versions since the last answer"
    runs.validate()


def test_search_by_text_and_by_an_integer_out_of_range():
    """Binary search over text (bisect on Arrow values) and over integers
    (numpy), a probe beyond the column type's range matching nothing."""
    n = 200_000
    big = pa.table({"a": pa.array(range(n), pa.int32()), "b": pa.array([str(i) for i in range(n)]),
                    "v": pa.array([0] * n, pa.int64()), DIFF: pa.array([1] * n, pa.int64())})
    runs = Runs(5, big)
    runs.runs[0].sort(("b",))
    runs.runs[0].sort(("a",))
    found = runs.search(("b",), [("123",), ("199999",), ("nope",)], 5)
    assert sorted(found.column("a").to_pylist()) == [123, 199999]
    assert runs.search(("a",), [(7,), (1 << 40,)], 5).column("b").to_pylist() == ["7"]
