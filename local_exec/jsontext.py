"""PostgreSQL's json (not jsonb) operators for the local engine: json
keeps its text as written, and ``->``, ``->>``, ``#>``, ``#>>``,
json_array_elements(_text), json_each(_text) and json_extract_path(_text)
return pieces of it, spacing and all (``'{"a": [1,2]}'::json -> 'a'`` is
``[1,2]``; local_exec.jsonb's functions print jsonb's canonical text).

A json text is read once into nodes that remember where each value starts
and ends (``_read``); a value's text is the slice between. An object's
member found by key is its last one, as in PostgreSQL; json_each lists
every member, duplicates too. A selector or path arrives JSON-encoded, as
local_exec.jsonb's do. json_strip_nulls writes the value back compactly
(no spaces, as PostgreSQL's) without the null members of objects;
``pretty_top`` puts a value's top-level members on lines of their own.

Invariant: every piece returned is a slice of the input (or, for the
``_text`` forms, a string member decoded); a text that is not JSON raises
22P02.
"""

from __future__ import annotations

import json

from local_exec import udf
from local_exec.jsonb import JsonError

__all__ = ["FUNCTIONS", "register"]

_SPACE = " \t\n\r"
_DECODE = json.JSONDecoder()


class _Node:
    """One json value: its kind ('object', 'array', 'string' or 'scalar'),
    its text's bounds, and its members ([(key, node)]) or elements."""

    __slots__ = ("kind", "start", "end", "items")

    def __init__(self, kind: str, start: int, end: int, items: list):
        self.kind, self.start, self.end, self.items = kind, start, end, items


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def _read(text: str, i: int = 0) -> tuple[_Node, int]:
    """The value starting at (or after white space from) ``i``, and where it ends."""
    i = _skip(text, i)
    if i >= len(text):
        raise JsonError("22P02", "invalid input syntax for type json")
    c = text[i]
    if c in "{[":
        close, items, j = "}" if c == "{" else "]", [], _skip(text, i + 1)
        if j < len(text) and text[j] == close:
            return _Node("object" if c == "{" else "array", i, j + 1, items), j + 1
        while True:
            if c == "{":
                key, j = _string_at(text, _skip(text, j))
                j = _skip(text, j)
                if j >= len(text) or text[j] != ":":
                    raise JsonError("22P02", "invalid input syntax for type json")
                node, j = _read(text, j + 1)
                items.append((key, node))
            else:
                node, j = _read(text, j)
                items.append(node)
            j = _skip(text, j)
            if j < len(text) and text[j] == ",":
                j += 1
                continue
            if j < len(text) and text[j] == close:
                return _Node("object" if c == "{" else "array", i, j + 1, items), j + 1
            raise JsonError("22P02", "invalid input syntax for type json")
    if c == '"':
        _key, j = _string_at(text, i)
        return _Node("string", i, j, []), j
    try:
        _value, j = _DECODE.raw_decode(text, i)
    except json.JSONDecodeError:
        raise JsonError("22P02", "invalid input syntax for type json") from None
    return _Node("null" if text[i] == "n" else "scalar", i, j, []), j


def _string_at(text: str, i: int) -> tuple[str, int]:
    if i >= len(text) or text[i] != '"':
        raise JsonError("22P02", "invalid input syntax for type json")
    try:
        value, j = _DECODE.raw_decode(text, i)
    except json.JSONDecodeError:
        raise JsonError("22P02", "invalid input syntax for type json") from None
    return value, j


def _doc(text: str) -> _Node:
    node, end = _read(text)
    if _skip(text, end) != len(text):
        raise JsonError("22P02", "invalid input syntax for type json")
    return node


def _step(node: _Node | None, sel) -> _Node | None:
    if node is None:
        return None
    if isinstance(sel, str) and node.kind == "object":
        return next((v for k, v in reversed(node.items) if k == sel), None)  # the last member of that name
    if isinstance(sel, int) and not isinstance(sel, bool) and node.kind == "array":
        i = sel + len(node.items) if sel < 0 else sel
        return node.items[i] if 0 <= i < len(node.items) else None
    return None


