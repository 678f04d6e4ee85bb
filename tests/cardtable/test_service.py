"""The systemd unit: hardened (systemd-analyze security at most 2.5), accepted by systemd-analyze
verify, written for this user, checkout and config; deploy/cardtable.service is the same text
for the user pi."""

import os
import pwd
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardtable.cli import main
from cardtable.commands.service_cmd import CHECKOUT
from cardtable.sim.devices import demo_registry
from cardtable.service_unit import DEVICE_GROUPS, UnitPlan, unit_text

DEPLOYED = CHECKOUT / "deploy" / "cardtable.service"
PI = UnitPlan(user="pi", group="pi", checkout=Path("/home/pi/cardtable"), config=Path("/home/pi/table.toml"),
              writable=(Path("/home/pi"),), groups=DEVICE_GROUPS)
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")


def exposure(unit: Path) -> float:
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                          capture_output=True, text=True, cwd=unit.parent)
    return float(re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout).group(1))


def test_the_deployed_unit_is_the_one_written_for_pi():
    assert DEPLOYED.read_text() == unit_text(PI)
    assert "dev-serial.target" not in DEPLOYED.read_text()


def test_every_setting_a_user_may_change_has_a_comment_on_the_line_before():
    lines = unit_text(PI).splitlines()
    for key in ("User=", "SupplementaryGroups=", "WorkingDirectory=", "ReadWritePaths=", "DevicePolicy=",
                "DeviceAllow=", "RestrictAddressFamilies=", "SystemCallArchitectures="):
        for i, line in enumerate(lines):
            if line.startswith(key):
                assert lines[i - 1].startswith("#") or not lines[i - 1].startswith(key.split("=")[0]), line
    assert not [line for line in lines if not line.startswith("#") and " #" in line], "systemd has no end-of-line comments"


@needs_systemd
def test_the_deployed_unit_is_hardened():
    assert exposure(DEPLOYED) <= 2.5


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "table.toml"
    demo_registry("standard").save(tmp_path / "tags.json")
    path.write_text("""
[game]
name = "cribbage"
[input]
kind = "rfid"
[rfid]
registry = "tags.json"
readers = ["seat1", "seat2", "starter", "crib"]
[[display]]
kind = "png"
folder = "shots"
[journal]
path = "data/journal.sqlite"
""")
    return path


#: an ordinary user to run the table as: this one, or (the tests may run as root, which is refused)
#: the first login user of this machine, or on a machine with none (a fresh root) Debian's
#: ``daemon`` account (systemd calls nobody unsafe)
TABLE_USER = pwd.getpwuid(os.getuid()).pw_name if os.getuid() else next(
    (u.pw_name for u in sorted(pwd.getpwall(), key=lambda u: u.pw_uid) if 1000 <= u.pw_uid < 65534), "daemon")


def test_install_service_writes_the_unit_for_this_user_checkout_and_config(config, tmp_path, capsys):
    assert main(["install-service", "--config", str(config), "--print", "--user", TABLE_USER]) == 0
    text = capsys.readouterr().out
    assert f"User={TABLE_USER}\n" in text
    assert f"ExecStart={CHECKOUT}/.venv/bin/cardtable run --config {config}\n" in text
    assert f"WorkingDirectory={CHECKOUT}\n" in text
    assert f"ReadWritePaths={tmp_path / 'data'} {tmp_path / 'shots'}\n" in text
    assert "/home/pi" not in text
    units = tmp_path / "units"
    units.mkdir()
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units), "--no-enable",
                 "--user", TABLE_USER]) == 0
    out = capsys.readouterr().out
    assert (units / "cardtable.service").read_text() == text
    assert (tmp_path / "data").is_dir() and (tmp_path / "shots").is_dir()
    assert "sudo systemctl enable --now cardtable.service" in out


@needs_systemd
def test_systemd_accepts_the_unit_it_writes(config, tmp_path, capsys):
    assert main(["install-service", "--config", str(config), "--print", "--user", TABLE_USER]) == 0
    unit = tmp_path / "cardtable.service"
    unit.write_text(capsys.readouterr().out)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    assert exposure(unit) <= 2.5


def test_install_service_refuses_a_config_that_cannot_start(tmp_path, capsys):
    (tmp_path / "table.toml").write_text("[game]\nname = 'bridge'\n")
    assert main(["install-service", "--config", str(tmp_path / "table.toml"), "--print"]) == 2
    assert "game.name:" in capsys.readouterr().err


def test_on_a_pi5_the_unit_names_the_lgpio_pin_factory(config, monkeypatch, capsys):
    from cardtable.commands import service_cmd

    monkeypatch.setattr(service_cmd, "pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    assert main(["install-service", "--config", str(config), "--print", "--user", TABLE_USER]) == 0
    assert "\nEnvironment=GPIOZERO_PIN_FACTORY=lgpio\n" in capsys.readouterr().out


@pytest.mark.parametrize("given", [[], ["--user", "root"]])
def test_a_service_run_as_root_is_refused_naming_the_user_to_give(config, monkeypatch, capsys, given):
    """Run as root (with sudo or not), the table would run as root: refused, and the user to name
    is said (the config's owner when that is not root, else pi)."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(os, "getuid", lambda: 0)
    monkeypatch.delenv("SUDO_USER", raising=False)
    monkeypatch.setattr("getpass.getuser", lambda: "root")
    units = config.parent / "units"
    units.mkdir()
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units), "--no-enable", *given]) == 2
    err = capsys.readouterr().err
    owner = pwd.getpwuid(config.stat().st_uid).pw_name
    assert "would run as root" in err and f"--user {owner if owner != 'root' else 'pi'}" in err
    assert not (units / "cardtable.service").exists()
