"""URL helpers shared by the location implementations."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

_SECRET_PARAM = re.compile(r"((?:secret_key|password)=)[^&]*", re.IGNORECASE)


def redact_url(url: str) -> str:
    """``url`` with its password and any ``secret_key``/``password`` option
    replaced by ``***``, safe for logs and error messages."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password:
            netloc = netloc.replace(f":{parts.password}@", ":***@")
        query = _SECRET_PARAM.sub(r"\1***", parts.query)
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return "<unparseable URL>"
