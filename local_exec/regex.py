"""PostgreSQL's regexp_match, regexp_matches, regexp_replace (with start
and N), regexp_count, regexp_instr, regexp_substr, regexp_like and
regexp_split_to_array for the local engine (the planner fills their optional arguments).

DuckDB's ``regexp_matches`` is a boolean test; PostgreSQL's returns the
matched text: ``regexp_match(s, p [, flags])`` the capture groups of the
first match (the whole match when ``p`` has none) as text[], or NULL;
``regexp_matches`` one such array per match (every match with flag ``g``),
as a set of rows. They are registered here as ``txngate_regexp_match`` and
``txngate_regexp_matches`` (the latter returns the list of arrays, which
the planner unnests), always called with a flags argument.

Patterns run on Python's ``re``, which reads PostgreSQL's common regular
expression syntax alike (POSIX bracket classes such as ``[[:alpha:]]``
excepted). Flags: ``g`` (regexp_matches only), ``i``, ``c``, ``n``/``m``,
``s``, ``p``, ``w``, ``x``, ``t``, ``q``; any other is 22023, and a pattern
``re`` cannot compile is 2201B.

Invariant: a group that took no part in the match is NULL, as in
PostgreSQL, never an empty string.
"""

from __future__ import annotations

import functools
import re

from local_exec import udf
from local_exec.udf import FunctionError

__all__ = ["FUNCTIONS", "register"]


@functools.lru_cache(maxsize=256)
def _compile(pattern: str, flags: str) -> tuple[re.Pattern, bool]:
    """The compiled pattern and whether ``g`` was given."""
    options, every, literal = re.DOTALL, False, False  # PostgreSQL's default: . matches a newline, ^ and $ only the ends
    for f in flags:
        if f == "g":
            every = True
        elif f == "i":
            options |= re.IGNORECASE
        elif f == "c":
            options &= ~re.IGNORECASE
        elif f in "nm":  # newline-sensitive
            options = (options & ~re.DOTALL) | re.MULTILINE
        elif f == "s":
            options = (options | re.DOTALL) & ~re.MULTILINE
        elif f == "p":  # partial: . does not match a newline, ^ and $ only the ends
            options &= ~(re.DOTALL | re.MULTILINE)
        elif f == "w":  # inverse partial: . matches a newline, ^ and $ at lines
            options |= re.DOTALL | re.MULTILINE
        elif f == "x":
            options |= re.VERBOSE
        elif f == "t":
            options &= ~re.VERBOSE
        elif f == "q":
            literal = True
        else:
            raise FunctionError("22023", f'invalid regular expression option: "{f}"')
    try:
        return re.compile(re.escape(pattern) if literal else pattern, options), every
    except re.error as e:
        raise FunctionError("2201B", f"invalid regular expression: {e}") from None


def _groups(m: re.Match) -> list[str | None]:
    return list(m.groups()) if m.re.groups else [m.group(0)]


def regexp_match(text: str, pattern: str, flags: str) -> list[str | None] | None:
    compiled, every = _compile(pattern, flags)
    if every:
        raise FunctionError("22023", "regexp_match() does not support the \"global\" option")
    m = compiled.search(text)
    return _groups(m) if m else None


def regexp_matches(text: str, pattern: str, flags: str) -> list[list[str | None]]:
    compiled, every = _compile(pattern, flags)
    if every:
        return [_groups(m) for m in compiled.finditer(text)]
    m = compiled.search(text)
    return [_groups(m)] if m else []


_REPLACEMENT = re.compile(r"\\([1-9&\\])")


def regexp_replace(text: str, pattern: str, replacement: str, start: int, n: int, flags: str) -> str:
    r"""PostgreSQL's regexp_replace(source, pattern, replacement, start, N,
    flags): the N'th match at or after ``start`` replaced (every match when
    N is 0, or when N is -1, meaning not given, with flag ``g``; the
    first otherwise); ``\1``..``\9`` and ``\&`` in the replacement are
    the groups and the whole match."""
    if start < 1:
        raise FunctionError("22023", f'invalid value for parameter "start": {start}')
    if n < -1:
        raise FunctionError("22023", f'invalid value for parameter "n": {n}')
    compiled, every = _compile(pattern, flags)
    which = (0 if every else 1) if n == -1 else n

    def substitute(m: re.Match) -> str:
        def group(g: re.Match) -> str:
            key = g.group(1)
            if key == "\\":
                return "\\"
            value = m.group(0) if key == "&" else (m.group(int(key)) if int(key) <= compiled.groups else "")
            return value or ""
        return _REPLACEMENT.sub(group, replacement)

    out, at, count = [text[:start - 1]], start - 1, 0
    for m in compiled.finditer(text, start - 1):
        count += 1
        if which and count != which:
            continue
        out += [text[at:m.start()], substitute(m)]
        at = m.end()
        if which:
            break
    out.append(text[at:])
    return "".join(out)


