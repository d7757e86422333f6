"""Cheaper attribute assignment on pglast's AST nodes.

Every attribute pglast sets while it builds a statement's tree (and every
one the binder sets while rewriting) goes through ``ast.Node.__setattr__``,
which validates the value against the attribute's declared type. It
imports pglast's enum module and looks the type's enum up by name on each
assignment: half of a point statement's parse (``SELECT ... WHERE aid =
1``: 102 us, 54 us without that lookup on this machine).

``install()`` replaces it with an assignment that makes the same checks
with the enum found once per type: a value of the declared type (an enum
member for an enum field, a node or list for a node field) is assigned at
once; anything else (a name or number an enum coerces, a serialized
child, a wrong type) goes to pglast's own ``__setattr__``, which coerces
or refuses it exactly as before.

Invariant: a tree built with it equals, node for node and type for type,
the one pglast's own assignment builds (tests/planner/test_astnodes.py
checks PostgreSQL's regression statements).
"""

from __future__ import annotations

from pglast import ast, enums

__all__ = ["install"]

_ORIGINAL = ast.Node.__setattr__
_ASSIGN = object.__setattr__
#: a field's C type name -> its enum class, True (a plain value: assigned
#: once its type checks) or False (pglast's own assignment decides)
_KINDS: dict[str, object] = {}


def _kind(ctype: str):
    kind = _KINDS.get(ctype)
    if kind is None:
        if ctype == "char*":
            kind = True
        elif (found := getattr(enums, ctype, None)) is not None:
            kind = found
        else:  # a child node's type pglast does not know is refused by it
            kind = not ctype.endswith("*") or getattr(ast, ctype[:-1], None) is not None
        _KINDS[ctype] = kind
    return kind


def _setattr(node: ast.Node, name: str, value) -> None:
    if value is not None:
        spec = node.__slots__.get(name)
        if spec is not None:
            ctype, ptype, adaptor = spec
            if adaptor is not None:
                if not isinstance(value, ptype):
                    return _ORIGINAL(node, name, value)
                value = adaptor(value)
            else:
                kind = _kind(ctype)
                if kind is True:
                    if not isinstance(value, ptype) or isinstance(value, dict):
                        return _ORIGINAL(node, name, value)  # a wrong type, or a serialized child
                elif kind is False or not isinstance(value, kind):
                    return _ORIGINAL(node, name, value)  # a name or number the enum coerces, or refuses
    _ASSIGN(node, name, value)


def install() -> None:
    """Use the cheaper assignment for every node (idempotent)."""
    ast.Node.__setattr__ = _setattr


def original(node: ast.Node, name: str, value) -> None:
    """pglast's own assignment (tests compare the two)."""
    _ORIGINAL(node, name, value)
