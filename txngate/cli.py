"""The ``txngate`` command.

``txngate serve`` opens the configured Consensus and Blob (creating the
embedded default's folder if needed) and serves the PostgreSQL protocol until
SIGINT or SIGTERM, after draining (new connections are refused, each
session ends with FATAL 57P01 once its running statement has answered).
It refuses to listen on a non-loopback address with
trust authentication.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys

from storage.errors import ConfigError, UsageError
from storage.location import open_blob, open_consensus, redact_url
from storage.persist import FOREVER
from txngate import __version__
from txngate import config as config_mod
from txngate import log, workers

logger = logging.getLogger("txngate.cli")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="txngate", description="A PostgreSQL-wire SQL gateway over a transactional lake engine.")
    parser.add_argument("--version", action="version", version=f"txngate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the gateway", description="Run the gateway. Every flag is also a TXNGATE_* environment variable.")
    config_mod.add_arguments(serve)

    inspect = sub.add_parser("inspect", help="show storage state", description="Show the durable state of shards.")
    what = inspect.add_subparsers(dest="what", required=True)
    shard = what.add_parser("shard", help="one shard: seqno, upper, since, batches, readers, writers, leases")
    shard.add_argument("shard_id")
    shards = what.add_parser("shards", help="list every shard")
    for p in (shard, shards):
        p.add_argument("--consensus", default=None, help="Consensus URL [env TXNGATE_CONSENSUS; default: the embedded one in --data-dir]")
        p.add_argument("--blob", default=None, help="Blob URL [env TXNGATE_BLOB; default: the embedded one in --data-dir]")
        p.add_argument("--data-dir", default=None, help="folder of the embedded default [env TXNGATE_DATA_DIR]")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


LOOPBACK = ("127.0.0.1", "::1", "localhost")


async def _serve(cfg: config_mod.Config, worker: tuple[int, int, int, str] | None = None) -> None:
    from gateway import Authenticator, MetricsServer, Peers, Server, Users, tls_context
    from planner import Database

    users = Users.load(cfg.users_file, cfg.users)
    if cfg.auth != "trust" and not users.secrets:
        raise ConfigError("--auth", f"{cfg.auth} authentication needs users: give --users-file or --users")
    tls = tls_context(cfg.tls_cert, cfg.tls_key)
    spark_master = None if cfg.spark_master.lower() in ("", "none", "off") else cfg.spark_master
    db = await Database.open(cfg.consensus_url, cfg.blob_url, spark_master=spark_master, spark_conf=cfg.spark_conf, cache_bytes=cfg.cache_bytes)
    port, peers = cfg.port, None
    if worker is not None:
        index, count, port, folder = worker
        peers = Peers(folder, index, count)
    server = Server(db, cfg.host, port, max_connections=cfg.max_connections, authenticator=Authenticator(cfg.auth, users), tls=tls,
                    peers=peers)
    metrics = MetricsServer(db, cfg.host, cfg.metrics_port, peers) if cfg.metrics_port else None
    try:
        await server.start()
        if metrics is not None:
            await metrics.start()
        logger.info(
            "serving",
            extra={"consensus": redact_url(cfg.consensus_url), "blob": cfg.blob_url, "embedded": cfg.embedded, "host": cfg.host, "port": server.port},
        )
        which = f", worker {peers.index + 1} of {peers.count}" if peers is not None else ""
        print(f"txngate {__version__}: serving the PostgreSQL protocol on {cfg.host}:{server.port} (database 'txngate', user 'txngate'{which})",
              file=sys.stderr, flush=True)
        if peers is not None:
            peers.mark_ready()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        loop.add_signal_handler(signal.SIGUSR1, _dump_tasks)
        serving = asyncio.ensure_future(server.serve_forever())
        await stop.wait()
        logger.info("draining")
        await server.drain()  # running statements and commits finish; sessions end with 57P01
        serving.cancel()
    finally:
        if metrics is not None:
            await metrics.close()
        await server.close()
        await db.close()


def _dump_tasks() -> None:
    """SIGUSR1: write every asyncio task's stack to stderr (what a stuck
    gateway is waiting for)."""
    import io

    out = io.StringIO()
    for task in asyncio.all_tasks():
        print(f"task {task.get_name()}:", file=out)
        coro = task.get_coro()
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "ag_frame", None)
            if frame is not None:
                print(f"  {frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}", file=out)
            coro = getattr(coro, "cr_await", None) or getattr(coro, "ag_await", None)
    print(out.getvalue(), file=sys.stderr, flush=True)


def serve(cfg: config_mod.Config, argv: list[str]) -> int:
    """One process, or (``--workers`` above 1) a parent of worker processes
    sharing the port (``txngate.workers``); a worker serves like one process."""
    if cfg.host not in LOOPBACK and cfg.auth == "trust":
        raise ConfigError("--host", f"{cfg.host} is not a loopback address: trust authentication is for loopback only (set --auth)")
    worker = workers.worker_of()
    if worker is None and cfg.worker_count > 1:
        return workers.run(cfg.host, cfg.port, cfg.worker_count, argv)
    asyncio.run(_serve(cfg, worker))
    return 0


async def _inspect(cfg: config_mod.Config, args: argparse.Namespace) -> int:
    from storage.persist import PersistClient

    consensus = await open_consensus(cfg.consensus_url, setting="--consensus")
    blob = await open_blob(cfg.blob_url, setting="--blob")
    client = PersistClient(blob, consensus)
    try:
        if args.what == "shards":
            shards = await client.list_shards()
            if args.json:
                print(json.dumps(shards))
            else:
                print("\n".join(shards) if shards else "(no shards)")
            return 0
        try:
            info = await client.inspect(args.shard_id)
        except UsageError as e:
            print(f"txngate: {e}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(info, indent=2))
        else:
            print(_format_shard(info))
        return 0
    finally:
        await client.close()
        await blob.close()
        await consensus.close()


def _format_frontier(t: int) -> str:
    return "[] (closed)" if t >= FOREVER else str(t)


def _format_shard(info: dict) -> str:
    b = info["batches"]
    lines = [
        f"shard   {info['shard']}",
        f"seqno   {info['seqno']}",
        f"upper   {_format_frontier(info['upper'])}",
        f"since   {_format_frontier(info['since'])}",
        f"columns {', '.join(info['columns'])}",
        f"batches {b['count']} ({b['rows']} rows, {b['bytes']} bytes; parts: {b['parts_blob']} in blob, "
        f"{b['parts_inline']} inline = {b['inline_bytes']} bytes)",
    ]
    for x in b["list"]:
        lines.append(f"  [{x['lower']}, {_format_frontier(x['upper'])}) since {x['since']}: {x['rows']} rows, {x['bytes']} bytes, {x['parts']} parts")
    lines.append(f"readers {len(info['readers'])}")
    for rid, r in info["readers"].items():
        lines.append(f"  {rid}: since {r['since']}, seqno_since {r['seqno_since']}, lease {r['lease_ms_left'] / 1000:.0f}s left")
    lines.append(f"writers {len(info['writers'])}")
    for wid, w in info["writers"].items():
        lines.append(f"  {wid}: last upper {w['last_upper']}, lease {w['lease_ms_left'] / 1000:.0f}s left")
    if info["critical"]:
        lines.append("critical sinces " + ", ".join(f"{k}={v}" for k, v in info["critical"].items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv)
    try:
        cfg = config_mod.from_args(args)
        log.configure(cfg.log_level, cfg.log_format)
        if args.command == "serve":
            return serve(cfg, argv)
        if args.command == "inspect":
            return asyncio.run(_inspect(cfg, args))
    except ConfigError as e:
        print(f"txngate: {e}", file=sys.stderr)
        return 2
    return 1


if __name__ == "__main__":
    sys.exit(main())
