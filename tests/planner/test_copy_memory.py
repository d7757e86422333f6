"""A COPY far larger than its blocks runs in bounded memory (peak RSS of a
child process), and every row arrives."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "copy_memory_probe.py")


def test_large_copy_uses_bounded_memory(tmp_path):
    rows = 10_000_000  # ~295 MiB as Arrow; the COPY never holds more than a few blocks
    res = subprocess.run([sys.executable, PROBE, str(tmp_path), str(rows)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["tag"] == f"COPY {rows}"
    assert out["count"] == rows + 300_000
    assert out["growth_mib"] < 140, out  # flat in the row count: ~110 MiB for 3M and for 10M rows
    assert out["arrow_mib"] > 2 * 140, out
