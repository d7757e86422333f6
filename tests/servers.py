"""Real servers for tests and benchmarks: a PostgreSQL 15 cluster, an S3
endpoint (moto's ThreadedMotoServer) and a ``txngate serve`` process
(``Gateway``: the embedded default in a temp folder), each on 127.0.0.1 on
a free port, each stopped by pid (the gateway with SIGTERM).

PostgreSQL: ``initdb`` in a temp dir (through ``runuser -u postgres`` when
running as root, since initdb and pg_ctl refuse root), ``fsync=off``, the unix
socket inside the temp dir. Two roles: the superuser ``postgres`` (trust) and
``txngate_pw`` (SCRAM password), so tests can exercise bad credentials.

S3: this file run as a script (``python tests/servers.py s3 PORT``) starts a
ThreadedMotoServer in its own process, so S3 work never competes with the
test process for the GIL and the server can be stopped by pid.

A server that cannot start raises ``ServerError`` with the reason and the
server's log tail; nothing is skipped.

A test run that is killed cannot stop its servers, so: the S3 child exits
when its parent dies, and each PostgreSQL temp dir records the pid of the
process that owns it; ``PostgresServer.sweep_stale()`` (called before every
start) stops clusters whose owner is gone.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

S3_ACCESS_KEY = "testing"
S3_SECRET_KEY = "testing"
PG_PASSWORD_ROLE = "txngate_pw"
PG_PASSWORD = "s3cret-pw"


class ServerError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until(predicate, timeout: float, what: str, log: str | None = None) -> None:
    """Poll ``predicate`` until true (readiness of an external process)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    tail = ""
    if log and os.path.exists(log):
        with open(log, errors="replace") as f:
            tail = "\n" + "".join(f.readlines()[-20:])
    raise ServerError(f"{what} did not become ready within {timeout:.0f}s{tail}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child still answers kill(0); look at its state.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def _find_pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    if candidates:
        return candidates[0]
    raise ServerError(
        f"PostgreSQL's {name} is not on PATH nor in /usr/lib/postgresql/*/bin; "
        "install the server (Debian: apt-get install postgresql-15)"
    )


class PostgresServer:
    """A throwaway PostgreSQL cluster. Use as a context manager or start()/stop()."""

    def __init__(self, *, crash_safe: bool = False) -> None:
        """``crash_safe``: commits wait for their WAL flush (synchronous_commit
        on), so a crash of PostgreSQL loses no acknowledged transaction, as a
        production server's; otherwise it is fast and a crash may lose the
        last commits (a store no txngate deployment would use)."""
        self.port = 0
        self.tmp = ""
        self.pid: int | None = None
        self.crash_safe = crash_safe

    @property
    def data_dir(self) -> str:
        return os.path.join(self.tmp, "data")

    @property
    def socket_dir(self) -> str:
        return self.tmp

    def url(self, user: str = "postgres", password: str | None = None, database: str = "postgres", **options) -> str:
        auth = f"{user}:{password}@" if password else f"{user}@"
        query = "&".join(f"{k}={v}" for k, v in options.items())
        return f"postgres://{auth}127.0.0.1:{self.port}/{database}" + (f"?{query}" if query else "")

    def _as_postgres(self, argv: list[str]) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *argv]
        return argv

    @staticmethod
    def sweep_stale() -> int:
        """Stop and remove clusters left by test processes that died."""
        swept = 0
        for folder in glob.glob(os.path.join(tempfile.gettempdir(), "txngate-pg-*")):
            try:
                with open(os.path.join(folder, "owner.pid")) as f:
                    owner = int(f.read().strip())
            except (OSError, ValueError):
                continue
            if _pid_alive(owner):
                continue
            try:
                with open(os.path.join(folder, "data", "postmaster.pid")) as f:
                    pid = int(f.readline())
                os.kill(pid, signal.SIGKILL)
            except (OSError, ValueError):
                pass
            shutil.rmtree(folder, ignore_errors=True)
            swept += 1
        return swept

    def start(self) -> "PostgresServer":
        initdb = _find_pg_bin("initdb")
        self.sweep_stale()
        self.tmp = tempfile.mkdtemp(prefix="txngate-pg-")
        with open(os.path.join(self.tmp, "owner.pid"), "w") as f:
            f.write(str(os.getpid()))
        if os.geteuid() == 0:
            shutil.chown(self.tmp, "postgres", "postgres")
        res = subprocess.run(
            self._as_postgres([initdb, "-D", self.data_dir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            raise ServerError(f"initdb failed ({res.returncode}): {res.stderr.strip() or res.stdout.strip()}")
        with open(os.path.join(self.data_dir, "pg_hba.conf"), "w") as f:
            f.write(
                f"local all all trust\n"
                f"host all {PG_PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n"
                f"host all all 127.0.0.1/32 trust\n"
            )
        self.port = free_port()
        self._launch()
        self.psql(f"CREATE ROLE {PG_PASSWORD_ROLE} LOGIN SUPERUSER PASSWORD '{PG_PASSWORD}'")
        return self

    def _launch(self) -> None:
        log = os.path.join(self.tmp, "server.log")
        opts = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            f"-c synchronous_commit={'on' if self.crash_safe else 'off'} -c full_page_writes=off -c max_connections=300 "
            "-c shared_buffers=128MB -c log_min_messages=warning"
        )
        res = subprocess.run(
            self._as_postgres([_find_pg_bin("pg_ctl"), "-D", self.data_dir, "-l", log, "-w", "-t", "60", "-o", opts, "start"]),
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            tail = open(log, errors="replace").read()[-2000:] if os.path.exists(log) else ""
            raise ServerError(f"pg_ctl start failed ({res.returncode}): {res.stderr.strip()}\n{tail}")
        with open(os.path.join(self.data_dir, "postmaster.pid")) as f:
            self.pid = int(f.readline())

    def crash_restart(self) -> None:
        """(``crash_safe`` servers only) Stop PostgreSQL as a crash does (immediate shutdown: no checkpoint,
        every connection dropped) and start it again on the same port;
        recovery replays its WAL."""
        assert self.crash_safe, "a crash of a server without synchronous_commit loses acknowledged commits"
        os.kill(self.pid, signal.SIGQUIT)
        _wait_until(lambda: not _pid_alive(self.pid), 30, "PostgreSQL to stop")
        self._launch()

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL through psql over the unix socket (as superuser); return stdout."""
        res = subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", self.socket_dir, "-p", str(self.port), "-U", "postgres", "-d", database, "-c", sql],
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            raise ServerError(f"psql failed: {res.stderr.strip()}")
        return res.stdout

    def stop(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGINT)  # fast shutdown
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + 30
            while _pid_alive(self.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _pid_alive(self.pid):
                os.kill(self.pid, signal.SIGKILL)
            self.pid = None
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = ""

    def __enter__(self) -> "PostgresServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class S3Server:
    """moto's S3 server in a child process, with one bucket created."""

    def __init__(self, bucket: str = "txngate-test") -> None:
        self.bucket = bucket
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.log = ""

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, prefix: str = "", bucket: str | None = None) -> str:
        path = f"/{prefix}" if prefix else ""
        return (
            f"s3://{bucket or self.bucket}{path}?endpoint={self.endpoint}"
            f"&region=us-east-1&access_key={S3_ACCESS_KEY}&secret_key={S3_SECRET_KEY}"
        )

    def client(self):
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id=S3_ACCESS_KEY,
            aws_secret_access_key=S3_SECRET_KEY,
        )

    def start(self) -> "S3Server":
        self.port = free_port()
        fd, self.log = tempfile.mkstemp(prefix="txngate-moto-", suffix=".log")
        with os.fdopen(fd, "w") as logf:
            self.proc = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "s3", str(self.port)],
                stdout=logf,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )

        def ready() -> bool:
            if self.proc.poll() is not None:
                raise ServerError(f"moto S3 server exited with {self.proc.returncode}: {open(self.log).read()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                return False

        _wait_until(ready, 60, "moto S3 server", self.log)
        self.client().create_bucket(Bucket=self.bucket)
        return self

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        if self.log and os.path.exists(self.log):
            os.unlink(self.log)

    def __enter__(self) -> "S3Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


TXNGATE = os.path.join(os.path.dirname(sys.executable), "txngate")


def _worker_count(argv: tuple[str, ...]) -> int:
    """The gateway processes ``txngate serve argv`` runs, as txngate's own
    configuration reads them (``--workers``, ``TXNGATE_WORKERS``, cores)."""
    import argparse

    from txngate import config

    parser = argparse.ArgumentParser()
    config.add_arguments(parser)
    known, _ = parser.parse_known_args(list(argv))
    return config.from_args(known).worker_count


class Gateway:
    def __init__(self, data_dir: str, *extra: str):
        self.port = free_port()
        self.log = open(os.path.join(data_dir, "gateway.log"), "w+")
        self.proc = subprocess.Popen(
            [TXNGATE, "serve", "--data-dir", os.path.join(data_dir, "data"), "--port", str(self.port), *extra],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        # Every worker listening, not just the first: connections made
        # before the others listen all land on the first (SO_REUSEPORT
        # spreads only over the sockets listening when a client connects).
        self.wait_output("serving the PostgreSQL protocol", times=_worker_count(extra))

    def wait_output(self, text: str, timeout: float = 60, times: int = 1) -> None:
        """Until the gateway has printed ``text`` ``times`` times (polling
        its log, bounded)."""
        deadline = time.monotonic() + timeout
        while self.output().count(text) < times:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"txngate serve did not print {text!r}:\n{self.output()[-3000:]}")
            time.sleep(0.05)

    def output(self) -> str:
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def dsn(self, **kw) -> str:
        params = {"host": "127.0.0.1", "port": self.port, "user": "txngate", "dbname": "txngate", **kw}
        return " ".join(f"{k}={v}" for k, v in params.items())

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        finally:
            self.log.close()


def _serve_s3(port: int) -> None:
    import threading

    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    parent = os.getppid()
    # Exit with the test process even if it is killed before stopping us.
    while not done.wait(1.0):
        if os.getppid() != parent:
            break
    server.stop()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "s3":
        _serve_s3(int(sys.argv[2]))
    else:
        sys.exit("usage: servers.py s3 PORT")
