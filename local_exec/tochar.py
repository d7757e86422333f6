"""PostgreSQL's ``to_char`` for the local engine: timestamps and dates
(``txngate_to_char``) and numbers (``txngate_to_char_number``); and
``to_number`` (``txngate_to_number``), which reads a number's text by the
same number templates.

DuckDB's strftime knows a fraction of PostgreSQL's template patterns, so
the templates are read here, as PostgreSQL's formatting.c reads them:

- dates and times: the longest pattern at each position (``HH24``,
  ``Y,YYY``, ``IDDD``, ``A.D.``, ``Month``, ``RM``, ``J``, ``CC``, ...),
  ``FM`` before a pattern dropping its padding, ``TH``/``th`` after a
  number adding its ordinal suffix, text in double quotes (a backslash
  escapes) and any other character copied as they are. The value comes as
  microseconds since 1970-01-01 (NULL for infinity: PostgreSQL's answer);
- numbers: digit positions ``9`` (blank when a leading zero) and ``0``,
  the point (``.``, ``D``), group separators (``,``, ``G``), the signs
  ``S``, ``MI``, ``PL``, ``SG``, ``PR``, ``V`` (scale by 10^n), ``EEEE``,
  ``TH``, ``FM``; the value rounded half away from zero, ``#`` in every
  digit position when it has more integer digits than the template. The
  value comes as its text (a decimal's keeps its digits exactly).

Intervals (``txngate_to_char_interval``) by the same date templates, of
their own fields (hours past 24 kept), as PostgreSQL's interval_to_char.

``to_timestamp(text, template)`` and ``to_date`` read text by the same
date templates (``txngate_from_char``: PostgreSQL's rules without FX).

``RN`` and ``L`` are 0A000. Invariant: the text returned is PostgreSQL's
for the same value and template (C locale).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
import struct
from zoneinfo import ZoneInfo

from local_exec import udf
from local_exec.numeric import numeric_div
from local_exec.udf import FunctionError
from values import is_engine_offset

__all__ = ["FUNCTIONS", "from_char", "register", "to_char_float", "to_char_interval", "to_char_number", "to_char_timestamp", "to_char_zoned", "to_number"]

_EPOCH = dt.datetime(1970, 1, 1)
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]

#: date/time patterns, longest first at each position (PostgreSQL's keyword table, case kept)
_PATTERNS = sorted([
    "A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D", "FF1", "FF2", "FF3", "FF4",
    "FF5", "FF6", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY", "IYY", "IY", "I", "J", "MI", "MM", "MONTH", "MON", "MS",
    "Month", "Mon", "P.M.", "PM", "Q", "RM", "SSSSS", "SSSS", "SS", "TZH", "TZM", "TZ", "US", "WW", "W", "Y,YYY", "YYYY",
    "YYY", "YY", "Y", "a.d.", "a.m.", "ad", "am", "b.c.", "bc", "cc", "day", "ddd", "dd", "dy", "d", "ff1", "ff2", "ff3",
    "ff4", "ff5", "ff6", "hh24", "hh12", "hh", "iddd", "id", "iw", "iyyy", "iyy", "iy", "i", "j", "mi", "mm", "month", "mon",
    "ms", "p.m.", "pm", "q", "rm", "sssss", "ssss", "ss", "tzh", "tzm", "tz", "us", "ww", "w", "y,yyy", "yyyy", "yyy", "yy", "y", "of", "OF",
], key=len, reverse=True)


def _ordinal(n: int, upper: bool) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return suffix.upper() if upper else suffix


def _field(p: str, t: dt.datetime, fill: bool, zone: tuple[str, str] = ("", "+00"), cycles: int = 0) -> tuple[str, int | None]:
    """A pattern's text for ``t`` and, for numbers, the value (for TH);
    ``t`` stands ``cycles`` 400-year cycles (146097 days, whole weeks) after
    the moment, which may be BC (see _moment)."""
    up = p.upper()

    def num(v: int, width: int) -> tuple[str, int]:
        return (str(v) if fill else str(v).zfill(width)), v

    iso_year, iso_week, iso_dow = t.isocalendar()
    astronomical, iso_astronomical = t.year - 400 * cycles, iso_year - 400 * cycles
    bc = astronomical <= 0
    year, iso_year = (1 - astronomical if bc else astronomical), (1 - iso_astronomical if iso_astronomical <= 0 else iso_astronomical)
    if up in ("HH", "HH12"):
        return num(t.hour % 12 or 12, 2)
    if up == "HH24":
        return num(t.hour, 2)
    if up == "MI":
        return num(t.minute, 2)
    if up == "SS":
        return num(t.second, 2)
    if up == "MS":
        return num(t.microsecond // 1000, 3)
    if up == "US":
        return num(t.microsecond, 6)
    if up.startswith("FF"):
        digits = int(up[2])
        return num(t.microsecond // 10 ** (6 - digits), digits)
    if up in ("SSSS", "SSSSS"):
        return num(t.hour * 3600 + t.minute * 60 + t.second, 0)
    if up in ("AM", "PM", "A.M.", "P.M."):
        text = ("AM" if t.hour < 12 else "PM") if "." not in up else ("A.M." if t.hour < 12 else "P.M.")
        return (text if p[0].isupper() else text.lower()), None
    if up in ("AD", "BC", "A.D.", "B.C."):
        text = ("BC" if bc else "AD") if "." not in up else ("B.C." if bc else "A.D.")
        return (text if p[0].isupper() else text.lower()), None
    if up == "Y,YYY":
        return f"{year // 1000},{year % 1000:03d}", year
    if up in ("YYYY", "IYYY"):
        return num(year if up == "YYYY" else iso_year, 4)
    if up in ("YYY", "YY", "Y", "IYY", "IY", "I"):
        width = {"YYY": 3, "YY": 2, "Y": 1, "IYY": 3, "IY": 2, "I": 1}[up]
        return num((iso_year if up.startswith("I") else year) % 10 ** width, width)
    if up == "CC":
        century = (year + 99) // 100
        return ("-" + num(century, 2)[0], -century) if bc else num(century, 2)
    if up in ("MONTH", "MON"):
        name = _MONTHS[t.month - 1] if up == "MONTH" else _MONTHS[t.month - 1][:3]
        text = name.upper() if p.isupper() else name.lower() if p.islower() else name
        return (text if fill or up == "MON" else text.ljust(9)), None
    if up in ("DAY", "DY"):
        name = _DAYS[t.weekday()] if up == "DAY" else _DAYS[t.weekday()][:3]
        text = name.upper() if p.isupper() else name.lower() if p.islower() else name
        return (text if fill or up == "DY" else text.ljust(9)), None
    if up == "MM":
        return num(t.month, 2)
    if up == "RM":
        text = _ROMAN[t.month - 1]
        text = text if p.isupper() else text.lower()
        return (text if fill else text.ljust(4)), None
    if up == "DDD":
        return num(t.timetuple().tm_yday, 3)
    if up == "IDDD":
        return num((iso_week - 1) * 7 + iso_dow, 3)
    if up == "DD":
        return num(t.day, 2)
    if up == "D":
        return num(t.isoweekday() % 7 + 1, 1)
    if up == "ID":
        return num(iso_dow, 1)
    if up == "W":
        return num((t.day - 1) // 7 + 1, 1)
    if up == "WW":
        return num((t.timetuple().tm_yday - 1) // 7 + 1, 2)
    if up == "IW":
        return num(iso_week, 2)
    if up == "J":
        return num(t.toordinal() + 1721425 - 146097 * cycles, 0)
    if up == "Q":
        return num((t.month - 1) // 3 + 1, 1)
    if up in ("TZ", "OF", "TZH", "TZM"):
        name, offset = zone  # the session's zone (a timestamptz's) and the value's offset there, as -05 or +05:30
        if up == "TZ":
            # a fixed offset (GMT+hh:mm to the engine, values.zones) has no abbreviation, as PostgreSQL prints it
            abbreviation = (ZoneInfo(name).tzname(t) or "") if name and not is_engine_offset(name) else ""
            return (abbreviation if p.isupper() else abbreviation.lower()), None
        return {"OF": offset, "TZH": offset[:3], "TZM": offset[4:6] or "00"}[up], None
    raise AssertionError(p)


def to_char_zoned(micros: int, template: str, zone: str, offset: str) -> str | None:
    """``to_char_timestamp`` with the zone fields (TZ, OF, TZH, TZM) of
    the session's zone ``zone`` (empty for a timestamp without one) at the
    value's ``offset``."""
    return _to_char(micros, template, (zone, offset or "+00"))


