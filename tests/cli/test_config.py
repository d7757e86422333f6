"""Configuration: flags beat TXNGATE_* variables beat defaults; bad values
are ConfigErrors naming the flag; ``txngate serve`` checks the locations."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from storage.errors import ConfigError
from txngate import config
from txngate.cli import build_parser

TXNGATE = os.path.join(os.path.dirname(sys.executable), "txngate")


def resolve(argv: list[str], env: dict[str, str]) -> config.Config:
    args = build_parser().parse_args(["serve", *argv])
    return config.from_args(args, env)


def test_defaults_are_the_embedded_default():
    cfg = resolve([], {})
    assert (cfg.host, cfg.port, cfg.data_dir, cfg.spark_master) == ("127.0.0.1", 6875, "./txngate-data", "local[*]")
    assert cfg.embedded
    assert cfg.consensus_url == f"sqlite://{os.path.abspath('./txngate-data')}/consensus.db"
    assert cfg.blob_url == f"file://{os.path.abspath('./txngate-data')}/blob"


def test_environment_then_flags_win():
    env = {"TXNGATE_PORT": "7000", "TXNGATE_HOST": "0.0.0.0", "TXNGATE_CONSENSUS": "postgres://x@h/db", "TXNGATE_SPARK_CONF": "a=1,b=2"}
    cfg = resolve([], env)
    assert (cfg.port, cfg.host, cfg.consensus_url, cfg.spark_conf) == (7000, "0.0.0.0", "postgres://x@h/db", (("a", "1"), ("b", "2")))
    assert not cfg.embedded
    cfg = resolve(["--port", "7001", "--spark-conf", "c=3"], env)
    assert (cfg.port, cfg.spark_conf) == (7001, (("c", "3"),))


@pytest.mark.parametrize(
    "argv, env, flag",
    [
        (["--port", "http"], {}, "--port"),
        ([], {"TXNGATE_PORT": "99999"}, "--port"),
        (["--log-level", "loud"], {}, "--log-level"),
        (["--spark-conf", "novalue"], {}, "--spark-conf"),
        (["--cache-memory", "lots"], {}, "--cache-memory"),
    ],
)
def test_bad_settings_name_the_flag(argv, env, flag):
    with pytest.raises(ConfigError) as info:
        resolve(argv, env)
    assert info.value.setting == flag


def test_cache_memory_is_a_size_or_a_share_of_the_machine():
    assert resolve(["--cache-memory", "2GB"], {}).cache_bytes == 2 << 30
    assert resolve([], {"TXNGATE_CACHE_MEMORY": "1.5g"}).cache_bytes == 3 << 29
    assert resolve([], {"TXNGATE_CACHE_MEMORY": "700MiB"}).cache_bytes == 700 << 20
    one, four = resolve(["--workers", "1"], {}), resolve(["--workers", "4"], {})
    assert one.cache_bytes == max(512 << 20, config.machine_memory() // 4)
    assert four.cache_bytes == max(512 << 20, config.machine_memory() // 16)


def test_help_lists_every_setting_with_its_variable():
    out = subprocess.run([TXNGATE, "serve", "--help"], capture_output=True, text=True, check=True).stdout
    for s in config.SETTINGS:
        assert s.flag in out and s.env in out


def test_serve_refuses_a_non_loopback_address(tmp_path):
    res = subprocess.run([TXNGATE, "serve", "--data-dir", str(tmp_path / "d"), "--host", "0.0.0.0"], capture_output=True, text=True)
    assert res.returncode == 2
    assert "--host" in res.stderr and "loopback" in res.stderr and "Traceback" not in res.stderr


def test_serve_with_bad_consensus_fails_clearly(tmp_path):
    res = subprocess.run([TXNGATE, "serve", "--consensus", "redis://localhost"], capture_output=True, text=True, env={**os.environ, "TXNGATE_DATA_DIR": str(tmp_path)})
    assert res.returncode == 2
    assert "invalid --consensus: unknown consensus scheme 'redis'" in res.stderr
    assert "Traceback" not in res.stderr
