"""PostgreSQL's json and jsonb semantics for the local engine.

Owns the canonical text of a jsonb value — what PostgreSQL prints: each
object key once (the last one given wins), keys ordered by byte length then
bytes, ``", "`` and ``": "`` between items, numbers as ``numeric`` prints
them (``1e2`` is ``100``, ``1.50`` keeps its scale) — and the json/jsonb
operators and functions DuckDB lacks or means differently (DuckDB's JSON
functions re-print numbers as doubles: ``1.50`` becomes ``1.5``). They are
registered on the engine's DuckDB connection as scalar functions named
``txngate_jsonb_*`` (``register``); the planner rewrites PostgreSQL's
operators to them.

A selector or path argument arrives JSON-encoded (``to_json(x)``), so one
function serves a text key, an integer index and a text[] path, as
PostgreSQL picks by the argument's type.

Invariants: every function that returns json returns canonical text (or
NULL); ``canonical(canonical(x)) == canonical(x)``; a value that is not
valid JSON raises ``JsonError`` with SQLSTATE 22P02, and an operation
PostgreSQL refuses (deleting from a scalar, ...) one with 22023.
"""

from __future__ import annotations

import decimal
import functools
import json
import re
from decimal import Decimal

from local_exec import udf
from local_exec.udf import FunctionError
from values import STORED_PLACES

__all__ = ["JsonError", "canonical", "register", "FUNCTIONS"]


class JsonError(FunctionError):
    """A json value or operation PostgreSQL refuses; carries its SQLSTATE."""


def _object(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)  # the last duplicate wins, as jsonb keeps it
    if len(out) < 2:
        return out
    # builtins only when every key is ASCII (bytes = characters): this runs per object
    keys = sorted(sorted(out), key=len) if "".join(out).isascii() else sorted(out, key=_key_order)
    return out if keys == list(out) else {k: out[k] for k in keys}


def _key_order(k: str) -> tuple[int, str]:
    # UTF-8 orders bytes as code points order characters: only lengths differ
    return (len(k) if k.isascii() else len(k.encode())), k


def _no_constant(name: str):
    raise JsonError("22P02", "invalid input syntax for type json")


def parse(text: str, *, ordered: bool = True):
    """A json text as Python values: numbers as int or Decimal, objects as
    dicts in jsonb key order (``ordered``; else in the text's order, which
    is the same for stored jsonb, and enough for lookups) (22P02 when it is
    not JSON)."""
    try:
        return (_ORDERED if ordered else _PLAIN).decode(text)
    except json.JSONDecodeError as e:
        raise JsonError("22P02", "invalid input syntax for type json", f"{e.msg} at character {e.pos + 1}.") from None


# built once: json.loads with options builds a decoder per call
_ORDERED = json.JSONDecoder(parse_float=Decimal, object_pairs_hook=_object, parse_constant=_no_constant)
_PLAIN = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constant)


def _lookup(text: str):
    return parse(text, ordered=False)


#: a selector, path or needle: usually the same on every row, so parsed once
#: (callers only read the result)
_constant = functools.lru_cache(maxsize=1024)(_lookup)


def _number(v) -> str:
    if isinstance(v, Decimal):
        if v == 0:
            v = v.copy_abs()
        return format(v, "f")
    return str(v)


def _refuse(v):
    raise TypeError


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), default=_refuse)
_string = _ENCODER.encode


def dump(v) -> str:
    """Canonical text of a parsed value (json's C encoder unless a Decimal
    needs numeric's printing)."""
    try:
        return _ENCODER.encode(v)
    except TypeError:
        return _dump(v)


def _dump(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (int, Decimal)):
        return _number(v)
    if isinstance(v, list):
        return "[" + ", ".join(_dump(x) for x in v) + "]"
    return "{" + ", ".join(f"{_string(k)}: {_dump(x)}" for k, x in v.items()) + "}"


def pretty(v, indent: str = "") -> str:
    """jsonb_pretty's layout: four spaces per level, one item per line."""
    inner = indent + "    "
    if isinstance(v, list):
        return "[\n" + ",\n".join(inner + pretty(x, inner) for x in v) + ("\n" if v else "") + indent + "]"
    if isinstance(v, dict):
        items = (f"{inner}{_string(k)}: {pretty(x, inner)}" for k, x in v.items())
        return "{\n" + ",\n".join(items) + ("\n" if v else "") + indent + "}"
    return dump(v)


