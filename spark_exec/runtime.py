"""The Spark runtime: one SparkSession per process, started on first need.

``SparkRuntime`` owns the driver: it starts it lazily (in a thread, so the
event loop keeps serving while the JVM boots), keeps it warm for every
txngate session, and stops it at shutdown. Each statement gets its own
``SparkSession.newSession()`` (separate temporary views, shared
SparkContext) and its own *job group*; ``run`` executes blocking Spark calls
in a worker thread under that group, so

* a timeout or the caller's cancellation cancels exactly that group's jobs
  (``cancelJobGroup``, repeated until the call has unwound, since a job
  submitted just after a cancel would escape it); a cancelled group never
  starts another call;
* a progress callback receives ``stage, tasks done/total`` at most every
  ``progress_every`` seconds while the call runs (and only when it changed).

Spark's own errors are mapped onto PostgreSQL SQLSTATEs (``SparkError``);
a driver that cannot start raises ``SparkUnavailable``.

Invariants: at most one driver is started (the start is serialized);
``run`` never returns while its Spark call is still executing.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import os
import re
import sys
import time
from typing import Callable

logger = logging.getLogger(__name__)

#: settings txngate gives the driver unless ``--spark-conf`` says otherwise
DEFAULT_CONF = {
    "spark.app.name": "txngate",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.ansi.enabled": "true",
    "spark.sql.shuffle.partitions": "8",
    "spark.sql.execution.arrow.maxRecordsPerBatch": "8192",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.driver.memory": "2g",
    "spark.sql.parquet.int96RebaseModeInRead": "CORRECTED",
    "spark.sql.parquet.datetimeRebaseModeInRead": "CORRECTED",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
    "spark.sql.parquet.datetimeRebaseModeInWrite": "CORRECTED",
}
#: how often a cancel is repeated while the cancelled call has not unwound
CANCEL_REPEAT_SECONDS = 0.25
LOCAL_CONF = {"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"}

#: our own code's errors raised inside executors carry their SQLSTATE so
SQLSTATE_MARK = re.compile(r"TXNGATE_SQLSTATE\[(\w{5})\]: ([^\n]*?)(?: SQLSTATE: \w{5})?(?:\n|$)")  # (Spark appends raise_error's own)

#: Spark SQLSTATEs whose PostgreSQL spelling differs
_SQLSTATES = {"22018": "22P02", "42K09": "42804"}


class SparkError(Exception):
    """A Spark query failed; ``sqlstate`` is PostgreSQL's code for it."""

    def __init__(self, sqlstate: str, message: str):
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message


class SparkUnavailable(SparkError):
    """The Spark driver could not be started (or was stopped)."""

    def __init__(self, message: str):
        super().__init__("58000", message)


def map_error(e: BaseException) -> SparkError:
    """A PostgreSQL-coded error for an exception out of a Spark call."""
    if isinstance(e, SparkError):
        return e
    text = str(e)
    m = SQLSTATE_MARK.search(text)
    if m:
        return SparkError(m.group(1), m.group(2).strip())
    if "cancel" in text.lower() and ("job" in text.lower() or "stage" in text.lower()):
        return SparkError("57014", "canceling statement due to user request")
    state = None
    get = getattr(e, "getSqlState", None)
    if get is not None:
        try:
            state = get()
        except Exception:  # noqa: BLE001 - not every error can say
            state = None
    first = text.strip().splitlines()[0] if text.strip() else type(e).__name__
    first = re.sub(r"^\[[A-Z_.]+\]\s*", "", first)
    if state:
        return SparkError(_SQLSTATES.get(state, state), first)
    return SparkError("XX000", f"Spark: {first}")


