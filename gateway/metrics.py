"""The Prometheus endpoint: ``txngate serve --metrics-port P`` answers
``GET /metrics`` on ``--host``:P in the text exposition format (0.0.4).

What is measured lives where it happens (``Database.metrics()``: sessions,
statements and their SQLSTATEs, commits, retries, 40001s, latency
histograms, the snapshot cache, the apply/compaction/GC backlog); this
module only renders it and serves it. With ``--workers N`` every worker
listens on the port (SO_REUSEPORT) and whichever the kernel hands a scrape
to answers for all of them: its own families and the others' (asked over
their control sockets, ``gateway.peers``), each sample labelled with its
``worker``. A worker that does not answer is left out of that scrape.

Invariants: each family is rendered once (``# HELP``/``# TYPE`` then its
samples from every worker); a histogram's ``_bucket`` lines are
cumulative and end at ``le="+Inf"`` equal to ``_count``.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("txngate.gateway.metrics")

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _labels(labels: dict) -> str:
    if not labels:
        return ""
    inner = ",".join(f'{k}="{str(v).replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"' for k, v in labels.items())
    return "{" + inner + "}"


def _number(v) -> str:
    return repr(float(v)) if isinstance(v, float) else str(v)


def render(by_worker: dict[int, list[dict]]) -> str:
    """The exposition text of every worker's families (labelled ``worker``)."""
    order: list[str] = []
    families: dict[str, dict] = {}
    samples: dict[str, list[tuple[dict, object]]] = {}
    for worker, fams in sorted(by_worker.items()):
        for fam in fams:
            if fam["name"] not in families:
                order.append(fam["name"])
                families[fam["name"]] = fam
                samples[fam["name"]] = []
            samples[fam["name"]] += [({"worker": str(worker), **labels}, value) for labels, value in fam["samples"]]
    lines = []
    for name in order:
        fam = families[name]
        lines += [f"# HELP {name} {fam['help']}", f"# TYPE {name} {fam['type']}"]
        for labels, value in samples[name]:
            if fam["type"] != "histogram":
                lines.append(f"{name}{_labels(labels)} {_number(value)}")
                continue
            for le, n in value["buckets"]:
                lines.append(f"{name}_bucket{_labels({**labels, 'le': _number(le)})} {n}")
            lines.append(f"{name}_sum{_labels(labels)} {_number(value['sum'])}")
            lines.append(f"{name}_count{_labels(labels)} {value['count']}")
    return "\n".join(lines) + "\n"


class MetricsServer:
    """Serves ``/metrics`` for ``db`` (and the other workers of ``peers``)."""

    def __init__(self, db, host: str, port: int, peers=None):
        self.db, self.host, self.port, self.peers = db, host, port, peers
        self._server: asyncio.base_events.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port, reuse_port=self.peers is not None)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def scrape(self) -> str:
        by_worker = {self.peers.index if self.peers else 0: self.db.metrics()}
        if self.peers is not None:
            by_worker.update(await asyncio.to_thread(self.peers.metrics))
        return render(by_worker)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            method, _, rest = request.decode("latin-1").partition(" ")
            path = rest.split(" ", 1)[0].split("?", 1)[0]
            if method != "GET":
                status, body, kind = "405 Method Not Allowed", "only GET\n", "text/plain"
            elif path != "/metrics":
                status, body, kind = "404 Not Found", "see /metrics\n", "text/plain"
            else:
                status, body, kind = "200 OK", await self.scrape(), CONTENT_TYPE
            data = body.encode()
            writer.write(f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
            await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ConnectionError):
            pass  # not HTTP, or gone
        except Exception:  # noqa: BLE001 - a scrape must not hurt the gateway
            log.warning("metrics scrape failed", exc_info=True)
        finally:
            writer.close()
