"""pg_catalog and information_schema emulation, derived from the txngate
catalog at the statement's ``read_ts``.

Clients (psql's backslash commands, drivers' metadata calls, ORMs'
reflection, BI tools' connect probes) ask PostgreSQL about itself with SQL
over system catalogs and functions. This module answers those queries from
the txngate ``Catalog`` the statement reads, so they are consistent with it
by construction:

* ``relation(schema, name)``: the virtual relations (``pg_class``,
  ``pg_attribute``, ``pg_type``, ``information_schema.columns``, ...), each
  an Arrow table built on demand. Relations no txngate object can populate
  (``pg_policy``, ``pg_trigger``, ...) exist with their columns and no rows,
  so queries over them run and find nothing.
* ``function(name, args)``: PostgreSQL functions DuckDB lacks or answers
  differently (``format_type``, ``pg_get_indexdef``, ``pg_table_is_visible``,
  ``current_setting``, ``version``, ...), rewritten to expressions over the
  virtual relations or to constants from the session.
* ``cast(type, arg)``: ``regclass``/``regtype``/``regnamespace`` casts —
  a name constant becomes its OID at bind time (42P01 when missing); an OID
  becomes its name through a scalar subquery.
* ``value(op)``: ``current_user``, ``current_schema``, ``current_catalog``.

Invariants: OIDs are stable for the life of an object (a relation's OID is
stored in its catalog row, and constraint/index OIDs derive from it and the
constraint's name); user object OIDs (≥ 16384) never collide with the
built-in ones below; every row of ``pg_attribute``/``pg_index``/
``pg_constraint`` refers to a ``pg_class`` row of the same build.
"""

from __future__ import annotations

import copy
import datetime as dt
import zlib
from functools import lru_cache

import pglast
import pyarrow as pa
from pglast import ast
from pglast.keywords import COL_NAME_KEYWORDS, RESERVED_KEYWORDS, TYPE_FUNC_NAME_KEYWORDS, UNRESERVED_KEYWORDS

from planner.catalog import (FIRST_USER_OID, IDENTITY, IDENTITY_ALWAYS, SEQUENCE_RANGES, SERIAL, Catalog, CompositeType, DomainType, EnumType,
                             Relation, Sequence)
from planner.errors import FEATURE_NOT_SUPPORTED, NUMERIC_VALUE_OUT_OF_RANGE, UNDEFINED_TABLE, SqlError, not_supported
from planner.result import UNCONSTRAINED
from planner.sequences import serial_sequence
from planner.parse import copy_tree, pg_sql, walk
from planner.sqltypes import STORED_PLACES, duckdb_type
from values import CARRIED_INTERVAL_MICROS, LONG_INTERVAL, PG_ARRAY_ELEMENT, PG_TYPE_BY_OID, PG_TYPES, type_oid

DATABASE = "txngate"
DATABASE_OID = 16384 - 1  # below every user object
SUPERUSER_OID = 10
#: the extensions installed (txngate has their functions built in: planner.grants) -> the version pg_extension shows
EXTENSIONS = {"plpgsql": "1.0", "uuid-ossp": "1.1", "pgcrypto": "1.3"}
NAMESPACE_OIDS = {"pg_catalog": 11, "public": 2200, "information_schema": 13000}
#: PostgreSQL's OIDs of the system catalogs clients name in ``'pg_class'::regclass``
SYSTEM_RELATION_OIDS = {"pg_type": 1247, "pg_attribute": 1249, "pg_proc": 1255, "pg_class": 1259, "pg_database": 1262,
                        "pg_namespace": 2615, "pg_constraint": 2606, "pg_index": 2610, "pg_description": 2609,
                        "pg_attrdef": 2604, "pg_trigger": 2620, "pg_rewrite": 2618}
VERSION = "PostgreSQL 16.4 (txngate 0.1.0) on x86_64-pc-linux-gnu, compiled by gcc, 64-bit"


def derived_oid(*parts: object) -> int:
    """A stable OID for an object named by ``parts`` (constraints, indexes,
    schemas): in [2^30, 2^31), apart from relation OIDs."""
    return (1 << 30) | (zlib.crc32(":".join(map(str, parts)).encode()) & ((1 << 30) - 1))


def relation_oid(rel: Relation) -> int:
    return rel.oid or FIRST_USER_OID + (zlib.crc32(rel.qualified.encode()) & ((1 << 29) - 1))


def sequences_of(rel: Relation) -> list[tuple[int, str, int]]:
    """(attnum, name, OID) of the sequence behind each serial or identity
    column of ``rel`` (PostgreSQL's relkind 'S', owned by the column)."""
    oid = relation_oid(rel)
    return [(i, rel.sequence_shown(c.name), derived_oid(oid, rel.sequence_shown(c.name))) for i, c in enumerate(rel.columns, 1) if c.sequenced]


def _owned_class_row(oid: int, name: str, rel: Relation, **kind) -> dict:
    """The pg_class row of an object a relation owns (an index, a
    sequence): ``kind`` gives what sets it apart."""
    return dict(oid=oid, relname=name, relnamespace=namespace_oid(rel.schema), reltype=0, reloftype=0, relowner=SUPERUSER_OID,
                reltablespace=0, relpages=1, relallvisible=0, reltoastrelid=0, relhasindex=False, relisshared=False, relchecks=0,
                relhasrules=False, relhastriggers=False, relhassubclass=False, relrowsecurity=False, relforcerowsecurity=False,
                relispopulated=True, relreplident="n", relispartition=False, relrewrite=0, relfrozenxid=0, relminmxid=0, **kind)


def namespace_oid(schema: str) -> int:
    return NAMESPACE_OIDS.get(schema) or derived_oid("schema", schema)


# -- column specs ---------------------------------------------------------------

_ARROW = {
    "oid": pa.uint32(), "int2": pa.int16(), "int4": pa.int32(), "int8": pa.int64(), "text": pa.string(),
    "bool": pa.bool_(), "float4": pa.float32(), "float8": pa.float64(),
    "oid[]": pa.list_(pa.uint32()), "int2[]": pa.list_(pa.int16()), "text[]": pa.list_(pa.string()),
    "timestamptz": pa.timestamp("us", tz="UTC"),
    "char[]": pa.list_(pa.string()),
    # oid is uint32 (as in PostgreSQL); int2vector and oidvector get element types no
    # txngate column has, so results keep their types (our oidvectors hold only 0s)
    "int2vector": pa.list_(pa.int8()), "oidvector": pa.list_(pa.uint16()),
}


def _schema(spec: str) -> pa.Schema:
    fields = []
    for item in spec.split(","):
        name, typ = item.split()
        fields.append(pa.field(name, _ARROW[typ]))
    return pa.schema(fields)


#: every virtual relation: (schema, name) -> columns
SPECS: dict[tuple[str, str], str] = {
    ("pg_catalog", "pg_namespace"): "oid oid, nspname text, nspowner oid, nspacl text[]",
    ("pg_catalog", "pg_class"): (
        "oid oid, relname text, relnamespace oid, reltype oid, reloftype oid, relowner oid, relam oid, relfilenode oid, "
        "reltablespace oid, relpages int4, reltuples float4, relallvisible int4, reltoastrelid oid, relhasindex bool, "
        "relisshared bool, relpersistence text, relkind text, relnatts int2, relchecks int2, relhasrules bool, "
        "relhastriggers bool, relhassubclass bool, relrowsecurity bool, relforcerowsecurity bool, relispopulated bool, "
        "relreplident text, relispartition bool, relrewrite oid, relfrozenxid int8, relminmxid int8, relacl text[], "
        "reloptions text[], relpartbound text"
    ),
    ("pg_catalog", "pg_attribute"): (
        "attrelid oid, attname text, atttypid oid, attlen int2, attnum int2, attcacheoff int4, atttypmod int4, attndims int4, "
        "attbyval bool, attalign text, attstorage text, attcompression text, attnotnull bool, atthasdef bool, "
        "atthasmissing bool, attidentity text, attgenerated text, attisdropped bool, attislocal bool, attinhcount int2, "
        "attstattarget int2, attcollation oid, attacl text[], attoptions text[], attfdwoptions text[], attmissingval text"
    ),
    ("pg_catalog", "pg_type"): (
        "oid oid, typname text, typnamespace oid, typowner oid, typlen int2, typbyval bool, typtype text, typcategory text, "
        "typispreferred bool, typisdefined bool, typdelim text, typrelid oid, typsubscript text, typelem oid, typarray oid, "
        "typinput text, typoutput text, typreceive text, typsend text, typmodin text, typmodout text, typanalyze text, "
        "typalign text, typstorage text, typnotnull bool, typbasetype oid, typtypmod int4, typndims int4, typcollation oid, "
        "typdefaultbin text, typdefault text, typacl text[]"
    ),
    ("pg_catalog", "pg_attrdef"): "oid oid, adrelid oid, adnum int2, adbin text",
    ("pg_catalog", "pg_index"): (
        "indexrelid oid, indrelid oid, indnatts int2, indnkeyatts int2, indisunique bool, indnullsnotdistinct bool, "
        "indisprimary bool, indisexclusion bool, indimmediate bool, indisclustered bool, indisvalid bool, "
        "indcheckxmin bool, indisready bool, indislive bool, indisreplident bool, indkey int2vector, indcollation oidvector, "
        "indclass oidvector, indoption int2vector, indexprs text, indpred text"
    ),
    ("pg_catalog", "pg_constraint"): (
        "oid oid, conname text, connamespace oid, contype text, condeferrable bool, condeferred bool, convalidated bool, "
        "conrelid oid, contypid oid, conindid oid, conparentid oid, confrelid oid, confupdtype text, confdeltype text, "
        "confmatchtype text, conislocal bool, coninhcount int2, connoinherit bool, conkey int2[], confkey int2[], "
        "conpfeqop oid[], conppeqop oid[], conffeqop oid[], confdelsetcols int2[], conexclop oid[], conbin text"
    ),
    ("pg_catalog", "pg_am"): "oid oid, amname text, amhandler text, amtype text",
    ("pg_catalog", "pg_database"): (
        "oid oid, datname text, datdba oid, encoding int4, datlocprovider text, datistemplate bool, datallowconn bool, "
        "datconnlimit int4, datfrozenxid int8, datminmxid int8, dattablespace oid, datcollate text, datctype text, "
        "daticulocale text, daticurules text, datcollversion text, datacl text[]"
    ),
    ("pg_catalog", "pg_roles"): (
        "rolname text, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool, rolcanlogin bool, "
        "rolreplication bool, rolconnlimit int4, rolpassword text, rolvaliduntil text, rolbypassrls bool, "
        "rolconfig text[], oid oid"
    ),
    ("pg_catalog", "pg_user"): (
        "usename text, usesysid oid, usecreatedb bool, usesuper bool, userepl bool, usebypassrls bool, passwd text, "
        "valuntil text, useconfig text[]"
    ),
    ("pg_catalog", "pg_auth_members"): "oid oid, roleid oid, member oid, grantor oid, admin_option bool",
    ("pg_catalog", "pg_proc"): (
        "oid oid, proname text, pronamespace oid, proowner oid, prolang oid, procost float4, prorows float4, "
        "provariadic oid, prosupport text, prokind text, prosecdef bool, proleakproof bool, proisstrict bool, "
        "proretset bool, provolatile text, proparallel text, pronargs int2, pronargdefaults int2, prorettype oid, "
        "proargtypes oidvector, proallargtypes oid[], proargmodes char[], proargnames text[], proargdefaults text, "
        "protrftypes oid[], prosrc text, probin text, prosqlbody text, proconfig text[], proacl text[]"
    ),
    ("pg_catalog", "pg_collation"): (
        "oid oid, collname text, collnamespace oid, collowner oid, collprovider text, collisdeterministic bool, "
        "collencoding int4, collcollate text, collctype text, colliculocale text, collicurules text, collversion text"
    ),
    ("pg_catalog", "pg_description"): "objoid oid, classoid oid, objsubid int4, description text",
    ("pg_catalog", "pg_shdescription"): "objoid oid, classoid oid, description text",
    ("pg_catalog", "pg_settings"): (
        "name text, setting text, unit text, category text, short_desc text, extra_desc text, context text, "
        "vartype text, source text, min_val text, max_val text, enumvals text[], boot_val text, reset_val text, "
        "sourcefile text, sourceline int4, pending_restart bool"
    ),
    ("pg_catalog", "pg_tables"): (
        "schemaname text, tablename text, tableowner text, tablespace text, hasindexes bool, hasrules bool, "
        "hastriggers bool, rowsecurity bool"
    ),
    ("pg_catalog", "pg_views"): "schemaname text, viewname text, viewowner text, definition text",
    ("pg_catalog", "pg_matviews"): (
        "schemaname text, matviewname text, matviewowner text, tablespace text, hasindexes bool, ispopulated bool, "
        "definition text"
    ),
    ("pg_catalog", "pg_indexes"): "schemaname text, tablename text, indexname text, tablespace text, indexdef text",
    ("pg_catalog", "pg_tablespace"): "oid oid, spcname text, spcowner oid, spcacl text[], spcoptions text[]",
    ("pg_catalog", "pg_extension"): (
        "oid oid, extname text, extowner oid, extnamespace oid, extrelocatable bool, extversion text, "
        "extconfig oid[], extcondition text[]"
    ),
    ("pg_catalog", "pg_inherits"): "inhrelid oid, inhparent oid, inhseqno int4, inhdetachpending bool",
    ("pg_catalog", "pg_policy"): (
        "oid oid, polname text, polrelid oid, polcmd text, polpermissive bool, polroles oid[], polqual text, "
        "polwithcheck text"
    ),
    ("pg_catalog", "pg_statistic_ext"): (
        "oid oid, stxrelid oid, stxname text, stxnamespace oid, stxowner oid, stxstattarget int4, stxkeys int2vector, "
        "stxkind char[], stxexprs text"
    ),
    ("pg_catalog", "pg_publication"): (
        "oid oid, pubname text, pubowner oid, puballtables bool, pubinsert bool, pubupdate bool, pubdelete bool, "
        "pubtruncate bool, pubviaroot bool"
    ),
    ("pg_catalog", "pg_publication_namespace"): "oid oid, pnpubid oid, pnnspid oid",
    ("pg_catalog", "pg_publication_rel"): "oid oid, prpubid oid, prrelid oid, prqual text, prattrs int2[]",
    ("pg_catalog", "pg_trigger"): (
        "oid oid, tgrelid oid, tgparentid oid, tgname text, tgfoid oid, tgtype int2, tgenabled text, tgisinternal bool, "
        "tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, tgdeferrable bool, tginitdeferred bool, tgnargs int2, "
        "tgattr int2vector, tgargs text, tgqual text, tgoldtable text, tgnewtable text"
    ),
    ("pg_catalog", "pg_rewrite"): "oid oid, rulename text, ev_class oid, ev_type text, ev_enabled text, is_instead bool, ev_qual text, ev_action text",
    ("pg_catalog", "pg_depend"): "classid oid, objid oid, objsubid int4, refclassid oid, refobjid oid, refobjsubid int4, deptype text",
    ("pg_catalog", "pg_enum"): "oid oid, enumtypid oid, enumsortorder float4, enumlabel text",
    ("pg_catalog", "pg_range"): "rngtypid oid, rngsubtype oid, rngmultitypid oid, rngcollation oid, rngsubopc oid, rngcanonical text, rngsubdiff text",
    ("pg_catalog", "pg_sequence"): "seqrelid oid, seqtypid oid, seqstart int8, seqincrement int8, seqmax int8, seqmin int8, seqcache int8, seqcycle bool",
    ("pg_catalog", "pg_language"): "oid oid, lanname text, lanowner oid, lanispl bool, lanpltrusted bool",
    ("pg_catalog", "pg_opclass"): "oid oid, opcmethod oid, opcname text, opcnamespace oid, opcowner oid, opcfamily oid, opcintype oid, opcdefault bool, opckeytype oid",
    ("pg_catalog", "pg_operator"): "oid oid, oprname text, oprnamespace oid, oprowner oid, oprkind text, oprleft oid, oprright oid, oprresult oid",
    ("pg_catalog", "pg_cast"): "oid oid, castsource oid, casttarget oid, castfunc oid, castcontext text, castmethod text",
    ("pg_catalog", "pg_foreign_table"): "ftrelid oid, ftserver oid, ftoptions text[]",
    ("pg_catalog", "pg_partitioned_table"): "partrelid oid, partstrat text, partnatts int2, partdefid oid, partattrs int2vector",
    ("pg_catalog", "pg_event_trigger"): "oid oid, evtname text, evtevent text, evtowner oid, evtfoid oid, evtenabled text, evttags text[]",
    ("pg_catalog", "pg_stat_activity"): (
        "datid oid, datname text, pid int4, usesysid oid, usename text, application_name text, client_addr text, "
        "backend_start timestamptz, xact_start timestamptz, query_start timestamptz, state_change timestamptz, "
        "wait_event_type text, wait_event text, state text, query text, backend_type text"
    ),
    ("pg_catalog", "pg_locks"): "locktype text, database oid, relation oid, pid int4, mode text, granted bool",
    ("pg_catalog", "pg_stat_user_tables"): "relid oid, schemaname text, relname text, n_live_tup int8, n_dead_tup int8",
    ("pg_catalog", "pg_keywords"): "word text, catcode text, barelabel bool, catdesc text, baredesc text",
    ("information_schema", "schemata"): (
        "catalog_name text, schema_name text, schema_owner text, default_character_set_catalog text, "
        "default_character_set_schema text, default_character_set_name text, sql_path text"
    ),
    ("information_schema", "tables"): (
        "table_catalog text, table_schema text, table_name text, table_type text, self_referencing_column_name text, "
        "reference_generation text, user_defined_type_catalog text, user_defined_type_schema text, "
        "user_defined_type_name text, is_insertable_into text, is_typed text, commit_action text"
    ),
    ("information_schema", "views"): (
        "table_catalog text, table_schema text, table_name text, view_definition text, check_option text, "
        "is_updatable text, is_insertable_into text, is_trigger_updatable text, is_trigger_deletable text, "
        "is_trigger_insertable_into text"
    ),
    ("information_schema", "columns"): (
        "table_catalog text, table_schema text, table_name text, column_name text, ordinal_position int4, "
        "column_default text, is_nullable text, data_type text, character_maximum_length int4, "
        "character_octet_length int4, numeric_precision int4, numeric_precision_radix int4, numeric_scale int4, "
        "datetime_precision int4, interval_type text, interval_precision int4, character_set_catalog text, "
        "character_set_schema text, character_set_name text, collation_catalog text, collation_schema text, "
        "collation_name text, domain_catalog text, domain_schema text, domain_name text, udt_catalog text, "
        "udt_schema text, udt_name text, scope_catalog text, scope_schema text, scope_name text, "
        "maximum_cardinality int4, dtd_identifier text, is_self_referencing text, is_identity text, "
        "identity_generation text, identity_start text, identity_increment text, identity_maximum text, "
        "identity_minimum text, identity_cycle text, is_generated text, generation_expression text, is_updatable text"
    ),
    ("information_schema", "table_constraints"): (
        "constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, table_schema text, "
        "table_name text, constraint_type text, is_deferrable text, initially_deferred text, enforced text, "
        "nulls_distinct text"
    ),
    ("information_schema", "key_column_usage"): (
        "constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, table_schema text, "
        "table_name text, column_name text, ordinal_position int4, position_in_unique_constraint int4"
    ),
    ("information_schema", "constraint_column_usage"): (
        "table_catalog text, table_schema text, table_name text, column_name text, constraint_catalog text, "
        "constraint_schema text, constraint_name text"
    ),
    ("information_schema", "check_constraints"): "constraint_catalog text, constraint_schema text, constraint_name text, check_clause text",
    ("information_schema", "referential_constraints"): (
        "constraint_catalog text, constraint_schema text, constraint_name text, unique_constraint_catalog text, "
        "unique_constraint_schema text, unique_constraint_name text, match_option text, update_rule text, delete_rule text"
    ),
    ("information_schema", "routines"): "specific_catalog text, specific_schema text, specific_name text, routine_catalog text, routine_schema text, routine_name text, routine_type text, data_type text",
    ("information_schema", "sequences"): (
        "sequence_catalog text, sequence_schema text, sequence_name text, data_type text, numeric_precision int4, "
        "numeric_precision_radix int4, numeric_scale int4, start_value text, minimum_value text, maximum_value text, "
        "increment text, cycle_option text"
    ),
    ("information_schema", "character_sets"): "character_set_catalog text, character_set_schema text, character_set_name text, character_repertoire text, form_of_use text, default_collate_catalog text, default_collate_schema text, default_collate_name text",
    ("information_schema", "enabled_roles"): "role_name text",
    # txngate's own lookup tables behind the rewritten functions
    ("pg_catalog", "txngate_defs"): "txngate_oid oid, txngate_kind text, txngate_def text",
}
_PG_CATALOG_NAMES = {name for schema, name in SPECS if schema == "pg_catalog"}


