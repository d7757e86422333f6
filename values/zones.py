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

Time zone abbreviations (``PST``, ``MSK``) are not settings: they name a
zone in a time's text, in AT TIME ZONE and in the functions that take a
zone, where PostgreSQL reads them before zone names. Its default set
(``timezonesets/Default``) is here: most are a fixed offset (``PST`` is
-08 even in summer), some are *dynamic*, the offset a zone used under
that name at the time in question (``MSK`` is Europe/Moscow's: +03, +04
from March 2011, +03 again from October 2014); ``abbreviation_offset``
finds it as PostgreSQL does (the latest span of the zone's history before
the time that used the name, else the earliest after), from the zone's
TZif transitions (``abbreviation_steps``: the offsets as a step function
of the UTC instant).

Invariant: ``zone`` and ``engine_zone`` accept exactly the same settings;
a fixed offset is under a day, so Python's ``timezone`` holds it, and is
named ``GMT+hh:mm`` for the engines (DuckDB's ICU and Spark's Java both
read that custom ID, counted east as ISO 8601 does).
"""

from __future__ import annotations

import bisect
import datetime as dt
import os
import re
import struct
from functools import lru_cache
from zoneinfo import TZPATH, ZoneInfo

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
    return engine_offset(east)


def engine_offset(east: dt.timedelta) -> str:
    """The name DuckDB and Spark compute a fixed offset east in (whole
    minutes): ``GMT+hh:mm``, counted east."""
    total = int(east.total_seconds()) // 60
    sign, total = ("-" if total < 0 else "+"), abs(total)
    return f"GMT{sign}{total // 60:02d}:{total % 60:02d}"


def is_engine_offset(name: str) -> bool:
    """``name`` is a fixed offset as ``engine_zone`` names it (a zone
    without an abbreviation, as PostgreSQL prints it)."""
    return _ENGINE_OFFSET.fullmatch(name) is not None


#: PostgreSQL's default time zone abbreviations (lower case): seconds east
#: of UTC, or the zone whose history gives a dynamic abbreviation's offset
ABBREVIATIONS: dict[str, int | str] = {
    "eat": 10800, "sast": 7200, "wat": 3600, "act": -18000, "akdt": -28800, "akst": -32400, "art": "America/Argentina/Buenos_Aires",
    "arst": "America/Argentina/Buenos_Aires", "bot": -14400, "bra": -10800, "brst": -7200, "brt": -10800, "cot": -18000,
    "cdt": -18000, "clst": -10800, "clt": "America/Santiago", "cst": -21600, "edt": -14400, "egst": 0, "egt": -3600, "est": -18000,
    "fnt": -7200, "fnst": -3600, "gft": -10800, "gyt": "America/Guyana", "mdt": -21600, "mst": -25200, "ndt": -9000, "nft": -12600,
    "nst": -12600, "pet": -18000, "pdt": -25200, "pmdt": -7200, "pmst": -10800, "pst": -28800, "pyst": -10800,
    "pyt": "America/Asuncion", "uyst": -7200, "uyt": -10800, "vet": "America/Caracas", "wgst": -7200, "wgt": -10800,
    "davt": "Antarctica/Davis", "ddut": 36000, "mawt": "Antarctica/Mawson", "aft": 16200, "almt": 21600, "almst": 25200,
    "amst": "Asia/Yerevan", "amt": -14400, "anast": "Asia/Anadyr", "anat": "Asia/Anadyr", "azst": "Asia/Baku", "azt": "Asia/Baku",
    "bdt": 21600, "bnt": 28800, "bort": 28800, "btt": 21600, "cct": 28800, "gest": "Asia/Tbilisi", "get": "Asia/Tbilisi",
    "hkt": 28800, "ict": 25200, "idt": 10800, "irkst": "Asia/Irkutsk", "irkt": "Asia/Irkutsk", "irt": 12600, "ist": 7200,
    "jayt": 32400, "jst": 32400, "kdt": 36000, "kgst": 21600, "kgt": "Asia/Bishkek", "krast": "Asia/Krasnoyarsk",
    "krat": "Asia/Krasnoyarsk", "kst": 32400, "lkt": "Asia/Colombo", "magst": "Asia/Magadan", "magt": "Asia/Magadan", "mmt": 23400,
    "myt": 28800, "novst": "Asia/Novosibirsk", "novt": "Asia/Novosibirsk", "npt": 20700, "omsst": "Asia/Omsk", "omst": "Asia/Omsk",
    "petst": "Asia/Kamchatka", "pett": "Asia/Kamchatka", "pht": 28800, "pkt": 18000, "pkst": 21600, "sgt": "Asia/Singapore",
    "tjt": 18000, "tmt": "Asia/Ashgabat", "ulast": 32400, "ulat": "Asia/Ulaanbaatar", "uzst": 21600, "uzt": 18000,
    "vlast": "Asia/Vladivostok", "vlat": "Asia/Vladivostok", "xjt": 21600, "yakst": "Asia/Yakutsk", "yakt": "Asia/Yakutsk",
    "yekst": 21600, "yekt": "Asia/Yekaterinburg", "adt": -10800, "ast": -14400, "azost": 0, "azot": -3600,
    "fkst": "Atlantic/Stanley", "fkt": "Atlantic/Stanley", "acsst": 37800, "acdt": 37800, "acst": 34200, "acwst": 31500,
    "aesst": 39600, "aedt": 39600, "aest": 36000, "awsst": 32400, "awst": 28800, "cadt": 37800, "cast": 34200,
    "lhdt": "Australia/Lord_Howe", "lhst": 37800, "ligt": 36000, "nzt": 43200, "sadt": 37800, "wadt": 28800, "wast": 25200,
    "wdt": 32400, "gmt": 0, "uct": 0, "ut": 0, "utc": 0, "z": 0, "zulu": 0, "bst": 3600, "bdst": 7200, "cest": 7200, "cet": 3600,
    "cetdst": 7200, "eest": 10800, "eet": 7200, "eetdst": 10800, "fet": 10800, "mest": 7200, "mesz": 7200, "met": 3600,
    "metdst": 7200, "mez": 3600, "msd": 14400, "msk": "Europe/Moscow", "volt": "Europe/Volgograd", "wet": 0, "wetdst": 3600,
    "cxt": 25200, "iot": "Indian/Chagos", "mut": 14400, "must": 18000, "mvt": 18000, "ret": 14400, "sct": 14400, "tft": 18000,
    "chadt": 49500, "chast": 45900, "chut": 36000, "ckt": "Pacific/Rarotonga", "easst": "Pacific/Easter", "east": "Pacific/Easter",
    "fjst": 46800, "fjt": 43200, "galt": -21600, "gamt": -32400, "gilt": 43200, "hst": -36000, "kost": "Pacific/Kosrae",
    "lint": "Pacific/Kiritimati", "mart": -34200, "mht": 43200, "mpt": 36000, "nut": "Pacific/Niue", "nzdt": 46800, "nzst": 43200,
    "pgt": 36000, "pont": 39600, "pwt": 32400, "taht": -36000, "tkt": "Pacific/Fakaofo", "tot": 46800, "trut": 36000, "tvt": 43200,
    "vut": 39600, "wakt": 43200, "wft": 43200, "yapt": 36000
}

_EPOCH = dt.datetime(1970, 1, 1)


def abbreviation(name: str) -> dt.timedelta | str | None:
    """What the abbreviation ``name`` is: a fixed offset east, the zone of a
    dynamic one, or None when ``name`` is none of PostgreSQL's."""
    meaning = ABBREVIATIONS.get(name.lower())
    return dt.timedelta(seconds=meaning) if isinstance(meaning, int) else meaning