def canonical(text: str | None) -> str | None:
    """``text`` (json) as jsonb prints it."""
    return None if text is None else dump(parse(text))


#: DuckDB's JSON of a double prints NaN and the infinities bare (not JSON);
#: PostgreSQL's to_json/to_jsonb give them as strings
_COMPUTED = json.JSONDecoder(parse_float=Decimal, object_pairs_hook=_object, parse_constant=str)
_SPECIALS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


def computed_jsonb(text: str | None) -> str | None:
    """A jsonb the engine computed (to_jsonb, jsonb_build_object, ...) as
    jsonb prints it, its float specials as strings."""
    if text is None:
        return None
    try:
        return dump(_COMPUTED.decode(text))
    except json.JSONDecodeError as e:
        raise JsonError("22P02", "invalid input syntax for type json", f"{e.msg} at character {e.pos + 1}.") from None


def json_input(text: str) -> str:
    """json's input: the text as it is, once it reads as JSON (22P02 else:
    the engine's own reading allows trailing commas and NaN)."""
    _lookup(text)
    return text


def computed_json(text: str | None) -> str | None:
    """A json the engine computed (to_json, row_to_json, json_agg, ...)
    as it is, but its bare float specials quoted (strings are skipped
    whole, so text inside them stays)."""
    if text is None or ("NaN" not in text and "Infinity" not in text):
        return text
    return _SPECIALS.sub(lambda m: f'"{m.group(1)}"' if m.group(1) else m.group(0), text)


class _Raw(str):
    """A JSON number or constant as its text (written back unchanged)."""


class _Object(list):
    """A JSON object as its (key, value) pairs, in order."""


_RAW = json.JSONDecoder(parse_float=_Raw, parse_int=_Raw, parse_constant=_Raw, object_pairs_hook=_Object)


def typed_json(text: str, type_text: str) -> str:
    """The engine's JSON of a row or array (``to_json``) with the values
    of the types it writes unlike PostgreSQL rewritten, found by the
    value's DuckDB type (``typeof``): timestamps in ISO 8601 (``T``, and
    the offset's minutes), bytea as ``\\x`` hex, a numeric of a declared
    scale with its places (the engine drops trailing zeros). Everything else is
    written back as it was, compactly (as row_to_json writes)."""
    return _write(_retype(_RAW.decode(text), _parse_type(type_text)[0]))


def json_row(text: str, type_text: str, json_fields: str) -> str:
    """``typed_json`` of a whole row whose ``json_fields`` (a JSON array of
    names) are json or jsonb columns: the engine holds their text as
    strings; PostgreSQL writes each as the document it is, its text as it
    was stored (json's spacing, jsonb's canonical text)."""
    kind = _parse_type(type_text)[0]
    row = _retype(_RAW.decode(text), kind)
    if isinstance(row, _Object):
        # a field the engine computed as JSON (``doc->'k'``) is written as a document already: only text ones are raw
        documents = {k for k, t in kind[1] if t == ("json",)} if kind[0] == "struct" else set()
        fields = set(json.loads(json_fields)) - documents
        row = _Object((k, _Raw(x) if k in fields and isinstance(x, str) and not isinstance(x, _Raw) else x) for k, x in row)
    return _write(row)


def _parse_type(t: str, i: int = 0):
    """A DuckDB type name as ("struct", [(field, type)]), ("tuple", [type])
    (a ROW(...): its fields unnamed), ("list", type), ("timestamp",),
    ("timestamptz",), ("blob",), ("json",), ("decimal", scale) or
    ("other",); and where it ended."""
    if t.startswith("TIMESTAMP WITH TIME ZONE", i):
        node, i = ("timestamptz",), i + len("TIMESTAMP WITH TIME ZONE")
    elif t.startswith("TUPLE(", i):
        kinds, i = [], i + len("TUPLE(")
        while t[i] != ")":
            kind, i = _parse_type(t, i)
            kinds.append(kind)
            if t.startswith(", ", i):
                i += 2
        node, i = ("tuple", kinds), i + 1
    elif t.startswith("STRUCT(", i):
        fields, i = [], i + len("STRUCT(")
        while t[i] != ")":
            field, i = _type_word(t, i)
            kind, i = _parse_type(t, i + 1)  # past the space
            fields.append((field, kind))
            if t.startswith(", ", i):
                i += 2
        node, i = ("struct", fields), i + 1
    else:
        start = i
        word, i = _type_word(t, i)
        if t.startswith("(", i):  # DECIMAL(10,2), MAP(K, V), ...: nothing inside to rewrite
            depth = 0
            while True:
                depth += {"(": 1, ")": -1}.get(t[i], 0)
                i += 1
                if depth == 0:
                    break
        node = {"TIMESTAMP": ("timestamp",), "BLOB": ("blob",), "JSON": ("json",)}.get(word, ("other",))
        if word == "DECIMAL" and (scale := re.fullmatch(r"DECIMAL\(\d+,(\d+)\)", t[start:i])):
            node = ("decimal", int(scale.group(1)))
    while t.startswith("[", i):
        i = t.index("]", i) + 1
        node = ("list", node)
    return node, i


