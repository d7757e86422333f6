"""Real tools against a gateway of their own (a fresh embedded store), so
what a tool lists and creates is only its own."""

from __future__ import annotations

import pytest

from tests.servers import Gateway


@pytest.fixture(scope="module")
def tool_gateway(tmp_path_factory):
    g = Gateway(str(tmp_path_factory.mktemp("tool-gateway")), "--spark-master", "none")
    yield g
    g.stop()
