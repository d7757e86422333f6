"""Worker processes of one gateway: ``txngate serve --workers N``.

The parent process opens the listening socket once and starts N worker
processes that inherit it; each accepts connections from it on its own
event loop (the kernel hands each new connection to one of them) and opens
its own ``Database`` on the same Consensus and Blob, so every worker commits
through the one txns shard like any two gateways do. Nothing else is shared
in memory, so what must reach another worker goes through its *control
socket*, a Unix socket ``w<index>.sock`` in a folder the parent owns:

* backend pids are partitioned (``pid_base``): worker ``i`` numbers its
  connections from ``(i + 1) << 20``, so ``owner(pid)`` is known without
  asking anyone;
* a CancelRequest that reaches the wrong worker is forwarded to the owner
  (``forward_cancel``); so are ``pg_cancel_backend`` and
  ``pg_terminate_backend`` of another worker's backend (``signal``);
* ``pg_stat_activity`` lists the sessions of every worker (``activity``);
* a ``/metrics`` scrape answers for every worker (``metrics``).

Requests are one JSON line each way: ``{"op": "cancel", "pid", "secret"}``,
``{"op": "signal", "pid", "terminate"}`` (answers ``{"ok": bool}``) and
``{"op": "activity"}`` (answers ``{"rows": [...]}``, timestamps as ISO
text) and ``{"op": "metrics"}`` (answers ``{"families": [...]}``). A worker that does not answer within ``TIMEOUT`` counts as having
nothing: its sessions are missing from the listing and a signal to it
reports false, as PostgreSQL does for a backend that is gone.
``signal`` and ``activity`` block (they are called from the engine's
thread and from building a catalog table); ``forward_cancel`` is async.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
import socket

log = logging.getLogger("txngate.gateway.peers")

#: Seconds a worker waits for another's answer.
TIMEOUT = 2.0
_SHIFT = 20


def pid_base(index: int) -> int:
    """The first backend pid of worker ``index`` (its pids are above it)."""
    return (index + 1) << _SHIFT


def owner(pid: int) -> int:
    """The index of the worker whose backend ``pid`` is."""
    return (pid >> _SHIFT) - 1


def _jsonable(row: dict) -> dict:
    return {k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in row.items()}


def _from_json(row: dict) -> dict:
    out = {}
    for k, v in row.items():
        if isinstance(v, str) and k in ("backend_start", "xact_start", "query_start", "state_change"):
            v = dt.datetime.fromisoformat(v)
        out[k] = v
    return out


class Peers:
    """One worker's view of the others (``validate`` checks its shape)."""

    def __init__(self, folder: str, index: int, count: int):
        self.folder, self.index, self.count = folder, index, count
        self._control: asyncio.base_events.Server | None = None

    def path(self, index: int) -> str:
        return os.path.join(self.folder, f"w{index}.sock")

    def others(self) -> list[int]:
        return [i for i in range(self.count) if i != self.index]

    def is_mine(self, pid: int) -> bool:
        return owner(pid) == self.index

    # -- serving the others ------------------------------------------------------

    async def serve(self, server, db) -> None:
        """Answer the other workers' requests about this one's ``server``
        (connections, cancel) and ``db`` (sessions)."""

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                request = json.loads(await reader.readline())
                op = request.get("op")
                if op == "cancel":
                    server.cancel(int(request["pid"]), int(request["secret"]))
                    answer = {"ok": True}
                elif op == "signal":
                    answer = {"ok": db.signal_backend(int(request["pid"]), bool(request["terminate"]))}
                elif op == "activity":
                    answer = {"rows": [_jsonable(r) for r in db.local_activity()]}
                elif op == "metrics":
                    answer = {"families": db.metrics()}
                else:
                    answer = {"error": f"unknown op {op!r}"}
                writer.write(json.dumps(answer).encode() + b"\n")
                await writer.drain()
            except Exception:  # noqa: BLE001 - a bad request must not hurt the worker
                log.warning("control request failed", exc_info=True)
            finally:
                writer.close()

        try:
            os.unlink(self.path(self.index))
        except FileNotFoundError:
            pass
        self._control = await asyncio.start_unix_server(handle, self.path(self.index))

    def mark_ready(self) -> None:
        """Tell the parent this worker serves (``txngate.workers.ready_path``)."""
        with open(os.path.join(self.folder, f"ready-{self.index}"), "w"):
            pass

    async def close(self) -> None:
        if self._control is not None:
            self._control.close()
            await self._control.wait_closed()

    # -- asking the others ---------------------------------------------------------

    async def forward_cancel(self, pid: int, secret: int) -> None:
        """A CancelRequest for another worker's backend: hand it over."""
        target = owner(pid)
        if target == self.index or not 0 <= target < self.count:
            return
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(self.path(target)), TIMEOUT)
            writer.write(json.dumps({"op": "cancel", "pid": pid, "secret": secret}).encode() + b"\n")
            await writer.drain()
            await asyncio.wait_for(reader.readline(), TIMEOUT)
            writer.close()
        except (OSError, asyncio.TimeoutError) as e:
            log.info("forwarding a cancel to worker %s failed: %s", target, e)

    def _ask(self, index: int, request: dict) -> dict | None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(TIMEOUT)
                sock.connect(self.path(index))
                sock.sendall(json.dumps(request).encode() + b"\n")
                data = b""
                while not data.endswith(b"\n"):
                    chunk = sock.recv(1 << 16)
                    if not chunk:
                        break
                    data += chunk
            return json.loads(data) if data else None
        except (OSError, ValueError) as e:
            log.info("worker %s did not answer %s: %s", index, request.get("op"), e)
            return None

    def signal(self, pid: int, terminate: bool) -> bool:
        """pg_cancel_backend / pg_terminate_backend of another worker's
        backend (blocking); whether there was one."""
        target = owner(pid)
        if target == self.index or not 0 <= target < self.count:
            return False
        answer = self._ask(target, {"op": "signal", "pid": pid, "terminate": terminate})
        return bool(answer and answer.get("ok"))

    def activity(self) -> list[dict]:
        """The pg_stat_activity rows of every other worker (blocking)."""
        rows = []
        for i in self.others():
            answer = self._ask(i, {"op": "activity"})
            rows += [_from_json(r) for r in (answer or {}).get("rows", [])]
        return rows

    def metrics(self) -> dict[int, list[dict]]:
        """Every other worker's metric families, by worker index (blocking)."""
        out = {}
        for i in self.others():
            answer = self._ask(i, {"op": "metrics"})
            if answer is not None and "families" in answer:
                out[i] = answer["families"]
        return out

    def validate(self) -> None:
        assert 0 <= self.index < self.count, (self.index, self.count)
        assert owner(pid_base(self.index) + 1) == self.index