def _type_word(t: str, i: int) -> tuple[str, int]:
    """A field or type name at ``i`` (double-quoted or bare) and where it ended."""
    if t[i] == '"':
        k = i + 1
        while True:
            k = t.index('"', k)
            if t.startswith('""', k):
                k += 2
                continue
            return t[i + 1:k].replace('""', '"'), k + 1
    k = i
    while k < len(t) and t[k] not in " ,()[]":
        k += 1
    return t[i:k], k


def _retype(v, kind):
    if v is None:
        return None
    if kind[0] == "struct" and isinstance(v, _Object):
        types = dict(kind[1])
        return _Object((k, _retype(x, types.get(k, ("other",)))) for k, x in v)
    if kind[0] == "list" and isinstance(v, list) and not isinstance(v, _Object):
        return [_retype(x, kind[1]) for x in v]
    if kind[0] == "tuple" and isinstance(v, list) and not isinstance(v, _Object):  # (the engine writes a ROW as an array)
        return _Object((f"f{n}", _retype(x, k)) for n, (x, k) in enumerate(zip(v, kind[1]), 1))
    if kind[0] == "timestamp" and isinstance(v, str) and not isinstance(v, _Raw):
        return v.replace(" ", "T", 1)
    if kind[0] == "timestamptz" and isinstance(v, str) and not isinstance(v, _Raw):
        v = v.replace(" ", "T", 1)
        return v + ":00" if re.search(r"[+-]\d\d$", v) else v
    if kind[0] == "blob" and isinstance(v, str) and not isinstance(v, _Raw):
        return "\\x" + _blob_bytes(v).hex()
    if kind[0] == "decimal" and isinstance(v, _Raw):
        # the engine writes some decimals as doubles (1.10 as 1.1), others with all their places; the scale of
        # an unconstrained numeric (computed with values.STORED_PLACES) is each value's own, without trailing zeros
        d = decimal.Decimal(v)
        if kind[1] == STORED_PLACES:
            text = f"{d:f}"
            return _Raw(text.rstrip("0").rstrip(".") if "." in text else text)
        return _Raw(str(d.quantize(decimal.Decimal(1).scaleb(-kind[1]))))
    return v


def _blob_bytes(text: str) -> bytes:
    """DuckDB's text of a blob (``\\xNN`` escapes among plain characters) as its bytes."""
    out, i = bytearray(), 0
    while i < len(text):
        if text.startswith("\\x", i) and i + 4 <= len(text):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def _write(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, _Raw):
        return str(v)
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, str):
        return _compact_string(v)
    if isinstance(v, _Object):
        return "{" + ",".join(f"{_compact_string(k)}:{_write(x)}" for k, x in v) + "}"
    return "[" + ",".join(_write(x) for x in v) + "]"


_compact_string = json.JSONEncoder(ensure_ascii=False).encode


def _as_text(v) -> str | None:
    """``->>``: a string unquoted, null as NULL, anything else as jsonb text."""
    if v is None:
        return None
    return v if isinstance(v, str) else dump(v)


# -- navigation ----------------------------------------------------------------

_MISSING = object()


def _step(v, sel):
    """One ``->`` step: an object's key, an array's index (negative from the end)."""
    if isinstance(sel, str):
        if isinstance(v, dict):
            return v.get(sel, _MISSING)
        if isinstance(v, list) and _index(sel) is not None:
            sel = _index(sel)  # a path element names an index as text
        else:
            return _MISSING
    if isinstance(sel, int) and not isinstance(sel, bool) and isinstance(v, list):
        i = sel + len(v) if sel < 0 else sel
        return v[i] if 0 <= i < len(v) else _MISSING
    return _MISSING


