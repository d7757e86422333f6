"""gateway: the PostgreSQL wire protocol front end (asyncio).

Public API: ``Server(database, host, port).start()`` / ``serve_forever()`` /
``close()``. ``wire`` holds the message framing and the text and binary
value codecs; ``server`` the connection state machine that drives a
``planner.Session`` per connection and nothing below it.

Built: startup (SSL/GSSENC refused with N, protocol 3.0, NegotiateProtocolVersion),
trust authentication, simple and extended query protocols, COPY in/out,
CancelRequest, text and binary formats. Not yet (issue: pgwire front end):
TLS, password and SCRAM authentication, cursors, pg_catalog emulation,
idle_in_transaction_session_timeout.
"""

from gateway.server import Server

__all__ = ["Server"]
