"""values.zones: PostgreSQL's TimeZone settings, as a zone to print in and
as the name the engines compute in.

A setting is what ``SET TIME ZONE`` / ``SET timezone`` stored, in the form
``SHOW TimeZone`` prints it:

- a zone name: UTC, GMT, Z or an IANA name (``Europe/Oslo``, ``EST5EDT``);
- a POSIX zone without daylight rules: an optional name (three letters or
  more, or ``<...>``) and an offset ``[+-]hh[:mm[:ss]]`` counted *west* of
  Greenwich, as POSIX does (``'+02:00'`` is two hours behind UTC, ``UTC+3``
  three); what a number of hours or an interval is stored as
  (``setting_of_offset``: ``SET TIME ZONE 10.5`` shows ``<+10:30>-10:30``).

Invariant: ``zone`` and ``engine_zone`` accept exactly the same settings;
a fixed offset is under a day, so Python's ``timezone`` holds it, and is
named ``GMT+hh:mm`` for the engines (DuckDB's ICU and Spark's Java both
read that custom ID, counted east as ISO 8601 does).
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from zoneinfo import ZoneInfo

_ENGINE_OFFSET = re.compile(r"GMT[+-]\d\d:\d\d")
_POSIX = re.compile(r"(?:<[^<>]*>|[A-Za-z]{3,})?([+-]?)(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?")
_HOURS = re.compile(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*")


@lru_cache(maxsize=64)
def zone(setting: str) -> dt.tzinfo | None:
    """The zone of the TimeZone ``setting`` (see the module docstring), None
    when it is none txngate can compute in."""
    if setting.upper() in ("UTC", "GMT", "Z"):
        return dt.timezone.utc
    east = fixed_offset(setting)
    if east is not None:
        # within a day, as Python's timezone holds it, and in whole minutes, as the engines' names count
        return dt.timezone(east) if abs(east) < dt.timedelta(days=1) and not east.seconds % 60 else None
    try:
        return ZoneInfo(setting)
    except Exception:  # noqa: BLE001 - ZoneInfo raises several kinds for a bad name
        return None


def fixed_offset(setting: str) -> dt.timedelta | None:
    """The offset east of Greenwich of a POSIX zone without daylight rules
    (``+02:00``, ``UTC+3``, ``<+10:30>-10:30``), None for anything else."""
    m = _POSIX.fullmatch(setting.strip())
    if m is None:
        return None
    sign, hours, minutes, seconds = m.groups()
    if int(minutes or 0) > 59 or int(seconds or 0) > 59:
        return None
    west = dt.timedelta(hours=int(hours), minutes=int(minutes or 0), seconds=int(seconds or 0))
    return west if sign == "-" else -west


def offset_of_hours(text: str) -> dt.timedelta | None:
    """A number of hours east (``SET TIME ZONE 10.5``), None if ``text`` is
    not one."""
    if _HOURS.fullmatch(text) is None:
        return None
    return dt.timedelta(seconds=round(float(text) * 3600))


def setting_of_offset(east: dt.timedelta) -> str:
    """The POSIX setting of a fixed offset east, as PostgreSQL shows it:
    its ISO 8601 name in brackets, then its POSIX offset (west)."""
    return f"<{format_offset(east)}>{format_offset(-east)}"


def format_offset(offset: dt.timedelta) -> str:
    """An offset as PostgreSQL prints it: ``+05``, ``-04:30``, ``+00:00:30``."""
    total = int(offset.total_seconds())
    sign, total = ("-" if total < 0 else "+"), abs(total)
    h, m, s = total // 3600, total // 60 % 60, total % 60
    return f"{sign}{h:02d}" + (f":{m:02d}" if m or s else "") + (f":{s:02d}" if s else "")


def engine_zone(setting: str) -> str:
    """The name DuckDB and Spark compute ``setting``'s times in: the zone's
    own name, or ``GMT+hh:mm`` for a fixed offset."""
    east = fixed_offset(setting)
    if east is None or setting.upper() in ("UTC", "GMT", "Z"):
        return setting
    total = int(east.total_seconds()) // 60
    sign, total = ("-" if total < 0 else "+"), abs(total)
    return f"GMT{sign}{total // 60:02d}:{total % 60:02d}"


def is_engine_offset(name: str) -> bool:
    """``name`` is a fixed offset as ``engine_zone`` names it (a zone
    without an abbreviation, as PostgreSQL prints it)."""
    return _ENGINE_OFFSET.fullmatch(name) is not None
