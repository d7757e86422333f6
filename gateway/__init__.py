"""gateway: the PostgreSQL wire protocol front end (asyncio).

Will own: connection startup (SSLRequest, GSSENCRequest, protocol version
negotiation), authentication (trust, cleartext, md5, SCRAM-SHA-256), the
simple and extended query protocols, COPY, cursors, CancelRequest, text and
binary type codecs, and per-connection session state. It drives
``planner.Session`` and nothing below it.

Not built yet (issue: pgwire front end).
"""
