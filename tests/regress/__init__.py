"""PostgreSQL's own regression scripts played against txngate and
PostgreSQL (``python -m tests.regress``, ``make regress``): ``sources``
fetches them, ``script`` splits them as psql does, ``runner`` plays and
compares them, ``test_regress`` ratchets the suite on ``baseline.json``."""
