"""``txngate serve --workers N``: N gateway processes on one port.

The parent binds the port with SO_REUSEPORT (without listening: so
``--port 0`` gives one port to all, and it stays reserved), makes a folder
for the workers' control sockets (``gateway.peers``), and starts N copies of
the same command line with ``TXNGATE_WORKER=<index>/<count>/<port>/<folder>``
in their environment. Each worker listens on the port with SO_REUSEPORT
(the kernel spreads new connections over the listening workers) and opens
its own ``Database`` on the shared Consensus and Blob. The parent restarts
a worker that dies after it served (one that could not start stops them
all, with its exit code: its store cannot be opened, and neither can the
others'), forwards SIGINT/SIGTERM to every worker at once (each drains,
see ``cli``), waits for them and removes the folder.

Invariants: the parent never listens or accepts; a worker index is
alive in at most one process at a time.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

logger = logging.getLogger("txngate.workers")

#: The environment variable that makes ``txngate serve`` a worker.
WORKER_ENV = "TXNGATE_WORKER"
#: Seconds between the parent's looks at its workers.
POLL_SECONDS = 0.5
#: Seconds a stopping worker may take to drain before it is killed.
STOP_SECONDS = 60


def worker_of(environ=os.environ) -> tuple[int, int, int, str] | None:
    """(index, count, port, control folder) when this process is a worker."""
    raw = environ.get(WORKER_ENV)
    if not raw:
        return None
    index, count, fd, folder = raw.split("/", 3)
    return int(index), int(count), int(fd), folder


def ready_path(folder: str, index: int) -> str:
    """The file worker ``index`` creates once it serves: a worker that exits
    without it failed to start, and the parent gives up with its exit code."""
    return os.path.join(folder, f"ready-{index}")


def run(host: str, port: int, count: int, argv: list[str]) -> int:
    """Serve ``host:port`` with ``count`` workers, each running ``argv``
    (this command line); returns when SIGINT or SIGTERM has stopped them."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    port = sock.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="txngate-workers-")
    stopping = False
    workers: list[subprocess.Popen] = []

    def stop(sig, _frame) -> None:
        nonlocal stopping
        stopping = True
        for w in workers:  # at once: each drains (its sessions hear 57P01 now)
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    def start(index: int) -> subprocess.Popen:
        env = {**os.environ, WORKER_ENV: f"{index}/{count}/{port}/{folder}"}
        return subprocess.Popen([sys.executable, "-m", "txngate", *argv], env=env)

    workers += [start(i) for i in range(count)]
    logger.info("workers started", extra={"workers": count, "pids": [w.pid for w in workers]})
    code = 0
    try:
        while not stopping:
            time.sleep(POLL_SECONDS)
            for i, w in enumerate(workers):
                if w.poll() is None or stopping:
                    continue
                if not os.path.exists(ready_path(folder, i)):
                    # it never served (its store cannot be opened, ...): so would the others
                    code, stopping = w.returncode or 1, True
                    break
                logger.warning("worker exited; restarting it", extra={"worker": i, "code": w.returncode})
                os.unlink(ready_path(folder, i))
                workers[i] = start(i)
    finally:
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for w in workers:
            try:
                w.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                w.kill()
                w.wait()
        sock.close()
        shutil.rmtree(folder, ignore_errors=True)
    return code
