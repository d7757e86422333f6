"""values: PostgreSQL's values as text and binary, its type registry and the
SQL names of Arrow types,
below every layer that reads or prints them (gateway, planner, local_exec);
above storage, whose shards carry their columns' SQL types.

Public API: from ``values.types``, the type registry (``PG_TYPES``,
``PgType``, ``PG_TYPE_BY_OID``, ``PG_TYPE_BY_SQL``, ``PG_ARRAY_ELEMENT``, ``CATALOG_TYPES``,
``type_oid``, ``type_length``, ``sql_of_oid``) and ``of_arrow`` (a
column's SQL type name);
from ``values.text``: ``format_value`` / ``format_column`` (a value, an
Arrow column in PostgreSQL's text output format under a ``TextStyle``),
``format_array`` (array output, any number of dimensions),
``format_interval`` (an interval in an IntervalStyle), ``parse_array``
(array input), ``parse_bytea`` (bytea input, ``ByteaInputError``), ``value_type``, ``split_far_dates`` / ``split_infinities``
(what Arrow cannot hold), and the
date input helpers (``date_input``, ``timestamp_input``, ``bc_input``,
``DATE_ORDER``, ``DateSyntax``, ``ArrayLiteralError``, ``INFINITIES``);
``values.binary``: ``encode_binary`` / ``decode_binary`` (PostgreSQL's
binary format); ``values.columns``: ``python_values`` (an Arrow column as
the Python values those encoders take); ``values.encode``:
``encode_column`` / ``encode_values`` (a column in the protocol's text or
binary format, for DataRows and COPY; ``fixed_width_binary``);
``values.input``: PostgreSQL's input functions, ``datetime_text`` /
``time_text`` / ``interval_text`` (text the engines read alike),
``boolean_input`` (``BOOLEAN_WORDS``) / ``integer_input``
(``INTEGER_RANGES``) / ``float_input`` / ``numeric_input`` (text to a
value) and
``decode_param`` (a protocol parameter, text or binary, by OID), over
``values.datetimes`` (``datetime_input``: the free date and time forms)
and ``values.intervals`` (``interval_input``, ``qualified_interval``,
``INTERVAL_STYLE``, ``IntervalSyntax``, ``unit_field``);
``values.errors``: ``InvalidInput``, the error every reader raises, with
PostgreSQL's SQLSTATE; ``values.zones``: ``zone`` (a
TimeZone setting's zone), ``engine_zone`` (the name the engines compute
it in; ``engine_offset``: the name of a fixed offset; ``is_engine_offset``: one of those),
``offset_of_hours`` / ``setting_of_offset`` (SET TIME ZONE of a number or
an interval), ``numeric_zone`` (make_timestamptz's ``+2``, ISO's sign), ``local_offset`` (the offset a zone's local time is read
at), ``abbreviation`` / ``abbreviation_offset`` / ``abbreviation_steps``
(time zone abbreviations, fixed and dynamic).

Invariant: nothing here imports gateway, planner or the engines;
the package keeps no state but the ``DATE_ORDER`` and ``INTERVAL_STYLE``
context variables.
"""

from values.binary import decode_binary, encode_binary
from values.columns import python_values
from values.datetimes import datetime_input
from values.encode import encode_column, encode_values, fixed_width_binary
from values.errors import InvalidInput
from values.input import (BOOLEAN_WORDS, INTEGER_RANGES, boolean_input, datetime_text, decode_param, float_input, integer_input, interval_text,
                          numeric_input, record_input, time_text)
from values.intervals import INTERVAL_STYLE, IntervalSyntax, interval_input, qualified_interval, unit_field
from values.text import (DATE_ORDER, INFINITIES, ArrayLiteralError, ByteaInputError, DateSyntax, TextStyle, bc_input, date_input, format_array, format_column,
                         format_interval, format_record_texts, format_value, parse_array, parse_bytea, split_far_dates, split_infinities, timestamp_input, value_type)
from values.zones import ABBREVIATIONS as ZONE_ABBREVIATIONS
from values.zones import (abbreviation, abbreviation_offset, abbreviation_steps, engine_offset, engine_zone, is_engine_offset, local_offset, numeric_zone,
                          offset_of_hours, setting_of_offset, zone)
from values.types import (CARRIED_INTERVAL_MICROS, CATALOG_TYPES, LONG_INTERVAL, PG_ARRAY_ELEMENT, PG_TYPE_BY_OID, PG_TYPE_BY_SQL, PG_TYPES, STORED_PLACES, TEXT_CARRIED, TOO_MANY_PLACES, TYPED_PARAMS, PgType, of_arrow,
                          sql_of_oid, type_length, type_oid)

__all__ = ["CARRIED_INTERVAL_MICROS", "LONG_INTERVAL", "CATALOG_TYPES", "TEXT_CARRIED", "TYPED_PARAMS", "DATE_ORDER", "STORED_PLACES", "TOO_MANY_PLACES", "INFINITIES", "PG_ARRAY_ELEMENT", "PG_TYPES", "PG_TYPE_BY_OID", "PG_TYPE_BY_SQL", "ArrayLiteralError", "DateSyntax",
           "PgType", "TextStyle", "bc_input", "date_input", "decode_binary", "encode_binary", "format_array", "format_column", "format_interval",
           "format_record_texts", "format_value", "of_arrow", "parse_array", "python_values", "split_far_dates", "split_infinities", "sql_of_oid", "timestamp_input",
           "type_length", "type_oid", "value_type", "zone", "engine_zone", "is_engine_offset", "offset_of_hours", "setting_of_offset",
           "abbreviation", "abbreviation_offset", "abbreviation_steps", "local_offset", "engine_offset", "ZONE_ABBREVIATIONS", "numeric_zone",
           "INTERVAL_STYLE", "InvalidInput", "ByteaInputError", "parse_bytea", "IntervalSyntax", "datetime_input", "datetime_text", "decode_param", "encode_column", "encode_values",
           "fixed_width_binary", "interval_input", "BOOLEAN_WORDS", "INTEGER_RANGES", "boolean_input", "float_input", "integer_input", "numeric_input", "record_input", "interval_text", "qualified_interval", "time_text", "unit_field"]
