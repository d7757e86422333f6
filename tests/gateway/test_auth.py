"""Authentication and TLS through libpq (psycopg): SCRAM-SHA-256 over TLS
with the right and the wrong password, md5, cleartext; a stored SCRAM
verifier; trust refused on a non-loopback address (tests/cli)."""

from __future__ import annotations

import subprocess

import psycopg
import pytest

from gateway.auth import ScramVerifier, md5_secret
from tests.servers import Gateway


def connect(g: Gateway, user: str, password: str, sslmode: str = "disable") -> psycopg.Connection:
    return psycopg.connect(g.dsn(user=user, password=password, sslmode=sslmode), autocommit=True)


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(d / "key.pem"), "-out", str(d / "cert.pem"),
                    "-days", "2", "-subj", "/CN=localhost"], check=True, capture_output=True, timeout=60)
    return str(d / "cert.pem"), str(d / "key.pem")


@pytest.fixture(scope="module")
def scram_gateway(tmp_path_factory, tls_files):
    d = tmp_path_factory.mktemp("scram")
    users = d / "users"
    users.write_text(f"# name:secret\nalice:wonderland\ncarol:{ScramVerifier.from_password('stored-verifier')}\n")
    g = Gateway(str(d), "--auth", "scram-sha-256", "--users-file", str(users), "--tls-cert", tls_files[0], "--tls-key", tls_files[1])
    yield g
    g.stop()


def test_scram_over_tls(scram_gateway):
    with connect(scram_gateway, "alice", "wonderland", sslmode="require") as conn:
        assert conn.pgconn.ssl_in_use
        assert conn.execute("SELECT current_user, 1 + 1").fetchone() == ("alice", 2)
    with connect(scram_gateway, "carol", "stored-verifier") as conn:  # a verifier, not a password, on file
        assert not conn.pgconn.ssl_in_use
        assert conn.execute("SELECT current_user").fetchone() == ("carol",)


@pytest.mark.parametrize("user,password", [("alice", "wrong"), ("nobody", "wonderland"), ("carol", "")])
def test_scram_refuses_bad_credentials(scram_gateway, user, password):
    with pytest.raises(psycopg.OperationalError, match=f'password authentication failed for user "{user}"'):
        connect(scram_gateway, user, password, sslmode="require")
    # the server carries on
    with connect(scram_gateway, "alice", "wonderland") as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.parametrize("method", ["md5", "password"])
def test_md5_and_cleartext(tmp_path, method):
    g = Gateway(str(tmp_path), "--auth", method, "--users", f"dave:{md5_secret('dave', 'pw-dave')},erin:pw-erin")
    try:
        for user, password in (("dave", "pw-dave"), ("erin", "pw-erin")):
            with connect(g, user, password) as conn:
                assert conn.execute("SELECT current_user").fetchone() == (user,)
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            connect(g, "dave", "pw-erin")
        # no TLS configured: sslmode=require is refused by the client after our N
        with pytest.raises(psycopg.OperationalError, match="SSL"):
            connect(g, "erin", "pw-erin", sslmode="require")
    finally:
        g.stop()
