"""Rewrites of SQL text before it is parsed, for statements too big to
parse as written: long integer IN lists become relations
(``relation_lists``), huge string literals are cut out to become
parameters (``huge_literals``).

Both work on the text, linear in its length, and in short steps: a scan is
a series of ``str.find`` calls and small regular-expression matches, never
one call over the whole text, because each call holds the interpreter's
lock and the statement is handled on a worker thread while every other
session's work waits for that lock (one regular expression over a 50 MB IN
list held it for seconds).

Invariants: a rewrite never touches text inside quotes, quoted names,
comments or dollar quotes (``spans``); text that cannot be lexed plainly
(escape strings, nested comments, an unterminated quote) is left as written
for the parser to judge.
"""

from __future__ import annotations

import re

#: an integer IN list this long becomes a relation before parsing
LIST_RELATION = 1000
#: a string literal this long is cut out of a query (``huge_literals``)
HUGE_LITERAL = 1 << 16

_LIST_START = re.compile(r"\bIN\s*\(\s*[+-]?\d", re.IGNORECASE)
_INTS = re.compile(r"\s*[+-]?\d+(?:\s*,\s*[+-]?\d+)*\s*")
_DOLLAR_TAG = re.compile(r"\$(?:[A-Za-z_][A-Za-z_0-9]*)?\$")
_NO_SPACE = str.maketrans("", "", " \t\r\n\f\v")
#: characters of the list's text checked per step
_STEP = 1 << 16


def spans(sql: str) -> list[tuple[int, int]] | None:
    """The ``[start, end)`` of every quoted string, quoted name, comment and
    dollar-quoted string of ``sql``, in order; None when the text is not
    plainly lexable."""
    out: list[tuple[int, int]] = []
    pos, n = 0, len(sql)
    ahead = {c: sql.find(c) for c in "'\"$-/"}  # each character's next place (-1: none)
    while True:
        for c, i in ahead.items():
            if 0 <= i < pos:
                ahead[c] = sql.find(c, pos)
        found = [(i, c) for c, i in ahead.items() if i >= 0]
        if not found:
            return out
        i, c = min(found)
        end = i + 1
        if c == "'":
            if i > 0 and sql[i - 1] in "eE" and (i == 1 or not (sql[i - 2].isalnum() or sql[i - 2] == "_")):
                return None  # E'...': backslash escapes
            while True:
                q = sql.find("'", end)
                if q < 0:
                    return None
                if q + 1 < n and sql[q + 1] == "'":
                    end = q + 2
                    continue
                end = q + 1
                break
        elif c == '"':
            q = sql.find('"', i + 1)  # a doubled "" reads as two quoted names back to back: the same spans
            if q < 0:
                return None
            end = q + 1
        elif c == "-" and sql.startswith("--", i):
            q = sql.find("\n", i)
            end = n if q < 0 else q + 1
        elif c == "/" and sql.startswith("/*", i):
            q = sql.find("*/", i + 2)
            if q < 0 or sql.find("/*", i + 2, q) >= 0:
                return None
            end = q + 2
        elif c == "$" and (m := _DOLLAR_TAG.match(sql, i)) is not None and (i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] == "_")):
            q = sql.find(m.group(0), m.end())
            if q < 0:
                return None
            end = q + len(m.group(0))
        else:
            pos = end
            continue
        out.append((i, end))
        pos = end


def _int_list(body: str) -> str | None:
    """``body`` (``1, -2, 3``) as ``1,-2,3`` when it is integers separated
    by commas, else None; checked a step at a time."""
    out, i, n = [], 0, len(body)
    while i <= n:
        j = body.find(",", min(i + _STEP, n))
        j = n if j < 0 else j
        chunk = body[i:j]
        if _INTS.fullmatch(chunk) is None:
            return None
        out.append(chunk.translate(_NO_SPACE))
        i = j + 1
    return ",".join(out)


def relation_lists(sql: str) -> str:
    """``x IN (1, 2, ...)`` with at least LIST_RELATION integers as ``x IN
    (SELECT unnest(string_to_array('1,2,...', ',')::bigint[]))``: the same
    answer (NULLs included), but one constant to parse, bind and rewrite
    instead of a node per element, and a hash join instead of a chain of
    comparisons (an ORM's list of ids no longer costs seconds)."""
    if len(sql) < 4 * LIST_RELATION:
        return sql
    quoted = spans(sql)
    if quoted is None:
        return sql
    pieces, pos = [], 0
    gaps = [(a[1], b[0]) for a, b in zip([(0, 0)] + quoted, quoted + [(len(sql), len(sql))])]
    for gap_start, gap_end in gaps:  # the text between quotes and comments
        at = max(pos, gap_start)
        while at < gap_end and (m := _LIST_START.search(sql, at, gap_end)) is not None:
            open_at = sql.find("(", m.start())
            close = sql.find(")", open_at, gap_end)
            items = None
            if close > 0 and close - open_at > 2 * LIST_RELATION:
                items = _int_list(sql[open_at + 1 : close])
            if items is not None and items.count(",") >= LIST_RELATION - 1:
                pieces += [sql[pos : m.start()], f"IN (SELECT unnest(string_to_array('{items}', ',')::bigint[]))"]
                pos = at = close + 1
            else:
                at = m.end()
    if not pieces:
        return sql
    pieces.append(sql[pos:])
    return "".join(pieces)