def _index(s: str) -> int | None:
    try:
        return int(s)
    except ValueError:
        return None


def _walk(v, path: list):
    for sel in path:
        if sel is None:
            return _MISSING
        v = _step(v, sel)
        if v is _MISSING:
            return v
    return v


def _get(doc: str, sel: str):
    v, sel = _lookup(doc), _constant(sel)
    if not _is_container(v) and isinstance(sel, int) and sel in (0, -1):
        return v  # a scalar answers an index as a one-element array, as in PostgreSQL
    return _step(v, sel)


def get(doc: str, sel: str) -> str | None:
    """``doc -> sel``."""
    v = _get(doc, sel)
    return None if v is _MISSING else dump(v)


def get_text(doc: str, sel: str) -> str | None:
    """``doc ->> sel``."""
    v = _get(doc, sel)
    return None if v is _MISSING else _as_text(v)


def path(doc: str, path_json: str) -> str | None:
    v = _walk(_lookup(doc), _constant(path_json))
    return None if v is _MISSING else dump(v)


def path_text(doc: str, path_json: str) -> str | None:
    v = _walk(_lookup(doc), _constant(path_json))
    return None if v is _MISSING else _as_text(v)


# -- containment and existence -------------------------------------------------

def _scalar_key(v):
    """Scalars compare by kind and value (true is not 1; 1 equals 1.0)."""
    if v is None or isinstance(v, bool):
        return ("b", v)
    if isinstance(v, (int, Decimal)):
        return ("n", Decimal(v))
    return ("s", v)


def _is_container(v) -> bool:
    return isinstance(v, (list, dict))


def _contains(a, b, top: bool) -> bool:
    if isinstance(b, dict):
        return isinstance(a, dict) and all(
            k in a and (_contains(a[k], x, False) if _is_container(x) else not _is_container(a[k]) and _scalar_key(a[k]) == _scalar_key(x))
            for k, x in b.items()
        )
    if isinstance(b, list):
        if not isinstance(a, list):
            return False
        scalars = {_scalar_key(x) for x in a if not _is_container(x)}
        containers = [x for x in a if _is_container(x)]
        return all(
            any(type(c) is type(x) and _contains(c, x, False) for c in containers) if _is_container(x) else _scalar_key(x) in scalars
            for x in b
        )
    if isinstance(a, list):  # an array contains a primitive value, at the top level only
        return top and any(not _is_container(x) and _scalar_key(x) == _scalar_key(b) for x in a)
    return not _is_container(a) and _scalar_key(a) == _scalar_key(b)


def contains(a: str, b: str) -> bool:
    """``a @> b``."""
    return _contains(_lookup(a), _constant(b), True)


def _has(v, key: str) -> bool:
    if isinstance(v, dict):
        return key in v
    if isinstance(v, list):
        return any(x == key for x in v if isinstance(x, str))
    return v == key


def exists(doc: str, key: str) -> bool:
    """``doc ? key``: a top-level key, array string element or the string itself."""
    return _has(_lookup(doc), key)


def exists_any(doc: str, keys_json: str) -> bool:
    v = _lookup(doc)
    return any(k is not None and _has(v, k) for k in _constant(keys_json))


def exists_all(doc: str, keys_json: str) -> bool:
    v = _lookup(doc)
    return all(k is None or _has(v, k) for k in _constant(keys_json))


# -- modification --------------------------------------------------------------

def concat(a: str, b: str) -> str:
    """``a || b``: objects merge (b's keys win); otherwise arrays concatenate,
    a non-array taken as a one-element array."""
    x, y = parse(a), parse(b)
    if isinstance(x, dict) and isinstance(y, dict):
        return dump(_object(list(x.items()) + list(y.items())))
    x = x if isinstance(x, list) else [x]
    y = y if isinstance(y, list) else [y]
    return dump(x + y)


def delete(doc: str, sel_json: str) -> str:
    """``doc - key``, ``doc - index``, ``doc - keys``."""
    v, sel = parse(doc), json.loads(sel_json)
    if not _is_container(v):
        raise JsonError("22023", "cannot delete from scalar")
    if isinstance(sel, int) and not isinstance(sel, bool):
        if isinstance(v, dict):
            raise JsonError("22023", "cannot delete from object using integer index")
        i = sel + len(v) if sel < 0 else sel
        return dump(v[:i] + v[i + 1:] if 0 <= i < len(v) else v)
    keys = set(sel) if isinstance(sel, list) else {sel}
    if isinstance(v, dict):
        return dump({k: x for k, x in v.items() if k not in keys})
    return dump([x for x in v if not (isinstance(x, str) and x in keys)])