_NUMERIC_ZONE = re.compile(r"([+-])(\d*)(?::(\d*)(?::(\d*))?)?")
#: PostgreSQL's MAX_TZDISP_HOUR
_MAX_ZONE_HOURS = 15


def numeric_zone(text: str) -> dt.timedelta | None:
    """The offset east a numeric time zone means as PostgreSQL's
    DecodeTimezone reads one (``+2``, ``-03:30``, ``+0530``, ``+10:00:01``:
    ISO's sign, east positive), for make_timestamptz's zone; None when
    ``text`` is not one (a name, or out of range)."""
    m = _NUMERIC_ZONE.fullmatch(text)
    if m is None:
        return None
    sign, hours, minutes, seconds = m.group(1), int(m.group(2) or 0), int(m.group(3) or 0), int(m.group(4) or 0)
    if m.group(3) is None and len(text) > 3:  # run together: +hhmm
        hours, minutes = hours // 100, hours % 100
    if hours > _MAX_ZONE_HOURS or minutes >= 60 or seconds >= 60:
        return None
    offset = dt.timedelta(hours=hours, minutes=minutes, seconds=seconds)
    return -offset if sign == "-" else offset


def abbreviation_offset(name: str, *, local: dt.datetime | None = None, instant: dt.datetime | None = None) -> dt.timedelta | None:
    """The offset east the abbreviation ``name`` means for a ``local`` time
    written with it, or at a UTC ``instant`` (both naive); None when
    ``name`` is no abbreviation. A dynamic abbreviation's zone that never
    used the name gives the zone's own offset, as PostgreSQL falls back."""
    meaning = abbreviation(name)
    if meaning is None or isinstance(meaning, dt.timedelta):
        return meaning
    tz = ZoneInfo(meaning)
    if instant is None:
        assert local is not None
        instant = local - local_offset(tz, local)  # the instant PostgreSQL probes at
    steps = abbreviation_steps(name)
    if not steps:
        return tz.utcoffset(instant + tz.utcoffset(instant))
    return steps[bisect.bisect_right([start for start, _ in steps], instant) - 1][1]


