"""A real ``txngate serve`` process (embedded default in a temp folder, a
free port) for protocol tests through real clients."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.servers import free_port

TXNGATE = os.path.join(os.path.dirname(sys.executable), "txngate")


class Gateway:
    def __init__(self, data_dir: str, *extra: str):
        self.port = free_port()
        self.log = open(os.path.join(data_dir, "gateway.log"), "w+")
        self.proc = subprocess.Popen(
            [TXNGATE, "serve", "--data-dir", os.path.join(data_dir, "data"), "--port", str(self.port), *extra],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while "serving the PostgreSQL protocol" not in self.output():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"txngate serve did not start:\n{self.output()[-3000:]}")
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


@pytest.fixture(scope="session")
def gateway(tmp_path_factory):
    g = Gateway(str(tmp_path_factory.mktemp("gateway")))
    yield g
    if g.proc.poll() is None:
        g.stop()