#: regproc columns of the emulated catalogs, kept as the function's name
#: ("-" for none): PostgreSQL compares them with OIDs too (``typreceive != 0``).
REGPROC_COLUMNS = frozenset(("typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"))

#: Columns of the emulated catalogs that are int2vector or oidvector:
#: PostgreSQL subscripts them from 0 (``indkey[0]`` is the first column).
VECTOR_COLUMNS = frozenset(
    item.split()[0] for spec in SPECS.values() for item in spec.split(",") if item.split()[1] in ("int2vector", "oidvector")
)


@lru_cache(maxsize=None)
def _arrow_schema(key: tuple[str, str]) -> pa.Schema:
    return _schema(SPECS[key])


def _table(key: tuple[str, str], rows: list[dict]) -> pa.Table:
    schema = _arrow_schema(key)
    return pa.Table.from_pylist(rows, schema=schema) if rows else schema.empty_table()


#: types whose I/O functions PostgreSQL names with an underscore (date_in, ...)
_UNDERSCORED = {"json", "date", "time", "timestamp", "timestamptz", "interval", "numeric", "record", "void", "uuid", "jsonb"}
#: types with a type modifier (varchar(n), numeric(p,s), ...)
_TYPMODDED = {"bpchar", "varchar", "time", "timestamp", "timestamptz", "interval", "numeric"}
_ALIGN = {**dict.fromkeys(("int8", "float8", "time", "timestamp", "timestamptz", "interval", "record"), "d"),
          **dict.fromkeys(("bool", "char", "name", "unknown", "uuid"), "c"), "int2": "s"}


def _io_functions(typname: str) -> dict:
    """pg_type's I/O and typmod function names, as PostgreSQL's (clients such
    as ADBC map types by ``typreceive``)."""
    sep = "_" if typname in _UNDERSCORED else ""
    names = {f"typ{part}": f"{typname}{sep}{fn}" for part, fn in (("input", "in"), ("output", "out"), ("receive", "recv"), ("send", "send"))}
    typmod = typname in _TYPMODDED
    return dict(names, typmodin=f"{typname}typmodin" if typmod else "-", typmodout=f"{typname}typmodout" if typmod else "-")


def _type_rows() -> list[dict]:
    rows = []
    for t in PG_TYPES:
        storage = "m" if t.typname == "numeric" else "p" if t.typlen > 0 or t.typname == "unknown" else "x"
        base = dict(typnamespace=11, typowner=SUPERUSER_OID, typbyval=t.typlen in (1, 2, 4, 8), typtype="p" if t.category == "P" else "b",
                    typispreferred=t.typname in ("text", "float8", "bool"), typisdefined=True, typdelim=",", typrelid=0,
                    **_io_functions(t.typname), typanalyze="-", typalign=_ALIGN.get(t.typname, "i"), typstorage=storage,
                    typnotnull=False, typbasetype=0, typtypmod=-1, typndims=0)
        rows.append(dict(base, oid=t.oid, typname=t.typname, typlen=t.typlen, typcategory=t.category, typelem=0,
                         typarray=t.array_oid, typcollation=100 if t.collatable else 0, typsubscript="-"))
        if t.array_oid:
            rows.append(dict(base, oid=t.array_oid, typname=f"_{t.typname}", typlen=-1, typbyval=False, typcategory="A",
                             typelem=t.oid, typarray=0, typcollation=100 if t.collatable else 0, typsubscript="array_subscript_handler",
                             typinput="array_in", typoutput="array_out", typreceive="array_recv", typsend="array_send", typstorage="x",
                             typalign="d" if base["typalign"] == "d" else "i"))
    return rows


_TYPE_ROWS = _type_rows()
#: format_type's names by type OID (arrays included)
TYPE_DISPLAY = {t.oid: t.display for t in PG_TYPES} | {t.array_oid: t.display + "[]" for t in PG_TYPES if t.array_oid}


def _storage(sql_type: str) -> str:
    """A column's attstorage: its type's typstorage (numeric's is main)."""
    oid = type_oid(sql_type)[0]
    return "p" if oid in (16, 20, 21, 23, 700, 701, 1082, 1083, 1114, 1184, 1186, 2950) else "m" if oid == 1700 else "x"


def _data_type(sql_type: str) -> str:
    """information_schema's data_type: an enum is USER-DEFINED."""
    oid = type_oid(sql_type)[0]
    return "ARRAY" if sql_type.endswith("[]") else "USER-DEFINED" if sql_type.startswith("enum(") else TYPE_DISPLAY.get(oid, "text")


def _default_expr(rel: Relation, column) -> str | None:
    """The default PostgreSQL shows: serial's nextval, none for identity,
    a generated column's expression (pg_attrdef holds it)."""
    if column.generated is not None:
        return _shown_expression(column.generated)
    if column.default == SERIAL:
        return f"nextval('{rel.sequence_shown(column.name)}'::regclass)"
    return None if column.sequenced else column.default


def _shown_expression(sql: str) -> str:
    """An expression as pg_get_expr shows it: an operator's in parentheses."""
    node = pglast.parse_sql(f"SELECT {sql}")[0].stmt.targetList[0].val
    return f"({sql})" if isinstance(node, (ast.A_Expr, ast.BoolExpr, ast.NullTest, ast.BooleanTest)) else sql


def _identity(column) -> str:
    """attidentity: ``a`` (GENERATED ALWAYS), ``d`` (BY DEFAULT) or ``""``."""
    return {IDENTITY_ALWAYS: "a", IDENTITY: "d"}.get(column.default, "")


