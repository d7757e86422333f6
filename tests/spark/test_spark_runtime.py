"""The Spark runtime's cancellation: a timeout cancels the statement's job
group until its call has unwound, even when the call submits its job only
after the first cancel went out (a lazy iterator's first partition does),
and a cancelled group starts nothing more."""

from __future__ import annotations

import asyncio
import threading

import pytest

from spark_exec.runtime import SparkError

pytestmark = pytest.mark.asyncio(loop_scope="package")

# 1e13 rows: it only ends by being cancelled
ENDLESS = "SELECT max(id % 1000) FROM range(10000000000000)"


async def test_timeout_cancels_a_job_submitted_after_the_first_cancel(sdb, monkeypatch):
    runtime = sdb.spark.runtime
    root = await runtime.spark()
    sc = root.sparkContext
    cancelled = threading.Event()
    cancel_job_group = sc.cancelJobGroup

    def cancel_and_tell(group):
        cancel_job_group(group)
        cancelled.set()

    monkeypatch.setattr(sc, "cancelJobGroup", cancel_and_tell)

    def late_job():
        cancelled.wait()  # the job only starts once the first cancel has gone out
        return root.sql(ENDLESS).collect()

    group = runtime.new_group()
    with pytest.raises(SparkError) as info:
        await asyncio.wait_for(runtime.run(group, late_job, timeout=0.2), 120)
    assert info.value.sqlstate == "57014" and "statement timeout" in str(info.value)
    tracker = sc.statusTracker()
    jobs = [tracker.getJobInfo(j) for j in tracker.getJobIdsForGroup(group)]
    assert jobs and all(str(j.status) != "RUNNING" for j in jobs if j is not None)

    # the group is spent: a later call under it is refused without running
    ran = threading.Event()
    with pytest.raises(SparkError) as info:
        await runtime.run(group, ran.set)
    assert info.value.sqlstate == "57014" and not ran.is_set()