def _matches(name: str, text: str, pattern: str, start: int, flags: str, n: int = 1):
    """The matches of ``pattern`` in ``text`` from ``start`` (1-based), for
    regexp_count/instr/substr/like (the global option is theirs to refuse)."""
    if start < 1:
        raise FunctionError("22023", f'invalid value for parameter "start": {start}')
    if n < 1:
        raise FunctionError("22023", f'invalid value for parameter "n": {n}')
    compiled, every = _compile(pattern, flags)
    if every:
        raise FunctionError("22023", f'{name}() does not support the "global" option')
    return compiled.finditer(text, start - 1)


def regexp_split_to_array(text: str, pattern: str, flags: str) -> list[str]:
    """The pieces of ``text`` between the matches of ``pattern``, as
    PostgreSQL splits: a match that is empty at the end of the text, or
    ends where the previous match ended (an empty match at the start or
    right after another match), does not split."""
    compiled, every = _compile(pattern, flags)
    if every:
        raise FunctionError("22023", 'regexp_split_to_array() does not support the "global" option')
    pieces, prev_end, at = [], 0, 0
    while at <= len(text):
        m = compiled.search(text, at)
        if m is None:
            break
        if m.start() < len(text) and m.end() > prev_end:
            pieces.append(text[prev_end:m.start()])
            prev_end = m.end()
        at = m.end() + (m.start() == m.end())  # past an empty match, or it is found again
    pieces.append(text[prev_end:])
    return pieces


def _nth(matches, n: int) -> re.Match | None:
    return next((m for k, m in enumerate(matches, 1) if k == n), None)


def regexp_count(text: str, pattern: str, start: int, flags: str) -> int:
    return sum(1 for _ in _matches("regexp_count", text, pattern, start, flags))


def regexp_instr(text: str, pattern: str, start: int, n: int, endoption: int, flags: str, subexpr: int) -> int:
    if endoption not in (0, 1):
        raise FunctionError("22023", f'invalid value for parameter "endoption": {endoption}')
    if subexpr < 0:
        raise FunctionError("22023", f'invalid value for parameter "subexpr": {subexpr}')
    m = _nth(_matches("regexp_instr", text, pattern, start, flags, n), n)
    if m is None or subexpr > m.re.groups or m.start(subexpr) < 0:
        return 0
    return (m.end(subexpr) if endoption else m.start(subexpr)) + 1


def regexp_substr(text: str, pattern: str, start: int, n: int, flags: str, subexpr: int) -> str | None:
    if subexpr < 0:
        raise FunctionError("22023", f'invalid value for parameter "subexpr": {subexpr}')
    m = _nth(_matches("regexp_substr", text, pattern, start, flags, n), n)
    return None if m is None or subexpr > m.re.groups else m.group(subexpr)


def regexp_like(text: str, pattern: str, flags: str) -> bool:
    return _nth(_matches("regexp_like", text, pattern, 1, flags), 1) is not None


FUNCTIONS = {
    "txngate_regexp_count": (regexp_count, ["VARCHAR", "VARCHAR", "INTEGER", "VARCHAR"], "INTEGER"),
    "txngate_regexp_instr": (regexp_instr, ["VARCHAR", "VARCHAR", "INTEGER", "INTEGER", "INTEGER", "VARCHAR", "INTEGER"], "INTEGER"),
    "txngate_regexp_substr": (regexp_substr, ["VARCHAR", "VARCHAR", "INTEGER", "INTEGER", "VARCHAR", "INTEGER"], "VARCHAR"),
    "txngate_regexp_like": (regexp_like, ["VARCHAR", "VARCHAR", "VARCHAR"], "BOOLEAN"),
    "txngate_regexp_replace": (regexp_replace, ["VARCHAR", "VARCHAR", "VARCHAR", "INTEGER", "INTEGER", "VARCHAR"], "VARCHAR"),
    "txngate_regexp_split_to_array": (regexp_split_to_array, ["VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR[]"),
    "txngate_regexp_match": (regexp_match, ["VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR[]"),
    "txngate_regexp_matches": (regexp_matches, ["VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR[][]"),
}


def register(con) -> None:
    udf.register(con, FUNCTIONS)
