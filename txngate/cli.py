"""The ``txngate`` command.

``txngate serve`` checks the configuration by opening the configured Consensus
and Blob (creating the embedded default's folder if needed), then serves the
PostgreSQL protocol. Until the pgwire front end lands it reports what it
would serve and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from storage.errors import ConfigError
from storage.location import open_blob, open_consensus, redact_url
from txngate import __version__
from txngate import config as config_mod
from txngate import log

logger = logging.getLogger("txngate.cli")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="txngate", description="A PostgreSQL-wire SQL gateway over a transactional lake engine.")
    parser.add_argument("--version", action="version", version=f"txngate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the gateway", description="Run the gateway. Every flag is also a TXNGATE_* environment variable.")
    config_mod.add_arguments(serve)
    return parser


async def _check_locations(cfg: config_mod.Config) -> None:
    consensus = await open_consensus(cfg.consensus_url, setting="--consensus")
    try:
        blob = await open_blob(cfg.blob_url, setting="--blob")
        await blob.close()
    finally:
        await consensus.close()


def serve(cfg: config_mod.Config) -> int:
    asyncio.run(_check_locations(cfg))
    logger.info(
        "storage locations are usable",
        extra={"consensus": redact_url(cfg.consensus_url), "blob": cfg.blob_url, "embedded": cfg.embedded},
    )
    print(
        f"txngate {__version__}: will serve the PostgreSQL protocol on {cfg.host}:{cfg.port} "
        f"(database 'txngate', user 'txngate'), with consensus {redact_url(cfg.consensus_url)} and blob {cfg.blob_url}.\n"
        "The storage locations opened fine; the PostgreSQL front end is not built yet, so there is nothing to serve.",
        file=sys.stderr,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        cfg = config_mod.from_args(args)
        log.configure(cfg.log_level, cfg.log_format)
        if args.command == "serve":
            return serve(cfg)
    except ConfigError as e:
        print(f"txngate: {e}", file=sys.stderr)
        return 2
    return 1


if __name__ == "__main__":
    sys.exit(main())