def delete_path(doc: str, path_json: str) -> str:
    """``doc #- path``."""
    v, p = parse(doc), json.loads(path_json)
    if not _is_container(v):
        raise JsonError("22023", "cannot delete path in scalar")
    slot = _slot(v, p) if p and None not in p else None
    if slot is not None:
        container, key = slot
        if isinstance(container, dict):
            container.pop(key, None)
        elif 0 <= key < len(container):
            del container[key]
    return dump(v)


def _edit(doc: str, path_json: str, new: str, change) -> str:
    """``doc`` with ``change(container, key, value)`` done where ``path``
    lands (``_target``); a missing step before the last changes nothing."""
    v, value, slot = _target(doc, path_json, new)
    if slot is not None:
        change(*slot, value)
    return dump(v)


def set_path(doc: str, path_json: str, new: str, create_missing: bool) -> str:
    """jsonb_set: ``new`` at ``path``, added when the last step is missing
    (and ``create_missing``); a missing step before it changes nothing."""
    def change(container, key, value):
        if isinstance(container, dict):
            if key in container:
                container[key] = value
            elif create_missing:
                _add_member(container, key, value)
        elif 0 <= key < len(container):
            container[key] = value
        elif create_missing:
            container.insert(0 if key < 0 else len(container), value)
    return _edit(doc, path_json, new, change)


def insert_path(doc: str, path_json: str, new: str, after: bool) -> str:
    """jsonb_insert: ``new`` before (``after``: after) the array element at
    ``path``, or as the object member ``path`` names (22023 when it is
    there); a missing step before the last changes nothing."""
    def change(container, key, value):
        if isinstance(container, dict):
            if key in container:
                raise JsonError("22023", "cannot replace existing key")
            _add_member(container, key, value)
        else:
            container.insert(0 if key < 0 else len(container) if key >= len(container) else key + int(after), value)
    return _edit(doc, path_json, new, change)


def _add_member(obj: dict, key: str, value) -> None:
    """``obj`` with the new member ``key``, its keys in jsonb's order."""
    obj[key] = value
    ordered = _object(list(obj.items()))
    obj.clear()
    obj.update(ordered)


def _target(doc: str, path_json: str, new: str):
    """(document, new value, ``_slot`` of the path) for jsonb_set and
    jsonb_insert: 22023 for a scalar document, 22004 for a NULL step."""
    v, p, value = parse(doc), json.loads(path_json), parse(new)
    if not _is_container(v):
        raise JsonError("22023", "cannot set path in scalar")
    if None in p:
        raise JsonError("22004", "path element at position %d is null" % (p.index(None) + 1))
    return v, value, _slot(v, p) if p else None


def _slot(v, p: list):
    """Where the last step of path ``p`` lands: (container, key or index
    from the start, maybe out of range); None when an earlier step is
    missing or not a container. 22P02 for a non-integer step into an array."""
    for pos, key in enumerate(p[:-1], 1):
        if isinstance(v, dict):
            v = v.get(key, _MISSING)
        else:
            i = _list_index(v, key, pos)
            v = v[i] if 0 <= i < len(v) else _MISSING
        if not _is_container(v):
            return None
    return v, p[-1] if isinstance(v, dict) else _list_index(v, p[-1], len(p))


def _list_index(v: list, key: str, pos: int) -> int:
    i = _index(key)
    if i is None:
        raise JsonError("22P02", f'path element at position {pos} is not an integer: "{key}"')
    return i + len(v) if i < 0 else i


def assign(doc: str, subscripts_json: str, new: str) -> str:
    """``doc[s1][s2]... = new`` (UPDATE's jsonb subscript assignment):
    missing object members and containers are created (an array for an
    integer subscript, an object for a text one), an array is filled with
    nulls up to a subscript past its end, a negative subscript counts from
    the end. ``doc`` is '' for a NULL document (an empty container of the
    first subscript's kind); 22004 for a NULL subscript, 22023 where the
    path meets a scalar or reaches before an array's start."""
    keys = json.loads(subscripts_json)
    if None in keys:
        raise JsonError("22004", "jsonb subscript in assignment must not be null")
    if any(isinstance(k, (float, bool)) for k in keys):
        raise JsonError("42804", "subscript type numeric is not supported",
                        detail="jsonb subscript must be coercible to either integer or text.")
    root = ([] if isinstance(keys[0], int) else {}) if doc == "" else parse(doc)
    _assign(root, keys, parse(new), 1)
    return dump(root)


