"""values: PostgreSQL's values as text and the SQL names of Arrow types,
below every layer that reads or prints them (gateway, planner, local_exec);
above storage, whose shards carry their columns' SQL types.

Public API: ``of_arrow`` (``values.types``: a column's SQL type name);
from ``values.text``: ``format_value`` / ``format_column`` (a value, an
Arrow column in PostgreSQL's text output format under a ``TextStyle``),
``format_array`` (array output, any number of dimensions), ``parse_array``
(array input), ``value_type``, ``split_far_dates`` / ``split_infinities``
(what Arrow cannot hold), ``zone`` (a TimeZone setting's zone), and the
date input helpers (``date_input``, ``timestamp_input``, ``bc_input``,
``DATE_ORDER``, ``DateSyntax``, ``ArrayLiteralError``, ``INFINITIES``).

Invariant: nothing here imports gateway, planner or the engines;
the module keeps no state but the ``DATE_ORDER`` context variable.
"""

from values.types import of_arrow
from values.text import (DATE_ORDER, INFINITIES, ArrayLiteralError, DateSyntax, TextStyle, bc_input, date_input, format_array,
                         format_column, format_value, parse_array, split_far_dates, split_infinities, timestamp_input, value_type, zone)

__all__ = ["DATE_ORDER", "INFINITIES", "ArrayLiteralError", "DateSyntax", "TextStyle", "bc_input", "date_input", "format_array",
           "format_column", "format_value", "of_arrow", "parse_array", "split_far_dates", "split_infinities", "timestamp_input", "value_type", "zone"]