_FK_ACTIONS = {"r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}


def _fk_def(fk, referenced: Relation | None) -> str:
    """pg_get_constraintdef of a foreign key (of the relation it references)."""
    schema, name = (referenced.schema, referenced.name) if referenced is not None else ("public", "?")
    target = _quote_ident(name) if schema == "public" else f"{_quote_ident(schema)}.{_quote_ident(name)}"
    out = f"FOREIGN KEY ({', '.join(map(_quote_ident, fk.columns))}) REFERENCES {target}({', '.join(map(_quote_ident, fk.referenced))})"
    if fk.on_update in _FK_ACTIONS:
        out += f" ON UPDATE {_FK_ACTIONS[fk.on_update]}"
    if fk.on_delete in _FK_ACTIONS:
        out += f" ON DELETE {_FK_ACTIONS[fk.on_delete]}"
    if fk.deferrable:
        out += " DEFERRABLE" + (" INITIALLY DEFERRED" if fk.deferred else "")
    return out


def _quote_ident(name: str) -> str:
    if name.isidentifier() and name == name.lower() and name.isascii() and name not in RESERVED_KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


def _spellings(schema: str, name: str, visible: bool) -> list[str]:
    """The texts ``::regclass`` reads as this relation: quoted or not
    (unquoted parts as PostgreSQL folds them: lower case), qualified or,
    when the search path finds it, not."""
    def forms(ident: str) -> list[str]:
        quoted = '"' + ident.replace('"', '""') + '"'
        return [quoted] + ([ident] if _quote_ident(ident) == ident or ident == ident.lower() else [])

    names = forms(name)
    out = [f"{s}.{n}" for s in forms(schema) for n in names]
    return out + names if visible else out


class PgCatalog:
    """The emulated system catalogs of one statement: ``catalog`` at its
    ``read_ts``, ``session`` for the settings, user and search path."""

    def __init__(self, catalog: Catalog, session, params: list | None = None):
        self.catalog = catalog
        self.session = session
        self.params = params  # the statement's parameters (None: not known yet, as at Describe)
        self._built: dict[str, pa.Table] = {}
        self.user = session.user
        self.search_path = session.search_path

    # -- relations ---------------------------------------------------------------

    def _argument(self, node: ast.Node, fn: str):
        """A function argument that must be known when the statement is
        planned: a constant's text, or a parameter's value (``_UNKNOWN``
        before the parameters are given)."""
        inner = node
        while isinstance(inner, ast.TypeCast):
            inner = inner.arg
        if isinstance(inner, ast.ParamRef):
            if self.params is None or not 0 < inner.number <= len(self.params):
                return _UNKNOWN
            return self.params[inner.number - 1]
        if isinstance(inner, ast.A_Const) and isinstance(inner.val, ast.Boolean):
            return inner.val.boolval
        return _const_text(node, fn)

    def relation(self, schema: str | None, name: str) -> tuple[str, callable] | None:
        """(key, build) for a virtual relation the name resolves to, or None."""
        if schema is None:
            key = ("pg_catalog", name) if name in _PG_CATALOG_NAMES else None
        else:
            key = (schema, name) if (schema, name) in SPECS else None
        if key is None:
            return None
        return ".".join(key), lambda: self.build(key)

    def build(self, key: tuple[str, str]) -> pa.Table:
        name = ".".join(key)
        if name not in self._built:
            rows = getattr(self, "_" + key[1], lambda: [])()
            self._built[name] = _table(key, rows)
        return self._built[name]

    def _relations(self) -> list[Relation]:
        return sorted(self.catalog.relations.values(), key=lambda r: r.qualified)

    def _schemas(self) -> list[str]:
        return sorted(self.catalog.schemas)

    def _visible(self) -> set[int]:
        """OIDs of the relations an unqualified name finds on the search path."""
        out = set()
        seen: set[str] = set()
        for schema in self.search_path:
            for rel in self._relations():
                if rel.schema == schema and rel.name not in seen:
                    seen.add(rel.name)
                    out.add(relation_oid(rel))
                    out.update(derived_oid(relation_oid(rel), name) for name, *_ in rel.all_indexes)
                    out.update(seq_oid for _attnum, _name, seq_oid in sequences_of(rel))
            for seq in self._made_sequences():
                if seq.schema == schema and seq.name not in seen:
                    seen.add(seq.name)
                    out.add(seq.oid)
        return out

    def _pg_depend(self):
        """A serial column's sequence depends on it automatically ('a'), an
        identity column's internally ('i'): how clients find the sequence
        a column owns (Alembic, pg_dump)."""
        rows = []
        for rel in self._relations():
            for attnum, _seq, seq_oid in sequences_of(rel):
                identity = rel.columns[attnum - 1].default in (IDENTITY, IDENTITY_ALWAYS)
                rows.append(dict(classid=SYSTEM_RELATION_OIDS["pg_class"], objid=seq_oid, objsubid=0, refclassid=SYSTEM_RELATION_OIDS["pg_class"],
                                 refobjid=relation_oid(rel), refobjsubid=attnum, deptype="i" if identity else "a"))
        for seq in self._made_sequences():  # OWNED BY: automatic, as a serial column's
            owner = self.catalog.by_oid(seq.owner[0]) if seq.owner is not None else None
            if owner is not None and seq.owner[1] in owner.column_names:
                rows.append(dict(classid=SYSTEM_RELATION_OIDS["pg_class"], objid=seq.oid, objsubid=0, refclassid=SYSTEM_RELATION_OIDS["pg_class"],
                                 refobjid=relation_oid(owner), refobjsubid=owner.column_names.index(seq.owner[1]) + 1, deptype="a"))
        return rows

    def _pg_namespace(self):
        return [dict(oid=namespace_oid(s), nspname=s, nspowner=SUPERUSER_OID) for s in self._schemas()]

    def _pg_class(self):
        rows = []
        # PostgreSQL's foreign keys are triggers on both tables (psql shows them only where relhastriggers)
        referenced = {fk.references for rel in self._relations() for fk in rel.foreign_keys}
        for rel in self._relations():
            oid, kind = relation_oid(rel), {"table": "r", "view": "v", "matview": "m"}[rel.kind]
            triggers = bool(rel.foreign_keys) or rel.oid in referenced
            rows.append(dict(oid=oid, relname=rel.name, relnamespace=namespace_oid(rel.schema), reltype=0, reloftype=0,
                             relowner=SUPERUSER_OID, relam=2 if kind != "v" else 0, relfilenode=oid, reltablespace=0, relpages=0,
                             reltuples=-1.0, relallvisible=0, reltoastrelid=0, relhasindex=bool(rel.all_indexes), relisshared=False,
                             relpersistence="t" if rel.temporary else "p", relkind=kind, relnatts=len(rel.columns), relchecks=len(rel.checks),
                             relhasrules=kind == "v", relhastriggers=triggers, relhassubclass=False, relrowsecurity=False,
                             relforcerowsecurity=False, relispopulated=True, relreplident="d", relispartition=False,
                             relrewrite=0, relfrozenxid=0, relminmxid=0))
            for _attnum, seq, seq_oid in sequences_of(rel):
                rows.append(_owned_class_row(seq_oid, seq, rel, relkind="S", relam=0, relfilenode=seq_oid, relnatts=3, reltuples=1.0,
                                             relpersistence="t" if rel.temporary else "p"))
            for cname, cols, _unique, _primary in rel.all_indexes:
                rows.append(_owned_class_row(derived_oid(oid, cname), cname, rel, relkind="i", relam=403, relfilenode=0,
                                             relnatts=len(cols), reltuples=0.0, relpersistence="p"))
        for seq in self._made_sequences():
            rows.append(_owned_class_row(seq.oid, seq.name, seq, relkind="S", relam=0, relfilenode=seq.oid, relnatts=3, reltuples=1.0,
                                         relpersistence="p"))
        for name, oid in SYSTEM_RELATION_OIDS.items():  # the system catalogs ``'pg_class'::regclass`` names
            spec = SPECS.get(("pg_catalog", name))
            rows.append(dict(oid=oid, relname=name, relnamespace=NAMESPACE_OIDS["pg_catalog"], reltype=0, reloftype=0, relowner=SUPERUSER_OID,
                             relam=2, relfilenode=0, reltablespace=0, relpages=1, reltuples=-1.0, relallvisible=0, reltoastrelid=0,
                             relhasindex=True, relisshared=name == "pg_database", relpersistence="p", relkind="r",
                             relnatts=len(spec.split(",")) if spec else 0, relchecks=0, relhasrules=False, relhastriggers=False,
                             relhassubclass=False, relrowsecurity=False, relforcerowsecurity=False, relispopulated=True,
                             relreplident="n", relispartition=False, relrewrite=0, relfrozenxid=0, relminmxid=0))
        return rows

    def _made_sequences(self) -> list[Sequence]:
        """The sequences made by CREATE SEQUENCE (a serial column's are its table's: ``sequences_of``)."""
        return sorted(self.catalog.sequences.values(), key=lambda q: q.qualified)

    def _all_sequences(self) -> list[tuple[str, str, str, int, int, int, int, int, int, bool]]:
        """(schema, name, type, OID, start, increment, minimum, maximum, cache, cycle) of every sequence, serial and identity columns' too."""
        out = [(q.schema, q.name, q.type, q.oid, q.start, q.increment, q.minimum, q.maximum, q.cache, q.cycle) for q in self._made_sequences()]
        for rel in self._relations():
            for attnum, seq, seq_oid in sequences_of(rel):
                kind = rel.columns[attnum - 1].type
                out.append((rel.schema, seq, kind, seq_oid, 1, 1, 1, SEQUENCE_RANGES[kind][1], 1, False))
        return out

    def _pg_sequence(self):
        return [dict(seqrelid=oid, seqtypid=type_oid(kind)[0], seqstart=start, seqincrement=inc, seqmax=high, seqmin=low, seqcache=cache,
                     seqcycle=cycle) for _s, _n, kind, oid, start, inc, low, high, cache, cycle in self._all_sequences()]

    def _sequences(self):
        """information_schema.sequences (``build`` finds a relation's rows by its name)."""
        bits = {"smallint": 16, "integer": 32, "bigint": 64}
        return [dict(sequence_catalog=DATABASE, sequence_schema=schema, sequence_name=name, data_type=kind, numeric_precision=bits[kind],
                     numeric_precision_radix=2, numeric_scale=0, start_value=str(start), minimum_value=str(low), maximum_value=str(high),
                     increment=str(inc), cycle_option="YES" if cycle else "NO")
                for schema, name, kind, _oid, start, inc, low, high, _cache, cycle in self._all_sequences()]

    def _pg_attribute(self):
        rows = []
        for rel in self._relations():
            oid = relation_oid(rel)
            for i, c in enumerate(rel.columns, 1):
                typid, typmod = type_oid(c.type)
                typmod = typmod if c.precision is None else c.precision
                t = PG_TYPE_BY_OID.get(typid)
                rows.append(dict(attrelid=oid, attname=c.name, atttypid=typid, attlen=t.typlen if t else -1, attnum=i,
                                 attcacheoff=-1, atttypmod=typmod, attndims=int(c.type.endswith("[]")),
                                 attbyval=bool(t and t.typlen in (1, 2, 4, 8)), attalign="i", attstorage=_storage(c.type),
                                 attcompression="", attnotnull=c.not_null, atthasdef=_default_expr(rel, c) is not None,
                                 atthasmissing=False, attidentity=_identity(c), attgenerated="s" if c.generated is not None else "", attisdropped=False, attislocal=True,
                                 attinhcount=0, attstattarget=-1, attcollation=100 if t and t.collatable else 0))
            for cname, cols, _unique, _primary in rel.all_indexes:
                for i, col in enumerate(cols, 1):
                    typid, typmod = type_oid(rel.column(col).type)
                    rows.append(dict(attrelid=derived_oid(oid, cname), attname=col, atttypid=typid, attlen=-1, attnum=i,
                                     attcacheoff=-1, atttypmod=typmod, attndims=0, attbyval=False, attalign="i",
                                     attstorage="p", attcompression="", attnotnull=False, atthasdef=False,
                                     atthasmissing=False, attidentity="", attgenerated="", attisdropped=False,
                                     attislocal=True, attinhcount=0, attstattarget=-1, attcollation=0))
        return rows

    def _pg_type(self):
        text = next(r for r in _TYPE_ROWS if r["oid"] == 25)
        enums = [dict(text, oid=t.oid, typname=t.name, typnamespace=namespace_oid(t.schema), typlen=4, typbyval=True, typtype="e",
                      typcategory="E", typispreferred=False, typarray=0, typcollation=0, typstorage="p", typinput="enum_in",
                      typoutput="enum_out", typreceive="enum_recv", typsend="enum_send") for t in self._enums()]
        record = next(r for r in _TYPE_ROWS if r["oid"] == 2249)
        composites = [dict(record, oid=t.oid, typname=t.name, typnamespace=namespace_oid(t.schema), typtype="c", typcategory="C",
                           typarray=0, typowner=SUPERUSER_OID) for t in self._made(CompositeType)]
        domains = []
        for t in self._made(DomainType):
            base_oid, typmod = type_oid(t.base)
            base = next((r for r in _TYPE_ROWS if r["oid"] == base_oid), text)
            domains.append(dict(base, oid=t.oid, typname=t.name, typnamespace=namespace_oid(t.schema), typtype="d", typarray=0,
                                typbasetype=base_oid, typtypmod=typmod, typnotnull=t.not_null, typdefault=t.default))
        return _TYPE_ROWS + enums + composites + domains

    def _enums(self) -> list:
        return self._made(EnumType)

    def _made(self, kind) -> list:
        """The types of ``kind`` CREATE TYPE or CREATE DOMAIN made, by qualified name."""
        return sorted((t for t in self.catalog.types.values() if isinstance(t, kind)), key=lambda t: t.qualified)

    def _pg_enum(self):
        return [dict(oid=derived_oid(t.oid, "label", label), enumtypid=t.oid, enumsortorder=float(i), enumlabel=label)
                for t in self._enums() for i, label in enumerate(t.labels, 1)]

    def _pg_attrdef(self):
        rows = []
        for rel in self._relations():
            for i, c in enumerate(rel.columns, 1):
                if _default_expr(rel, c) is not None:
                    rows.append(dict(oid=derived_oid(relation_oid(rel), "default", c.name), adrelid=relation_oid(rel), adnum=i,
                                     adbin=_default_expr(rel, c)))
        return rows

    def _pg_index(self):
        rows = []
        for rel in self._relations():
            oid = relation_oid(rel)
            predicates = dict(rel.predicates)
            for cname, cols, unique, primary in rel.all_indexes:
                nums = [rel.column_names.index(c) + 1 for c in cols]
                rows.append(dict(indexrelid=derived_oid(oid, cname), indrelid=oid, indnatts=len(cols), indnkeyatts=len(cols),
                                 indisunique=unique, indnullsnotdistinct=False, indisprimary=primary,
                                 indisexclusion=False, indimmediate=True, indisclustered=False, indisvalid=True,
                                 indcheckxmin=False, indisready=True, indislive=True, indisreplident=False, indkey=nums,
                                 indcollation=[0] * len(cols), indclass=[0] * len(cols), indoption=[0] * len(cols),
                                 indpred=predicate_text(predicates[cname]) if cname in predicates else None))
        return rows

    def _pg_description(self):
        """COMMENT ON texts: a relation's (objsubid 0) and its columns' (their attnum)."""
        rows = []
        for rel in self._relations():
            for column, text in rel.comments:
                rows.append(dict(objoid=relation_oid(rel), classoid=SYSTEM_RELATION_OIDS["pg_class"],
                                 objsubid=rel.column_names.index(column) + 1 if column else 0, description=text))
        return rows

    def _constraints(self):
        """(relation, oid, name, type p/u/c/f, columns, definition, foreign key or None) of every constraint."""
        for rel in self._relations():
            oid = relation_oid(rel)
            primary = rel.primary_key_name
            for cname, cols in rel.constraint_keys:
                kind = "p" if cname == primary else "u"
                words = "PRIMARY KEY" if kind == "p" else "UNIQUE"
                yield rel, derived_oid(oid, cname), cname, kind, cols, f"{words} ({', '.join(map(_quote_ident, cols))})", None
            for cname, expr in rel.checks:
                yield rel, derived_oid(oid, "check", cname), cname, "c", (), f"CHECK ({expr})", None
            for fk in rel.foreign_keys:
                yield rel, derived_oid(oid, "fkey", fk.name), fk.name, "f", fk.columns, _fk_def(fk, self.catalog.by_oid(fk.references)), fk

    def _pg_constraint(self):
        rows = []
        for rel, oid, cname, kind, cols, _, fk in self._constraints():
            target = self.catalog.by_oid(fk.references) if fk is not None else None
            rows.append(dict(oid=oid, conname=cname, connamespace=namespace_oid(rel.schema), contype=kind,
                             condeferrable=bool(fk and fk.deferrable), condeferred=bool(fk and fk.deferred), convalidated=True,
                             conrelid=relation_oid(rel), contypid=0, conindid=oid if kind in "pu" else 0, conparentid=0,
                             confrelid=relation_oid(target) if target is not None else 0, confupdtype=fk.on_update if fk else " ",
                             confdeltype=fk.on_delete if fk else " ", confmatchtype="s" if fk else " ", conislocal=True,
                             coninhcount=0, connoinherit=False, conkey=[rel.column_names.index(c) + 1 for c in cols] if cols else None,
                             confkey=[target.column_names.index(c) + 1 for c in fk.referenced] if target is not None else None))
        return rows

    def _pg_am(self):
        return [dict(oid=2, amname="heap", amhandler="heap_tableam_handler", amtype="t"),
                dict(oid=403, amname="btree", amhandler="bthandler", amtype="i")]

    def _pg_database(self):
        return [dict(oid=DATABASE_OID, datname=DATABASE, datdba=SUPERUSER_OID, encoding=6, datlocprovider="c",
                     datistemplate=False, datallowconn=True, datconnlimit=-1, datfrozenxid=0, datminmxid=1,
                     dattablespace=1663, datcollate="C.UTF-8", datctype="C.UTF-8")]

    def _pg_roles(self):
        return [dict(rolname=self.user, rolsuper=True, rolinherit=True, rolcreaterole=True, rolcreatedb=True,
                     rolcanlogin=True, rolreplication=False, rolconnlimit=-1, rolpassword="********", rolbypassrls=True,
                     oid=SUPERUSER_OID)]

    def _pg_user(self):
        return [dict(usename=self.user, usesysid=SUPERUSER_OID, usecreatedb=True, usesuper=True, userepl=False,
                     usebypassrls=True, passwd="********")]

    def _pg_collation(self):
        return [dict(oid=100, collname="default", collnamespace=11, collowner=SUPERUSER_OID, collprovider="d",
                     collisdeterministic=True, collencoding=-1),
                dict(oid=950, collname="C", collnamespace=11, collowner=SUPERUSER_OID, collprovider="c",
                     collisdeterministic=True, collencoding=-1, collcollate="C", collctype="C")]

    def _pg_settings(self):
        return [dict(name=k, setting=v, category="txngate" if k.startswith("txngate.") else "Client Connection Defaults",
                     context="user", vartype="string", source="default", boot_val=v, reset_val=v, pending_restart=False)
                for k, v in sorted(self.session.settings.items())]

    def _pg_tables(self):
        return [dict(schemaname=r.schema, tablename=r.name, tableowner=self.user, hasindexes=bool(r.all_indexes), hasrules=False,
                     hastriggers=False, rowsecurity=False) for r in self._relations() if r.kind == "table"]

    def _pg_proc(self):
        """The functions written in SQL (PostgreSQL's own are not listed)."""
        rows = []
        for f in sorted(self.catalog.functions, key=lambda f: f.signature):
            out_types = [type_oid(t)[0] for _n, t in f.columns]
            rows.append(dict(
                oid=f.oid, proname=f.name, pronamespace=namespace_oid(f.schema), proowner=SUPERUSER_OID, prolang=14, procost=100.0,
                prorows=1000.0 if f.setof else 0.0, provariadic=0, prosupport="-", prokind="f", prosecdef=False, proleakproof=False,
                proisstrict=f.strict, proretset=f.setof, provolatile=f.volatility, proparallel="u", pronargs=len(f.arg_types),
                pronargdefaults=sum(d is not None for d in f.defaults), prorettype=2249 if f.returns == "record" else type_oid(f.returns)[0],
                proargtypes=[type_oid(t)[0] for t in f.arg_types],
                proallargtypes=[type_oid(t)[0] for t in f.arg_types] + out_types if out_types else None,
                proargmodes=["i"] * len(f.arg_types) + ["t"] * len(out_types) if out_types else None,
                proargnames=list(f.arg_names) + [n for n, _t in f.columns] if any(f.arg_names) or out_types else None,
                prosrc=f.source))
        return rows

    def _pg_views(self):
        return [dict(schemaname=r.schema, viewname=r.name, viewowner=self.user, definition=r.query)
                for r in self._relations() if r.kind == "view"]

    def _pg_matviews(self):
        return [dict(schemaname=r.schema, matviewname=r.name, matviewowner=self.user, hasindexes=False, ispopulated=True,
                     definition=r.query) for r in self._relations() if r.kind == "matview"]

    def _pg_indexes(self):
        return [dict(schemaname=r.schema, tablename=r.name, indexname=cname, indexdef=self._indexdef(r, cname, cols, unique))
                for r in self._relations() for cname, cols, unique, _p in r.all_indexes]

    def _pg_extension(self):
        return [dict(oid=13500 + i, extname=name, extowner=SUPERUSER_OID, extnamespace=namespace_oid("pg_catalog" if name == "plpgsql" else "public"),
                     extrelocatable=name != "plpgsql", extversion=version) for i, (name, version) in enumerate(EXTENSIONS.items())]

    def _pg_tablespace(self):
        return [dict(oid=1663, spcname="pg_default", spcowner=SUPERUSER_OID)]

    def _pg_language(self):
        return [dict(oid=12, lanname="internal", lanowner=SUPERUSER_OID, lanispl=False, lanpltrusted=False),
                dict(oid=14, lanname="sql", lanowner=SUPERUSER_OID, lanispl=False, lanpltrusted=True)]

    def _pg_keywords(self):
        out = []
        for words, code, desc in ((UNRESERVED_KEYWORDS, "U", "unreserved"), (COL_NAME_KEYWORDS, "C", "unreserved (cannot be function or type name)"),
                                  (TYPE_FUNC_NAME_KEYWORDS, "T", "reserved (can be function or type name)"), (RESERVED_KEYWORDS, "R", "reserved")):
            out += [dict(word=w, catcode=code, barelabel=True, catdesc=desc, baredesc="can be bare label") for w in words]
        return sorted(out, key=lambda r: r["word"])

    def _pg_stat_activity(self):
        """Every open session of the gateway, of every worker process; the
        asking one is active."""
        db = self.session.db
        rows = session_activity(db.sessions, self.session)
        if db.peers is not None:
            rows += db.peers.activity()
        return sorted(rows, key=lambda r: r["pid"] or 0)

    def _schemata(self):
        return [dict(catalog_name=DATABASE, schema_name=s, schema_owner=self.user) for s in self._schemas()]

    def _tables(self):
        kinds = {"table": "BASE TABLE", "view": "VIEW", "matview": None}
        return [dict(table_catalog=DATABASE, table_schema=r.schema, table_name=r.name,
                     table_type="LOCAL TEMPORARY" if r.temporary else kinds[r.kind],
                     is_insertable_into="YES" if r.kind == "table" else "NO", is_typed="NO")
                for r in self._relations() if kinds[r.kind]]

    def _views(self):
        return [dict(table_catalog=DATABASE, table_schema=r.schema, table_name=r.name, view_definition=r.query,
                     check_option="NONE", is_updatable="NO", is_insertable_into="NO", is_trigger_updatable="NO",
                     is_trigger_deletable="NO", is_trigger_insertable_into="NO") for r in self._relations() if r.kind == "view"]

    def _columns(self):
        rows = []
        for rel in self._relations():
            if rel.kind == "matview":
                continue  # PostgreSQL lists materialized views' columns nowhere in information_schema
            for i, c in enumerate(rel.columns, 1):
                typid, typmod = type_oid(c.type)
                length = typmod - 4 if typid in (1042, 1043) and typmod >= 4 else None
                precision = scale = radix = None
                if typid in (21, 23, 20):
                    precision, scale, radix = {21: 16, 23: 32, 20: 64}[typid], 0, 2
                elif typid in (700, 701):
                    precision, radix = {700: 24, 701: 53}[typid], 2
                elif typid == 1700:
                    radix = 10
                    if typmod >= 4:
                        precision, scale = (typmod - 4) >> 16, (typmod - 4) & 0xFFFF
                enum = self.catalog.enum_of(c.type) if c.type.startswith("enum(") else None
                rows.append(dict(table_catalog=DATABASE, table_schema=rel.schema, table_name=rel.name, column_name=c.name,
                                 ordinal_position=i, column_default=None if c.generated is not None else _default_expr(rel, c),
                                 is_nullable="NO" if c.not_null else "YES",
                                 data_type=_data_type(c.type), character_maximum_length=length,
                                 character_octet_length=(length * 4 if length else 1073741824) if typid in (25, 1042, 1043) else None,
                                 numeric_precision=precision, numeric_precision_radix=radix, numeric_scale=scale,
                                 datetime_precision=(6 if c.precision is None else c.precision) if typid in (1083, 1114, 1184, 1186)
                                 else (0 if typid == 1082 else None),
                                 udt_catalog=DATABASE, udt_schema=enum.schema if enum else "pg_catalog",
                                 udt_name=enum.name if enum else _udt_name(typid),
                                 dtd_identifier=str(i), is_self_referencing="NO", is_identity="YES" if _identity(c) else "NO",
                                 identity_generation={"a": "ALWAYS", "d": "BY DEFAULT"}.get(_identity(c)), identity_cycle="NO",
                                 is_generated="NEVER" if c.generated is None else "ALWAYS",
                                 generation_expression=None if c.generated is None else _shown_expression(c.generated),
                                 is_updatable="YES" if rel.kind == "table" else "NO"))
        return rows

    def _table_constraints(self):
        words = {"p": "PRIMARY KEY", "u": "UNIQUE", "c": "CHECK", "f": "FOREIGN KEY"}
        return [dict(constraint_catalog=DATABASE, constraint_schema=rel.schema, constraint_name=cname, table_catalog=DATABASE,
                     table_schema=rel.schema, table_name=rel.name, constraint_type=words[kind],
                     is_deferrable="YES" if fk and fk.deferrable else "NO", initially_deferred="YES" if fk and fk.deferred else "NO",
                     enforced="YES", nulls_distinct="YES" if kind in "pu" else None)
                for rel, _oid, cname, kind, _cols, _def, fk in self._constraints()]

    def _key_column_usage(self):
        return [dict(constraint_catalog=DATABASE, constraint_schema=rel.schema, constraint_name=cname, table_catalog=DATABASE,
                     table_schema=rel.schema, table_name=rel.name, column_name=col, ordinal_position=i)
                for rel, _oid, cname, kind, cols, _def, _fk in self._constraints() if kind in "puf" for i, col in enumerate(cols, 1)]

    def _constraint_column_usage(self):
        return [dict(table_catalog=DATABASE, table_schema=rel.schema, table_name=rel.name, column_name=col,
                     constraint_catalog=DATABASE, constraint_schema=rel.schema, constraint_name=cname)
                for rel, _oid, cname, kind, cols, _def, _fk in self._constraints() if kind in "pu" for col in cols]

    def _check_constraints(self):
        return [dict(constraint_catalog=DATABASE, constraint_schema=rel.schema, constraint_name=cname, check_clause=d[6:])
                for rel, _oid, cname, kind, _cols, d, _fk in self._constraints() if kind == "c"]

    def _character_sets(self):
        return [dict(character_set_name="UTF8", character_repertoire="UCS", form_of_use="UTF8")]

    def _enabled_roles(self):
        return [dict(role_name=self.user)]

    def _indexdef(self, rel: Relation, cname: str, cols, unique: bool) -> str:
        unique = "UNIQUE " if unique else ""
        predicate = dict(rel.predicates).get(cname)
        return f"CREATE {unique}INDEX {_quote_ident(cname)} ON {rel.schema}.{_quote_ident(rel.name)} USING btree ({', '.join(map(_quote_ident, cols))})" \
            + (f" WHERE {predicate_text(predicate)}" if predicate is not None else "")

    def _txngate_defs(self):
        """What the rewritten functions look up: index and constraint
        definitions, view definitions, and relation/type/namespace names."""
        rows = []

        def add(oid: int, kind: str, text: str) -> None:
            rows.append(dict(txngate_oid=oid, txngate_kind=kind, txngate_def=text))

        visible = self._visible()
        for rel in self._relations():
            oid = relation_oid(rel)
            add(oid, "regclass", _quote_ident(rel.name) if oid in visible else f"{_quote_ident(rel.schema)}.{_quote_ident(rel.name)}")
            add(oid, "relname", rel.name)
            for spelling in _spellings(rel.schema, rel.name, oid in visible):
                add(oid, "regclass_in", spelling)
            if rel.query is not None:
                add(oid, "viewdef", " " + rel.query + ";")
            for cname, cols, unique, _primary in rel.all_indexes:
                add(derived_oid(oid, cname), "regclass", _quote_ident(cname))
                for spelling in _spellings(rel.schema, cname, oid in visible):
                    add(derived_oid(oid, cname), "regclass_in", spelling)
                add(derived_oid(oid, cname), "indexdef", self._indexdef(rel, cname, cols, unique))
            for _attnum, seq, seq_oid in sequences_of(rel):
                add(seq_oid, "regclass", _quote_ident(seq) if oid in visible else f"{_quote_ident(rel.schema)}.{_quote_ident(seq)}")
                for spelling in _spellings(rel.schema, seq, oid in visible):
                    add(seq_oid, "regclass_in", spelling)
        for seq in self._made_sequences():
            shown_here = seq.schema in self.search_path and self.catalog.sequence(seq.name, None, self.search_path) == seq
            add(seq.oid, "regclass", _quote_ident(seq.name) if shown_here else f"{_quote_ident(seq.schema)}.{_quote_ident(seq.name)}")
            add(seq.oid, "relname", seq.name)
            for spelling in _spellings(seq.schema, seq.name, shown_here):
                add(seq.oid, "regclass_in", spelling)
        for t in self._enums():
            shown = _quote_ident(t.name) if t.schema in self.search_path else f"{_quote_ident(t.schema)}.{_quote_ident(t.name)}"
            add(t.oid, "format_type", shown)
            add(t.oid, "regtype", shown)
            add(t.oid, "typname", t.name)
        for _rel, oid, _cname, _kind, _cols, definition, _fk in self._constraints():
            add(oid, "constraintdef", definition)
        for name, oid in SYSTEM_RELATION_OIDS.items():
            add(oid, "regclass", name)
            for spelling in _spellings("pg_catalog", name, True):
                add(oid, "regclass_in", spelling)
        for s in self._schemas():
            add(namespace_oid(s), "regnamespace", s)
        for oid, name in TYPE_DISPLAY.items():
            add(oid, "regtype", name)
        for t in PG_TYPES:
            add(t.oid, "typname", t.typname)
            if t.array_oid:
                add(t.array_oid, "typname", "_" + t.typname)
        return rows

    # -- names to OIDs ------------------------------------------------------------

    def regclass(self, text: str) -> int:
        """``'name'::regclass``: the OID of the relation the name finds."""
        if text.isdigit():
            return int(text)
        parts = [p.strip('"') if p.startswith('"') else p.lower() for p in text.split(".")]
        schema, name = (parts[-2], parts[-1]) if len(parts) >= 2 else (None, parts[-1])
        rel = self.catalog.lookup(name, schema, self.search_path)
        if rel is not None:
            return relation_oid(rel)
        seq = self.catalog.sequence(name, schema, self.search_path)
        if seq is not None:
            return seq.oid
        for r in self._relations():
            for cname, *_ in r.all_indexes:
                if cname == name and (schema is None or r.schema == schema):
                    return derived_oid(relation_oid(r), cname)
            for _attnum, seq, seq_oid in sequences_of(r):
                if seq == name and (schema is None and r.schema in self.search_path or r.schema == schema):
                    return seq_oid
        if self.relation(schema, name) is not None:
            return SYSTEM_RELATION_OIDS.get(name) or derived_oid(schema or "pg_catalog", name)
        raise SqlError(UNDEFINED_TABLE, f'relation "{text}" does not exist')

    def regtype(self, text: str) -> int:
        name = text.strip().lower().removeprefix("pg_catalog.")
        for t in PG_TYPES:
            if name in (t.typname, t.display, t.sql):
                return t.oid
            if name in (f"_{t.typname}", f"{t.display}[]", f"{t.sql}[]"):
                return t.array_oid
        raise SqlError("42704", f'type "{text}" does not exist')

    def regnamespace(self, text: str) -> int:
        if not self.catalog.has_schema(text):
            raise SqlError("3F000", f'schema "{text}" does not exist')
        return namespace_oid(text)

    # -- functions ------------------------------------------------------------------

    def function(self, name: str, args: list[ast.Node]) -> ast.Node | None:
        """An expression replacing a call of ``name`` (lower case, without
        pg_catalog.), or None when DuckDB runs it as written."""
        s = self.session
        if name in _CONSTANT_FUNCTIONS:
            value = _CONSTANT_FUNCTIONS[name]
            return _const(value(self) if callable(value) else value)
        if name == "pg_get_viewdef" and args and isinstance(args[0], ast.A_Const) and isinstance(args[0].val, ast.String):
            # pg_get_viewdef(text): the view named (PostgreSQL's text overload, chosen for an untyped literal)
            args = [ast.TypeCast(arg=args[0], typeName=ast.TypeName(names=(ast.String(sval="regclass"),), typemod=-1)), *args[1:]]
        if name in _TEMPLATES:
            return expand(_TEMPLATES[name], args)
        if name in ("now", "transaction_timestamp") and not args:
            return self.transaction_time()
        if name == "statement_timestamp" and not args:
            return _timestamptz(s.query_start)
        if name == "clock_timestamp" and not args:  # the time the statement is planned (PostgreSQL's moves on per call)
            return _timestamptz(dt.datetime.now(dt.timezone.utc))
        if name == "pg_get_serial_sequence":
            if len(args) != 2 or not all(_is_text_const(a) for a in args):
                # per row of a catalog query (SQLAlchemy's reflection of
                # identity options): no sequence shows in pg_sequence yet
                return ast.A_Const(isnull=True)
            return _const(serial_sequence(self.catalog, self.search_path, _const_text(args[0], name), _const_text(args[1], name)))
        if name == "pg_table_is_visible":
            visible = ", ".join(str(o) for o in sorted(self._visible())) or "NULL"
            return expand(f"(_arg1 IN ({visible}))", args)
        if name == "current_setting":
            if not _is_text_const(args[0]):  # a parameter: looked up when it runs
                return expand("(SELECT s.setting FROM pg_catalog.pg_settings s WHERE s.name = lower(_arg1))", args)
            setting = _const_text(args[0], name).lower()
            if setting not in s.settings:
                if len(args) > 1 and _const_bool(args[1]):
                    return ast.A_Const(isnull=True)
                raise SqlError("42704", f'unrecognized configuration parameter "{setting}"')
            return _const(s.show(setting))
        if name == "set_config":
            given = [self._argument(a, name) for a in args]
            if any(g is _UNKNOWN for g in given):  # a parameter not given yet (Describe): the result's shape only
                return ast.TypeCast(arg=ast.A_Const(isnull=True), typeName=ast.TypeName(names=(ast.String(sval="text"),)))
            local = len(args) > 2 and (given[2] in (True, "true", "t", "on") if isinstance(args[2], ast.ParamRef) else _const_bool(args[2]))
            s.set_setting(str(given[0]), str(given[1]), local=local, function=True)
            return _const(s.show(str(given[0]).lower()))
        if name == "to_regclass":
            if not _is_text_const(args[0]):
                return expand("(SELECT min(d.txngate_oid) FROM pg_catalog.txngate_defs d WHERE d.txngate_kind = 'relname' AND d.txngate_def = _arg1)", args)
            try:
                return _const(self.regclass(_const_text(args[0], name)))
            except SqlError:
                return ast.A_Const(isnull=True)
        if name == "current_schemas":
            schemas = [x for x in self.search_path if self.catalog.has_schema(x)]
            if _const_bool(args[0]):
                schemas = ["pg_catalog"] + schemas
            return pglast.parse_sql("SELECT ARRAY[" + ", ".join(_literal(x) for x in schemas) + "]::text[]")[0].stmt.targetList[0].val
        return None

    def transaction_time(self) -> ast.Node:
        """now(): the start of the session's transaction (an explicit one's
        BEGIN, else its statement's), the same for every statement in it as
        in PostgreSQL (DuckDB's now() is each statement's own)."""
        return _timestamptz(self.session.transaction_time())

    def value(self, op: str) -> ast.Node:
        """``current_user`` and friends (SQLValueFunction ops)."""
        if op == "SVFOP_CURRENT_TIMESTAMP":
            return self.transaction_time()
        if op in ("SVFOP_CURRENT_USER", "SVFOP_USER", "SVFOP_SESSION_USER", "SVFOP_CURRENT_ROLE"):
            return _const(self.user)
        if op == "SVFOP_CURRENT_CATALOG":
            return _const(DATABASE)
        if op == "SVFOP_CURRENT_SCHEMA":
            return _const(self.current_schema())
        return None

    def current_schema(self) -> str | None:
        return next((x for x in self.search_path if self.catalog.has_schema(x)), None)


def _timestamptz(value: dt.datetime | None) -> ast.Node:
    """A timestamptz constant (now() when there is no time: outside a statement)."""
    if value is None:
        return ast.FuncCall(funcname=(ast.String(sval="now"),), args=None)
    return ast.TypeCast(arg=ast.A_Const(val=ast.String(sval=value.isoformat())),
                        typeName=ast.TypeName(names=(ast.String(sval="timestamptz"),), typemod=-1))


def _const(value) -> ast.A_Const:
    if value is None:
        return ast.A_Const(isnull=True)
    if isinstance(value, bool):
        return ast.A_Const(val=ast.Boolean(boolval=value))
    if isinstance(value, int):
        return ast.A_Const(val=ast.Integer(ival=value))
    return ast.A_Const(val=ast.String(sval=str(value)))


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


_UNKNOWN = object()


def _const_text(node: ast.Node, fn: str) -> str:
    while isinstance(node, ast.TypeCast):
        node = node.arg
    if isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return node.val.sval
    raise not_supported(f"{fn}() with an argument that is not a constant")


def _is_text_const(node: ast.Node) -> bool:
    while isinstance(node, ast.TypeCast):
        node = node.arg
    return isinstance(node, ast.A_Const) and isinstance(node.val, ast.String)


def _const_bool(node: ast.Node) -> bool:
    if isinstance(node, ast.A_Const) and isinstance(node.val, ast.Boolean):
        return node.val.boolval
    if isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return node.val.sval.lower() in ("t", "true", "on", "1", "yes")
    return False


#: functions whose value comes from the session or is fixed
_CONSTANT_FUNCTIONS = {
    "version": VERSION,
    "current_database": DATABASE,
    "current_catalog": DATABASE,
    "current_user": lambda c: c.user,
    "session_user": lambda c: c.user,
    "pg_get_userbyid": lambda c: c.user,
    "current_schema": lambda c: c.current_schema(),
    "pg_backend_pid": lambda c: c.session.backend_pid,
    "pg_encoding_to_char": "UTF8",
    "pg_client_encoding": "UTF8",
    "pg_advisory_unlock_all": None,
    "pg_is_in_recovery": False,
    "inet_server_port": None,
    "inet_server_addr": None,
    "pg_postmaster_start_time": None,
    "shobj_description": None,
    "pg_get_statisticsobjdef_columns": None,
    "pg_relation_is_publishable": False,
    "pg_function_is_visible": True,
    "pg_type_is_visible": True,
    "has_table_privilege": True,
    "has_schema_privilege": True,
    "has_database_privilege": True,
    "has_column_privilege": True,
    "has_any_column_privilege": True,
    "has_function_privilege": True,
    "has_sequence_privilege": True,
    "pg_has_role": True,
    "pg_try_advisory_lock": True,
    "pg_try_advisory_xact_lock": True,
    "pg_get_function_result": None,
    "pg_get_function_arguments": None,
    "pg_get_function_identity_arguments": None,
    "pg_total_relation_size": 0,
    "pg_relation_size": 0,
    "pg_table_size": 0,
    "pg_indexes_size": 0,
}

#: functions rewritten to PostgreSQL expressions (bound again like the query);
#: ``_argN`` is the N-th argument. Subqueries use txngate_defs, whose column
#: names no client query uses, so an argument's column is never captured.
_TEMPLATES = {
    "obj_description": "(SELECT d.description FROM pg_catalog.pg_description d WHERE d.objoid = _arg1 AND d.objsubid = 0)",
    "col_description": "(SELECT d.description FROM pg_catalog.pg_description d WHERE d.objoid = _arg1 AND d.objsubid = _arg2)",
    "pg_cancel_backend": "txngate_signal_backend(CAST(_arg1 AS integer), false)",
    "pg_terminate_backend": "txngate_signal_backend(CAST(_arg1 AS integer), true)",
    "format_type": "coalesce((SELECT d.txngate_def FROM pg_catalog.txngate_defs d WHERE d.txngate_oid = _arg1 AND d.txngate_kind = 'format_type'),"
                   " pg_catalog.txngate_format_type(_arg1, _arg2))",  # an enum's name, else a built-in type's
    "pg_get_expr": "_arg1",
    "pg_get_indexdef": "(SELECT d.txngate_def FROM pg_catalog.txngate_defs d WHERE d.txngate_oid = _arg1 AND d.txngate_kind = 'indexdef')",
    "pg_get_triggerdef": "CAST(NULL AS text)",  # pg_trigger has no rows: no trigger to show
    "pg_get_constraintdef": "(SELECT d.txngate_def FROM pg_catalog.txngate_defs d WHERE d.txngate_oid = _arg1 AND d.txngate_kind = 'constraintdef')",
    "pg_get_viewdef": "(SELECT d.txngate_def FROM pg_catalog.txngate_defs d WHERE d.txngate_oid = _arg1 AND d.txngate_kind = 'viewdef')",
    # a backslash makes PostgreSQL write the E'' form, with backslashes doubled
    "quote_literal": "(CASE WHEN strpos(CAST(_arg1 AS VARCHAR), '\\') > 0 "
                     "THEN 'E''' || replace(replace(CAST(_arg1 AS VARCHAR), '\\', '\\\\'), '''', '''''') || '''' "
                     "ELSE '''' || replace(CAST(_arg1 AS VARCHAR), '''', '''''') || '''' END)",
    "quote_nullable": "coalesce(quote_literal(_arg1), 'NULL')",
    "quote_ident": "(CASE WHEN _arg1 ~ '^[a-z_][a-z0-9_$]*$' THEN _arg1 ELSE '\"' || replace(_arg1, '\"', '\"\"') || '\"' END)",
    # arrays of any dimension (nested lists): PostgreSQL's integer results, NULL for an empty array or a dimension it lacks
    "array_upper": "CAST(pg_catalog.txngate_array_dim_length(_arg1, _arg2) AS INTEGER)",
    "array_lower": "CAST(CASE WHEN pg_catalog.txngate_array_dim_length(_arg1, _arg2) IS NOT NULL THEN 1 END AS INTEGER)",
    "array_length": "CAST(pg_catalog.txngate_array_dim_length(_arg1, _arg2) AS INTEGER)",
    "cardinality": "CAST(pg_catalog.txngate_cardinality(_arg1) AS INTEGER)",
    "array_ndims": "CAST(CASE WHEN len(_arg1) > 0 THEN pg_catalog.txngate_array_ndims(_arg1) END AS INTEGER)",
    "array_dims": "pg_catalog.txngate_array_dims(_arg1)",
    # PostgreSQL compares elements with IS NOT DISTINCT FROM: NULL elements stay unless NULL is removed
    "array_remove": "pg_catalog.txngate_array_remove(_arg1, _arg2)",
    "array_replace": "pg_catalog.txngate_array_replace(_arg1, _arg2, _arg3)",
    "array_positions": "pg_catalog.txngate_array_positions(_arg1, _arg2)",
    "trim_array": "pg_catalog.txngate_trim_array(_arg1, _arg2)",
    "get_byte": "pg_catalog.txngate_get_byte(_arg1, _arg2)",
    "set_byte": "pg_catalog.txngate_set_byte(_arg1, _arg2, _arg3)",
    # trigonometry in degrees (local_exec.floats): exact where PostgreSQL's is
    **{f: f"txngate_{f}(CAST(_arg1 AS DOUBLE))" for f in ("sind", "cosd", "tand", "cotd", "asind", "acosd", "atand")},
    "atan2d": "txngate_atan2d(CAST(_arg1 AS DOUBLE), CAST(_arg2 AS DOUBLE))",
    "pg_typeof": "pg_catalog.txngate_pg_typeof(typeof(_arg1))",
    "_pg_expandarray": "unnest(pg_catalog.txngate_expandarray(_arg1))",
    # no table is a partition or partitioned: no ancestors (psql's \\d asks for them)
    "pg_partition_ancestors": "unnest(CAST(ARRAY[] AS oid[]))",
    "to_regtype": "(SELECT min(d.txngate_oid) FROM pg_catalog.txngate_defs d WHERE d.txngate_kind IN ('regtype', 'typname') AND d.txngate_def = lower(_arg1))",
}


def predicate_text(sql: str) -> str:
    """A partial index's predicate as pg_get_expr shows it: each operator,
    AND / OR / NOT and IS [NOT] NULL in parentheses."""
    def text(n) -> str:
        if isinstance(n, ast.A_Expr) and n.kind.name == "AEXPR_OP" and len(n.name) == 1:
            op = n.name[0].sval
            return f"({text(n.lexpr)} {op} {text(n.rexpr)})" if n.lexpr is not None else f"({op}{text(n.rexpr)})"
        if isinstance(n, ast.BoolExpr):
            if n.boolop.name == "NOT_EXPR":
                return f"(NOT {text(n.args[0])})"
            return "(" + f" {n.boolop.name.removesuffix('_EXPR')} ".join(text(a) for a in n.args) + ")"
        if isinstance(n, ast.NullTest):
            return f"({text(n.arg)} IS {'NOT ' if n.nulltesttype.name == 'IS_NOT_NULL' else ''}NULL)"
        return pg_sql(n)

    return text(pglast.parse_sql(f"SELECT 1 WHERE {sql}")[0].stmt.whereClause)


def session_activity(sessions, asking=None) -> list[dict]:
    """pg_stat_activity rows of ``sessions`` (``asking``: the session whose
    query lists them, active by definition)."""
    states = {"I": "idle", "T": "idle in transaction", "E": "idle in transaction (aborted)"}
    rows = []
    for s in list(sessions):
        active = s is asking or s.active
        in_transaction = s.status in ("T", "E")
        wait = (None if s is asking else s.wait.event) if active else ("Client", "ClientRead")
        rows.append(dict(
            datid=DATABASE_OID, datname=DATABASE, pid=s.backend_pid, usesysid=SUPERUSER_OID, usename=s.user,
            application_name=s.settings.get("application_name", ""), client_addr="127.0.0.1", backend_start=s.backend_start,
            xact_start=s.xact_start if in_transaction else s.query_start if active else None,
            query_start=s.query_start, state_change=s.query_start, query=s.query,
            wait_event_type=wait[0] if wait else None, wait_event=wait[1] if wait else None,
            state="active" if active else states.get(s.status, "active"), backend_type="client backend"))
    return rows


def raised(sqlstate: str, message: str, sql_type: str = "DOUBLE") -> str:
    """An expression that fails with ``sqlstate`` and ``message`` when
    evaluated (a cast of their text to double precision, which
    local_exec.errors reads back), typed ``sql_type``, without error()'s
    volatility: a CASE with it may stand in PARTITION BY."""
    text = message.replace("'", "''")
    failing = f"CAST('[{sqlstate}] {text}' AS DOUBLE)"
    return failing if sql_type == "DOUBLE" else f"CAST({failing} AS {sql_type})"  # of the CASE's type


_OVERFLOW = raised(NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow")
_UNDERFLOW = raised(NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow")


def _float_checked_sql() -> str:
    """``txngate_float_checked(r, finite, nonzero)``: ``r`` (a double or
    real result), or 22003 as PostgreSQL's check_float8_val raises it: an
    infinity from finite operands (``finite``), a zero from non-zero ones
    (``nonzero``). Its argument appears here once per use: the binder
    wraps a whole tree of arithmetic in one call (a macro per operator
    would repeat its operands, and nested ones grew exponentially)."""
    return (f"CREATE OR REPLACE MACRO txngate_float_checked(r, finite, nonzero) AS CASE WHEN isinf(r) AND finite THEN {_OVERFLOW} "
            f"WHEN r = 0 AND nonzero THEN {_UNDERFLOW} ELSE r END")


def _trigonometry_sql() -> tuple[str, ...]:
    """asin, acos, acosh, atanh outside their domain and sin, cos, tan, cot
    of an infinity: PostgreSQL's 22003 "input is out of range" (DuckDB
    answers NaN); NaN stays NaN."""
    out_of_range = raised(NUMERIC_VALUE_OUT_OF_RANGE, "input is out of range")
    outside = "NOT isnan(x) AND (x < -1 OR x > 1)"  # (DuckDB's NaN compares greater than any number)
    domains = {"asin": outside, "acos": outside, "acosh": "NOT isnan(x) AND x < 1", "atanh": outside,
               "sin": "isinf(x)", "cos": "isinf(x)", "tan": "isinf(x)", "cot": "isinf(x)"}
    return tuple(f"CREATE OR REPLACE MACRO txngate_{f}(x) AS CASE WHEN {domain.replace('x', 'CAST(x AS DOUBLE)')} "
                 f"THEN {out_of_range} ELSE {f}(x) END" for f, domain in domains.items())


def _stored_numeric_sql() -> tuple[str, ...]:
    """``txngate_stored_numeric(x)``: ``x`` (any type) as PostgreSQL's
    numeric of it, in the places an unconstrained numeric keeps, or 22003
    when that would lose a digit after the point (never rounded away).

    PostgreSQL's numeric of a double is its text to 15 significant digits,
    of a real to 6 (``0.1::real`` is 0.1, not the binary fraction's
    0.1000000015), of text or json the number the text spells, exponents
    too (``'1e-12'`` has 12 places): ``txngate_numeric_source(x)``, that
    text, read by local_exec.numeric's ``txngate_numeric_input``.
    Integers, and decimals of no more places, are cast as they are. Each
    macro names its argument a few times, and DuckDB copies it into each:
    the planner calls the input function directly where it knows ``x``'s
    type (planner.bind), so nested casts do not multiply their copies."""
    stored = duckdb_type("numeric")
    digits = ("CREATE OR REPLACE MACRO txngate_double_digits(x) AS printf('%.15g', x)",
              "CREATE OR REPLACE MACRO txngate_real_digits(x) AS printf('%.6g', x)")
    source = ("CREATE OR REPLACE MACRO txngate_numeric_source(x) AS CASE typeof(x) "
              "WHEN 'DOUBLE' THEN txngate_double_digits(TRY_CAST(x AS DOUBLE)) WHEN 'FLOAT' THEN txngate_real_digits(TRY_CAST(x AS DOUBLE)) "
              "ELSE CAST(x AS VARCHAR) END")
    exact = rf"'^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|DECIMAL\([0-9]+,([0-9]|{STORED_PLACES})\))$'"
    numeric = (f"CREATE OR REPLACE MACRO txngate_stored_numeric(x) AS CASE WHEN regexp_matches(typeof(x), {exact}) "
               f"THEN CAST(x AS {stored}) ELSE CAST(txngate_numeric_input(txngate_numeric_source(x), {STORED_PLACES}) AS {stored}) END")
    # scale, min_scale and trim_scale: a numeric's places (an unconstrained one's display scale is not kept: its scale is refused)
    min_scale = ("CREATE OR REPLACE MACRO txngate_min_scale(x) AS CASE WHEN x IS NULL THEN NULL "
                 "ELSE CAST(length(regexp_extract(rtrim(CAST(x AS VARCHAR), '0'), '\\.([0-9]*)$', 1)) AS INTEGER) END")
    unknown = raised(FEATURE_NOT_SUPPORTED, "scale of a numeric without a declared scale (txngate keeps no per-value display scale)", "INTEGER")
    scale = (f"CREATE OR REPLACE MACRO txngate_scale(x) AS CASE WHEN x IS NULL THEN NULL WHEN typeof(x) = '{stored}' THEN {unknown} "
             r"ELSE CAST(coalesce(nullif(regexp_extract(typeof(x), '^DECIMAL\([0-9]+,([0-9]+)\)$', 1), ''), '0') AS INTEGER) END")
    trim_scale = (f"CREATE OR REPLACE MACRO txngate_trim_scale(x) AS CASE WHEN txngate_min_scale(x) <= {STORED_PLACES} THEN CAST(x AS {stored}) "
                  f"ELSE txngate_stored_numeric(x) END")
    return *digits, source, numeric, min_scale, scale, trim_scale


def macros() -> tuple[str, ...]:
    """The DuckDB macros the rewritten functions call."""
    return (
        format_type_sql(),
        # a character(n) value as text, without its padding (rtrim only where there is a space to trim: it is slow)
        "CREATE OR REPLACE MACRO txngate_unpad(s) AS CASE WHEN ends_with(s, ' ') THEN rtrim(s) ELSE s END",
        # text given to character(n) or varchar(n) by an input function (json[b]_populate_record's): 22001 past n but for spaces
        "CREATE OR REPLACE MACRO txngate_fitted_text(s, n, padded) AS CASE WHEN s IS NULL THEN NULL WHEN length(rtrim(s, ' ')) > n "
        "THEN CAST(CAST('[22001] value too long for type character' || CASE WHEN padded THEN '' ELSE ' varying' END || '(' || n || ')' AS DOUBLE) "
        "AS VARCHAR) WHEN padded THEN rpad(rtrim(s, ' '), n, ' ') ELSE left(s, n) END",
        "CREATE OR REPLACE MACRO txngate_fitted_texts(a, n, padded) AS list_transform(a, lambda _lf: txngate_fitted_text(_lf, n, padded))",
        # a character(n)[]'s elements, each cut and padded to n; a json[]'s, json null as NULL (populate_record's)
        "CREATE OR REPLACE MACRO txngate_padded_list(a, n) AS list_transform(a, lambda _lp: rpad(_lp, n, ' '))",
        "CREATE OR REPLACE MACRO txngate_json_nested(a) AS len(list_filter(a, lambda _ln: txngate_jsonb_typeof(_ln) = 'array')) > 0",
        "CREATE OR REPLACE MACRO txngate_json_nulls(a) AS list_transform(a, lambda _lj: CASE WHEN CAST(_lj AS VARCHAR) = 'null' THEN NULL ELSE _lj END)",
        # a numeric's text at display scale d (its own places d or more: the digits past d are zeros)
        "CREATE OR REPLACE MACRO txngate_numeric_places(t, d) AS CASE WHEN d <= 0 THEN split_part(t, '.', 1) "
        "ELSE split_part(t, '.', 1) || '.' || rpad(split_part(t, '.', 2), d, '0') END",
        # information_schema._pg_expandarray(a): rows (x, n) of the elements and their positions
        "CREATE OR REPLACE MACRO txngate_expandarray(a) AS list_transform(range(1, len(a) + 1), lambda _li: {'x': a[_li], 'n': _li})",
        # the dimensions of a (nested) list: its type's count of [], and the length of dimension d (the first element's at d > 1)
        "CREATE OR REPLACE MACRO txngate_array_ndims(a) AS (length(typeof(a)) - length(replace(typeof(a), '[]', ''))) // 2",
        # unnest's argument the binder takes for one dimension (a view's column): refused when it has more, not unnested by its rows
        "CREATE OR REPLACE MACRO txngate_one_dimension(a) AS CASE WHEN txngate_array_ndims(a) > 1 "
        "THEN error('[0A000] unnest of a multidimensional array read from a view is not supported') ELSE a END",
        "CREATE OR REPLACE MACRO txngate_array_dim_length(a, d) AS CASE WHEN len(a) = 0 OR d < 1 OR d > txngate_array_ndims(a) THEN NULL "
        "WHEN d = 1 THEN len(a) ELSE json_array_length(to_json(a), '$' || repeat('[0]', d - 1)) END",
        "CREATE OR REPLACE MACRO txngate_cardinality(a) AS CASE WHEN len(a) = 0 THEN 0 WHEN txngate_array_ndims(a) = 1 THEN len(a) "
        "ELSE CAST(list_product(list_transform(range(1, txngate_array_ndims(a) + 1), lambda _ld: txngate_array_dim_length(a, _ld))) AS BIGINT) END",
        "CREATE OR REPLACE MACRO txngate_array_dims(a) AS CASE WHEN len(a) > 0 THEN array_to_string(list_transform("
        "range(1, txngate_array_ndims(a) + 1), lambda _ld: '[1:' || CAST(txngate_array_dim_length(a, _ld) AS VARCHAR) || ']'), '') END",
        # string_to_array (planner.bind.FUNCTION_NAMES): '' has no elements, a NULL delimiter splits into characters, '' not at all
        "CREATE OR REPLACE MACRO txngate_string_split(s, d) AS CASE WHEN s = '' THEN CAST([] AS VARCHAR[]) "
        "WHEN d IS NULL THEN string_split(s, '') WHEN d = '' THEN [s] ELSE string_split(s, d) END",
        "CREATE OR REPLACE MACRO txngate_string_to_array(s, d) AS txngate_string_split(s, d), "
        "(s, d, n) AS list_transform(txngate_string_split(s, d), lambda _le: CASE WHEN _le = n THEN NULL ELSE _le END)",
        # array_to_string: NULL for a NULL delimiter; the third argument stands for NULL elements
        # (DuckDB's text of a list of strings or integers is PostgreSQL's; other elements and lists of lists: local_exec.arrays)
        "CREATE OR REPLACE MACRO txngate_array_to_string(a, d) AS CASE WHEN d IS NULL THEN NULL "
        # (the engine's gives NULL for an array of NULLs only: PostgreSQL's skips them, joining nothing)
        "WHEN typeof(a) IN ('VARCHAR[]', 'INTEGER[]', 'BIGINT[]', 'SMALLINT[]') THEN CASE WHEN a IS NULL THEN NULL "
        "ELSE coalesce(array_to_string(a, d), '') END "
        "ELSE txngate_list_join(to_json(a), typeof(a), d) END, "
        "(a, d, n) AS CASE WHEN d IS NULL THEN NULL WHEN n IS NULL THEN txngate_array_to_string(a, d) "
        "WHEN typeof(a) IN ('VARCHAR[]', 'INTEGER[]', 'BIGINT[]', 'SMALLINT[]') "
        "THEN array_to_string(list_transform(a, lambda _le: coalesce(CAST(_le AS VARCHAR), n)), d) "
        "ELSE txngate_list_join_or(to_json(a), typeof(a), d, n) END",
        # a @> b as PostgreSQL: a NULL element of b is in no array (the engine's skips it)
        "CREATE OR REPLACE MACRO txngate_array_contains(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL "
        "WHEN len(b) > list_count(b) THEN false ELSE list_has_all(a, b) END",
        # a << b and a >> b of a w-bit integer as PostgreSQL's (planner.bind._bit_shift): the count modulo the width shifted in
        # (32 for smallint and integer), the bits past w dropped, the result read back as a signed w-bit integer
        "CREATE OR REPLACE MACRO txngate_shl_bits(a, b, w) AS (((CAST(a AS HUGEINT) & ((CAST(1 AS HUGEINT) << greatest(w, 32)) - 1)) "
        "<< (b & (CASE WHEN w = 64 THEN 63 ELSE 31 END))) & ((CAST(1 AS HUGEINT) << w) - 1))",
        "CREATE OR REPLACE MACRO txngate_shl(a, b, w) AS CASE WHEN txngate_shl_bits(a, b, w) >= (CAST(1 AS HUGEINT) << (w - 1)) "
        "THEN txngate_shl_bits(a, b, w) - (CAST(1 AS HUGEINT) << w) ELSE txngate_shl_bits(a, b, w) END",
        "CREATE OR REPLACE MACRO txngate_shr(a, b, w) AS (a >> (b & (CASE WHEN w = 64 THEN 63 ELSE 31 END)))",
        # array_positions(a, x): the subscripts of the elements IS NOT DISTINCT FROM x (none: an empty array); searching an
        # array of arrays is refused as PostgreSQL refuses it
        # trim_array(a, n): the array without its last n elements (of the first dimension)
        # (the error a slice whose bound is a failing cast: of a's type, and not error(), which is volatile)
        "CREATE OR REPLACE MACRO txngate_trim_array(a, n) AS a[1:CASE WHEN n < 0 OR n > len(a) "
        "THEN CAST(CAST('[2202E] number of elements to trim must be between 0 and ' || len(a) AS DOUBLE) AS BIGINT) ELSE len(a) - n END]",
        "CREATE OR REPLACE MACRO txngate_bytea_length(b) AS octet_length(b)",
        # get_byte and set_byte of bytea, the bytes counted from 0 (set_byte keeps the new byte's low 8 bits)
        "CREATE OR REPLACE MACRO txngate_get_byte(b, n) AS CASE WHEN n < 0 OR n >= octet_length(b) "
        "THEN error('[2202E] index ' || n || ' out of valid range, 0..' || (octet_length(b) - 1)) "
        "ELSE CAST(('0x' || substr(hex(b), 2 * n + 1, 2)) AS INTEGER) END",
        "CREATE OR REPLACE MACRO txngate_set_byte(b, n, v) AS CASE WHEN n < 0 OR n >= octet_length(b) "
        "THEN error('[2202E] index ' || n || ' out of valid range, 0..' || (octet_length(b) - 1)) "
        "ELSE unhex(substr(hex(b), 1, 2 * n) || lpad(printf('%X', v & 255), 2, '0') || substr(hex(b), 2 * n + 3)) END",
        "CREATE OR REPLACE MACRO txngate_array_positions(a, x) AS CASE WHEN a IS NULL THEN NULL "
        "WHEN txngate_array_ndims(a) > 1 THEN " + raised("0A000", "searching for elements in multidimensional arrays is not supported", "INTEGER[]") + " "
        "ELSE CAST(list_filter(list_transform(a, lambda _ae, _ap: CASE WHEN _ae IS NOT DISTINCT FROM x THEN _ap END), "
        "lambda _ap: _ap IS NOT NULL) AS INTEGER[]) END",  # (a, perhaps a subquery, not inside a lambda: the engine refuses that)
        # a || b, array_cat(a, b) of arrays: a NULL one is empty, both NULL give NULL (the engine's gives an empty list)
        "CREATE OR REPLACE MACRO txngate_array_cat(a, b) AS CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a ELSE list_concat(a, b) END",
        # array_agg of arrays (a two-dimensional array): PostgreSQL's errors for NULL, empty and unequal arrays
        # (the first offending array's, in the order aggregated; each paired with the first's length, as a lambda that read l
        # itself would meet the engine's internal error beside a lambda in the aggregated expression)
        "CREATE OR REPLACE MACRO txngate_stacked_arrays(l) AS CASE list_filter(list_transform(list_zip(l, list_resize([len(l[1])], len(l), "
        "len(l[1]))), lambda _lp: CASE WHEN _lp[1] IS NULL THEN 1 WHEN len(_lp[1]) = 0 THEN 2 WHEN len(_lp[1]) <> _lp[2] THEN 3 ELSE 0 END), "
        "lambda _lc: _lc > 0)[1] "
        "WHEN 1 THEN error('[22004] cannot accumulate null arrays') WHEN 2 THEN error('[2202E] cannot accumulate empty arrays') "
        "WHEN 3 THEN error('[2202E] cannot accumulate arrays of different dimensionality') ELSE l END",  # (of any element type)
        # UPDATE ... SET a[i] = v (planner.dml): arrays of lower bound 1 only (a NULL or empty array takes only a[1])
        "CREATE OR REPLACE MACRO txngate_array_assign(a, i, v) AS CASE "
        "WHEN i IS NULL THEN error('[22004] array subscript in assignment must not be null') "
        "WHEN i < 1 OR (coalesce(len(a), 0) = 0 AND i <> 1) THEN error('[0A000] arrays with a lower bound other than 1 are not supported') "
        "WHEN a IS NULL THEN [v] WHEN i <= len(a) THEN list_concat(a[1:i - 1], [v], a[i + 1:]) "
        "ELSE list_concat(list_resize(a, i - 1), [v]) END",
        "CREATE OR REPLACE MACRO txngate_array_assign_slice(a, lo, hi, v) AS CASE "
        "WHEN lo IS NULL OR hi IS NULL THEN error('[22004] array subscript in assignment must not be null') "
        "WHEN lo < 1 OR (coalesce(len(a), 0) = 0 AND lo <> 1) THEN error('[0A000] arrays with a lower bound other than 1 are not supported') "
        "WHEN hi < lo THEN a "
        "WHEN coalesce(len(v), 0) < hi - lo + 1 THEN error('[2202E] source array too small') "
        "ELSE list_concat(list_resize(coalesce(a, v[1:0]), lo - 1), v[1:hi - lo + 1], coalesce(a, v[1:0])[hi + 1:]) END",
        # UPDATE ... SET j['k'][0] = v (planner.dml, local_exec.jsonb.assign): '' stands for a NULL document, SQL NULL is json null
        "CREATE OR REPLACE MACRO txngate_jsonb_key(k) AS CAST(to_json(k) AS VARCHAR)",
        "CREATE OR REPLACE MACRO txngate_jsonb_subscript_assign(j, keys, v) AS "
        "txngate_jsonb_assign(coalesce(CAST(j AS VARCHAR), ''), '[' || array_to_string(list_transform(keys, lambda _lk: coalesce(_lk, 'null')), ',') || ']', "
        "coalesce(CAST(v AS VARCHAR), 'null'))",
        # variances of doubles as PostgreSQL's float8_accum: (N, Sx, Sxx) by Youngs and Cramer's update (planner.bind._youngs_cramer)
        "CREATE OR REPLACE MACRO txngate_float8_accum(l) AS list_reduce(list_filter(l, lambda _lv: _lv IS NOT NULL), "
        "lambda _lacc, _lv: {'n': _lacc.n + 1, 'sx': _lacc.sx + _lv, 'sxx': CASE WHEN _lacc.n = 0 THEN CASE WHEN isfinite(_lv) THEN CAST(0 AS DOUBLE) ELSE CAST('NaN' AS DOUBLE) END "
        "ELSE _lacc.sxx + (_lv * (_lacc.n + 1) - (_lacc.sx + _lv)) * (_lv * (_lacc.n + 1) - (_lacc.sx + _lv)) / ((_lacc.n + 1) * _lacc.n) END}, "
        "{'n': CAST(0 AS DOUBLE), 'sx': CAST(0 AS DOUBLE), 'sxx': CAST(0 AS DOUBLE)})",
        "CREATE OR REPLACE MACRO txngate_float8_var_pop(l) AS list_transform([txngate_float8_accum(l)], lambda _la: CASE WHEN _la.n > 0 THEN _la.sxx / _la.n END)[1]",
        "CREATE OR REPLACE MACRO txngate_float8_var_samp(l) AS list_transform([txngate_float8_accum(l)], lambda _la: CASE WHEN _la.n > 1 THEN _la.sxx / (_la.n - 1) END)[1]",
        "CREATE OR REPLACE MACRO txngate_float8_stddev_pop(l) AS sqrt(txngate_float8_var_pop(l))",
        "CREATE OR REPLACE MACRO txngate_float8_stddev_samp(l) AS sqrt(txngate_float8_var_samp(l))",
        *_regression_sql(),
        "CREATE OR REPLACE MACRO txngate_array_remove(a, e) AS list_filter(a, lambda _lx: _lx IS DISTINCT FROM e)",
        "CREATE OR REPLACE MACRO txngate_array_replace(a, f, t) AS list_transform(a, lambda _lx: CASE WHEN _lx IS NOT DISTINCT FROM f THEN t ELSE _lx END)",
        "CREATE OR REPLACE MACRO txngate_pg_typeof(t) AS " + _pg_typeof_sql(),
        *_stored_numeric_sql(),
        # PostgreSQL refuses what DuckDB answers with NaN or -inf (errors carry their SQLSTATE: local_exec.errors),
        # raised by a failing cast, not error(), which is volatile: PARTITION BY sqrt(x) would be refused
        "CREATE OR REPLACE MACRO txngate_sqrt(x) AS CASE WHEN x < 0 THEN " + raised("2201F", "cannot take square root of a negative number")
        + " ELSE sqrt(x) END",
        "CREATE OR REPLACE MACRO txngate_ln(x) AS CASE WHEN x = 0 THEN " + raised("2201E", "cannot take logarithm of zero")
        + " WHEN x < 0 THEN " + raised("2201E", "cannot take logarithm of a negative number") + " ELSE ln(x) END",
        "CREATE OR REPLACE MACRO txngate_log(x) AS CASE WHEN x = 0 THEN " + raised("2201E", "cannot take logarithm of zero")
        + " WHEN x < 0 THEN " + raised("2201E", "cannot take logarithm of a negative number") + " ELSE log10(x) END, "
        "(b, x) AS CASE WHEN b = 0 OR x = 0 THEN " + raised("2201E", "cannot take logarithm of zero")
        + " WHEN b < 0 OR x < 0 THEN " + raised("2201E", "cannot take logarithm of a negative number")
        + " WHEN b = 1 THEN " + raised("22012", "division by zero") + " ELSE log(b, x) END",
        # a value as json text, as PostgreSQL's json constructors write it (planner.jsonops._built): json as it is,
        # timestamps in ISO 8601 (with T, and the offset's minutes); a NULL is null (the engine's own JSON otherwise)
        "CREATE OR REPLACE MACRO txngate_json_value(v) AS CASE WHEN v IS NULL THEN 'null' "
        "WHEN typeof(v) = 'JSON' THEN CAST(v AS VARCHAR) "
        # a numeric as its text (the engine's JSON writes it as a double: 42.000 became 42.0); an unconstrained one
        # (kept with 10 places) without the zeros its 10 places add
        "WHEN typeof(v) = 'DECIMAL(38,10)' THEN rtrim(rtrim(CAST(v AS VARCHAR), '0'), '.') "
        "WHEN typeof(v) LIKE 'DECIMAL%' AND typeof(v) NOT LIKE '%]' THEN CAST(v AS VARCHAR) "
        "WHEN typeof(v) = 'TIMESTAMP' THEN '\"' || replace(CAST(v AS VARCHAR), ' ', 'T') || '\"' "
        "WHEN typeof(v) = 'TIMESTAMP WITH TIME ZONE' THEN '\"' || regexp_replace(replace(CAST(v AS VARCHAR), ' ', 'T'), "
        "'([+-][0-9][0-9])$', '\\1:00') || '\"' "
        # a row or array holding timestamps, bytea, numerics or ROWs (or a bytea or a ROW): local_exec.jsonb rewrites
        # those by the value's type (a ROW's fields are f1, f2, ...: the engine writes it as an array)
        "WHEN typeof(v) LIKE '%TIMESTAMP%' OR typeof(v) LIKE '%BLOB%' OR typeof(v) LIKE '%DECIMAL%' OR typeof(v) LIKE '%TUPLE(%' "
        "THEN txngate_typed_json(CAST(to_json(v) AS VARCHAR), typeof(v)) "
        "ELSE CAST(to_json(v) AS VARCHAR) END",
        "CREATE OR REPLACE MACRO txngate_json_key(k, position) AS CASE WHEN k IS NULL "
        "THEN CAST(CAST('[22023] argument ' || position || ' cannot be null' AS DOUBLE) AS VARCHAR) ELSE CAST(to_json(CAST(k AS VARCHAR)) AS VARCHAR) END",
        # json_agg's text of the listed values: ", " between them, and a line break too before each row or array (not
        # a NULL) after the first, as PostgreSQL's json_agg_transfn
        # (the list is read once, outside the lambda: it is an aggregate, which a lambda may not hold)
        "CREATE OR REPLACE MACRO txngate_json_agg_separator(v, _i) AS CASE WHEN _i = 1 THEN '' "
        "WHEN v IS NOT NULL AND (typeof(v) LIKE 'STRUCT%' OR typeof(v) LIKE '%[]') THEN ', \n ' ELSE ', ' END",
        "CREATE OR REPLACE MACRO txngate_json_agg_text(l) AS '[' || array_to_string(list_transform(l, "
        "lambda _le, _i: txngate_json_agg_separator(_le, _i) || txngate_json_value(_le)), '') || ']'",
        # a computed interval whose time the engine's results carry (64-bit nanoseconds), else 0A000 (planner.bind._carried_intervals)
        "CREATE OR REPLACE MACRO txngate_carried_interval(i) AS CASE WHEN abs(CAST(date_part('hour', i) AS HUGEINT) * 3600000000 "
        f"+ CAST(date_part('minute', i) AS HUGEINT) * 60000000 + date_part('microseconds', i)) >= {CARRIED_INTERVAL_MICROS} THEN "
        + raised("0A000", LONG_INTERVAL, "INTERVAL") + " ELSE i END",
        # make_interval's time (planner.bind._make_interval) in microseconds, the seconds rounded: infinity and NaN are
        # 22008; past what the engine's results carry (64-bit nanoseconds) 0A000, not a time that wrapped
        "CREATE OR REPLACE MACRO txngate_interval_time(h, m, s) AS CASE WHEN isinf(s) OR isnan(s) OR abs(s) > 9.2e18 THEN "
        + raised("22008", "interval out of range", "BIGINT") + " WHEN abs(CAST(h AS HUGEINT) * 3600000000 + CAST(m AS HUGEINT) * 60000000 "
        f"+ CAST(round(s * 1000000) AS HUGEINT)) >= {CARRIED_INTERVAL_MICROS} THEN " + raised("0A000", LONG_INTERVAL, "BIGINT")
        + " ELSE CAST(h * 3600000000 + m * 60000000 + CAST(round(s * 1000000) AS BIGINT) AS BIGINT) END",
        # array_to_json's text of listed json documents: each as it is, "," between them
        "CREATE OR REPLACE MACRO txngate_json_array_text(l) AS '[' || array_to_string(list_transform(l, "
        "lambda _le: txngate_json_value(_le)), ',') || ']'",
        # the same of a json[] or jsonb[] column, whose documents the engine holds as text ('null' for the array's NULLs),
        # and json_agg of such texts (a line break before each array after the first, as txngate_json_agg_separator)
        "CREATE OR REPLACE MACRO txngate_json_docs_text(l) AS '[' || array_to_string(list_transform(l, "
        "lambda _le: coalesce(CAST(_le AS VARCHAR), 'null')), ',') || ']'",
        "CREATE OR REPLACE MACRO txngate_json_agg_docs(l) AS '[' || array_to_string(list_transform(l, "
        "lambda _le, _i: CASE WHEN _i = 1 THEN '' WHEN _le IS NOT NULL THEN ', \n ' ELSE ', ' END || coalesce(_le, 'null')), '') || ']'",
        # a whole row whose json and jsonb columns (f: their names as a JSON array) are written as the documents they hold
        # (planner.jsonops._whole_row), and json_agg of such rows
        "CREATE OR REPLACE MACRO txngate_json_row(v, f) AS CASE WHEN v IS NULL THEN 'null' "
        "ELSE txngate_typed_json_row(CAST(to_json(v) AS VARCHAR), typeof(v), f) END",
        "CREATE OR REPLACE MACRO txngate_json_agg_rows(l, f) AS '[' || array_to_string(list_transform(l, "
        "lambda _le, _i: txngate_json_agg_separator(_le, _i) || txngate_json_row(_le, f)), '') || ']'",
        # PostgreSQL's years of a date (planner.bind._date_part, _date_trunc): 1 BC is -1, there is no year 0;
        # DuckDB's date_part('year') is astronomical (0 is 1 BC)
        # extract of a field that grows with time from an infinite date or timestamp: numeric has no infinity here (planner.bind);
        # raised as a failing cast, not error(), which is volatile and refused in PARTITION BY; typed the smallest decimal, so
        # the CASE it stands in keeps the other branch's type
        "CREATE OR REPLACE MACRO txngate_infinite_extract(kind) AS CAST(CAST('[0A000] numeric infinity (extract of an infinite ' || kind "
        "|| ') is not supported' AS DOUBLE) AS DECIMAL(1, 0))",
        # timestamptz + or - interval as PostgreSQL: the months, then the days, then the time (planner.bind._zoned_move)
        *(f"CREATE OR REPLACE MACRO txngate_zoned_{name}(t, i) AS ((t {op} to_months(CAST(date_part('year', i) * 12 + date_part('month', i) "
          f"AS INTEGER))) {op} to_days(CAST(date_part('day', i) AS INTEGER))) {op} to_microseconds(CAST(date_part('hour', i) * 3600000000 "
          "+ date_part('minute', i) * 60000000 + date_part('microseconds', i) AS BIGINT))" for name, op in (("plus", "+"), ("minus", "-"))),
        "CREATE OR REPLACE MACRO txngate_pg_year(y) AS CASE WHEN y > 0 THEN y ELSE y - 1 END",
        "CREATE OR REPLACE MACRO txngate_pg_year_in(y) AS CASE WHEN y < 0 THEN y + 1 "
        "WHEN y = 0 THEN " + raised("22008", "date field value out of range: year 0", "BIGINT") + " ELSE y END",
        # to_timestamp(double precision): infinities are the infinite timestamps, NaN 22008 (the engine refused both, 22P02)
        "CREATE OR REPLACE MACRO txngate_epoch_timestamp(x) AS CASE WHEN isnan(CAST(x AS DOUBLE)) "
        "THEN CAST(CAST('[22008] timestamp cannot be NaN' AS DOUBLE) AS TIMESTAMPTZ) "
        "WHEN isinf(CAST(x AS DOUBLE)) THEN CASE WHEN CAST(x AS DOUBLE) > 0 THEN CAST('infinity' AS TIMESTAMPTZ) "
        "ELSE CAST('-infinity' AS TIMESTAMPTZ) END ELSE to_timestamp(CAST(x AS DOUBLE)) END",
        # make_date of fields that make no date: PostgreSQL's 22008 (the engine's is a conversion error, 22P02)
        "CREATE OR REPLACE MACRO txngate_make_date(y, m, d) AS CASE WHEN y <> 0 AND try(make_date(txngate_pg_year_in(y), m, d)) IS NULL "
        "THEN CAST(CAST('[22008] date field value out of range: ' || printf('%d-%02d-%02d', y, m, d) AS DOUBLE) AS DATE) "
        "ELSE make_date(txngate_pg_year_in(y), m, d) END",
        "CREATE OR REPLACE MACRO txngate_pg_decade(y) AS CASE WHEN y >= 0 THEN y // 10 ELSE -((8 - (y - 1)) // 10) END",
        "CREATE OR REPLACE MACRO txngate_pg_century(y) AS CASE WHEN y > 0 THEN (y + 99) // 100 ELSE -((99 - (y - 1)) // 100) END",
        "CREATE OR REPLACE MACRO txngate_pg_millennium(y) AS CASE WHEN y > 0 THEN (y + 999) // 1000 ELSE -((999 - (y - 1)) // 1000) END",
        # date_trunc and date_part of a unit known as the statement runs (planner.bind._date_trunc, _run_time_date_part):
        # by a name the SQL rewriter does not read (it took a column's name for the unit)
        "CREATE OR REPLACE MACRO txngate_date_trunc(u, x) AS date_trunc(u, x)",
        "CREATE OR REPLACE MACRO txngate_date_part(u, x) AS CAST(date_part(u, x) AS DOUBLE)",
        # the (astronomical) first year of the decade, century or millennium (span) holding year y
        "CREATE OR REPLACE MACRO txngate_pg_first_year(span, y) AS CASE WHEN span = 10 THEN "
        "(CASE WHEN y > 0 THEN (y // 10) * 10 ELSE -((8 - (y - 1)) // 10) * 10 END) "
        "WHEN y > 0 THEN ((y + span - 1) // span) * span - span + 1 ELSE -((span - 1 - (y - 1)) // span) * span + 1 END",
        # a timestamp's or time's microseconds rounded to p fraction digits, half away from zero (timestamp(p), time(p))
        "CREATE OR REPLACE MACRO txngate_round_micros(us, p) AS CASE WHEN us >= 0 "
        "THEN (us + CAST(pow(10, 6 - p) AS BIGINT) // 2) // CAST(pow(10, 6 - p) AS BIGINT) * CAST(pow(10, 6 - p) AS BIGINT) "
        "ELSE -((-us + CAST(pow(10, 6 - p) AS BIGINT) // 2) // CAST(pow(10, 6 - p) AS BIGINT) * CAST(pow(10, 6 - p) AS BIGINT)) END",
        "CREATE OR REPLACE MACRO txngate_round_timestamp(x, p) AS CASE WHEN isfinite(x) "
        "THEN x + to_microseconds(txngate_round_micros(epoch_us(x), p) - epoch_us(x)) ELSE x END",
        "CREATE OR REPLACE MACRO txngate_round_time(x, p) AS CASE WHEN txngate_round_micros(epoch_us(x), p) >= 86400000000 "
        "THEN CAST('24:00:00' AS TIME) ELSE x + to_microseconds(txngate_round_micros(epoch_us(x), p) - epoch_us(x)) END",
        "CREATE OR REPLACE MACRO txngate_infinity_sign(x) AS CASE WHEN x > CAST('1970-01-01' AS date) THEN CAST('inf' AS double) "
        "ELSE CAST('-inf' AS double) END",
        # pg_sleep_for(interval) and pg_sleep_until(timestamptz): DuckDB's pg_sleep (it sleeps; a void result, planner.bind)
        "CREATE OR REPLACE MACRO pg_sleep_for(i) AS pg_sleep(epoch(CAST(i AS INTERVAL)))",
        "CREATE OR REPLACE MACRO pg_sleep_until(t) AS pg_sleep(greatest(epoch(CAST(t AS TIMESTAMPTZ)) - epoch(get_current_timestamp()), 0))",
        # arithmetic of doubles and exp(): PostgreSQL's 22003 where finite operands give an infinity (or a zero
        # where none is, for * and /), as its check_float8_val; DuckDB answers the infinity or zero
        _float_checked_sql(),
        *_trigonometry_sql(),
        # power(a, b) and a ^ b: PostgreSQL's errors where DuckDB answers inf or NaN
        "CREATE OR REPLACE MACRO txngate_power(a, b) AS CASE WHEN a = 0 AND b < 0 THEN " + raised("2201F", "zero raised to a negative power is undefined")
        + " WHEN a < 0 AND CAST(b AS DOUBLE) <> floor(CAST(b AS DOUBLE)) THEN " + raised("2201F", "a negative number raised to a non-integer power yields a complex result") + " "
        # float.c's dpow: an infinite or zero result of finite operands (a not 0) is an overflow or an underflow
        "WHEN isinf(pow(a, b)) AND isfinite(CAST(a AS DOUBLE)) AND isfinite(CAST(b AS DOUBLE)) THEN " + _OVERFLOW + " "
        "WHEN pow(a, b) = 0 AND a <> 0 AND isfinite(CAST(a AS DOUBLE)) AND isfinite(CAST(b AS DOUBLE)) THEN " + _UNDERFLOW + " "
        "ELSE pow(a, b) END",
        # a quotient of doubles that rounds to 1.0 gives count + 1 in PostgreSQL 15's float8 width_bucket; numerics (exact there) never do
        "CREATE OR REPLACE MACRO txngate_bucket_cap(op, lo, hi, n) AS CASE WHEN typeof(op) IN ('DOUBLE', 'FLOAT') "
        "OR typeof(lo) IN ('DOUBLE', 'FLOAT') OR typeof(hi) IN ('DOUBLE', 'FLOAT') THEN n ELSE n - 1 END",
        # width_bucket(operand, low, high, count) as PostgreSQL's float8 one: the bucket of count equal ones (0 below, count + 1 above)
        "CREATE OR REPLACE MACRO width_bucket(op, lo, hi, n) AS CASE WHEN op IS NULL OR lo IS NULL OR hi IS NULL OR n IS NULL THEN NULL "
        "WHEN n <= 0 THEN " + raised("2201G", "count must be greater than zero", "INTEGER") + " "
        "WHEN isnan(CAST(op AS double)) OR isnan(CAST(lo AS double)) OR isnan(CAST(hi AS double)) "
        "THEN " + raised("2201G", "operand, lower bound, and upper bound cannot be NaN", "INTEGER") + " "
        "WHEN NOT isfinite(CAST(lo AS double)) OR NOT isfinite(CAST(hi AS double)) THEN " + raised("2201G", "lower and upper bounds must be finite", "INTEGER")
        + " WHEN lo = hi THEN " + raised("2201G", "lower bound cannot equal upper bound", "INTEGER") + " "
        "WHEN lo < hi THEN (CASE WHEN op < lo THEN 0 WHEN op >= hi THEN n + 1 "
        "ELSE least(CAST(trunc(n * ((CAST(op AS double) - lo) / (CAST(hi AS double) - lo))) AS INTEGER), txngate_bucket_cap(op, lo, hi, n)) + 1 END) "
        "ELSE (CASE WHEN op > lo THEN 0 WHEN op <= hi THEN n + 1 "
        "ELSE least(CAST(trunc(n * ((CAST(lo AS double) - op) / (CAST(lo AS double) - hi))) AS INTEGER), txngate_bucket_cap(op, lo, hi, n)) + 1 END) END, "
        # width_bucket(operand, thresholds): how many of the (ascending) thresholds are at or below it
        "(op, th) AS CASE WHEN list_count(th) < len(th) THEN " + raised("22004", "thresholds array must not contain NULLs", "INTEGER")
        + " ELSE CAST(len(list_filter(th, lambda _lx: _lx <= op)) AS INTEGER) END",
        "CREATE OR REPLACE MACRO txngate_stride_us(i) AS CAST(date_part('day', i) AS BIGINT) * 86400000000 "
        "+ date_part('hour', i) * 3600000000 + date_part('minute', i) * 60000000 + date_part('microseconds', i)",
        # date_bin(stride, source, origin): the start of source's bin of bins of stride from origin (the engine's
        # time_bucket refuses a stride of days and hours), with PostgreSQL's refusals
        "CREATE OR REPLACE MACRO txngate_date_bin(stride, source, origin) AS CASE "
        "WHEN date_part('year', stride) <> 0 OR date_part('month', stride) <> 0 THEN "
        "error('[0A000] timestamps cannot be binned into intervals containing months or years') "
        "WHEN txngate_stride_us(stride) <= 0 THEN error('[22008] stride must be greater than zero') "
        "ELSE txngate_timestamp_in_range(origin + to_microseconds((epoch_us(source) - epoch_us(origin)) - ((epoch_us(source) - epoch_us(origin)) "
        "% greatest(txngate_stride_us(stride), 1) + txngate_stride_us(stride)) % greatest(txngate_stride_us(stride), 1))) END",
        # (greatest: a zero stride, refused above, is no division by zero when the engine folds constants)
        # a timestamp PostgreSQL can hold (from 4714-11-24 BC: the engine's reach further back), else its 22008
        "CREATE OR REPLACE MACRO txngate_timestamp_in_range(t) AS CASE WHEN epoch_us(t) < -210866803200000000 "
        "THEN error('[22008] timestamp out of range') ELSE t END",
        # array_fill(value, dims): a one- or two-dimensional array of value (lower bounds other than 1 are refused)
        # array_fill(value, dims [, lower bounds]) of one or two dimensions (planner.bind picks by the dims given)
        "CREATE OR REPLACE MACRO txngate_array_fill1(v, d, lb) AS CASE WHEN d IS NULL OR lb IS NULL "
        "THEN error('[22004] dimension array or low bound array cannot be null') WHEN len(d) <> 1 OR len(lb) <> 1 "
        "THEN error('[2202E] wrong number of array subscripts') WHEN list_count(d) <> len(d) OR list_count(lb) <> len(lb) "
        "THEN error('[22004] dimension values cannot be null') WHEN lb[1] <> 1 "
        "THEN error('[0A000] arrays with lower bounds other than 1 are not supported') ELSE list_transform(range(d[1]), lambda _li: v) END",
        "CREATE OR REPLACE MACRO txngate_array_fill2(v, d, lb) AS CASE WHEN d IS NULL OR lb IS NULL "
        "THEN error('[22004] dimension array or low bound array cannot be null') WHEN len(d) <> 2 OR len(lb) <> 2 "
        "THEN error('[2202E] wrong number of array subscripts') WHEN list_count(d) <> len(d) OR list_count(lb) <> len(lb) "
        "THEN error('[22004] dimension values cannot be null') WHEN lb[1] <> 1 OR lb[2] <> 1 "
        "THEN error('[0A000] arrays with lower bounds other than 1 are not supported') "
        "ELSE list_transform(range(d[1]), lambda _li: list_transform(range(d[2]), lambda _lj: v)) END",
        # PostgreSQL's ANY and ALL of a list of comparisons' outcomes: true, false, or NULL when a NULL decides
        "CREATE OR REPLACE MACRO txngate_any(l) AS CASE WHEN l IS NULL THEN NULL WHEN list_contains(l, true) THEN true "
        "WHEN list_contains(list_transform(l, lambda _x: _x IS NULL), true) THEN NULL ELSE false END",
        "CREATE OR REPLACE MACRO txngate_all(l) AS CASE WHEN l IS NULL THEN NULL WHEN list_contains(l, false) THEN false "
        "WHEN list_contains(list_transform(l, lambda _x: _x IS NULL), true) THEN NULL ELSE true END",
        *pattern_quantifier_macros(),
    )


def _regression_sql() -> list[str]:
    """PostgreSQL's float8_regr_accum over a list of [y, x] pairs (NULL in
    either left out): (N, Sx, Sxx, Sy, Syy, Sxy) by Youngs and Cramer's
    update, the products scaled by 1 / (N * (N - 1)) as float.c does; then
    each of its final functions (planner.bind._float_regression)."""
    d = "CAST({} AS DOUBLE)"
    first = ("{'n': " + d.format(1) + ", 'sx': _lp[2], 'sxx': CASE WHEN isfinite(_lp[2]) THEN " + d.format(0) + " ELSE " + d.format("'NaN'") + " END, "
             "'sy': _lp[1], 'syy': CASE WHEN isfinite(_lp[1]) THEN " + d.format(0) + " ELSE " + d.format("'NaN'") + " END, "
             "'sxy': CASE WHEN isfinite(_lp[2]) AND isfinite(_lp[1]) THEN " + d.format(0) + " ELSE " + d.format("'NaN'") + " END}")
    tx, ty, scale = "(_lp[2] * (_la.n + 1) - (_la.sx + _lp[2]))", "(_lp[1] * (_la.n + 1) - (_la.sy + _lp[1]))", "(1.0 / ((_la.n + 1) * _la.n))"
    later = (f"{{'n': _la.n + 1, 'sx': _la.sx + _lp[2], 'sxx': _la.sxx + {tx} * {tx} * {scale}, 'sy': _la.sy + _lp[1], "
             f"'syy': _la.syy + {ty} * {ty} * {scale}, 'sxy': _la.sxy + {tx} * {ty} * {scale}}}")
    zero = d.format(0)
    accum = ("CREATE OR REPLACE MACRO txngate_float8_regr_accum(l) AS list_reduce(list_filter(l, lambda _lq: _lq[1] IS NOT NULL AND _lq[2] IS NOT NULL), "
             f"lambda _la, _lp: CASE WHEN _la.n = 0 THEN {first} ELSE {later} END, "
             f"{{'n': {zero}, 'sx': {zero}, 'sxx': {zero}, 'sy': {zero}, 'syy': {zero}, 'sxy': {zero}}})")
    finals = {
        "corr": "CASE WHEN _ls.n < 1 OR _ls.sxx = 0 OR _ls.syy = 0 THEN NULL ELSE _ls.sxy / sqrt(_ls.sxx * _ls.syy) END",
        "covar_pop": "CASE WHEN _ls.n < 1 THEN NULL ELSE _ls.sxy / _ls.n END",
        "covar_samp": "CASE WHEN _ls.n < 2 THEN NULL ELSE _ls.sxy / (_ls.n - 1.0) END",
        "regr_slope": "CASE WHEN _ls.n < 1 OR _ls.sxx = 0 THEN NULL ELSE _ls.sxy / _ls.sxx END",
        "regr_intercept": "CASE WHEN _ls.n < 1 OR _ls.sxx = 0 THEN NULL ELSE (_ls.sy - _ls.sx * _ls.sxy / _ls.sxx) / _ls.n END",
        "regr_r2": "CASE WHEN _ls.n < 1 OR _ls.sxx = 0 THEN NULL WHEN _ls.syy = 0 THEN 1.0 ELSE (_ls.sxy * _ls.sxy) / (_ls.sxx * _ls.syy) END",
        "regr_sxx": "CASE WHEN _ls.n < 1 THEN NULL ELSE _ls.sxx END",
        "regr_syy": "CASE WHEN _ls.n < 1 THEN NULL ELSE _ls.syy END",
        "regr_sxy": "CASE WHEN _ls.n < 1 THEN NULL ELSE _ls.sxy END",
        "regr_avgx": "CASE WHEN _ls.n < 1 THEN NULL ELSE _ls.sx / _ls.n END",
        "regr_avgy": "CASE WHEN _ls.n < 1 THEN NULL ELSE _ls.sy / _ls.n END",
    }
    return [accum] + [f"CREATE OR REPLACE MACRO txngate_float8_{name}(l) AS list_transform([txngate_float8_regr_accum(l)], "
                      f"lambda _ls: CAST({body} AS DOUBLE))[1]" for name, body in finals.items()]


#: the pattern operators ``v op ANY/ALL (array)`` applies (planner.bind): each as DuckDB matches one pattern ``_e``,
#: LIKE's with PostgreSQL's default escape
PATTERN_MATCHES = {"~~": "like_escape(v, _e, '\\')", "!~~": "not_like_escape(v, _e, '\\')", "~~*": "ilike_escape(v, _e, '\\')",
                   "!~~*": "not_ilike_escape(v, _e, '\\')", "~": "regexp_matches(v, _e, 's')", "~*": "regexp_matches(v, _e, 'is')",
                   "!~": "NOT regexp_matches(v, _e, 's')", "!~*": "NOT regexp_matches(v, _e, 'is')"}


def pattern_quantifier(op: str, quantifier: str) -> str:
    """The macro of ``v op ANY (a)`` (``quantifier`` "any") or ``ALL``."""
    names = {"~~": "like", "!~~": "not_like", "~~*": "ilike", "!~~*": "not_ilike", "~": "match", "~*": "imatch", "!~": "not_match",
             "!~*": "not_imatch"}
    return f"txngate_{names[op]}_{quantifier}"


def pattern_quantifier_macros() -> list[str]:
    return [f"CREATE OR REPLACE MACRO {pattern_quantifier(op, q)}(v, a) AS txngate_{q}(list_transform(a, lambda _e: {match}))"
            for op, match in PATTERN_MATCHES.items() for q in ("any", "all")]


#: DuckDB's typeof() names as PostgreSQL's pg_typeof() prints them
_TYPEOF_NAMES = {
    "SMALLINT": "smallint", "INTEGER": "integer", "BIGINT": "bigint", "HUGEINT": "numeric", "FLOAT": "real",
    "DOUBLE": "double precision", "BOOLEAN": "boolean", "VARCHAR": "text", "DATE": "date", "TIME": "time without time zone",
    "TIMESTAMP": "timestamp without time zone", "TIMESTAMP WITH TIME ZONE": "timestamp with time zone",
    "INTERVAL": "interval", "BLOB": "bytea", "UUID": "uuid", "JSON": "json", "UINTEGER": "oid", '"NULL"': "unknown",
}


def _pg_typeof_sql() -> str:
    base = "regexp_replace(t, '(\\[\\])+$', '')"
    cases = " ".join(f"WHEN '{duck}' THEN '{pg}'" for duck, pg in _TYPEOF_NAMES.items())
    name = f"(CASE WHEN {base} LIKE 'DECIMAL%' THEN 'numeric' ELSE CASE {base} {cases} ELSE lower({base}) END END)"
    return f"{name} || CASE WHEN t LIKE '%[]' THEN '[]' ELSE '' END"


def format_type_sql() -> str:
    """The DuckDB macro behind ``format_type(oid, typmod)``."""
    cases = " ".join(f"WHEN {oid} THEN '{name}'" for oid, name in sorted(TYPE_DISPLAY.items()))
    base = f"(CASE t {cases} ELSE '???' END)"
    elem = "regexp_replace(" + base + ", '\\[\\]$', '')"
    arr = f"(CASE WHEN {base} LIKE '%[]' THEN '[]' ELSE '' END)"
    return (
        "CREATE OR REPLACE MACRO txngate_format_type(t, m) AS CASE WHEN t IS NULL THEN NULL "
        f"WHEN m >= 4 AND {elem} IN ('character varying', 'character') THEN {elem} || '(' || CAST(m - 4 AS VARCHAR) || ')' || {arr} "
        f"WHEN m >= 4 AND {elem} = 'numeric' THEN 'numeric(' || CAST((m - 4) >> 16 AS VARCHAR) || ',' || CAST((m - 4) & 65535 AS VARCHAR) || ')' || {arr} "
        f"WHEN m >= 0 AND {elem} IN ('timestamp without time zone', 'timestamp with time zone', 'time without time zone') "
        f"THEN regexp_replace({base}, '^(timestamp|time)', '\\1(' || CAST(m AS VARCHAR) || ')') "
        f"ELSE {base} END"
    )


@lru_cache(maxsize=256)
def _template(sql: str) -> ast.Node:
    return pglast.parse_sql(f"SELECT {sql}")[0].stmt.targetList[0].val


def expand(sql: str, args: list[ast.Node]) -> ast.Node:
    """The template expression with ``_argN`` replaced by copies of the arguments."""
    node = copy_tree(_template(sql))

    def arg(n):
        if isinstance(n, ast.ColumnRef) and len(n.fields) == 1 and isinstance(n.fields[0], ast.String) and n.fields[0].sval.startswith("_arg"):
            i = int(n.fields[0].sval[4:]) - 1
            return copy_tree(args[i]) if i < len(args) else ast.A_Const(isnull=True)
        return None

    if arg(node) is not None:
        return arg(node)
    for n in walk(node):
        replace_children(n, arg)
    return node


def replace_children(node: ast.Node, fn) -> None:
    """Replace each direct child ``c`` of ``node`` by ``fn(c)`` when that is
    not None (the cells of a VALUES list's rows too, whose calls were left
    as the engine's: round(2.5::float8) was 3; not a FROM function's call,
    which stays a table function)."""
    for attr in node:
        value = getattr(node, attr)
        if isinstance(value, ast.Node):
            new = fn(value)
            if new is not None:
                setattr(node, attr, new)
        elif isinstance(value, tuple):
            new = _replaced(value, fn, rows=attr == "valuesLists")
            if new is not value:
                setattr(node, attr, new)


def _replaced(items: tuple, fn, *, rows: bool = False) -> tuple:
    """``items`` with each node ``c`` in it (or, for ``rows``, in a tuple in
    it) replaced by ``fn(c)`` when that is not None; ``items`` itself when
    none is."""
    out, changed = [], False
    for v in items:
        new = fn(v) if isinstance(v, ast.Node) else _replaced(v, fn) if rows and isinstance(v, tuple) else None
        if new is v:
            new = None
        changed |= new is not None
        out.append(v if new is None else new)
    return tuple(out) if changed else items


def _udt_name(typid: int) -> str:
    """information_schema's udt_name: the type's name, ``_`` + the element's for an array."""
    if typid in PG_ARRAY_ELEMENT:
        return "_" + PG_ARRAY_ELEMENT[typid].typname
    t = PG_TYPE_BY_OID.get(typid)
    return t.typname if t else "text"


def column_origins(targets, from_clause, catalog, search_path) -> list[tuple[int, int, str]] | None:
    """For a target list, the (relation OID, attnum, declared type) of the
    column each output column reads directly when FROM is one table (or a
    RETURNING's), (0, 0, "") for other column references and casts with a
    type modifier, (0, 0, UNCONSTRAINED) for other computed ones, as
    PostgreSQL's RowDescription reports them; None when a ``*`` cannot be
    expanded here."""
    if not targets:
        return None
    rel = None
    if len(from_clause or ()) == 1 and isinstance(from_clause[0], ast.RangeVar):
        rv = from_clause[0]
        rel = catalog.lookup(rv.relname, rv.schemaname, search_path)
        alias = rv.alias.aliasname if rv.alias is not None else rv.relname
    out = []
    for t in targets:
        v = getattr(t, "val", t)
        fields = v.fields if isinstance(v, ast.ColumnRef) else ()
        if fields and isinstance(fields[-1], ast.A_Star):
            if rel is None or not (len(fields) == 1 or fields[0].sval == alias):
                return None
            out.extend((relation_oid(rel), i, c.shown or c.type) for i, c in enumerate(rel.columns, 1))
        elif fields:
            name = fields[-1].sval if isinstance(fields[-1], ast.String) else None
            if rel is not None and name in rel.column_names and (len(fields) == 1 or (len(fields) == 2 and fields[0].sval == alias)):
                out.append((relation_oid(rel), rel.column_names.index(name) + 1, rel.column(name).shown or rel.column(name).type))
            else:
                out.append((0, 0, ""))
        elif isinstance(v, ast.TypeCast) and v.typeName.typmods:
            out.append((0, 0, ""))
        else:
            out.append((0, 0, UNCONSTRAINED))
    return out
