"""The history checker must reject non-linearizable histories, or the
concurrency tests prove nothing."""

from __future__ import annotations

import pytest

from tests.location.linearizability import Op, check_history


def w(name, inv, resp, expected, data, ok=True):
    return Op(name, "cas", inv, resp, expected=expected, data=data, ok=ok)


def h(name, inv, resp, seqno, data=b""):
    return Op(name, "head", inv, resp, seqno=seqno, data=data)


LOG = [(0, b"a"), (1, b"b")]


def test_accepts_a_legal_history():
    ops = [w("x", 0, 10, None, b"a"), h("y", 11, 12, 0, b"a"), w("y", 13, 20, 0, b"b"), w("x", 14, 18, 0, b"c", ok=False)]
    assert check_history(ops, LOG) == {"writes": 2, "failures": 1, "reads": 1}


def test_rejects_two_winners():
    ops = [w("x", 0, 10, None, b"a"), w("y", 11, 20, 0, b"b"), w("z", 11, 20, 0, b"c")]
    with pytest.raises(AssertionError, match="two winners"):
        check_history(ops, LOG)


def test_rejects_gap():
    with pytest.raises(AssertionError, match="gaps"):
        check_history([w("x", 0, 1, None, b"a")], [(0, b"a"), (2, b"c")])


def test_rejects_stale_read():
    ops = [w("x", 0, 10, None, b"a"), w("x", 11, 20, 0, b"b"), h("y", 30, 31, 0, b"a")]
    with pytest.raises(AssertionError, match="stale"):
        check_history(ops, LOG)


def test_rejects_read_from_the_future():
    ops = [w("x", 0, 10, None, b"a"), h("y", 11, 12, 1, b"b"), w("x", 20, 30, 0, b"b")]
    with pytest.raises(AssertionError, match="before it was written"):
        check_history(ops, LOG)


def test_rejects_failure_while_expected_was_certainly_head():
    ops = [w("x", 0, 10, None, b"a"), w("y", 12, 13, 0, b"z", ok=False), w("x", 20, 30, 0, b"b")]
    with pytest.raises(AssertionError, match="certainly the head"):
        check_history(ops, LOG)


def test_rejects_real_time_inversion():
    ops = [w("x", 0, 10, None, b"a"), w("y", 20, 30, 0, b"b")]
    # Log claims the later write came first.
    with pytest.raises(AssertionError):
        check_history(ops, [(0, b"b"), (1, b"a")])
