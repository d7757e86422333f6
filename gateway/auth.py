"""Client authentication: trust, cleartext password, md5 and SCRAM-SHA-256
(RFC 5802 / RFC 7677, as PostgreSQL speaks it), and the TLS context.

``Users`` holds each user's secret as PostgreSQL would store it: a
plaintext password (usable by every method), an ``md5<hex>`` hash (md5 and
cleartext), or a ``SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>``
verifier (SCRAM and cleartext). ``Authenticator.exchange`` runs one
method's message exchange over two callbacks (send an Authentication
message, receive a PasswordMessage body) and returns True or False.

Invariants: an unknown user and a wrong password fail the same way (no
user enumeration); the SCRAM nonce is fresh per connection and the client's
proof is checked in constant time; passwords are never logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import ssl
import struct
from dataclasses import dataclass

from storage.errors import ConfigError

AUTH_OK, AUTH_CLEARTEXT, AUTH_MD5, AUTH_SASL, AUTH_SASL_CONTINUE, AUTH_SASL_FINAL = 0, 3, 5, 10, 11, 12
SCRAM_ITERATIONS = 4096


@dataclass(frozen=True)
class ScramVerifier:
    iterations: int
    salt: bytes
    stored_key: bytes
    server_key: bytes

    @classmethod
    def from_password(cls, password: str, salt: bytes | None = None, iterations: int = SCRAM_ITERATIONS) -> "ScramVerifier":
        salt = salt or secrets.token_bytes(16)
        salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
        client_key = hmac.digest(salted, b"Client Key", "sha256")
        return cls(iterations, salt, hashlib.sha256(client_key).digest(), hmac.digest(salted, b"Server Key", "sha256"))

    @classmethod
    def parse(cls, text: str) -> "ScramVerifier":
        """``SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`` (base64 parts)."""
        _, params, keys = text.split("$")
        iterations, salt = params.split(":")
        stored, server = keys.split(":")
        return cls(int(iterations), base64.b64decode(salt), base64.b64decode(stored), base64.b64decode(server))

    def __str__(self) -> str:
        b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
        return f"SCRAM-SHA-256${self.iterations}:{b64(self.salt)}${b64(self.stored_key)}:{b64(self.server_key)}"


class Users:
    """Users and their secrets, from a file of ``name:secret`` lines and/or
    a ``name:secret,name:secret`` string."""

    def __init__(self, secrets_by_user: dict[str, str] | None = None):
        self.secrets = dict(secrets_by_user or {})

    @classmethod
    def load(cls, path: str | None, inline: str | None) -> "Users":
        out: dict[str, str] = {}
        lines: list[str] = []
        if path:
            try:
                with open(path) as f:
                    lines += [line.rstrip("\n") for line in f]
            except OSError as e:
                raise ConfigError("--users-file", f"cannot read {path}: {e.strerror}") from None
        if inline:
            lines += inline.split(",")
        for line in lines:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, sep, secret = line.partition(":")
            if not sep or not name.strip():
                raise ConfigError("--users-file", f"a line is not name:password: {name.strip()!r}...")
            out[name.strip()] = secret
        return cls(out)

    def secret(self, user: str) -> str | None:
        return self.secrets.get(user)


def md5_secret(user: str, password: str) -> str:
    return "md5" + hashlib.md5((password + user).encode()).hexdigest()


class Authenticator:
    """One method's exchange: ``await exchange(user, send, receive)``.

    ``send(code, extra)`` sends an Authentication message; ``receive()``
    returns the next PasswordMessage/SASL message body (bytes)."""

    def __init__(self, method: str, users: Users):
        assert method in ("trust", "password", "md5", "scram-sha-256"), method
        self.method = method
        self.users = users
        # A fixed verifier for unknown users, so they go through the same steps.
        self._decoy = ScramVerifier.from_password(secrets.token_hex(16))

    async def exchange(self, user: str, send, receive) -> bool:
        if self.method == "trust":
            return True
        secret = self.users.secret(user)
        if self.method == "password":
            await send(AUTH_CLEARTEXT, b"")
            given = (await receive()).rstrip(b"\x00").decode(errors="replace")
            return secret is not None and _check_cleartext(user, secret, given)
        if self.method == "md5":
            salt = secrets.token_bytes(4)
            await send(AUTH_MD5, salt)
            given = (await receive()).rstrip(b"\x00").decode(errors="replace")
            if secret is None or secret.startswith("SCRAM-SHA-256$"):
                return False  # as PostgreSQL: md5 needs a plaintext or md5 secret
            stored = secret if _is_md5(secret) else md5_secret(user, secret)
            expected = "md5" + hashlib.md5(stored[3:].encode() + salt).hexdigest()
            return hmac.compare_digest(expected, given)
        return await self._scram(secret, send, receive)

    async def _scram(self, secret: str | None, send, receive) -> bool:
        if secret is None or _is_md5(secret):
            verifier, known = self._decoy, False
        elif secret.startswith("SCRAM-SHA-256$"):
            verifier, known = ScramVerifier.parse(secret), True
        else:
            verifier, known = ScramVerifier.from_password(secret), True
        await send(AUTH_SASL, b"SCRAM-SHA-256\x00\x00")
        body = await receive()
        end = body.index(b"\x00")
        mechanism = body[:end].decode()
        (length,) = struct.unpack_from("!i", body, end + 1)
        client_first = body[end + 5 : end + 5 + length].decode()
        if mechanism != "SCRAM-SHA-256":
            raise ValueError(f"unsupported SASL mechanism {mechanism!r}")
        gs2_flag, _authzid, bare = client_first.split(",", 2)
        if gs2_flag not in ("n", "y"):
            raise ValueError("channel binding is not supported")
        client_nonce = dict(p.split("=", 1) for p in bare.split(","))["r"]
        nonce = client_nonce + base64.b64encode(secrets.token_bytes(18)).decode()
        server_first = f"r={nonce},s={base64.b64encode(verifier.salt).decode()},i={verifier.iterations}"
        await send(AUTH_SASL_CONTINUE, server_first.encode())
        client_final = (await receive()).decode()
        without_proof, _, proof_part = client_final.rpartition(",p=")
        attrs = dict(p.split("=", 1) for p in without_proof.split(","))
        if attrs.get("r") != nonce or attrs.get("c") != base64.b64encode(f"{gs2_flag},,".encode()).decode():
            return False
        auth_message = f"{bare},{server_first},{without_proof}".encode()
        signature = hmac.digest(verifier.stored_key, auth_message, "sha256")
        proof = base64.b64decode(proof_part)
        client_key = bytes(a ^ b for a, b in zip(proof, signature))
        if not (known and len(proof) == 32 and hmac.compare_digest(hashlib.sha256(client_key).digest(), verifier.stored_key)):
            return False
        server_signature = hmac.digest(verifier.server_key, auth_message, "sha256")
        await send(AUTH_SASL_FINAL, b"v=" + base64.b64encode(server_signature))
        return True


def _is_md5(secret: str) -> bool:
    return len(secret) == 35 and secret.startswith("md5")


def _check_cleartext(user: str, secret: str, given: str) -> bool:
    if secret.startswith("SCRAM-SHA-256$"):
        v = ScramVerifier.parse(secret)
        return hmac.compare_digest(ScramVerifier.from_password(given, v.salt, v.iterations).stored_key, v.stored_key)
    if _is_md5(secret):
        return hmac.compare_digest(md5_secret(user, given), secret)
    return hmac.compare_digest(secret.encode(), given.encode())


def tls_context(cert: str | None, key: str | None) -> ssl.SSLContext | None:
    """A server TLS context from PEM files, or None (SSLRequest answered N)."""
    if not cert:
        return None
    for flag, path in (("--tls-cert", cert), ("--tls-key", key)):
        if not os.path.exists(path):
            raise ConfigError(flag, f"{path} does not exist")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(cert, key)
    except ssl.SSLError as e:
        raise ConfigError("--tls-cert", f"cannot load the certificate and key: {e}") from None
    return ctx
