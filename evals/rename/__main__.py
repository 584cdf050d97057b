"""`python -m evals.rename SUITE --out DIR [--restyle] [--check] [--jobs N]`: write the
renamed (or restyled) suite; with --check, run every case's command on the original and
the rewrite and report each whose metric differs or that crashes (exit 1 then)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from torch_investigate.evals.rename.check import check_suite
from torch_investigate.evals.rename.suite import rewrite_suite


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evals.rename")
    ap.add_argument("suite", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--restyle", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only-check", action="store_true", help="check an existing rewrite")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if not args.only_check:
        rewrite_suite(args.suite, args.out, variant="restyle" if args.restyle else "rename")
    if args.check or args.only_check:
        report = check_suite(args.suite, args.out, jobs=args.jobs)
        (args.out.parent / f"{args.out.name}.check.json").write_text(
            report.model_dump_json(indent=1) + "\n", encoding="utf-8"
        )
        for c in report.problems:
            before = c.original.value if c.original else None
            after = c.rewritten.value if c.rewritten else None
            why = c.rewritten.error if c.rewritten else ""
            print(f"{c.id}: {c.verdict}: {before} -> {after} {why}")
        print(
            f"{len(report.cases) - len(report.problems)} of {len(report.cases)} cases run as before"
        )
        return 1 if report.problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
