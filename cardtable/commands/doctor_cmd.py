"""``cardtable doctor [--config FILE]``: checks this machine for a table and says what to fix,
with the exact command to type."""

from __future__ import annotations

from cardtable.config.doctor import FIX, report, run_checks


def register(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help="check this machine for a table and say what to fix")
    parser.add_argument("--config", help="the table configuration to check the devices of")
    parser.set_defaults(func=run)


def run(args) -> int:
    findings = run_checks(args.config)
    print(report(findings))
    return 1 if any(f.status == FIX for f in findings) else 0
