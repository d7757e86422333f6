"""Django end to end (tests/tools/django_scenario.py) against txngate and
against the real PostgreSQL: the same printout from both."""

from __future__ import annotations

from tests.tools.scenarios import beside_postgres


def test_django_migrate_and_orm_match_postgres(tool_gateway, pg_server):
    expected, got = beside_postgres(pg_server, tool_gateway, "django_shop",
                                    lambda port, user, db: ["-m", "tests.tools.django_scenario", str(port), user, db])
    assert "duplicate email refused" in expected and "savepoint rolled back" in expected
    assert "class DjangoShopOrder(models.Model):" in expected and "models.ForeignKey(DjangoShopCustomer" in expected  # inspectdb
    assert got == expected