def _path_step(node: _Node | None, element: str | None) -> _Node | None:
    """One step of a text[] path: a key, or an index into an array."""
    if node is None or element is None:
        return None
    if node.kind == "array":
        try:
            return _step(node, int(element))
        except ValueError:
            return None
    return _step(node, element)


def _text(doc: str, node: _Node | None) -> str | None:
    return None if node is None else doc[node.start:node.end]


def _as_text(doc: str, node: _Node | None) -> str | None:
    """``->>``: a string decoded, null as NULL, anything else as written."""
    if node is None or node.kind == "null":
        return None
    return _DECODE.decode(doc[node.start:node.end]) if node.kind == "string" else doc[node.start:node.end]


def get(doc: str, sel: str) -> str | None:
    return _text(doc, _step(_doc(doc), json.loads(sel)))


def get_text(doc: str, sel: str) -> str | None:
    return _as_text(doc, _step(_doc(doc), json.loads(sel)))


def _walk(doc: str, path_json: str) -> _Node | None:
    node = _doc(doc)
    for element in json.loads(path_json):
        node = _path_step(node, element)
    return node


def path(doc: str, path_json: str) -> str | None:
    return _text(doc, _walk(doc, path_json))


def path_text(doc: str, path_json: str) -> str | None:
    return _as_text(doc, _walk(doc, path_json))


def _items(doc: str, kind: str, name: str) -> list:
    """The elements of an array (``kind`` "array") or the members of an
    object; 22023 in PostgreSQL's words for any other value."""
    node = _doc(doc)
    if node.kind != kind:
        what = "scalar" if kind == "array" and node.kind != "object" else f"non-{kind}"
        raise JsonError("22023", f"cannot call {name} on a {what}")
    return node.items


def array_elements(doc: str) -> list[str]:
    return [_text(doc, n) for n in _items(doc, "array", "json_array_elements")]


def array_elements_text(doc: str) -> list[str | None]:
    return [_as_text(doc, n) for n in _items(doc, "array", "json_array_elements_text")]


def each(doc: str) -> list[dict]:
    return [{"key": k, "value": _text(doc, n)} for k, n in _items(doc, "object", "json_each")]


def each_text(doc: str) -> list[dict]:
    return [{"key": k, "value": _as_text(doc, n)} for k, n in _items(doc, "object", "json_each_text")]


def strip_nulls(doc: str) -> str:
    def write(node: _Node) -> str:
        if node.kind == "object":
            return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{write(v)}" for k, v in node.items if v.kind != "null") + "}"
        if node.kind == "array":
            return "[" + ",".join(write(v) for v in node.items) + "]"
        return doc[node.start:node.end]

    return write(_doc(doc))


def pretty_top(doc: str) -> str:
    """row_to_json's and array_to_json's ``pretty``: the top-level members
    (or elements) on lines of their own (``,\n `` between them), each as
    written."""
    node = _doc(doc)
    if node.kind == "object":
        return "{" + ",\n ".join(f"{json.dumps(k, ensure_ascii=False)}:{doc[v.start:v.end]}" for k, v in node.items) + "}"
    if node.kind == "array":
        return "[" + ",\n ".join(doc[v.start:v.end] for v in node.items) + "]"
    return doc


#: DuckDB name -> (function, parameter types, return type)
FUNCTIONS = {
    "txngate_json_pretty_top": (pretty_top, ["VARCHAR"], "JSON"),
    "txngate_json_get": (get, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_json_get_text": (get_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_json_path": (path, ["VARCHAR", "VARCHAR"], "JSON"),
    "txngate_json_path_text": (path_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_json_array_elements": (array_elements, ["VARCHAR"], "VARCHAR[]"),
    "txngate_json_array_elements_text": (array_elements_text, ["VARCHAR"], "VARCHAR[]"),
    "txngate_json_each": (each, ["VARCHAR"], "STRUCT(key VARCHAR, value VARCHAR)[]"),
    "txngate_json_each_text": (each_text, ["VARCHAR"], "STRUCT(key VARCHAR, value VARCHAR)[]"),
    "txngate_json_strip_nulls": (strip_nulls, ["VARCHAR"], "JSON"),
}


def register(con) -> None:
    """Create every ``txngate_json_*`` function on a DuckDB connection."""
    udf.register(con, FUNCTIONS)