def _assign(v, keys: list, value, pos: int) -> None:
    if not _is_container(v):
        raise JsonError("22023", "cannot replace existing key",
                        detail="The path assumes key is a composite object, but it is a scalar value.")
    key, rest = keys[0], keys[1:]
    if isinstance(v, dict):
        slot = str(key)
        if rest and slot in v:
            return _assign(v[slot], rest, value, pos + 1)
        return _add_member(v, slot, _created(rest, value, pos + 1) if rest else value)
    i = _list_index(v, str(key), pos)
    if i < 0:
        raise JsonError("22023", f"path element at position {pos} is out of range: {key}")
    if rest and i < len(v):
        return _assign(v[i], rest, value, pos + 1)
    v.extend([None] * (i + 1 - len(v)))
    v[i] = _created(rest, value, pos + 1) if rest else value


def _created(keys: list, value, pos: int):
    """The container a missing step of an assignment path creates, holding
    ``value`` at the rest of the path."""
    out = [] if isinstance(keys[0], int) or _index(str(keys[0])) is not None else {}
    _assign(out, keys, value, pos)
    return out


def _strip(v):
    if isinstance(v, dict):
        return {k: _strip(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_strip(x) for x in v]
    return v


def strip_nulls(doc: str) -> str:
    return dump(_strip(parse(doc)))


def jsonb_pretty(doc: str) -> str:
    return pretty(parse(doc))


_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", Decimal: "number", type(None): "null"}


def typeof(doc: str) -> str:
    return _TYPES[type(_lookup(doc))]


#: jsonb's value kinds as PostgreSQL's cast errors name them
_CAST_NAMES = {type(None): "null", str: "string", list: "array", dict: "object", bool: "boolean", int: "numeric", Decimal: "numeric"}


_INTEGER_BITS = {"smallint": 16, "integer": 32, "bigint": 64}


def scalar_text(doc: str, target: str) -> str:
    """The text of a jsonb scalar cast to ``target`` (boolean, or a
    number type: integers rounded half away from zero, as numeric's
    casts round), 22023 when the value is of another kind (null too)."""
    v = _lookup(doc)
    if target == "boolean" and (v is True or v is False):
        return "true" if v else "false"
    if target != "boolean" and isinstance(v, (int, Decimal)) and not isinstance(v, bool):
        if target in _INTEGER_BITS:
            n = int(v.to_integral_value(decimal.ROUND_HALF_UP)) if isinstance(v, Decimal) else v
            if not -(1 << _INTEGER_BITS[target] - 1) <= n < 1 << _INTEGER_BITS[target] - 1:
                raise JsonError("22003", f"{target} out of range")
            return str(n)
        return _number(v)
    raise JsonError("22023", f"cannot cast jsonb {_CAST_NAMES[type(v)]} to type {target}")


def array_length(doc: str) -> int:
    v = _lookup(doc)
    if not isinstance(v, list):
        raise JsonError("22023", "cannot get array length of a " + ("scalar" if not isinstance(v, dict) else "non-array"))
    return len(v)


def object_keys(doc: str) -> list[str]:
    v = parse(doc)
    if not isinstance(v, dict):
        raise JsonError("22023", f"cannot call jsonb_object_keys on {'an array' if isinstance(v, list) else 'a scalar'}")
    return list(v)


def array_elements(doc: str) -> list[str]:
    v = parse(doc)
    if not isinstance(v, list):
        raise JsonError("22023", "cannot extract elements from " + ("an object" if isinstance(v, dict) else "a scalar"))
    return [dump(x) for x in v]


def array_elements_text(doc: str) -> list[str | None]:
    v = parse(doc)
    if not isinstance(v, list):
        raise JsonError("22023", "cannot extract elements from " + ("an object" if isinstance(v, dict) else "a scalar"))
    return [_as_text(x) for x in v]


def array_texts(doc: str, depth: int) -> list:
    """A json array of ``depth`` dimensions as nested lists of its
    elements' text (``->>``'s: NULL for null), as json[b]_populate_record
    reads it into an array column declared of that many: sub-arrays of
    one length (else 22P02, malformed), an element where a sub-array is
    expected 22P02; an array of fewer or more dimensions than declared,
    which PostgreSQL's array type also holds, is refused (0A000: txngate's
    arrays have their declared dimensions). No elements at all: empty."""
    v = parse(doc)

    def level(x, d: int):  # (x at nesting d: a sub-array while d <= depth, then an element)
        if d > depth:
            if isinstance(x, list):
                raise FunctionError("0A000", f"an array of more than {depth} dimensions here is not supported")
            return _as_text(x)
        if not isinstance(x, list):
            raise JsonError("22P02", "expected JSON array")
        return [level(e, d + 1) for e in x]
    if not isinstance(v, list):
        raise JsonError("22P02", "expected JSON array")
    if v and not isinstance(v[0], list):
        raise FunctionError("0A000", f"an array of fewer than {depth} dimensions here is not supported")
    out = level(v, 1)

    def lengths(x, d: int, found: dict):
        if found.setdefault(d, len(x)) != len(x):
            raise JsonError("22P02", "malformed JSON array", detail="Multidimensional arrays must have sub-arrays with matching dimensions.")
        for e in x if d < depth else ():
            lengths(e, d + 1, found)
    lengths(out, 1, {})

    def count(x) -> int:
        return sum(count(e) for e in x) if isinstance(x, list) else 1
    return out if count(out) else []


def each(doc: str) -> list[dict]:
    v = parse(doc)
    if not isinstance(v, dict):
        raise JsonError("22023", "cannot call jsonb_each on a non-object")
    return [{"key": k, "value": dump(x)} for k, x in v.items()]


def each_text(doc: str) -> list[dict]:
    v = parse(doc)
    if not isinstance(v, dict):
        raise JsonError("22023", "cannot call jsonb_each_text on a non-object")
    return [{"key": k, "value": _as_text(x)} for k, x in v.items()]


# -- ordering ------------------------------------------------------------------
#
# PostgreSQL orders jsonb values (compareJsonbContainers): by type, null <
# string < number < boolean < array < object; arrays by their number of
# elements, then element by element; objects by their number of pairs, then
# key, value, key, value... in jsonb's key order; strings by the database's
# collation (txngate's is C: bytes); numbers numerically (1.0 equals 1). A
# top-level scalar is a one-element "raw scalar" array that sorts before a
# real array of one element (so '[]' < 'null'). ``sort_key`` encodes a value
# as bytes whose bytewise order is that order: each part prefix-free, so
# concatenations compare part by part.

_NULL, _STRING, _NUMBER, _BOOL, _ARRAY, _OBJECT = b"\x10", b"\x11", b"\x12", b"\x13", b"\x20", b"\x21"


def _count(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _text_key(s: str) -> bytes:
    return s.encode().replace(b"\x00", b"\x00\xff") + b"\x00\x00"


def _number_key(v) -> bytes:
    sign, digits, exponent = Decimal(v).as_tuple()
    digits = list(digits)
    while digits and digits[-1] == 0:
        digits.pop()
        exponent += 1
    if not digits:
        return b"\x02"  # zero, between the negatives and the positives
    # the value is 0.d1d2... x 10^scale with d1 != 0: by scale, then by digits
    body = (len(digits) + exponent + (1 << 31)).to_bytes(4, "big") + bytes(d + 1 for d in digits) + b"\x00"
    return b"\x01" + bytes(255 - b for b in body) if sign else b"\x03" + body


def _value_key(v) -> bytes:
    if v is None:
        return _NULL
    if v is True or v is False:
        return _BOOL + (b"\x01" if v else b"\x00")
    if isinstance(v, str):
        return _STRING + _text_key(v)
    if isinstance(v, (int, Decimal)):
        return _NUMBER + _number_key(v)
    if isinstance(v, list):
        return _ARRAY + _count(len(v)) + b"\x01" + b"".join(_value_key(x) for x in v)
    return _OBJECT + _count(len(v)) + b"".join(_STRING + _text_key(k) + _value_key(x) for k, x in v.items())


@functools.lru_cache(maxsize=1024)
def sort_key(doc: str) -> bytes:
    """Bytes that order as PostgreSQL orders the jsonb ``doc`` (equal for equal values)."""
    v = parse(doc)
    if isinstance(v, (list, dict)):
        return _value_key(v)
    return _ARRAY + _count(1) + b"\x00" + _value_key(v)  # a raw scalar


def object_of(keys: list, values: list | None, spaced: bool) -> str:
    """PostgreSQL's json_object(keys, values) and json_object(flat pairs)
    (``values`` None): an object of text values, json's spacing
    (``{"a" : "1", "b" : null}``) or jsonb's canonical form."""
    if values is None:
        if len(keys) % 2:
            raise JsonError("2202E", "array must have even number of elements")
        keys, values = keys[0::2], keys[1::2]
    elif len(keys) != len(values):
        raise JsonError("2202E", "mismatched array dimensions")
    if any(k is None for k in keys):
        raise JsonError("22004", "null value not allowed for object key")
    if not spaced:
        return canonical(json.dumps(dict(zip(keys, values))))
    if not keys:
        return "{}"
    return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)} : {json.dumps(v, ensure_ascii=False)}" for k, v in zip(keys, values)) + "}"