def _project_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SparkRuntime:
    """The shared Spark driver of a gateway process."""

    def __init__(self, master: str = "local[*]", conf: tuple[tuple[str, str], ...] = ()):
        self.master = master
        self.conf = dict(DEFAULT_CONF)
        if master.startswith("local"):
            self.conf.update(LOCAL_CONF)
        self.conf.update(dict(conf))
        self._spark = None
        self._start_lock = asyncio.Lock()
        self._groups = itertools.count(1)
        #: the most recently cancelled groups (bounded: a group is only ever
        #: used by the statement it was made for, which ends soon after)
        self._cancelled: collections.deque[str] = collections.deque(maxlen=1024)
        self.jobs_started = 0  # statements run on Spark (tests count reruns with it)

    async def spark(self):
        """The driver's root SparkSession, started on first use."""
        if self._spark is not None:
            return self._spark
        async with self._start_lock:
            if self._spark is None:
                try:
                    self._spark = await asyncio.to_thread(self._start)
                except Exception as e:  # noqa: BLE001 - any failure to boot is the same to a client
                    logger.warning("spark failed to start", exc_info=True, extra={"master": self.master})
                    raise SparkUnavailable(f"could not start Spark (master {self.master}): {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}") from None
        return self._spark

    def _start(self):
        # Executors run the same Python as the gateway (the venv's), so the
        # data source and writers they import are the ones the driver has.
        os.environ["PYSPARK_PYTHON"] = sys.executable
        os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
        from pyspark.sql import SparkSession

        started = time.monotonic()
        builder = SparkSession.builder.master(self.master)
        for k, v in self.conf.items():
            builder = builder.config(k, v)
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("FATAL")  # failures reach the client as SQL errors
        if not self.master.startswith("local"):
            self._ship_code(spark)
        from spark_exec.datasource import PartsDataSource

        spark.dataSource.register(PartsDataSource)
        logger.info("spark started", extra={"master": self.master, "seconds": round(time.monotonic() - started, 2), "version": spark.version})
        return spark

    def _ship_code(self, spark) -> None:
        """Send txngate's packages to a cluster's executors (they import the
        data source and the part writer)."""
        import tempfile
        import zipfile

        root = _project_root()
        path = os.path.join(tempfile.mkdtemp(prefix="txngate-spark-"), "txngate_code.zip")
        with zipfile.ZipFile(path, "w") as z:
            for package in ("storage", "spark_exec", "planner", "local_exec"):
                for folder, _dirs, files in os.walk(os.path.join(root, package)):
                    for f in files:
                        if f.endswith(".py"):
                            full = os.path.join(folder, f)
                            z.write(full, os.path.relpath(full, root))
        spark.sparkContext.addPyFile(path)

    async def session(self):
        """A fresh SparkSession for one statement (own temp views)."""
        root = await self.spark()
        session = await asyncio.to_thread(root.newSession)
        from spark_exec.datasource import PartsDataSource

        session.dataSource.register(PartsDataSource)
        return session

    def new_group(self) -> str:
        return f"txngate-{os.getpid()}-{next(self._groups)}"

    async def run(self, group: str, fn: Callable, *, timeout: float | None = None, on_progress: Callable[[str], None] | None = None,
                  progress_every: float = 5.0, description: str = ""):
        """``fn()`` in a worker thread with Spark job group ``group``.

        A timeout (57014) or the caller's cancellation cancels the group's
        jobs; Spark errors come back as SparkError."""
        spark = await self.spark()
        sc = spark.sparkContext

        def guarded():
            sc.setJobGroup(group, description or group, interruptOnCancel=True)
            try:
                if group in self._cancelled:
                    raise SparkError("57014", "canceling statement due to user request")
                return fn()
            except SparkError:
                raise
            except Exception as e:  # noqa: BLE001 - every Spark failure becomes a SQL error
                raise map_error(e) from None
            finally:
                sc.setLocalProperty("spark.jobGroup.id", None)

        future = asyncio.get_running_loop().run_in_executor(None, guarded)
        watcher = asyncio.create_task(self._progress(sc, group, on_progress, progress_every)) if on_progress else None
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except (asyncio.TimeoutError, asyncio.CancelledError) as e:
            await asyncio.shield(self._cancel_until_unwound(sc, group, future))
            running = await asyncio.shield(asyncio.to_thread(_running_jobs, sc, group))
            logger.info("spark job group cancelled", extra={"group": group, "running_jobs": running,
                                                             "reason": "timeout" if isinstance(e, asyncio.TimeoutError) else "cancel"})
            if isinstance(e, asyncio.TimeoutError):
                raise SparkError("57014", "canceling statement due to statement timeout") from None
            raise
        finally:
            if watcher is not None:
                watcher.cancel()

    async def _cancel_until_unwound(self, sc, group: str, future: asyncio.Future) -> None:
        """Cancel ``group`` until ``future`` (its call) has returned.

        One ``cancelJobGroup`` is not enough: it only cancels the jobs that
        exist when it arrives, and the call may submit its job a moment later
        (a lazy iterator's first partition, a second job of a write). So the
        group is marked cancelled (no later ``run`` under it starts) and the
        cancel is repeated until the call unwinds."""
        self._cancelled.append(group)
        while True:
            sc.cancelJobGroup(group)
            done, _ = await asyncio.wait({future}, timeout=CANCEL_REPEAT_SECONDS)
            if done:
                future.exception()  # the cancelled job's own error is expected; retrieve it
                return

    @staticmethod
    async def _progress(sc, group: str, on_progress: Callable[[str], None], progress_every: float) -> None:
        """Report the group's running stages every ``progress_every`` seconds."""
        tracker = sc.statusTracker()
        last = None
        while True:
            await asyncio.sleep(progress_every)
            try:
                message = await asyncio.to_thread(_progress_line, tracker, group)
            except Exception:  # noqa: BLE001 - progress is best effort
                continue
            if message and message != last:
                on_progress(message)
                last = message

    def cancel(self, group: str) -> None:
        """Cancel ``group``'s jobs, and refuse any later ``run`` under it."""
        self._cancelled.append(group)
        if self._spark is not None:
            self._spark.sparkContext.cancelJobGroup(group)

    async def stop(self) -> None:
        spark, self._spark = self._spark, None
        if spark is not None:
            await asyncio.to_thread(spark.stop)
            logger.info("spark stopped")


def _running_jobs(sc, group: str) -> int:
    """How many of ``group``'s jobs are still running."""
    tracker = sc.statusTracker()
    infos = [tracker.getJobInfo(j) for j in tracker.getJobIdsForGroup(group)]
    return sum(1 for i in infos if i is not None and str(i.status) == "RUNNING")


def _progress_line(tracker, group: str) -> str | None:
    done = total = 0
    stages = []
    for job_id in tracker.getJobIdsForGroup(group):
        job = tracker.getJobInfo(job_id)
        if job is None:
            continue
        for stage_id in job.stageIds:
            info = tracker.getStageInfo(stage_id)
            if info is None or info.numTasks == 0:
                continue
            if info.numActiveTasks or info.numCompletedTasks < info.numTasks:
                stages.append(stage_id)
            done += info.numCompletedTasks
            total += info.numTasks
    if not total:
        return None
    running = ", ".join(str(s) for s in stages) or "none"
    return f"Spark progress: stage {running}, tasks {done}/{total} done"

