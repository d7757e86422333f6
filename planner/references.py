"""Foreign keys, enforced: the rows a statement writes against the tables
their keys reference, and the rows it removes against the tables that
reference them, inside the statement's Work.

* Referencing side (INSERT, UPDATE of the key's columns, COPY): every new
  row whose foreign-key columns are all non-NULL (MATCH SIMPLE) must find
  its key in the referenced table, else 23503 "... is not present in
  table". A self-reference may be satisfied by the statement's own rows.
* Referenced side (DELETE, UPDATE of referenced columns): each key that
  leaves the table is looked up in every referencing table (found through
  ``Catalog.referrers``); rows still referencing it get the key's action:
  NO ACTION / RESTRICT refuse (23503 "... is still referenced from
  table"), CASCADE deletes them (or gives them the new key), SET NULL and
  SET DEFAULT set their columns. Cascaded changes are checked the same
  way, to any depth.
* DEFERRABLE INITIALLY DEFERRED keys in a transaction block (or deferrable
  ones after SET CONSTRAINTS ... DEFERRED) are checked at COMMIT instead
  (``check_deferred``; SET CONSTRAINTS ... IMMEDIATE checks them at once),
  against the state the transaction then has: a key added later, or a referencing row deleted later, is no
  violation. A violation there fails the COMMIT, which rolls back.

Every check is a key search (``Work.lookup``), so its cost follows the
rows written, not the tables' sizes. Serializability comes from the read
set: a lookup of the referenced key reads that key only (a uniqueness
constraint's), so a concurrent DELETE of it conflicts; a lookup of the
referencing rows reads the referencing table whole (its columns are
rarely a key), so a concurrent INSERT of a referencing row conflicts.
Either way one of the two transactions fails with 40001, or is recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from local_exec import key_tuples, matching
from planner.catalog import ForeignKey, Relation
from planner.errors import FEATURE_NOT_SUPPORTED, FOREIGN_KEY_VIOLATION, UNDEFINED_OBJECT, WRONG_OBJECT_TYPE, SqlError
from values import format_value

#: the actions of ``ForeignKey.on_delete`` / ``on_update`` (PostgreSQL's codes)
NO_ACTION, RESTRICT, CASCADE, SET_NULL, SET_DEFAULT = "a", "r", "c", "n", "d"


@dataclass
class Deferred:
    """A check left for COMMIT: the keys of ``fk`` (of the table with OID
    ``table``) that were written (``referencing``) or removed from the
    referenced table (not ``referencing``) by the transaction."""

    referencing: bool
    table: int
    fk: str
    keys: pa.Table  # the key's columns on the referenced side


class References:
    """Foreign keys of the statements one Dml runs (planner.dml)."""

    def __init__(self, dml):
        self.dml = dml
        self.work = dml.work

    # -- referencing side ------------------------------------------------------

    async def check_referencing(self, rel: Relation, rows: pa.Table, columns: set[str] | None = None, *, immediate: bool = False) -> None:
        """23503 unless every row of ``rows`` (new rows of ``rel``) finds the
        keys its foreign keys reference; ``columns``: only foreign keys on
        these columns (an UPDATE's assigned columns), else all;
        ``immediate``: even a deferred key now (ALTER TABLE ADD)."""
        if not rel.foreign_keys or not rows.num_rows:
            return
        catalog = await self.work.catalog()
        for fk in rel.foreign_keys:
            if columns is not None and not columns.intersection(fk.columns):
                continue
            parent = rel if fk.references == rel.oid else catalog.by_oid(fk.references)
            if parent is None:
                continue
            keys = _keys(rows, fk.columns, fk.referenced, parent)
            if fk.references == rel.oid:  # a row may reference one the statement writes
                keys = keys.filter(_not(matching(keys, fk.referenced, key_tuples(rows, fk.referenced))))
            if not keys.num_rows:
                continue
            if self._defers(fk) and not immediate:
                self.work.deferred.append(Deferred(True, rel.oid, fk.name, keys))
                continue
            await self._require(rel, fk, parent, keys)

    def _defers(self, fk: ForeignKey) -> bool:
        """Whether ``fk``'s check waits for COMMIT: a deferrable key in a
        transaction block, INITIALLY DEFERRED or SET CONSTRAINTS ... DEFERRED."""
        if not (fk.deferrable and self.work.explicit):
            return False
        modes = self.work.constraint_modes
        mode = modes.get(fk.name, modes.get(None))
        return fk.deferred if mode is None else mode == "deferred"

    async def _require(self, rel: Relation, fk: ForeignKey, parent: Relation, keys: pa.Table) -> None:
        found = await self.work.lookup(parent, fk.referenced, keys)
        missing = keys.filter(_not(matching(keys, fk.referenced, key_tuples(found, fk.referenced))))
        if missing.num_rows:
            key = missing.slice(0, 1).to_pylist()[0]
            shown = _shown(parent, fk.referenced, [key[c] for c in fk.referenced], fk.columns)
            raise SqlError(FOREIGN_KEY_VIOLATION, f'insert or update on table "{rel.name}" violates foreign key constraint "{fk.name}"',
                           detail=f'Key {shown} is not present in table "{parent.name}".', schema=rel.schema, table=rel.name, constraint=fk.name)

    # -- referenced side -------------------------------------------------------

    async def removed(self, rel: Relation, old: pa.Table, new: pa.Table | None = None) -> None:
        """Rows ``old`` of ``rel`` leave it (DELETE), or become ``new``
        (UPDATE: the same number of rows, in the same order): every
        foreign key referencing ``rel`` gets its action for the keys that
        leave. Cascaded writes go to the Work at once."""
        if not old.num_rows:
            return
        catalog = await self.work.catalog()
        for child in catalog.referrers(rel):
            for fk in child.foreign_keys:
                if fk.references == rel.oid:
                    await self._removed_keys(rel, old, new, child, fk)

    async def _removed_keys(self, rel: Relation, old: pa.Table, new: pa.Table | None, child: Relation, fk: ForeignKey) -> None:
        gone = _keys(old, fk.referenced, fk.referenced, rel)
        if new is not None:
            gone = gone.filter(_not(matching(gone, fk.referenced, key_tuples(new, fk.referenced))))
        if not gone.num_rows:
            return
        action = fk.on_delete if new is None else fk.on_update
        if action in (NO_ACTION, RESTRICT):
            if action == NO_ACTION and self._defers(fk):
                self.work.deferred.append(Deferred(False, child.oid, fk.name, gone))
                return
            await self._refuse_referenced(rel, child, fk, gone)
            return
        rows = await self.work.lookup(child, fk.columns, gone.rename_columns(list(fk.columns)))
        if not rows.num_rows:
            return
        if action == CASCADE and new is None:
            await self.work.write(child.shard, rows, -1)
            await self.removed(child, rows)
            return
        changed = await self._changed(rel, old, new, child, fk, rows, action)
        await self.work.write(child.shard, rows, -1)
        await self.work.write(child.shard, changed, 1)
        await self.removed(child, rows, changed)
        if action == SET_DEFAULT:
            await self.check_referencing(child, changed, set(fk.columns))

    async def _changed(self, rel, old, new, child: Relation, fk: ForeignKey, rows: pa.Table, action: str) -> pa.Table:
        """``rows`` (of ``child``) with their foreign-key columns set by the action."""
        if action == CASCADE:  # the new key of the row each references
            moved = {tuple(o[c] for c in fk.referenced): tuple(n[c] for c in fk.referenced)
                     for o, n in zip(old.select(list(fk.referenced)).to_pylist(), new.select(list(fk.referenced)).to_pylist())}
            targets = [moved[tuple(r[c] for c in fk.columns)] for r in rows.select(list(fk.columns)).to_pylist()]
            values = {c: [t[i] for t in targets] for i, c in enumerate(fk.columns)}
        elif action == SET_NULL:
            values = {c: [None] * rows.num_rows for c in fk.columns}
        else:
            values = {c: [await self._default(child, c)] * rows.num_rows for c in fk.columns}
        out = rows
        for c, v in values.items():
            i = out.schema.get_field_index(c)
            out = out.set_column(i, out.schema.field(i), pa.array(v, out.schema.field(i).type))
        return await self.dml.conform(out, child)

    async def _default(self, rel: Relation, column: str):
        col = rel.column(column)
        if col.default is None or col.filled:
            return None
        return (await self.dml.scalar(col.default, col.type))

    async def _refuse_referenced(self, rel: Relation, child: Relation, fk: ForeignKey, gone: pa.Table) -> None:
        still = await self.work.lookup(child, fk.columns, gone.rename_columns(list(fk.columns)))
        if still.num_rows:
            key = still.slice(0, 1).to_pylist()[0]
            shown = _shown(rel, fk.referenced, [key[c] for c in fk.columns], fk.referenced)
            raise SqlError(FOREIGN_KEY_VIOLATION,
                           f'update or delete on table "{rel.name}" violates foreign key constraint "{fk.name}" on table "{child.name}"',
                           detail=f'Key {shown} is still referenced from table "{child.name}".',
                           schema=child.schema, table=child.name, constraint=fk.name)

    async def truncate_cascade(self, rels: list[Relation]) -> list[Relation]:
        """``rels`` and every table referencing them, to any depth (TRUNCATE ... CASCADE)."""
        catalog = await self.work.catalog()
        out = {r.oid: r for r in rels}
        todo = list(rels)
        while todo:
            for child in catalog.referrers(todo.pop()):
                if child.oid not in out:
                    out[child.oid] = child
                    todo.append(child)
        return list(out.values())

    async def refuse_truncate(self, rels: list[Relation]) -> None:
        """0A000 when a table being truncated is referenced by one that is not."""
        catalog = await self.work.catalog()
        truncated = {r.oid for r in rels}
        for rel in rels:
            for child in catalog.referrers(rel):
                if child.oid not in truncated:
                    raise SqlError(FEATURE_NOT_SUPPORTED, "cannot truncate a table referenced in a foreign key constraint",
                                   detail=f'Table "{child.name}" references "{rel.name}".',
                                   hint=f'Truncate table "{child.name}" at the same time, or use TRUNCATE ... CASCADE.')

    # -- at COMMIT -------------------------------------------------------------

    async def set_constraints(self, names: list[str] | None, deferred: bool) -> None:
        """SET CONSTRAINTS {ALL | names} {DEFERRED | IMMEDIATE}: foreign keys
        named (42704 for none, 42809 for one not deferrable) check at COMMIT
        or at once; IMMEDIATE runs their checks deferred so far now."""
        if names is not None:
            fks = {fk.name: fk for rel in (await self.work.catalog()).relations.values() for fk in rel.foreign_keys}
            for name in names:
                if name not in fks:
                    raise SqlError(UNDEFINED_OBJECT, f'constraint "{name}" does not exist')
                if not fks[name].deferrable:
                    raise SqlError(WRONG_OBJECT_TYPE, f'constraint "{name}" is not deferrable')
        for name in names if names is not None else [None]:
            self.work.constraint_modes[name] = "deferred" if deferred else "immediate"
        if not deferred:
            await self.check_deferred(names)

    async def check_deferred(self, names: list[str] | None = None) -> None:
        """The checks deferred to COMMIT (or those of ``names``), against the
        transaction's state now."""
        pending = [d for d in self.work.deferred if names is None or d.fk in names]
        self.work.deferred = [d for d in self.work.deferred if d not in pending]
        catalog = await self.work.catalog()
        for d in pending:
            rel = catalog.by_oid(d.table)
            fk = next((f for f in rel.foreign_keys if f.name == d.fk), None) if rel is not None else None
            parent = catalog.by_oid(fk.references) if fk is not None else None
            if parent is None:
                continue  # the key or a table was dropped since
            if d.referencing:  # the referencing rows still there need their keys
                rows = await self.work.lookup(rel, fk.columns, d.keys.rename_columns(list(fk.columns)))
                keys = _keys(rows, fk.columns, fk.referenced, parent)
                if keys.num_rows:
                    await self._require(rel, fk, parent, keys)
            else:  # keys removed from the referenced table and not put back
                back = await self.work.lookup(parent, fk.referenced, d.keys)
                gone = d.keys.filter(_not(matching(d.keys, fk.referenced, key_tuples(back, fk.referenced))))
                if gone.num_rows:
                    await self._refuse_referenced(parent, rel, fk, gone)


def _keys(rows: pa.Table, cols, as_cols, rel: Relation) -> pa.Table:
    """The distinct keys of ``rows`` on ``cols`` with no NULL, named
    ``as_cols`` and typed as those columns of ``rel``."""
    tuples = key_tuples(rows, cols)
    schema = rel.schema_arrow
    arrays = [pa.array([t[i] for t in tuples], schema.field(c).type) for i, c in enumerate(as_cols)]
    return pa.Table.from_arrays(arrays, names=list(as_cols))


def _not(mask: pa.Array) -> pa.Array:
    return pc.invert(mask)


def _shown(rel: Relation, cols, values, names) -> str:
    """``(a, b)=(1, x)`` as PostgreSQL's DETAIL shows a key, ``names`` its columns."""
    text = ", ".join(format_value(v, rel.column(c).type) or "null" for v, c in zip(values, cols))
    return f"({', '.join(names)})=({text})"
