"""``python -m tests.regress [FILE ...]`` (``make regress``): play
PostgreSQL's regression scripts against txngate and PostgreSQL and print,
per file, the statements that agree and the categories of the rest.
Without ``--txngate``/``--postgres`` DSNs it starts both servers itself
(a txngate gateway on a temporary data folder, a PostgreSQL in a
temporary cluster). ``--details PATH`` writes every disagreement."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from tests.regress import sources
from tests.regress.runner import CATEGORIES, FileReport, Side, play_file, play_setup

#: per file: statements, how many agree, how many answer wrong rows (the suite's floor)
BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline.json")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", default=sources.FILES)
    ap.add_argument("--txngate", help="libpq DSN of a running txngate")
    ap.add_argument("--postgres", help="libpq DSN of a running PostgreSQL")
    ap.add_argument("--details", help="write every disagreement to this file")
    ap.add_argument("--record", action="store_true", help=f"record the figures as the suite's baseline ({os.path.basename(BASELINE)})")
    ap.add_argument("--widen", action="store_true", help="with --record: keep the recorded figure where it is the more lenient "
                    "(statements whose outcome varies from run to run)")
    args = ap.parse_args()
    folder = sources.regress_dir()
    with tempfile.TemporaryDirectory() as tmp:
        pg = gateway = None
        try:
            if args.postgres is None:
                from tests.servers import PostgresServer
                pg = PostgresServer().start()
                args.postgres = pg.url()
            if args.txngate is None:
                from tests.servers import Gateway
                gateway = Gateway(tmp)
                args.txngate = gateway.dsn()
            reports = run(folder, args.files, Side(args.txngate), Side(args.postgres), args.details)
            if args.record:
                record(reports, widen=args.widen)
            return 0
        finally:
            if gateway is not None:
                gateway.stop()
            if pg is not None:
                pg.stop()


def run(folder: str, files: list[str], ours: Side, theirs: Side, details: str | None) -> list[FileReport]:
    with open(os.path.join(folder, "test_setup.sql")) as f:
        play_setup(f.read(), [ours, theirs])
    reports = []
    print(f"{'file':<18}{'statements':>11}{'agree':>8}{'share':>8}  " + "  ".join(CATEGORIES))
    for name in files:
        started = time.monotonic()
        with open(os.path.join(folder, f"{name}.sql")) as f:
            report = play_file(name, f.read(), ours, theirs)
        reports.append(report)
        cats = "  ".join(f"{report.categories.get(c, 0):>{len(c)}}" for c in CATEGORIES)
        print(f"{name:<18}{report.statements:>11}{report.agreed:>8}{report.share:>8.1%}  {cats}  ({time.monotonic() - started:.1f} s)", flush=True)
    total = sum(r.statements for r in reports)
    agreed = sum(r.agreed for r in reports)
    print(f"{'all':<18}{total:>11}{agreed:>8}{agreed / max(total, 1):>8.1%}  "
          + "  ".join(f"{sum(r.categories.get(c, 0) for r in reports):>{len(c)}}" for c in CATEGORIES))
    if details:
        with open(details, "w") as out:
            for r in reports:
                for step, category, got, expected in r.differences:
                    out.write(f"== {r.name}.sql:{step.line} [{category}]\n{step.sql}\n  txngate:    {got.brief()}\n"
                              f"  PostgreSQL: {expected.brief()}\n{_first_difference(got, expected)}\n")
    return reports


def _first_difference(got, expected) -> str:
    """The first row pair that differs (rows in order, or sorted when the
    orders differ), for a reader of the details."""
    if got.sqlstate or expected.sqlstate:
        return ""
    ours, theirs = got.rows, expected.rows
    if sorted(ours, key=repr) != sorted(theirs, key=repr) and len(ours) == len(theirs):
        ours, theirs = sorted(ours, key=repr), sorted(theirs, key=repr)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            return f"  first difference, row {i}: txngate {a!r:.200} PostgreSQL {b!r:.200}\n"
    return ""


def record(reports: list[FileReport], *, widen: bool = False) -> None:
    """Write the files' figures into the baseline the suite ratchets on
    (``widen``: the fewer agreeing and the more wrong of old and new)."""
    try:
        with open(BASELINE) as f:
            baseline = json.load(f)
    except FileNotFoundError:
        baseline = {}
    for r in reports:
        new = {"statements": r.statements, "agreed": r.agreed, "wrong rows": r.categories.get("wrong rows", 0)}
        old = baseline.get(r.name)
        if widen and old is not None:
            new["agreed"], new["wrong rows"] = min(new["agreed"], old["agreed"]), max(new["wrong rows"], old["wrong rows"])
        baseline[r.name] = new
    with open(BASELINE, "w") as f:
        json.dump(baseline, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