def local_offset(tz: dt.tzinfo, local: dt.datetime) -> dt.timedelta:
    """The offset east a zone's ``local`` time is read at, as PostgreSQL
    reads it: a time skipped (clocks forward) at the offset before, a time
    repeated (clocks back) at the offset after; both are the smaller."""
    return min(tz.utcoffset(local.replace(fold=0)), tz.utcoffset(local.replace(fold=1)))


@lru_cache(maxsize=64)
def abbreviation_steps(name: str) -> tuple[tuple[dt.datetime, dt.timedelta], ...]:
    """A dynamic abbreviation's offsets as a step function of the UTC
    instant: (from this instant on, this offset), the first from the
    beginning of time; empty for a fixed abbreviation or a zone that never
    used the name."""
    meaning = abbreviation(name)
    if not isinstance(meaning, str):
        return ()
    spans = _transitions(meaning)
    named = [span for span in spans if span[2].lower() == name.lower()]
    if not named:
        return ()
    # before the first span under the name it means that span's offset; from
    # each later span under the name on, that span's offset
    steps = [(dt.datetime.min, named[0][1])]
    for start, offset, _ in named[1:]:
        if offset != steps[-1][1]:
            steps.append((start, offset))
    return tuple(steps)


@lru_cache(maxsize=64)
def _transitions(zone_name: str) -> list[tuple[dt.datetime, dt.timedelta, str]]:
    """The spans of a zone's history from its TZif file (RFC 8536): (UTC
    start, offset east, abbreviation), the first from the beginning of time."""
    data = _tzif(zone_name)
    if data[:4] != b"TZif":
        raise ValueError(f"{zone_name}: not a TZif file")
    counts, width = struct.unpack(">6l", data[20:44]), 4
    if data[4:5] >= b"2":  # skip the 32-bit body to the 64-bit one
        isut, isstd, leap, time, typ, char = counts
        data = data[44 + time * 5 + typ * 6 + char + leap * 8 + isstd + isut:]
        counts, width = struct.unpack(">6l", data[20:44]), 8
    _isut, _isstd, _leap, time, typ, char = counts
    at = 44
    times = struct.unpack(f">{time}{'q' if width == 8 else 'l'}", data[at:at + time * width])
    kinds = data[at + time * width:at + time * (width + 1)]
    at += time * (width + 1)
    types = [struct.unpack(">lBB", data[at + 6 * i:at + 6 * i + 6]) for i in range(typ)]
    chars = data[at + typ * 6:at + typ * 6 + char]

    def span(start: dt.datetime, kind: int) -> tuple[dt.datetime, dt.timedelta, str]:
        offset, _dst, index = types[kind]
        return start, dt.timedelta(seconds=offset), chars[index:chars.index(b"\0", index)].decode()

    first = next((k for k, (_, dst, _) in enumerate(types) if not dst), 0)  # the time before the first transition
    return [span(dt.datetime.min, first)] + [span(_EPOCH + dt.timedelta(seconds=t), k) for t, k in zip(times, kinds)]


def _tzif(zone_name: str) -> bytes:
    """The TZif file of ``zone_name``, from the system's zone database or
    Python's tzdata package, where zoneinfo finds it."""
    for folder in TZPATH:
        path = os.path.join(folder, *zone_name.split("/"))
        if os.path.isfile(path):
            with open(path, "rb") as f:
                return f.read()
    from importlib import resources
    folder, _, file = f"tzdata/zoneinfo/{zone_name}".rpartition("/")
    return resources.files(folder.replace("/", ".")).joinpath(file).read_bytes()
