"""Writing and reading a batch far larger than the part size keeps peak
memory bounded (measured as peak RSS of a child process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory_probe.py")


def test_large_batch_write_and_read_use_bounded_memory(tmp_path):
    rows = 12_000_000  # ~366 MiB of Arrow data, written as 4 MiB parts
    res = subprocess.run([sys.executable, PROBE, str(tmp_path), str(rows), "250000"], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["rows_read"] == rows
    assert out["parts"] >= 50
    # Generous bound: a few parts and chunks in flight, far below the data size.
    assert out["write_growth_mib"] < 160, out
    assert out["read_growth_mib"] < 160, out
    assert out["arrow_mib"] > 2 * 160
