"""All of txngate's settings, in one place.

Every setting is a command-line flag and a ``TXNGATE_*`` environment
variable; a flag beats the variable, the variable beats the default. The
embedded default keeps everything under ``--data-dir``: SQLite for Consensus
(and, later, the oracle) and a local folder for Blob.

Invariant: ``Config`` is immutable once built, and ``consensus_url`` and
``blob_url`` are always set (derived from ``data_dir`` when not given).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field

from local_exec import parse_size
from storage.errors import ConfigError


@dataclass(frozen=True)
class Setting:
    flag: str
    env: str
    default: str | None
    help: str
    kind: type = str


SETTINGS: list[Setting] = [
    Setting("--host", "TXNGATE_HOST", "127.0.0.1", "address to listen on"),
    Setting("--port", "TXNGATE_PORT", "6875", "port to listen on", int),
    Setting("--data-dir", "TXNGATE_DATA_DIR", "./txngate-data", "folder of the embedded default (SQLite consensus, local blob)"),
    Setting("--consensus", "TXNGATE_CONSENSUS", None, "Consensus URL: postgres://user:pw@host:port/db or sqlite:///path (default: sqlite in --data-dir)"),
    Setting("--blob", "TXNGATE_BLOB", None, "Blob URL: s3://bucket/prefix?endpoint=http://host:9000 or file:///path (default: a folder in --data-dir)"),
    Setting("--spark-master", "TXNGATE_SPARK_MASTER", "local[*]", "Spark master URL for large queries"),
    Setting("--auth", "TXNGATE_AUTH", "trust", "client authentication: trust (loopback only), password, md5 or scram-sha-256"),
    Setting("--users-file", "TXNGATE_USERS_FILE", None, "users for password authentication: one 'name:password' (or name:SCRAM-SHA-256$... / name:md5...) per line"),
    Setting("--users", "TXNGATE_USERS", None, "users for password authentication as 'name:password,name2:password2' (added to --users-file)"),
    Setting("--tls-cert", "TXNGATE_TLS_CERT", None, "PEM certificate: clients may then use TLS (SSLRequest answered S)"),
    Setting("--tls-key", "TXNGATE_TLS_KEY", None, "PEM private key of --tls-cert"),
    Setting("--workers", "TXNGATE_WORKERS", "0", "gateway processes sharing the port (0: one per CPU core)", int),
    Setting("--metrics-port", "TXNGATE_METRICS_PORT", "0", "port of the Prometheus /metrics endpoint on --host (0: off)", int),
    Setting("--max-connections", "TXNGATE_MAX_CONNECTIONS", "100", "connections beyond this get 53300", int),
    Setting("--cache-memory", "TXNGATE_CACHE_MEMORY", None,
            "memory for table contents kept between queries, per gateway process, e.g. 4GB (default: a quarter of the machine's, "
            "shared by the workers)"),
    Setting("--log-level", "TXNGATE_LOG_LEVEL", "info", "debug, info, warning or error"),
    Setting("--log-format", "TXNGATE_LOG_FORMAT", "json", "json (structured, one object per line) or text"),
]


@dataclass(frozen=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 6875
    data_dir: str = "./txngate-data"
    consensus: str | None = None
    blob: str | None = None
    spark_master: str = "local[*]"
    spark_conf: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    log_level: str = "info"
    log_format: str = "json"
    auth: str = "trust"
    users_file: str | None = None
    users: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    max_connections: int = 100
    workers: int = 0
    metrics_port: int = 0
    cache_memory: str | None = None

    @property
    def cache_bytes(self) -> int:
        """Bytes of table contents each gateway process keeps between
        queries (``SnapshotCache``): ``--cache-memory``, or a quarter of the
        machine's memory shared by the workers. Too small a budget for the
        tables a query reads makes every query read them again (TPC-H at
        SF 1 in the old fixed 512 MB: 1.5 s a query, 40 ms with room)."""
        if self.cache_memory is not None:
            return parse_bytes(self.cache_memory, "--cache-memory")
        return max(512 << 20, machine_memory() // 4 // self.worker_count)

    @property
    def worker_count(self) -> int:
        return self.workers if self.workers > 0 else (os.cpu_count() or 1)

    @property
    def consensus_url(self) -> str:
        return self.consensus or f"sqlite://{os.path.abspath(self.data_dir)}/consensus.db"

    @property
    def blob_url(self) -> str:
        return self.blob or f"file://{os.path.abspath(self.data_dir)}/blob"

    @property
    def embedded(self) -> bool:
        return self.consensus is None and self.blob is None


def parse_bytes(text: str, flag: str) -> int:
    """A size as written in a setting (``4GB``, ``512MB``, ``1.5G``, bytes:
    ``local_exec.parse_size``), or a ConfigError naming ``flag``."""
    try:
        return parse_size(text)
    except ValueError:
        raise ConfigError(flag, f"{text!r} is not a size such as 512MB or 4GB") from None


def machine_memory() -> int:
    """The machine's physical memory in bytes (4 GiB when it cannot be told)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add every setting as a flag whose help names its environment variable."""
    for s in SETTINGS:
        default_text = f" (default: {s.default})" if s.default is not None else ""
        parser.add_argument(s.flag, dest=_dest(s), default=None, help=f"{s.help}{default_text} [env {s.env}]")
    parser.add_argument(
        "--spark-conf",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="extra Spark configuration, repeatable [env TXNGATE_SPARK_CONF, comma-separated]",
    )


def _dest(s: Setting) -> str:
    return s.flag.lstrip("-").replace("-", "_")


def from_args(args: argparse.Namespace, environ: dict[str, str] | None = None) -> Config:
    """Resolve flags > environment > defaults into a ``Config``."""
    env = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for s in SETTINGS:
        raw = getattr(args, _dest(s), None)
        if raw is None:
            raw = env.get(s.env) or s.default
        if raw is None:
            continue
        if s.kind is int:
            try:
                raw = int(raw)
            except ValueError:
                raise ConfigError(s.flag, f"{raw!r} is not a whole number") from None
        values[_dest(s)] = raw
    for flag in ("port", "metrics_port"):
        if not 0 <= int(values.get(flag, 0)) <= 65535:  # type: ignore[arg-type]
            raise ConfigError(f"--{flag.replace('_', '-')}", f"{values[flag]} is not a TCP port")
    if values.get("log_level", "info") not in ("debug", "info", "warning", "error"):
        raise ConfigError("--log-level", f"{values['log_level']!r} is not one of debug, info, warning, error")
    if values.get("log_format", "json") not in ("json", "text"):
        raise ConfigError("--log-format", f"{values['log_format']!r} is not json or text")
    if values.get("auth", "trust") not in ("trust", "password", "md5", "scram-sha-256"):
        raise ConfigError("--auth", f"{values['auth']!r} is not one of trust, password, md5, scram-sha-256")
    if values.get("cache_memory") is not None:
        parse_bytes(str(values["cache_memory"]), "--cache-memory")  # refused at start, not at the first query
    if bool(values.get("tls_cert")) != bool(values.get("tls_key")):
        raise ConfigError("--tls-cert", "--tls-cert and --tls-key go together")
    spark_conf = getattr(args, "spark_conf", None)
    if spark_conf is None and env.get("TXNGATE_SPARK_CONF"):
        spark_conf = [p for p in env["TXNGATE_SPARK_CONF"].split(",") if p]
    pairs = []
    for item in spark_conf or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError("--spark-conf", f"{item!r} is not KEY=VALUE")
        pairs.append((key.strip(), value.strip()))
    return Config(**values, spark_conf=tuple(pairs))  # type: ignore[arg-type]