def huge_literals(sql: str) -> tuple[str, list[str]] | None:
    """``sql`` with each plain ``'...'`` literal of HUGE_LITERAL characters
    or more replaced by ``$1``, ``$2``, ... and those literals' values; None
    when there are none or the text is not plainly lexable."""
    quoted = spans(sql)
    if not quoted:
        return None
    pieces, literals, pos = [], [], 0
    for start, end in quoted:
        if sql[start] != "'" or end - start - 2 < HUGE_LITERAL or (start > 0 and (sql[start - 1].isalnum() or sql[start - 1] in "_&")):
            continue  # not a plain literal (B'', X'', U&'' keep their own reading), or a short one
        literals.append(sql[start + 1 : end - 1].replace("''", "'"))
        pieces += [sql[pos:start], f"${len(literals)}"]
        pos = end
    if not literals:
        return None
    pieces.append(sql[pos:])
    return "".join(pieces), literals


class UnicodeEscapeUnsafe(ValueError):
    """A ``U&'...'`` string while standard_conforming_strings is off."""


def escape_strings(sql: str) -> str:
    """``sql`` as PostgreSQL reads it with standard_conforming_strings off,
    written for a parser that reads it on: every plain string constant,
    whose backslashes are escapes then (``'a\\nb'`` holds a newline), is
    written as the escape string it is (``E'a\\nb'``). Comments, quoted
    names, dollar quotes and escape strings stay as they are; a bit
    string (``B'...'``, ``X'...'``) too. Raises ``UnicodeEscapeUnsafe``
    for a ``U&'...'`` string, as PostgreSQL does (0A000). Text that does
    not lex (an unterminated quote) is returned as it is, for the parser
    to judge."""
    out, pos, i, n = [], 0, 0, len(sql)
    while i < n:
        c = sql[i]
        if c == "-" and sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "/" and sql.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if sql.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif sql.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == '"':
            j = sql.find('"', i + 1)
            i = n if j < 0 else j + 1
        elif c == "$" and (m := _DOLLAR_TAG.match(sql, i)) is not None and (i == 0 or not _word_char(sql[i - 1])):
            j = sql.find(m.group(0), m.end())
            i = n if j < 0 else j + len(m.group(0))
        elif c == "'":
            prefix = _prefix(sql, i)
            if prefix == "u&":
                raise UnicodeEscapeUnsafe("unsafe use of string constant with Unicode escapes")
            end = _string_end(sql, i + 1, escapes=prefix in ("", "e"))
            if end < 0:
                return sql
            if prefix == "":
                out += [sql[pos:i], "E"]
                pos = i
            i = end
        else:
            i += 1
    out.append(sql[pos:])
    return "".join(out)


def _word_char(c: str) -> bool:
    return c.isalnum() or c in "_$"


def _prefix(sql: str, i: int) -> str:
    """The prefix of the string constant quoted at ``i`` (lowercase: "",
    "e", "b", "x", "n", "u&"), or "word" when the quote follows a word."""
    if i >= 2 and sql[i - 2:i].lower() == "u&" and (i == 2 or not _word_char(sql[i - 3])):
        return "u&"
    if i >= 1 and _word_char(sql[i - 1]):
        if sql[i - 1] in "eEbBxXnN" and (i == 1 or not _word_char(sql[i - 2])):
            return sql[i - 1].lower()
        return "word"
    return ""


def _string_end(sql: str, i: int, *, escapes: bool) -> int:
    """Where a string constant whose text starts at ``i`` ends (past its
    closing quote; a doubled quote is one, and with ``escapes`` a
    backslash takes the next character); -1 when it does not."""
    n = len(sql)
    while i < n:
        c = sql[i]
        if c == "\\" and escapes:
            i += 2
        elif c == "'":
            if i + 1 < n and sql[i + 1] == "'":
                i += 2
            else:
                return i + 1
        else:
            i += 1
    return -1
