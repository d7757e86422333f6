"""The test servers clean up after a test process that was killed: the S3
child exits with its parent, and the next start sweeps the orphaned
PostgreSQL cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from tests.servers import PostgresServer, _pid_alive

OWNER = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from tests.servers import PostgresServer, S3Server
pg = PostgresServer().start()
s3 = S3Server().start()
print(json.dumps({"postmaster": pg.pid, "s3": s3.pid, "dir": pg.tmp}), flush=True)
time.sleep(600)
"""


def wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _pid_alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_servers_of_a_killed_test_process_are_cleaned_up():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    owner = subprocess.Popen([sys.executable, "-c", OWNER, root], stdout=subprocess.PIPE, text=True)
    info = json.loads(owner.stdout.readline())
    assert _pid_alive(info["postmaster"]) and _pid_alive(info["s3"])
    owner.send_signal(signal.SIGKILL)
    owner.wait()
    assert wait_gone(info["s3"], 10), "the S3 server outlived its parent"
    assert _pid_alive(info["postmaster"])  # nobody stopped it yet
    assert PostgresServer.sweep_stale() >= 1
    assert wait_gone(info["postmaster"], 10), "the orphaned PostgreSQL was not stopped"
    assert not os.path.exists(info["dir"])