def to_char_timestamp(micros: int, template: str) -> str | None:
    return _to_char(micros, template, ("", "+00"))


#: the Gregorian calendar repeats every 400 years, in whole weeks
_CYCLE = dt.timedelta(days=146097)


def _moment(micros: int) -> tuple[dt.datetime, int]:
    """The datetime of ``micros`` since the epoch, moved forward by whole
    400-year cycles into Python's years (from 1): (it, the cycles)."""
    delta = dt.timedelta(microseconds=micros)
    cycles = max(0, -((delta - (dt.datetime.min - _EPOCH)) // _CYCLE))
    return _EPOCH + (delta + cycles * _CYCLE), cycles


def _to_char(micros: int, template: str, zone: tuple[str, str]) -> str | None:
    try:
        t, cycles = _moment(micros)
    except OverflowError:
        raise FunctionError("22008", "timestamp out of range") from None
    return _render(template, lambda p, fill: _field(p, t, fill, zone, cycles))


def to_char_interval(months: int, days: int, micros: int, template: str) -> str | None:
    """``to_char(interval, template)`` as PostgreSQL's interval_to_char
    formats it: the fields of the interval itself (years and months of its
    months, its days, hours past 24 kept), a negative one signed in one
    more place; month and day names are 22007, the other patterns of
    calendar dates (weeks, Julian days, quarters) 0A000."""
    sign = -1 if micros < 0 else 1
    hours, rest = divmod(abs(micros), 3_600_000_000)
    minutes, rest = divmod(rest, 60_000_000)
    seconds, fraction = divmod(rest, 1_000_000)
    years, month = int(months / 12), months - int(months / 12) * 12  # (C's division: toward zero)
    f = {"year": years, "month": month, "day": days, "hour": sign * hours, "minute": sign * minutes, "second": sign * seconds,
         "fraction": sign * fraction}
    return _render(template, lambda p, fill: _interval_field(p, f, fill))


def _interval_field(p: str, f: dict, fill: bool) -> tuple[str, int | None]:
    up = p.upper()

    def num(v: int, width: int, negative: bool | None = None) -> tuple[str, int]:
        """``v`` in ``width`` digits, one more place when negative (the field's sign: ``negative``)."""
        width = 0 if fill else width + (v < 0 if negative is None else negative)
        return ("-" if v < 0 else "") + str(abs(v)).zfill(max(0, width - (v < 0))), v

    hour = f["hour"]
    if up in ("HH", "HH12"):
        return num(int(math.fmod(hour, 12)) or 12, 2, hour < 0)  # (C's remainder, of the hour's sign; -24 hours is 012)
    if up == "HH24":
        return num(hour, 2)
    if up == "MI":
        return num(f["minute"], 2)
    if up == "SS":
        return num(f["second"], 2)
    if up in ("SSSS", "SSSSS"):
        return num(hour * 3600 + f["minute"] * 60 + f["second"], 0)
    if up in ("MS", "US") or up.startswith("FF"):
        digits = {"MS": 3, "US": 6}.get(up) or int(up[2])
        return num(f["fraction"] // 10 ** (6 - digits), digits)
    if up in ("AM", "PM", "A.M.", "P.M."):
        morning = math.fmod(hour, 24) < 12
        text = ("AM" if morning else "PM") if "." not in up else ("A.M." if morning else "P.M.")
        return (text if p[0].isupper() else text.lower()), None
    if up == "DD":
        return (str(f["day"]) if fill else "%02d" % f["day"]), f["day"]
    if up == "DDD":
        day = (f["year"] * 12 + f["month"]) * 30 + f["day"]
        return (str(day) if fill else "%03d" % day), day
    if up == "MM":
        return num(f["month"], 2)
    if up == "Y,YYY":
        year = f["year"]
        return f"{year // 1000},{year % 1000:03d}", year
    if up in ("YYYY", "YYY", "YY", "Y"):
        width = len(up)
        year = f["year"] if width == 4 else (abs(f["year"]) % 10 ** width) * (-1 if f["year"] < 0 else 1)
        return num(year, width)
    if up == "CC":
        return num(int(f["year"] / 100), 2)
    if up in ("AD", "BC", "A.D.", "B.C."):
        text = ("BC" if f["year"] < 0 else "AD") if "." not in up else ("B.C." if f["year"] < 0 else "A.D.")
        return (text if p[0].isupper() else text.lower()), None
    if up in ("MONTH", "MON", "DAY", "DY"):
        raise FunctionError("22007", "invalid format specification for an interval value")  # (Intervals are not tied to specific calendar dates.)
    raise FunctionError("0A000", f"to_char pattern {p} of an interval is not supported")  # (PostgreSQL reads its fields as a date's)


def _render(template: str, field) -> str | None:
    """``template`` with each pattern replaced by ``field(pattern, fill)``'s text."""
    out, i, n = [], 0, len(template)
    while i < n:
        fill = False
        while template.startswith(("FM", "fm"), i) or template.startswith(("FX", "fx", "TM", "tm"), i):
            fill = fill or template[i:i + 2].upper() == "FM"
            i += 2
        if i >= n:
            break
        if template[i] == '"':
            i += 1
            while i < n and template[i] != '"':
                if template[i] == "\\" and i + 1 < n:
                    i += 1
                out.append(template[i])
                i += 1
            i += 1
            continue
        if template[i] == "\\" and i + 1 < n and template[i + 1] == '"':
            out.append('"')
            i += 2
            continue
        p = next((p for p in _PATTERNS if template.startswith(p, i)), None)
        if p is None:
            out.append(template[i])
            i += 1
            continue
        text, value = field(p, fill)
        i += len(p)
        if value is not None and template.startswith(("TH", "th"), i):
            text += _ordinal(value, template[i] == "T")
            i += 2
        out.append(text)
    return "".join(out) or None


# -- numbers ---------------------------------------------------------------------

_NUMBER_TOKENS = re.compile(r'FM|fm|EEEE|eeee|PR|PL|MI|SG|TH|th|RN|rn|[90.DG,SVL]|"(?:[^"\\]|\\.)*"?|\\"|.', re.DOTALL)


def _number_template(template: str) -> list[str]:
    """A number template's tokens (fm is FM)."""
    return ["FM" if t == "fm" else t for t in _NUMBER_TOKENS.findall(template)]


def to_char_number(text: str, template: str) -> str:
    """to_char of an integer or a numeric, given as its exact text."""
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise FunctionError("22P02", f'invalid input syntax for type numeric: "{text}"') from None
    tokens = _number_template(template)
    if "RN" in tokens or "rn" in tokens:
        return _roman(value, "FM" in tokens, "RN" not in tokens)
    if value.is_nan():
        return "NaN"
    return _number_text(value, _number_tokens(tokens), "FM" in tokens)


def to_char_float(text: str, template: str, digits: int) -> str:
    """to_char of a double precision (``digits`` 15, DBL_DIG) or a real (6,
    FLT_DIG), given as its shortest text, as PostgreSQL's float8_to_char:
    the value printed (C's %.*f of the binary value) with at most
    ``digits`` digits in all, the template's places past them dropped
    (with its point when no place after it is left), a negative value
    rounded to zero still negative; roman numerals of rint's value."""
    x = float(text)
    if digits == 6:
        x = _real(x)  # the real's own binary value
    tokens = _number_template(template)
    fill = "FM" in tokens
    if "RN" in tokens or "rn" in tokens:
        if not math.isfinite(x) or not 1 <= round(x) <= 3999:  # (round is rint's half to even)
            return "#" * 15
        return _roman(decimal.Decimal(round(x)), fill, "RN" not in tokens)
    tokens = _number_tokens(tokens)
    places = [k for k, t in enumerate(tokens) if t in ("9", "0")]
    points = [k for k, t in enumerate(tokens) if t in (".", "D")]
    after = [k for k in places if points and k > points[0]]
    if "EEEE" in tokens:  # C's %+.*e: its mantissa renormalized (999.9995 is 1.00e+03)
        _check_scientific(tokens, fill)
        if not math.isfinite(x):
            return " " + "#" * (len(places) - len(after)) + "." + "#" * (len(after) + 4)
        printed = "%+.*e" % (len(after), x)
        return " " + printed[1:] if printed[0] == "+" else printed
    multi = sum(1 for k in places if "V" in tokens and k > tokens.index("V"))
    if multi:  # (V: the digits after it scale the value, and are integer digits; a real's in real arithmetic)
        x *= 10 ** multi
        if digits == 6:
            x = _real(x)
    word = None if math.isfinite(x) else "NaN" if math.isnan(x) else "Infinity"  # (PostgreSQL's printf prints these)
    whole = len(word or "%.0f" % abs(x))
    post = 0 if whole >= digits else min(len(after), digits - whole)
    overflow = whole > len(places) - len(after)
    dropped = set(after[post:]) | (set(points) if post == 0 and not overflow else set())  # (an overflow keeps its point: ###.)
    trim = not any(tokens[k] == "0" for k in after[post:])  # (FM trims 9s past the template's last 0 only)
    if word is not None:
        if overflow:
            return _number_text(decimal.Decimal("-Infinity" if x < 0 else "Infinity"), [t for k, t in enumerate(tokens) if k not in dropped], fill)
        # shown in the integer places as if a number of as many digits, no fraction (the places of 8s replaced)
        kept = [t for k, t in enumerate(tokens) if k not in set(after) | set(points)]
        shown = _number_text(decimal.Decimal("8" * whole).scaleb(-multi), kept, fill, negative=x < 0, closing=not points)
        return shown.replace("8" * whole, word, 1)
    tokens = [t for k, t in enumerate(tokens) if k not in dropped]
    printed = "%.*f" % (post, x)
    return _number_text(decimal.Decimal(printed).scaleb(-multi), tokens, fill, negative=printed.startswith("-"), trim=trim,
                        closing=not (points and post == 0 and not overflow))


def _real(x: float) -> float:
    """``x`` rounded to a real (beyond a real's range: infinity)."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _number_tokens(tokens: list[str]) -> list[str]:
    """A number template's tokens as the formatter reads them: L the C
    locale's currency symbol (none, which PostgreSQL shows as a space), no
    FM (``fill``), eeee as EEEE."""
    return ["EEEE" if t == "eeee" else " " if t == "L" else t for t in tokens if t != "FM"]


def _number_text(value: decimal.Decimal, tokens: list[str], fill: bool, *, negative: bool | None = None, trim: bool = True,
                 closing: bool = True) -> str:
    """``value`` formatted by a number template's ``tokens`` (``negative``:
    whether it shows as negative, when not the rounded value's sign;
    ``trim``: whether FM drops the fraction's trailing zeros in 9s;
    ``closing``: whether a sign after the digits shows: PostgreSQL writes
    it on reaching the template's point, which a float printed without
    one never reaches)."""
    points = [k for k, t in enumerate(tokens) if t in (".", "D")]
    if len(points) > 1:
        raise FunctionError("42601", "multiple decimal points")
    point = points[0] if points else None
    digit_at = [k for k, t in enumerate(tokens) if t in ("9", "0")]
    if "V" in tokens:  # the digits after V scale the value, and are integer digits
        value = value.scaleb(sum(1 for k in digit_at if k > tokens.index("V")))
        point = None
    before = [k for k in digit_at if point is None or k < point]
    after = [k for k in digit_at if point is not None and k > point]
    signs = {"S", "MI", "SG", "PR"} & set(tokens)  # these take the place of the default sign (PL does not)
    if "EEEE" in tokens:
        _check_scientific(tokens, fill)
        return _scientific(value, len(after), fill)
    whole, frac, overflow = "", "", not value.is_finite()
    shown_negative = negative
    negative = value.is_signed()
    if not overflow:
        with decimal.localcontext() as exact:
            exact.prec = 1000  # (the default 28 digits refused a template of more places)
            rounded = abs(value).quantize(decimal.Decimal(1).scaleb(-len(after)), rounding=decimal.ROUND_HALF_UP)
        negative = negative and rounded != 0 if shown_negative is None else shown_negative
        whole, _, frac = f"{rounded:f}".partition(".")
        whole = whole.lstrip("0")
        overflow = len(whole) > len(before)
    dropped = set() if overflow or not fill or not trim else _trailing_nines(tokens, after, frac)
    if not whole and not overflow and before and len(dropped) == len(after):
        whole = "0"  # nothing else would show the value: its zero integer part does
    zero_from = next((k for k in before if tokens[k] == "0"), len(tokens))
    lead = len(before) - len(whole)
    out: list[str] = []
    first = None  # where the first character of the number is (the default sign, an anchored S go there)
    fraction = iter(frac)
    for k, t in enumerate(tokens):
        piece, number = "", False
        if t in ("9", "0") and (point is None or k < point):
            position = before.index(k)
            if overflow:
                piece, number = "#", True
            elif position >= lead:
                piece, number = whole[position - lead], True
            elif k >= zero_from:
                piece, number = "0", True
            else:
                piece = "" if fill else " "
        elif t in ("9", "0"):
            digit = "#" if overflow else next(fraction, "0")
            piece, number = ("" if k in dropped else digit), True
        elif t in (".", "D"):
            piece, number = ("" if fill and not after and not overflow else "."), True  # FM drops a point no digit follows (but ###.)
        elif t in (",", "G"):
            piece = "," if first is not None else ("" if fill else " ")
        elif t in ("S", "MI", "PL", "SG") and not closing and digit_at and k > digit_at[-1]:
            piece = ""
        elif t == "S":
            anchored = not any(k > d for d in digit_at)  # before the digits: right before the number
            piece = "" if anchored else ("-" if negative else "+")
        elif t == "MI":
            piece = "-" if negative else ("" if fill else " ")
        elif t == "PL":
            piece = "+" if not negative else ("" if fill else " ")
        elif t == "SG":
            piece = "-" if negative else "+"
        elif t in ("TH", "th"):
            piece = "" if overflow or negative or point is not None else _ordinal(int(whole or "0"), t == "TH")  # (nor of a fraction)
        elif t in ("PR", "V"):
            piece = ""
        elif t == '\\"':
            piece = '"'  # (outside quoted text a backslash escapes a quote only)
        elif t.startswith('"'):
            piece = re.sub(r"\\(.)", r"\1", t[1:-1] if t.endswith('"') and len(t) > 1 else t[1:])
        else:
            piece = t
        if number and first is None:
            first = len(out)
        out.append(piece)
    sign = ""
    if not digit_at:
        pass  # no number shown: no sign either
    elif not signs:
        sign = "-" if negative else ("" if fill else " ")
    elif "S" in signs and not any(tokens.index("S") > d for d in digit_at):
        sign = "-" if negative else "+"
    elif "PR" in signs:  # a negative value in angle brackets, a positive one in spaces
        sign = "<" if negative else ("" if fill else " ")
        out.append((">" if negative else ("" if fill else " ")) if closing else "")
    out.insert(first if first is not None else 0, sign)
    return "".join(out)


_ROMAN_DIGITS = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def _roman(value: decimal.Decimal, fill: bool, lower: bool) -> str:
    """A template with RN: the whole text is the value in roman numerals
    (its other patterns ignored, as PostgreSQL's), the value rounded half
    away from zero (a float's comes rounded half to even: planner.tochar),
    right-aligned in 15 places unless FM; outside 1..3999, 15 #s. A value
    beyond an integer's range is 22003, as PostgreSQL's numeric_int4."""
    if not value.is_finite():
        return "#" * 15
    number = int(value.to_integral_value(rounding=decimal.ROUND_HALF_UP))
    if not -2**31 <= number < 2**31:
        raise FunctionError("22003", "integer out of range")
    if not 1 <= number <= 3999:
        return "#" * 15
    out = []
    for worth, letters in _ROMAN_DIGITS:
        count, number = divmod(number, worth)
        out.append(letters * count)
    text = "".join(out).lower() if lower else "".join(out)
    return text if fill else text.rjust(15)


def _check_scientific(tokens: list[str], fill: bool) -> None:
    if fill or any(t not in ("9", "0", ".", "D", "EEEE") for t in tokens):
        raise FunctionError("42601", '"EEEE" is incompatible with other formats',
                            '"EEEE" may only be used together with digit and decimal point patterns.')


def _trailing_nines(tokens: list[str], after: list[int], frac: str) -> set[int]:
    """The fraction positions FM drops: 9s holding zeros at the end, after the last 0 position."""
    dropped = set()
    for k, digit in reversed(list(zip(after, frac))):
        if tokens[k] != "9" or digit != "0":
            break
        dropped.add(k)
    return dropped


def _scientific(value: decimal.Decimal, decimals: int, fill: bool) -> str:
    """``d.ddde+NN``: the exponent of the value as given, the mantissa rounded after (99.995 -> 10.00e+01)."""
    if not value.is_finite():
        return " " + "#" * (decimals + 6)
    negative = value.is_signed()
    exponent = value.adjusted() if value != 0 else 0
    mantissa = abs(value).scaleb(-exponent).quantize(decimal.Decimal(1).scaleb(-decimals), rounding=decimal.ROUND_HALF_UP)
    text = f"{mantissa:f}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    return ("-" if negative and value != 0 else ("" if fill else " ")) + text


def to_number(text: str, template: str) -> str:
    """to_number: the digits of ``text`` read into the template's digit
    positions as PostgreSQL's formatting.c reads them (C locale): at most
    as many integer digits as the template has before its point and
    fraction digits as it has after (the rest left unread), anything else
    (group separators, currency, letters) skipped, a minus sign or angle
    brackets making it negative, ``V`` dividing by 10^n; its scale the
    fraction digits read. Returns the numeric's exact text."""
    tokens = [t for t in _number_template(template) if t != "FM"]
    if "EEEE" in tokens:
        raise FunctionError("0A000", '"EEEE" not supported for input')
    if "RN" in tokens or "rn" in tokens:
        raise FunctionError("0A000", "to_number with the RN pattern is not supported")
    shift = tokens.index("V") if "V" in tokens else len(tokens)
    point = next((k for k, t in enumerate(tokens[:shift]) if t in (".", "D")), None)
    before = sum(1 for k, t in enumerate(tokens[:shift]) if t in ("9", "0") and (point is None or k < point))
    after = sum(1 for k, t in enumerate(tokens[:shift]) if t in ("9", "0") and point is not None and k > point)
    scaled = sum(1 for t in tokens[shift:] if t in ("9", "0"))
    whole, _dot, fraction = text.partition(".") if point is not None else (text, "", "")
    whole_digits = "".join(c for c in whole if c.isdigit())[:before + scaled]
    fraction_digits = "".join(c for c in fraction if c.isdigit())[:after]
    if not whole_digits and not fraction_digits:
        raise FunctionError("22P02", 'invalid input syntax for type numeric: " "')
    negative = "-" in text or ("PR" in tokens and "<" in text)
    value = decimal.Decimal(("-" if negative else "") + (whole_digits or "0") + ("." + fraction_digits if fraction_digits else ""))
    if scaled:
        return numeric_div(str(value), str(10 ** scaled))
    return format(value, "f")


# -- to_timestamp(text, template) and to_date: the template read the other way ---------------

#: the number patterns read when parsing and their width in digits (0: as many as there are); D and Q
#: are read and ignored, as PostgreSQL ignores them
_READ_WIDTHS = {"YYYY": 4, "Y,YYY": 5, "YYY": 3, "YY": 2, "Y": 1, "MM": 2, "DDD": 3, "DD": 2, "D": 1, "HH24": 2, "HH12": 2, "HH": 2,
                "MI": 2, "SSSSS": 5, "SSSS": 5, "SS": 2, "MS": 3, "US": 6, "FF1": 1, "FF2": 2, "FF3": 3, "FF4": 4, "FF5": 5, "FF6": 6,
                "J": 0, "Q": 1, "TZH": 2, "TZM": 2}
#: the word patterns read (day names are read and ignored)
_READ_WORDS = ("MONTH", "MON", "DAY", "DY", "AM", "PM", "A.M.", "P.M.", "AD", "BC", "A.D.", "B.C.", "RM")
#: patterns PostgreSQL reads that txngate does not (ISO week dates, centuries, weeks, zones): 0A000, never misread
_UNREAD = ("IYYY", "IYY", "IY", "IDDD", "IW", "ID", "I", "CC", "WW", "W", "TZ", "OF")
_YEARS = ("YYYY", "Y,YYY", "YYY", "YY", "Y")
#: the patterns that set one field to the number read
_FIELDS = {"MM": "month", "DD": "day", "DDD": "yday", "HH24": "hour", "MI": "minute", "SS": "second", "J": "julian", "TZM": "tzm"}
#: the meridian and era markers: what each reads (either of its kind, of its own length) and the flag it sets
_MARKERS = {**{w: [(p, "pm", p[0] == "p") for p in (("am", "pm") if len(w) == 2 else ("a.m.", "p.m."))] for w in ("AM", "PM", "A.M.", "P.M.")},
            **{w: [(p, "bc", p[0] == "b") for p in (("ad", "bc") if len(w) == 2 else ("a.d.", "b.c."))] for w in ("AD", "BC", "A.D.", "B.C.")}}
_READ_PATTERNS = sorted([*_READ_WIDTHS, *_READ_WORDS, *filter(None, _UNREAD)], key=len, reverse=True)
_SEPARATOR = re.compile(r"[^A-Za-z0-9]")


def _read_tokens(template: str) -> list[tuple[str, str, bool, bool]]:
    """(kind, text, FM, TH) of a template: "pattern", "quoted" (its text), or
    "separator" (one character); letters of no pattern are "literal"."""
    out, i = [], 0
    while i < len(template):
        fm = template.startswith(("FM", "fm"), i)
        j = i + 2 if fm else i
        if template[j:j + 1] == '"':
            end = j + 1
            text = []
            while end < len(template) and template[end] != '"':
                if template[end] == "\\" and end + 1 < len(template):
                    end += 1
                text.append(template[end])
                end += 1
            out.append(("quoted", "".join(text), False, False))
            i = end + 1
            continue
        word = next((p for p in _READ_PATTERNS if template[j:j + len(p)].upper() == p), None)
        if word is not None:
            i = j + len(word)
            th = template[i:i + 2] in ("TH", "th")
            out.append(("pattern", word, fm, th))
            i += 2 if th else 0
            continue
        out.append(("separator" if _SEPARATOR.match(template[i]) else "literal", template[i], False, False))
        i += 1
    return out


def _partial_year(year: int, digits: int) -> int:
    """A year given with fewer than four digits, as PostgreSQL completes it
    (the nearest to 2020)."""
    if digits > 3:
        return year
    if year < 70:
        return year + 2000
    if year < 100:
        return year + 1900
    if year < 520:
        return year + 2000
    return year + 1000 if year < 1000 else year


def _invalid(value: str, pattern: str, detail: str) -> FunctionError:
    return FunctionError("22007", f'invalid value "{value}" for "{pattern}"', detail)


def from_char(text: str, template: str, dated: bool) -> str:
    """PostgreSQL's to_timestamp(text, template) (``dated``: to_date) as
    ISO text the engine casts: the local date and time, and the offset
    TZH/TZM gave. Read as formatting.c reads it without FX: blanks skipped
    around field values, a separator in the template matching one separator of
    the input (or none), quoted text skipping as many characters, a
    number as wide as its pattern unless a separator follows (then all
    its digits), names of months and days in any case; the text may end
    before the template (the other fields keep their defaults)."""
    tokens = _read_tokens(template)
    f = {"year": None, "digits": 4, "month": 1, "day": 1, "yday": None, "hour": 0, "minute": 0, "second": 0, "micros": 0,
         "pm": None, "twelve": False, "tzh": None, "tzm": 0, "julian": None, "bc": False}
    pos = 0
    for n, (kind, word, fm, th) in enumerate(tokens):
        if kind == "separator":
            if word.isspace():
                while pos < len(text) and text[pos].isspace():
                    pos += 1
            elif pos < len(text) and _SEPARATOR.match(text[pos]) and not text[pos].isspace():
                pos += 1
            continue
        if kind in ("quoted", "literal"):
            pos += len(word)
            continue
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break  # the text ends before the template: its other fields keep their defaults
        if word in _UNREAD:
            raise FunctionError("0A000", f'to_timestamp and to_date of the template pattern "{word}" is not supported')
        if word in _READ_WIDTHS:
            pos = _read_number(text, pos, word, fm or th or n + 1 == len(tokens) or tokens[n + 1][0] != "pattern", f)
            if th and text[pos:pos + 2].isalpha():  # the ordinal's suffix (1st, 2nd, 10th)
                pos += 2
        else:
            pos = _read_word(text, pos, word, f)
        while pos < len(text) and text[pos].isspace():  # blanks around a value (to_char pads names and RM)
            pos += 1
    return _assembled(f, dated)


def _read_number(text: str, pos: int, word: str, greedy: bool, f: dict) -> int:
    start = pos
    if word == "Y,YYY" and (m := re.compile(r"(\d+),(\d{3})").match(text, pos)):
        f["year"], f["digits"] = int(m.group(1)) * 1000 + int(m.group(2)), 4
        return m.end()
    if (word == "TZH" and text[pos] in "+-") or (word in _YEARS and text[pos] == "-"):
        pos += 1
    width = _READ_WIDTHS[word]
    end = pos
    while end < len(text) and text[end].isdigit() and (greedy or end - pos < width or width == 0):
        end += 1
    digits = text[pos:end]
    if not digits or (not greedy and width and len(digits) < width and end < len(text)):
        raise _invalid(text[start:start + max(width, 1)], word, "Value must be an integer.")
    value = int(digits) * (-1 if text[start] == "-" else 1)
    if word in _YEARS:
        f["year"], f["digits"] = value, 4 if word in ("YYYY", "Y,YYY") else len(digits)  # YY, YYY and Y complete short years
    elif word in _FIELDS:
        f[_FIELDS[word]] = value
    elif word in ("HH", "HH12"):
        if not 1 <= value <= 12:
            raise FunctionError("22007", f'hour "{value}" is invalid for the 12-hour clock', "Use the 24-hour clock, or give an hour between 1 and 12.")
        f["hour"], f["twelve"] = value, True
    elif word in ("SSSS", "SSSSS"):
        f["hour"], f["minute"], f["second"] = value // 3600, value // 60 % 60, value % 60
    elif word == "MS":
        f["micros"] = int(digits.ljust(3, "0")) * 1000
    elif word in ("US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6"):
        f["micros"] = int(digits.ljust(6, "0")[:6])
    elif word == "TZH":
        f["tzh"], f["tzh_sign"] = abs(value), text[start] == "-"
    return end


def _read_word(text: str, pos: int, word: str, f: dict) -> int:
    rest = text[pos:].lower()
    if word in ("MONTH", "MON", "DAY", "DY"):
        names = _MONTHS if word.startswith("MON") else _DAYS
        for i, name in enumerate(names):
            probe = name.lower() if word in ("MONTH", "DAY") else name[:3].lower()
            if rest.startswith(probe):
                if word.startswith("MON"):
                    f["month"] = i + 1
                return pos + len(probe)
        raise _invalid(text[pos:].split()[0] if text[pos:].split() else text[pos:], word.capitalize() if word in ("MON", "MONTH", "DY", "DAY") else word,
                       "The given value did not match any of the allowed values for this field.")
    if word in _MARKERS:
        for probe, flag, meaning in _MARKERS[word]:
            if rest.startswith(probe):
                f[flag] = meaning
                return pos + len(probe)
        raise _invalid(text[pos:pos + len(word)], word, "The given value did not match any of the allowed values for this field.")
    for i, numeral in sorted(enumerate(_ROMAN), key=lambda x: -len(x[1])):  # RM
        if rest.startswith(numeral.lower()):
            f["month"] = i + 1
            return pos + len(numeral)
    raise _invalid(text[pos:pos + 4], word, "The given value did not match any of the allowed values for this field.")


def _assembled(f: dict, dated: bool) -> str:
    """The fields read as ISO text: a year of no digits is 1 BC (year 0),
    a negative one or one with BC is BC (the engine counts years
    astronomically: 44 BC is -0043); dates before year 1 are computed 400
    years (one cycle of the calendar) on."""
    year = 0 if f["year"] is None else _partial_year(f["year"], f["digits"]) if f["year"] > 0 else f["year"]
    if year < 0 or (f["bc"] and year > 0):
        year = 1 - abs(year) if not (f["bc"] and year < 0) else -year  # -44 is 44 BC; both a minus and BC: AD again
    shift = 0 if year >= 1 else (1 - year + 399) // 400 * 400
    try:
        if f["julian"] is not None:
            ordinal = dt.date(1970, 1, 1).toordinal() + f["julian"] - 2440588
            cycles = max(0, (-ordinal) // 146097 + 1)
            day, shift = dt.date.fromordinal(ordinal + cycles * 146097), 400 * cycles
        elif f["yday"] is not None:
            day = dt.date(year + shift, 1, 1) + dt.timedelta(days=f["yday"] - 1)
        else:
            day = dt.date(year + shift, f["month"], f["day"])
    except (ValueError, OverflowError):
        raise FunctionError("22008", f'date/time field value out of range: "{year:04d}-{f["month"]:02d}-{f["day"]:02d}"') from None
    hour = f["hour"]
    if f["pm"] is not None or f["twelve"]:
        hour = hour % 12 + (12 if f["pm"] else 0)
    if not (0 <= hour <= 24 and 0 <= f["minute"] < 60 and 0 <= f["second"] <= 60):
        raise FunctionError("22008", "date/time field value out of range")
    moment = dt.datetime.combine(day, dt.time()) + dt.timedelta(hours=hour, minutes=f["minute"], seconds=f["second"], microseconds=f["micros"])
    y = moment.year - shift
    out = (f"-{-y:04d}" if y < 0 else f"{y:04d}") + moment.isoformat(sep=" ")[4:]
    if dated:
        return out[:out.index(" ")]
    if f["tzh"] is not None:
        minutes = f["tzh"] * 60 + f["tzm"]
        out += f"{'-' if f.get('tzh_sign') else '+'}{minutes // 60:02d}:{minutes % 60:02d}"
    return out


FUNCTIONS = {
    "txngate_to_number": (to_number, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_to_char": (to_char_timestamp, ["BIGINT", "VARCHAR"], "VARCHAR"),
    "txngate_to_char_zoned": (to_char_zoned, ["BIGINT", "VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_to_char_interval": (to_char_interval, ["BIGINT", "BIGINT", "BIGINT", "VARCHAR"], "VARCHAR"),
    "txngate_to_char_number": (to_char_number, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_to_char_float": (to_char_float, ["VARCHAR", "VARCHAR", "INTEGER"], "VARCHAR"),
    "txngate_from_char": (from_char, ["VARCHAR", "VARCHAR", "BOOLEAN"], "VARCHAR"),
}


def register(con) -> None:
    udf.register(con, FUNCTIONS)
