"""Privileges, owners and extensions, as tools and dump files write them.

Every txngate role is a superuser (``pg_roles``: the session's user, with
``rolsuper``), and a superuser passes every privilege check in
PostgreSQL: so ``GRANT``, ``REVOKE``, ``ALTER DEFAULT PRIVILEGES`` and
``ALTER ... OWNER TO`` change what no one can observe, and are accepted
as PostgreSQL accepts them for a superuser — after the same checks, so bad
input still fails as there: the objects must exist (42P01, 3F000, 3D000)
and the roles too (42704; the roles are PUBLIC, CURRENT_USER and the
session's user).

Extensions: ``plpgsql`` (as in every PostgreSQL database), ``uuid-ossp``
and ``pgcrypto`` are installed (txngate has their ``uuid_generate_v4``,
``gen_random_uuid`` and ``digest`` built in; pg_extension lists them), so
``CREATE EXTENSION IF NOT EXISTS`` skips them as PostgreSQL does an
installed one; any other extension, and dropping these, is 0A000.

Invariant: nothing here writes the catalog.
"""

from __future__ import annotations

from pglast import ast

from planner import sequences
from planner.catalog import Catalog
from planner.errors import SqlError, not_supported
from planner.pgcatalog import DATABASE, EXTENSIONS
from planner.result import Result



def check_role(spec: ast.RoleSpec, user: str, *, public: bool = True) -> None:
    """42704 unless ``spec`` names a role there is (PUBLIC where ``public``)."""
    kind = spec.roletype.name
    if kind == "ROLESPEC_PUBLIC" and public or kind in ("ROLESPEC_CURRENT_USER", "ROLESPEC_SESSION_USER", "ROLESPEC_CURRENT_ROLE"):
        return
    if kind != "ROLESPEC_CSTRING" or spec.rolename != user:
        raise SqlError("42704", f'role "{spec.rolename if kind == "ROLESPEC_CSTRING" else "public"}" does not exist')


def grant(node: ast.GrantStmt, catalog: Catalog, search_path: tuple[str, ...], user: str) -> Result:
    """GRANT / REVOKE on tables, sequences, schemas or the database (or on
    all tables or sequences in a schema), for existing roles."""
    kind, target = node.objtype.name, node.targtype.name
    for spec in node.grantees or ():
        check_role(spec, user)
    if target == "ACL_TARGET_ALL_IN_SCHEMA":
        for schema in node.objects:
            _schema(catalog, schema.sval)
    elif kind in ("OBJECT_TABLE", "OBJECT_SEQUENCE"):
        for rv in node.objects:
            _relation(catalog, search_path, rv, kind)
    elif kind == "OBJECT_SCHEMA":
        for schema in node.objects:
            _schema(catalog, schema.sval)
    elif kind == "OBJECT_DATABASE":
        for name in node.objects:
            if name.sval != DATABASE:
                raise SqlError("3D000", f'database "{name.sval}" does not exist')
    else:
        raise not_supported(f"GRANT on {kind.removeprefix('OBJECT_').lower()}")
    return Result("GRANT" if node.is_grant else "REVOKE")


def default_privileges(node: ast.AlterDefaultPrivilegesStmt, catalog: Catalog, user: str) -> Result:
    """ALTER DEFAULT PRIVILEGES [FOR ROLE r] [IN SCHEMA s] GRANT | REVOKE ..."""
    for option in node.options or ():
        for item in option.arg or ():
            if option.defname == "schemas":
                _schema(catalog, item.sval)
            elif option.defname == "roles":
                check_role(item, user, public=False)
    for spec in node.action.grantees or ():
        check_role(spec, user)
    return Result("ALTER DEFAULT PRIVILEGES")


def change_owner(kind: str, rv: ast.RangeVar, owner: ast.RoleSpec, catalog: Catalog, search_path: tuple[str, ...], user: str) -> None:
    """ALTER TABLE | VIEW | MATERIALIZED VIEW | SEQUENCE ... OWNER TO: the
    relation exists and the role is there (the owner stays the one role)."""
    _relation(catalog, search_path, rv, "OBJECT_SEQUENCE" if kind == "OBJECT_SEQUENCE" else "OBJECT_TABLE")
    check_role(owner, user, public=False)


def alter_owner(node: ast.AlterOwnerStmt, catalog: Catalog, user: str, search_path: tuple[str, ...] = ("public",)) -> Result:
    """ALTER SCHEMA | DATABASE | TYPE ... OWNER TO (the one role there is)."""
    kind = node.objectType.name
    if kind == "OBJECT_SCHEMA":
        _schema(catalog, node.object.sval)
    elif kind == "OBJECT_DATABASE":
        if node.object.sval != DATABASE:
            raise SqlError("3D000", f'database "{node.object.sval}" does not exist')
    elif kind == "OBJECT_TYPE":  # an enum type (pg_dump writes ALTER TYPE ... OWNER TO after CREATE TYPE)
        parts = [n.sval for n in node.object]
        if catalog.type_named(parts[-1], parts[-2] if len(parts) > 1 else None, search_path) is None:
            raise SqlError("42704", f'type "{parts[-1]}" does not exist')
    else:
        raise not_supported(f"ALTER {kind.removeprefix('OBJECT_')} OWNER TO")
    check_role(node.newowner, user, public=False)
    return Result(f"ALTER {kind.removeprefix('OBJECT_')}")


def create_extension(node: ast.CreateExtensionStmt) -> Result:
    name = node.extname
    if name not in EXTENSIONS:
        raise not_supported(f'extension "{name}" (txngate has plpgsql, uuid-ossp and pgcrypto built in)')
    if not node.if_not_exists:
        raise SqlError("42710", f'extension "{name}" already exists')
    return Result("CREATE EXTENSION", notices=[f'NOTICE 42710: extension "{name}" already exists, skipping'])


def drop_extension(node: ast.DropStmt) -> Result:
    for obj in node.objects:
        name = obj.sval
        if name not in EXTENSIONS:
            if node.missing_ok:
                continue
            raise SqlError("42704", f'extension "{name}" does not exist')
        raise not_supported(f'dropping extension "{name}" (built in)')
    return Result("DROP EXTENSION")


def _schema(catalog: Catalog, name: str) -> None:
    if not catalog.has_schema(name):
        raise SqlError("3F000", f'schema "{name}" does not exist')


def _relation(catalog: Catalog, search_path: tuple[str, ...], rv: ast.RangeVar, kind: str) -> None:
    if kind == "OBJECT_SEQUENCE":
        sequences.resolve(catalog, search_path, f"{rv.schemaname}.{rv.relname}" if rv.schemaname else rv.relname)
    else:
        catalog.relation(rv.relname, rv.schemaname, search_path)
