"""A checker for histories of Consensus operations on one key.

An operation is recorded with its invocation and response times (from
``time.monotonic_ns``, which is system-wide on Linux, so histories from
several processes can be merged). The checker verifies, against the final
log read after all operations finished:

1. the log is contiguous from its first seqno to its head;
2. exactly one successful CaS wrote each entry, and its data is there;
3. every successful CaS(e) is consistent in real time: the write of ``e``
   was invoked before it returned, and successful writes ordered in real
   time have increasing seqnos;
4. every failed CaS(e) could have been linearized at a moment when the head
   was not ``e``: it is illegal only if ``e`` was certainly the head for the
   whole call (written before it began, successor begun after it ended);
5. every head read returning ``s`` could have been linearized while ``s``
   was the head: ``s`` was written before the read ended, and ``s + 1`` was
   not completely written before the read began; and its data matches.

These are the per-operation conditions linearizability implies; violating
any of them means the implementation is not linearizable.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Op:
    worker: str
    kind: str  # "cas" or "head"
    inv: int
    resp: int
    expected: int | None = None  # cas
    data: bytes = b""  # cas: written; head: read
    ok: bool = False  # cas
    seqno: int | None = None  # head: seqno read (None = empty)


def check_history(ops: list[Op], final_log: list[tuple[int, bytes]], initial: int | None = None) -> dict[str, int]:
    """Raise AssertionError on a violation; return counts for reporting."""
    seqnos = [s for s, _ in final_log]
    assert seqnos == list(range(seqnos[0], seqnos[0] + len(seqnos))) if seqnos else True, f"log has gaps: {seqnos}"
    log = dict(final_log)
    head = seqnos[-1] if seqnos else None

    writes = [o for o in ops if o.kind == "cas" and o.ok]
    by_seqno: dict[int, Op] = {}
    for w in writes:
        s = 0 if w.expected is None else w.expected + 1
        assert s not in by_seqno, f"two winners at seqno {s}: {by_seqno[s]} and {w}"
        by_seqno[s] = w
        assert log.get(s) == w.data, f"winner {w} not in log at {s} (log has {log.get(s)!r})"
    first_written = (initial + 1) if initial is not None else 0
    for s in range(first_written, (head or -1) + 1):
        assert s in by_seqno, f"log entry {s} has no winning CaS"
    # Real-time order of successful writes.
    for s, w in by_seqno.items():
        prev = by_seqno.get(s - 1)
        if prev is not None:
            assert prev.inv < w.resp, f"write at {s} returned before its predecessor was invoked"
    # No write at a higher seqno may finish before a lower one begins:
    # compare each write's invocation with the earliest response above it.
    ordered = sorted(by_seqno.items())
    min_resp_above = None
    for s, w in reversed(ordered):
        if min_resp_above is not None:
            assert not (min_resp_above < w.inv), f"a write above seqno {s} finished before the write at {s} began"
        min_resp_above = w.resp if min_resp_above is None else min(min_resp_above, w.resp)

    failures = [o for o in ops if o.kind == "cas" and not o.ok]
    for f in failures:
        e = f.expected
        if e is None:
            # Illegal only if the log was certainly empty throughout.
            w0 = by_seqno.get(0)
            assert w0 is not None and w0.inv <= f.resp or initial is not None, f"first-write CaS {f} failed on an empty log"
            continue
        w_e, w_next = by_seqno.get(e), by_seqno.get(e + 1)
        e_certainly_head_from = w_e.resp if w_e else (-1 if e == initial else None)
        if e_certainly_head_from is None:
            continue  # e was never written: head was never e, failure is right
        if w_next is None:
            raise AssertionError(f"CaS {f} failed but {e} stayed the head forever")
        assert not (e_certainly_head_from < f.inv and w_next.inv > f.resp), f"CaS {f} failed while {e} was certainly the head"

    reads = [o for o in ops if o.kind == "head"]
    for r in reads:
        s = r.seqno
        if s is None:
            w0 = by_seqno.get(0)
            assert initial is None and (w0 is None or w0.resp >= r.inv), f"head {r} read empty after the first write finished"
            continue
        w = by_seqno.get(s)
        if w is not None:
            assert w.inv <= r.resp, f"head {r} read seqno {s} before it was written"
        else:
            assert s == initial, f"head {r} read seqno {s} that no CaS wrote"
        nxt = by_seqno.get(s + 1)
        if nxt is not None:
            assert nxt.resp >= r.inv, f"head {r} read stale seqno {s} after {s + 1} was written"
        assert log.get(s, r.data) == r.data or s not in log, f"head {r} data differs from the log"

    return {"writes": len(writes), "failures": len(failures), "reads": len(reads)}
