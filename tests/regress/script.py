"""psql scripts as statements: PostgreSQL's regression files split the way
psql splits them.

``split(text)`` yields ``Step``s in order: one per SQL statement psql
would send (``;`` outside quotes, comments, dollar quotes and
parentheses), with the COPY data that follows a ``COPY ... FROM stdin``.
psql's own commands (lines from a backslash outside quotes) are not
statements; a statement that uses psql variables (``:name``, ``:'name'``)
or feeds them (``\\gset``, ``\\gexec``) is yielded with ``psql_only`` set,
for the runner to skip: its text means something only to psql.

Invariant: concatenating the statements' text (with the skipped meta
commands) gives back the script's SQL; nothing inside a quote or comment
ever ends a statement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Step", "split"]

_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z_0-9]*)?\$")
_VARIABLE = re.compile(r":['\"]?[A-Za-z_]")
_COPY_IN = re.compile(r"^\s*copy\b.*\bfrom\s+stdin\b", re.IGNORECASE | re.DOTALL)
_ENDS_STATEMENT = ("g", "gset", "gexec", "gx", "gdesc", "crosstabview")


@dataclass
class Step:
    sql: str
    line: int  # where the statement starts (1-based)
    copy_data: list[str] = field(default_factory=list)  # lines after COPY ... FROM stdin
    psql_only: bool = False


class _Scanner:
    """One pass over the script, character by character."""

    def __init__(self, text: str):
        self.text, self.i, self.line = text, 0, 1
        self.buf: list[str] = []
        self.start_line = 1
        self.depth = 0
        self.variables = False
        self.steps: list[Step] = []

    def emit(self, psql_only: bool = False) -> None:
        sql = "".join(self.buf).strip()
        if sql and not _only_comments(sql):
            self.steps.append(Step(sql, self.start_line, psql_only=psql_only or self.variables))
        self.buf, self.depth, self.variables = [], 0, False

    def take(self, n: int) -> None:
        chunk = self.text[self.i:self.i + n]
        if not "".join(self.buf).strip():
            self.start_line = self.line
        self.buf.append(chunk)
        self.line += chunk.count("\n")
        self.i += n

    def run(self) -> list[Step]:
        t = self.text
        while self.i < len(t):
            c = t[self.i]
            if c == "'":
                escaped = self.i > 0 and t[self.i - 1] in "eE" and (self.i < 2 or not (t[self.i - 2].isalnum() or t[self.i - 2] == "_"))
                self.take(_quoted_end(t, self.i, "'", backslash=escaped) - self.i)
            elif c == '"':
                self.take(_quoted_end(t, self.i, '"', backslash=False) - self.i)
            elif c == "-" and t.startswith("--", self.i):
                end = t.find("\n", self.i)
                self.take((len(t) if end < 0 else end) - self.i)
            elif c == "/" and t.startswith("/*", self.i):
                self.take(_comment_end(t, self.i) - self.i)
            elif c == "$" and (m := _DOLLAR.match(t, self.i)) and not (self.i > 0 and (t[self.i - 1].isalnum() or t[self.i - 1] == "_")):
                end = t.find(m.group(0), m.end())
                self.take((len(t) if end < 0 else end + len(m.group(0))) - self.i)
            elif c == "\\":
                self.meta()
            elif c == ":" and _VARIABLE.match(t, self.i) and not t.startswith("::", self.i) and not (self.i > 0 and t[self.i - 1] == ":"):
                self.variables = True
                self.take(1)
            elif c in "()":
                self.depth += 1 if c == "(" else -1
                self.take(1)
            elif c == ";" and self.depth <= 0:
                self.take(1)
                self.emit()
                self.copy_data()
            else:
                self.take(1)
        self.emit()
        return self.steps

    def meta(self) -> None:
        """A psql command: to the end of the line (a ``\\g`` family command ends the statement)."""
        t = self.text
        end = t.find("\n", self.i)
        end = len(t) if end < 0 else end
        command = t[self.i + 1:end].split(None, 1)[0] if t[self.i + 1:end].strip() else ""
        self.i = end
        if command in _ENDS_STATEMENT:
            self.emit(psql_only=command != "g")
            self.copy_data()

    def copy_data(self) -> None:
        """After a COPY ... FROM stdin, its data lines up to ``\\.``."""
        if not self.steps or self.steps[-1].copy_data or not _COPY_IN.match(self.steps[-1].sql):
            return
        t, step = self.text, self.steps[-1]
        nl = t.find("\n", self.i)
        self.i = len(t) if nl < 0 else nl + 1
        self.line += 1
        while self.i < len(t):
            nl = t.find("\n", self.i)
            row = t[self.i:len(t) if nl < 0 else nl]
            self.i = len(t) if nl < 0 else nl + 1
            self.line += 1
            if row == "\\.":
                break
            step.copy_data.append(row)
        step.copy_data.append("")  # marks "has data" even when empty


def split(text: str) -> list[Step]:
    return _Scanner(text).run()


def _quoted_end(t: str, i: int, q: str, *, backslash: bool) -> int:
    """The index after the quote closing the one at ``i``."""
    j = i + 1
    while j < len(t):
        if backslash and t[j] == "\\":
            j += 2
            continue
        if t[j] == q:
            if t.startswith(q * 2, j):
                j += 2
                continue
            return j + 1
        j += 1
    return len(t)


def _comment_end(t: str, i: int) -> int:
    depth, j = 0, i
    while j < len(t):
        if t.startswith("/*", j):
            depth, j = depth + 1, j + 2
        elif t.startswith("*/", j):
            depth, j = depth - 1, j + 2
            if depth == 0:
                return j
        else:
            j += 1
    return len(t)


def _only_comments(sql: str) -> bool:
    stripped = re.sub(r"--[^\n]*", "", sql)
    return not stripped.strip(" \n\t;")
