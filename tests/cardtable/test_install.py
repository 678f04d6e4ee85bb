"""``make install`` puts a working ``cardtable`` launcher on the PATH's usual folder, and the
system-package check finds what this machine has by library, command or file, not by name."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="no make here")


@pytest.mark.slow
@needs_make
def test_make_install_writes_a_launcher_that_runs_this_checkout(tmp_path):
    done = subprocess.run(["make", "-s", "install", f"BIN={tmp_path}"], cwd=CHECKOUT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"installed {tmp_path}/cardtable" in done.stdout
    version = subprocess.run([str(tmp_path / "cardtable"), "--version"], capture_output=True, text=True,
                             cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert version.returncode == 0 and version.stdout.startswith("cardtable "), version.stderr


@pytest.mark.slow
def test_the_system_package_check_finds_what_is_installed_here():
    """This machine has libzbar, the fonts, espeak-ng, aplay, mosquitto, chromium, the card decks and rsvg-convert."""
    for need in ("runtime", "test"):
        done = subprocess.run(["sh", "deploy/system_packages.sh", need], cwd=CHECKOUT, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.strip() == "", done.stdout


@pytest.fixture
def needed(tmp_path):
    """``needed(need, apt_has)``: what the package check names on a machine that has nothing
    cardtable needs (a Python whose ctypes finds no library, no ldconfig, none of the commands or
    files) and whose ``apt-cache policy`` offers only the packages in ``apt_has``."""
    (tmp_path / "python3").write_text("#!/bin/sh\nexit 1\n")
    (tmp_path / "apt-cache").write_text(
        '#!/bin/sh\n[ "$1" = policy ] || exit 100\ncandidate="(none)"\n'
        'for name in $APT_HAS; do [ "$name" != "$2" ] || candidate=1.0; done\n'
        'printf "%s:\\n  Installed: (none)\\n  Candidate: %s\\n" "$2" "$candidate"\n')
    for tool in ("python3", "apt-cache"):
        (tmp_path / tool).chmod(0o755)
    for tool in ("grep", "ls"):          # what the check itself runs; nothing it looks for
        (tmp_path / tool).symlink_to(shutil.which(tool))
    script = (CHECKOUT / "deploy" / "system_packages.sh").read_text()
    for present in ("/sbin/ldconfig", "/usr/sbin/", "/usr/share/carddecks", "/usr/share/fonts"):
        script = script.replace(present, "/nonexistent")
    (tmp_path / "system_packages.sh").write_text(script)

    def run(need: str, apt_has: str) -> list[str]:
        done = subprocess.run(["/bin/sh", str(tmp_path / "system_packages.sh"), need], capture_output=True, text=True,
                              env={"PATH": str(tmp_path), "PYTHON": str(tmp_path / "python3"), "APT_HAS": apt_has})
        assert done.returncode == 0, done.stderr
        return done.stdout.split()
    return run


#: the fonts the corner index model's tests draw cards in (the test need's last names)
FONTS = "fonts-dejavu-extra fonts-liberation fonts-freefont-ttf fonts-urw-base35"
BOOKWORM = f"python3-venv libzbar0 fonts-dejavu-core espeak-ng alsa-utils mosquitto chromium kdegames-card-data-kf5 librsvg2-bin libatomic1 {FONTS}"
#: trixie renamed two (the 64-bit time_t move and KDE 6); apt-cache still shows libzbar0 as a
#: purely virtual name, with no candidate of its own.
TRIXIE = f"python3-venv libzbar0t64 fonts-dejavu-core espeak-ng alsa-utils mosquitto chromium kdegames-card-data librsvg2-bin libatomic1 {FONTS}"


def test_the_system_package_check_names_what_is_missing_as_apt_here_calls_it(needed):
    """Each need is asked for under the name this machine's apt can install: bookworm's names on
    bookworm, trixie's on trixie, and chromium-browser where only that is offered."""
    assert needed("runtime", BOOKWORM) == ["python3-venv", "libzbar0", "fonts-dejavu-core", "espeak-ng", "alsa-utils"]
    assert needed("test", BOOKWORM) == BOOKWORM.split()
    assert needed("test", TRIXIE) == TRIXIE.split()
    raspberry_pi_os = BOOKWORM.replace("chromium", "chromium-browser")
    assert needed("test", raspberry_pi_os) == raspberry_pi_os.split()


