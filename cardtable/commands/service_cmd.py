"""``cardtable install-service --config FILE``: the systemd unit for this user, this checkout and
this config, installed and enabled so the table starts at boot.

Run it as the table's user: the folders the table writes are made as that user, and only the two
steps that need root (placing the unit, ``systemctl enable``) go through ``sudo``. A unit that
would run the table as root is refused, naming the user to give with ``--user`` (the owner of the
config, else pi): root would undo the sandbox and could forge the journal's seals.
"""

from __future__ import annotations

import getpass
import grp
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import cardtable
from cardtable.config import TableConfig, load_config
from cardtable.config.app_sections import JOURNAL
from cardtable.config.doctor import pi_model
from cardtable.service_unit import UnitPlan, existing_groups, unit_text
from engine.errors import InvalidInput
from hardware.config import DISPLAYS

UNIT_NAME = "cardtable.service"
SYSTEM_UNITS = Path("/etc/systemd/system")
CHECKOUT = Path(cardtable.__file__).resolve().parent.parent


def register(subparsers) -> None:
    parser = subparsers.add_parser("install-service", help="start the table at boot (a systemd service)",
                                   description="Write the systemd unit for this user, this checkout and this "
                                               "config, install it and enable it (with sudo).")
    parser.add_argument("--config", required=True, help="the table configuration the service runs")
    parser.add_argument("--user", help="the user the table runs as (default: you)")
    parser.add_argument("--print", action="store_true", help="print the unit and change nothing")
    parser.add_argument("--unit-dir", type=Path, default=SYSTEM_UNITS,
                        help=f"where to put the unit (default {SYSTEM_UNITS})")
    parser.add_argument("--no-enable", action="store_true", help="write the unit but do not enable or start it")
    parser.set_defaults(func=run)


def plan_for(config: TableConfig, user: str) -> UnitPlan:
    """The unit's settings for ``config`` run by ``user`` from this checkout."""
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise InvalidInput(f"there is no user {user!r} on this machine") from None
    writable = [config[JOURNAL].path.parent] + [d.folder for d in config[DISPLAYS] if d.kind == "png"]
    environment = ()
    if "Raspberry Pi 5" in pi_model():    # gpiozero cannot guess the Pi 5's GPIO chip: name lgpio
        environment = ("GPIOZERO_PIN_FACTORY=lgpio",)
    return UnitPlan(user=user, group=_group_name(entry.pw_gid), checkout=CHECKOUT, config=config.path.resolve(),
                    writable=tuple(dict.fromkeys(p.resolve() for p in writable)), groups=existing_groups(),
                    environment=environment)


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def verify(text: str) -> list[str]:
    """What ``systemd-analyze verify`` says is wrong with the unit (nothing when it is not here)."""
    if shutil.which("systemd-analyze") is None:
        return []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / UNIT_NAME
        path.write_text(text)
        done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    return [line for line in done.stderr.splitlines() if line.strip()]


def table_user(given: str | None, config: TableConfig) -> str:
    """The user the table runs as: ``--user``, else the one who ran sudo, else this one.

    :raises InvalidInput: when that is root, naming the user to give instead.
    """
    user = given or os.environ.get("SUDO_USER") or getpass.getuser()
    try:
        is_root = pwd.getpwnam(user).pw_uid == 0
    except KeyError:
        return user                                       # plan_for says there is no such user
    if is_root:
        owner = pwd.getpwuid(config.path.stat().st_uid).pw_name if config.path.exists() else "root"
        suggested = owner if owner != "root" else "pi"
        raise InvalidInput(f"the table would run as root, which takes away its sandbox and lets anything it "
                           f"reads write the whole system: name the user it runs as, e.g. --user {suggested} "
                           f"(one who owns the config and is in the device groups)")
    return user


def run(args) -> int:
    config = load_config(args.config)
    plan = plan_for(config, table_user(args.user, config))
    text = unit_text(plan)
    if args.print:
        print(text, end="")
        return 0
    for problem in verify(text):
        print(f"systemd-analyze: {problem}")
    for folder in plan.writable:
        folder.mkdir(parents=True, exist_ok=True)
    target = args.unit_dir / UNIT_NAME
    sudo = [] if os.geteuid() == 0 or os.access(args.unit_dir, os.W_OK) else ["sudo"]
    if sudo and shutil.which("sudo") is None:
        raise InvalidInput(f"writing {target} needs root: run this as root, or install sudo")
    with tempfile.NamedTemporaryFile("w", suffix=".service", delete=False) as temporary:
        temporary.write(text)
    try:
        _run([*sudo, "install", "-m", "0644", temporary.name, str(target)])
    finally:
        os.unlink(temporary.name)
    print(f"wrote {target}: the table runs as {plan.user} with {plan.config}")
    if args.no_enable:
        print(f"enable it with: sudo systemctl daemon-reload && sudo systemctl enable --now {UNIT_NAME}")
        return 0
    for step in (["daemon-reload"], ["enable", "--now", UNIT_NAME]):
        _run([*sudo, "systemctl", *step])
    print(f"enabled and started; follow its log with: journalctl -u {UNIT_NAME.removesuffix('.service')} -f")
    return 0


def _run(command: list[str]) -> None:
    """Run a step; a failure is said with the command, so the person can run it themselves."""
    if subprocess.run(command).returncode != 0:
        raise InvalidInput(f"'{' '.join(command)}' failed (its message is above)")
