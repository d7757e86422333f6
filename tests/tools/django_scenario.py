"""A Django 5.2 project run end to end against one server (argv: port,
user, database): ``migrate`` (contrib auth and contenttypes with their
migrations, and the ``django_shop`` app by run_syncdb: tables, foreign keys
DEFERRABLE INITIALLY DEFERRED, indexes), then the ORM: create_user and
many-to-many, bulk_create, a transaction, filtered UPDATE, annotate with
Count/Sum across a join, a JSONField lookup, cascading DELETE, an
IntegrityError inside atomic(), a nested atomic() whose savepoint rolls
back while the outer transaction commits, text lookups of values with
``%``, ``_`` and a backslash (Django escapes them with backslashes in a
LIKE pattern), introspection, and
``inspectdb`` (the models Django reads back from the catalog). It prints
what it saw; the test compares the printout from txngate and from
PostgreSQL."""

import io
import os
import sys

import django
from django.conf import settings


def main(port: str, user: str, database: str) -> None:
    settings.configure(
        DATABASES={"default": {"ENGINE": "django.db.backends.postgresql", "HOST": "127.0.0.1", "PORT": port, "USER": user, "NAME": database}},
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "tests.tools.django_shop"],
        USE_TZ=True, DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    )
    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import IntegrityError, connection, transaction
    from django.db.models import Count, Sum

    from tests.tools.django_shop.models import Customer, Order

    call_command("migrate", run_syncdb=True, verbosity=0)
    alice = User.objects.create_user("alice", "a@x.com", "pw")
    alice.groups.add(Group.objects.create(name="staff"))
    Customer.objects.create(name="Ann", email="ann@x.com", data={"vip": True})
    Customer.objects.bulk_create([Customer(name=f"c{i}", email=f"c{i}@x.com") for i in range(5)])
    with transaction.atomic():
        for i, customer in enumerate(Customer.objects.order_by("id")):
            Order.objects.create(customer=customer, total=i * 10 + 0.5)
    print("updated", Order.objects.filter(total__gt=20).update(status="big"))
    print("cents", [str(c) for c in Order.objects.order_by("id").values_list("cents", flat=True)],
          str(Order.objects.create(customer=Customer.objects.first(), total=1.25).cents))
    print(list(Customer.objects.annotate(n=Count("orders"), s=Sum("orders__total")).order_by("id").values_list("name", "n", "s")))
    print("vip orders", Order.objects.filter(customer__data__vip=True).count())
    print("deleted", Customer.objects.filter(name="c4").delete())
    print("left", Order.objects.count(), User.objects.get(username="alice").groups.count())
    try:
        with transaction.atomic():
            Customer.objects.create(name="dup", email="ann@x.com")
    except IntegrityError:
        print("duplicate email refused")
    print("after", Customer.objects.count(), sorted(Order.objects.values_list("status", flat=True).distinct()))
    with transaction.atomic():
        Customer.objects.create(name="kept", email="kept@x.com")
        try:
            with transaction.atomic():
                Customer.objects.create(name="gone", email="gone@x.com")
                Customer.objects.create(name="dup2", email="kept@x.com")
        except IntegrityError:
            print("savepoint rolled back")
    print("kept", sorted(Customer.objects.filter(name__in=["kept", "gone", "dup2"]).values_list("name", flat=True)))
    Customer.objects.bulk_create([Customer(name=n, email=f"{i}@pct.x") for i, n in enumerate(["50% off", "500 off", "a_b", "axb", "C:\\tmp"])])
    print("text lookups", [sorted(Customer.objects.filter(**{lookup: value}).values_list("name", flat=True)) for lookup, value in (
        ("name__contains", "0%"), ("name__startswith", "a_"), ("name__icontains", "% OFF"), ("name__endswith", "_b"),
        ("name__contains", "\\"), ("name__iexact", "A_B"))])
    print(sorted(connection.introspection.table_names()))
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "django_shop_customer")
    print(sorted((c["columns"], c["primary_key"], c["unique"]) for c in constraints.values() if c["primary_key"] or c["unique"]))

    models = io.StringIO()
    call_command("inspectdb", "django_shop_customer", "django_shop_order", stdout=models)
    print(models.getvalue())


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    main(*sys.argv[1:4])
