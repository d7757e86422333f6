"""gateway: the PostgreSQL wire protocol front end (asyncio).

Public API: ``Server(database, host, port).start()`` / ``serve_forever()`` /
``close()``. ``wire`` holds the message framing and the text and binary
value codecs; ``server`` the connection state machine that drives a
``planner.Session`` per connection and nothing below it.

``metrics`` serves Prometheus' ``/metrics`` (``MetricsServer``).

``auth`` holds authentication (trust, cleartext, md5, SCRAM-SHA-256) and
the TLS context.

Not yet (issue: pgwire front end): binary COPY,
idle_in_transaction_session_timeout, streaming results larger than memory.
"""

from gateway.metrics import MetricsServer
from gateway.peers import Peers
from gateway.server import Server

__all__ = ["MetricsServer", "Peers", "Server"]
