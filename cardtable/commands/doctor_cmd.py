"""``cardtable doctor [--config FILE]``: checks this machine for a table and says what to fix,
with the exact command to type."""

from __future__ import annotations

from cardtable.doctor import FIX, run_checks


def register(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help="check this machine for a table and say what to fix")
    parser.add_argument("--config", help="the table configuration to check the devices of")
    parser.set_defaults(func=run)


def run(args) -> int:
    findings = run_checks(args.config)
    for finding in findings:
        lines = finding.detail.splitlines() or [""]
        print(f"{finding.status:4}  {finding.name}: {lines[0]}")
        for line in lines[1:]:
            print(f"      {line}")
        if finding.fix and finding.status != "ok":
            print(f"      to fix: {finding.fix}")
    to_fix = sum(f.status == FIX for f in findings)
    print("ready for a table" if not to_fix else f"{to_fix} thing{'s' * (to_fix != 1)} to fix")
    return 1 if to_fix else 0
