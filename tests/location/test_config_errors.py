"""Bad configuration fails at open time with a ConfigError naming the setting
and the reason."""

from __future__ import annotations

import pytest

from storage.errors import ConfigError
from storage.location import open_blob, open_consensus
from tests.servers import PG_PASSWORD, PG_PASSWORD_ROLE, free_port


@pytest.mark.parametrize(
    "url, reason",
    [
        ("not a url", "is not a URL"),
        ("ftp://host/x", "unknown blob scheme 'ftp'"),
        ("s3://", "names no bucket"),
        ("file://", "names no path"),
        ("file://remotehost/x", "only local paths"),
        ("s3://b/p?endpoint=127.0.0.1:9", "must start with http"),
        ("s3://b/p?colour=blue", "unknown S3 option"),
    ],
)
async def test_bad_blob_urls(url, reason):
    with pytest.raises(ConfigError) as info:
        await open_blob(url)
    assert info.value.setting == "blob"
    assert reason in str(info.value)


@pytest.mark.parametrize(
    "url, reason",
    [
        ("localhost:5432", "is not a URL"),
        ("redis://localhost", "unknown consensus scheme 'redis'"),
        ("postgres://host:notaport/db", "cannot parse URL"),
        ("sqlite://", "names no path"),
        ("sqlite:///tmp/x.db?synchronous=sometimes", "synchronous must be"),
        ("postgres://u@127.0.0.1:1/db?table=Bad-Name", "not a plain lower-case identifier"),
    ],
)
async def test_bad_consensus_urls(url, reason):
    with pytest.raises(ConfigError) as info:
        await open_consensus(url)
    assert info.value.setting == "consensus"
    assert reason in str(info.value)


async def test_unreachable_postgres():
    url = f"postgres://postgres@127.0.0.1:{free_port()}/postgres?timeout=3"
    with pytest.raises(ConfigError, match="cannot reach PostgreSQL"):
        await open_consensus(url)


async def test_postgres_wrong_password_is_named_and_redacted(pg_server):
    url = pg_server.url(user=PG_PASSWORD_ROLE, password="wrong-password")
    with pytest.raises(ConfigError) as info:
        await open_consensus(url)
    assert "refused the credentials" in str(info.value)
    assert "wrong-password" not in str(info.value)
    # The right password works.
    c = await open_consensus(pg_server.url(user=PG_PASSWORD_ROLE, password=PG_PASSWORD))
    await c.close()


async def test_postgres_missing_database(pg_server):
    with pytest.raises(ConfigError, match="does not exist"):
        await open_consensus(pg_server.url(database="no_such_db"))


async def test_missing_bucket(s3_server):
    with pytest.raises(ConfigError, match="bucket 'no-such-bucket' does not exist"):
        await open_blob(s3_server.url(bucket="no-such-bucket"))


async def test_unreachable_s3_endpoint():
    url = f"s3://b/p?endpoint=http://127.0.0.1:{free_port()}&access_key=a&secret_key=b&timeout=2"
    with pytest.raises(ConfigError, match="cannot reach S3 endpoint"):
        await open_blob(url)


async def test_fs_blob_root_is_a_file(tmp_path):
    path = tmp_path / "afile"
    path.write_bytes(b"x")
    with pytest.raises(ConfigError):
        await open_blob(f"file://{path}")


async def test_fs_blob_root_under_a_file(tmp_path):
    path = tmp_path / "afile"
    path.write_bytes(b"x")
    with pytest.raises(ConfigError, match="cannot create folder"):
        await open_blob(f"file://{path}/sub")


async def test_sqlite_path_under_a_file(tmp_path):
    path = tmp_path / "afile"
    path.write_bytes(b"x")
    with pytest.raises(ConfigError, match="cannot create folder"):
        await open_consensus(f"sqlite://{path}/sub/c.db")
