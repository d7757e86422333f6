"""gateway: the PostgreSQL wire protocol front end (asyncio).

Public API: ``Server(database, host, port).start()`` / ``serve_forever()`` /
``close()``; ``Authenticator(method, Users.load(file, users))`` and
``tls_context(cert, key)`` for its ``authenticator`` and ``tls``;
``Peers`` (the workers of one port, for cancel and pg_stat_activity);
``MetricsServer`` (Prometheus' ``/metrics``).

Modules: ``wire`` frames the protocol's messages (values are encoded and
decoded by ``values``, below: the gateway holds no codec of its own);
``server`` is the connection state machine that drives a
``planner.Session`` per connection and nothing below it; ``auth`` holds
authentication (trust, cleartext, md5, SCRAM-SHA-256) and the TLS
context; ``peers`` the control sockets between workers.
"""

from gateway.auth import Authenticator, Users, tls_context
from gateway.metrics import MetricsServer
from gateway.peers import Peers
from gateway.server import Server

__all__ = ["Authenticator", "MetricsServer", "Peers", "Server", "Users", "tls_context"]