def test_without_apt_lists_the_newest_names_are_said(needed):
    """Before the first apt-get update apt knows no package at all: the names of the newest
    release are said (the Makefile updates apt's lists and asks again before installing)."""
    assert needed("test", "") == TRIXIE.split()


@pytest.fixture
def install(tmp_path, needed):
    """``install(uid)``: deploy/install_system_packages.sh run as ``uid`` (no sudo here) on the
    machine of :func:`needed` with apt as trixie's, whose apt-get cannot install chromium; returns
    the run and the apt-get calls (without their quiet options)."""
    shutil.copy(CHECKOUT / "deploy" / "install_system_packages.sh", tmp_path)
    (tmp_path / "apt-get").write_text('#!/bin/sh\necho "$*" >> "$APT_LOG"\n'
                                      'for arg; do [ "$arg" != chromium ] || exit 100; done\n')
    (tmp_path / "apt-get").chmod(0o755)
    for tool in ("env", "dirname", "sh"):
        (tmp_path / tool).symlink_to(shutil.which(tool))
    log = tmp_path / "apt.log"
    log.touch()

    def run(uid: int):
        (tmp_path / "id").write_text(f"#!/bin/sh\necho {uid}\n")
        (tmp_path / "id").chmod(0o755)
        done = subprocess.run(["/bin/sh", str(tmp_path / "install_system_packages.sh"), "test"], capture_output=True,
                              text=True, env={"PATH": str(tmp_path), "PYTHON": str(tmp_path / "python3"),
                                              "APT_HAS": TRIXIE, "APT_LOG": str(log)})
        return done, [line.split(" -o Dpkg::Use-Pty=0 ")[1] for line in log.read_text().splitlines()]
    return run


def test_each_missing_package_is_installed_on_its_own_after_apt_update(install):
    """One package apt cannot install does not keep the others out, and the line to type names
    only that one; apt's lists are fetched before the names are chosen."""
    done, calls = install(0)
    assert calls[0] == "update"
    assert calls[1:] == [f"install -y --no-install-recommends {name}" for name in TRIXIE.split()]
    assert done.returncode == 1
    assert "apt-get could not install chromium: run 'sudo apt-get install chromium'" in done.stdout


def test_without_root_or_sudo_the_line_to_type_has_this_releases_names(install):
    done, calls = install(1000)
    assert done.returncode == 0 and calls == []
    assert done.stdout.strip() == (f"note: this machine lacks {TRIXIE} and there is no root or sudo here: "
                                   f"run 'sudo apt-get install {TRIXIE}'")


def test_the_fresh_root_script_is_valid_shell_and_says_its_usage():
    assert subprocess.run(["sh", "-n", "deploy/fresh_root.sh"], cwd=CHECKOUT).returncode == 0
    usage = subprocess.run(["sh", "deploy/fresh_root.sh", "--help"], cwd=CHECKOUT, capture_output=True, text=True)
    assert usage.returncode == 2 and "sudo deploy/fresh_root.sh --arch arm64" in usage.stdout


@pytest.mark.slow
def test_the_editable_install_prints_no_setuptools_warning_box(tmp_path):
    """``make demo``'s first run installs this checkout editable; setuptools' "Editable
    installation ... be careful with folders" box must not be among the first things a newcomer sees."""
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", "--prefix", str(tmp_path),
                           "-e", str(CHECKOUT)], capture_output=True, text=True)
    if done.returncode != 0 and "setuptools" in done.stderr and "find" in done.stderr.lower():
        pytest.skip(f"pip cannot fetch setuptools here: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr
    assert "BuildBackendWarning" not in done.stderr + done.stdout, done.stderr
