"""``make install`` puts a working ``cardtable`` launcher on the PATH's usual folder, and the
system-package check finds what this machine has by library, command or file, not by name."""

import shutil
import subprocess
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="no make here")


@needs_make
def test_make_install_writes_a_launcher_that_runs_this_checkout(tmp_path):
    done = subprocess.run(["make", "-s", "install", f"BIN={tmp_path}"], cwd=CHECKOUT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"installed {tmp_path}/cardtable" in done.stdout
    version = subprocess.run([str(tmp_path / "cardtable"), "--version"], capture_output=True, text=True,
                             cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert version.returncode == 0 and version.stdout.startswith("cardtable "), version.stderr


def test_the_system_package_check_finds_what_is_installed_here():
    """This machine has libzbar, the fonts, espeak-ng, aplay, mosquitto, chromium, the card decks and rsvg-convert."""
    for need in ("runtime", "test"):
        done = subprocess.run(["sh", "deploy/system_packages.sh", need], cwd=CHECKOUT, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.strip() == "", done.stdout


def test_the_system_package_check_names_what_is_missing(tmp_path):
    """With a Python whose ctypes finds no library and no ldconfig, libzbar0 is named (and with no
    command on the PATH, the speech packages)."""
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    script = (CHECKOUT / "deploy" / "system_packages.sh").read_text().replace("/sbin/ldconfig", "/nonexistent")
    (tmp_path / "check.sh").write_text(script)
    done = subprocess.run(["/bin/sh", str(tmp_path / "check.sh"), "runtime"], capture_output=True, text=True,
                          env={"PATH": f"{tmp_path}:/nonexistent", "PYTHON": str(fake)})
    assert done.stdout.split() == ["python3-venv", "libzbar0", "espeak-ng", "alsa-utils"]


def test_the_fresh_root_script_is_valid_shell_and_says_its_usage():
    assert subprocess.run(["sh", "-n", "deploy/fresh_root.sh"], cwd=CHECKOUT).returncode == 0
    usage = subprocess.run(["sh", "deploy/fresh_root.sh", "--help"], cwd=CHECKOUT, capture_output=True, text=True)
    assert usage.returncode == 2 and "sudo deploy/fresh_root.sh --arch arm64" in usage.stdout