#: DuckDB name -> (function, parameter types, return type)
FUNCTIONS = {
    "txngate_json_object": (lambda keys, values: object_of(keys, values, True), ["VARCHAR[]", "VARCHAR[]"], "JSON"),
    "txngate_json_object_pairs": (lambda pairs: object_of(pairs, None, True), ["VARCHAR[]"], "JSON"),
    "txngate_jsonb_object": (lambda keys, values: object_of(keys, values, False), ["VARCHAR[]", "VARCHAR[]"], "JSON"),
    "txngate_jsonb_object_pairs": (lambda pairs: object_of(pairs, None, False), ["VARCHAR[]"], "JSON"),
    "txngate_jsonb": (computed_jsonb, ["VARCHAR"], "JSON"),
    "txngate_json": (computed_json, ["VARCHAR"], "JSON"),
    "txngate_json_input": (json_input, ["VARCHAR"], "VARCHAR"),
    "txngate_typed_json": (typed_json, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_typed_json_row": (json_row, ["VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_jsonb_sortkey": (sort_key, ["VARCHAR"], "BLOB"),
    "txngate_jsonb_get": (get, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_jsonb_get_text": (get_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_jsonb_path": (path, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_jsonb_path_text": (path_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_jsonb_contains": (contains, ["VARCHAR", "VARCHAR"], "BOOLEAN"),
    "txngate_jsonb_exists": (exists, ["VARCHAR", "VARCHAR"], "BOOLEAN"),
    "txngate_jsonb_exists_any": (exists_any, ["VARCHAR", "VARCHAR"], "BOOLEAN"),
    "txngate_jsonb_exists_all": (exists_all, ["VARCHAR", "VARCHAR"], "BOOLEAN"),
    "txngate_jsonb_concat": (concat, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_jsonb_delete": (delete, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_jsonb_delete_path": (delete_path, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_jsonb_set": (set_path, ["VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN"], "JSON"),
    "txngate_jsonb_insert": (insert_path, ["VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN"], "JSON"),
    "txngate_jsonb_assign": (assign, ["VARCHAR", "VARCHAR", "VARCHAR"], "JSON"),
    "txngate_jsonb_strip_nulls": (strip_nulls, ["VARCHAR"], "JSON"),
    "txngate_jsonb_pretty": (jsonb_pretty, ["VARCHAR"], "VARCHAR"),
    "txngate_jsonb_typeof": (typeof, ["VARCHAR"], "VARCHAR"),
    "txngate_jsonb_scalar_text": (scalar_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_jsonb_array_length": (array_length, ["VARCHAR"], "INTEGER"),
    "txngate_jsonb_object_keys": (object_keys, ["VARCHAR"], "VARCHAR[]"),
    "txngate_jsonb_array_elements": (array_elements, ["VARCHAR"], "VARCHAR[]"),
    "txngate_jsonb_array_elements_text": (array_elements_text, ["VARCHAR"], "VARCHAR[]"),
    "txngate_json_array_texts2": (lambda doc: array_texts(doc, 2), ["VARCHAR"], "VARCHAR[][]"),
    "txngate_json_array_texts3": (lambda doc: array_texts(doc, 3), ["VARCHAR"], "VARCHAR[][][]"),
    "txngate_jsonb_each": (each, ["VARCHAR"], "STRUCT(key VARCHAR, value VARCHAR)[]"),
    "txngate_jsonb_each_text": (each_text, ["VARCHAR"], "STRUCT(key VARCHAR, value VARCHAR)[]"),
}


def register(con) -> None:
    """Create every ``txngate_jsonb_*`` function on a DuckDB connection."""
    udf.register(con, FUNCTIONS)
