"""``cardtable doctor``'s checks: is this machine ready to run a table, and if not, what exactly to
type. Each check is a small function taking the checked config (or None when it has mistakes)
and returning a :class:`Finding`; none of them changes anything.
"""

from __future__ import annotations

import fcntl
import grp
import os
import pwd
import shutil
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cardtable.config.app_sections import DEFAULT_JOURNAL, INPUT, JOURNAL
from cardtable.config.check import ConfigError, TableConfig, check_files, check_values, read_toml
from cardtable.readers.kinds import reader_kinds
from cardtable.service_unit import DEVICE_GROUPS
from config_kit.reads import writable_file
from engine.wording import join_words, plural
from firmware_bridge.config import RFID
from hardware.config import DISPLAYS, GPIO
from vision.config import VISION

OK, FIX, NOTE = "ok", "fix", "note"
#: What a check that needs the config says without one (none given, or one with mistakes).
NOT_LOOKED_AT = "not looked at without a config that can be read"
#: Below this much free space on the journal's disk, a long evening of games is at risk.
MIN_FREE_BYTES = 200 * 1024 * 1024
_VIDIOC_ENUM_FMT = 0xC0405602     # _IOWR('V', 2, struct v4l2_fmtdesc), 64 bytes
_CAPTURE = 1                      # V4L2_BUF_TYPE_VIDEO_CAPTURE


@dataclass(frozen=True)
class Finding:
    """One check's answer: ``status`` ok, fix (the table cannot work until it is done) or note."""

    name: str
    status: str
    detail: str
    fix: str = ""


def pi_model() -> str:
    """The Raspberry Pi model this runs on, or "" elsewhere."""
    try:
        return Path("/proc/device-tree/model").read_text(errors="replace").strip("\0\n ")
    except OSError:
        return ""


def check_config(path: str | None) -> tuple[Finding, TableConfig | None]:
    """The config's mistakes and the steps still to do (a calibration, the tags enrolled), each
    step's command as the fix; and the config itself whenever its values are right, so that the
    other checks look at what it describes while a step or a problem of this machine's files (the
    journal's folder, say) is still to be dealt with."""
    if path is None:
        return Finding("config", NOTE, "no config given: checking this machine only",
                       "cardtable doctor --config table.toml"), None
    problems: list[str] = []
    steps: list[str] = []
    try:
        config = check_values(read_toml(Path(path)), Path(path), problems)
    except ConfigError as err:
        return Finding("config", FIX, str(err), f"edit {path}, then: cardtable config check {path}"), None
    values_right = not problems                     # else a wrong value was replaced by its default
    if config is not None:
        config = check_files(config, problems, steps)
    usable = config if values_right else None
    if not problems and not steps:
        return Finding("config", OK, f"{path}: {config.setup.game} for {config.setup.players}, "
                       f"input {config[INPUT].kind}"), config
    fixes = [f"edit {path}, then: cardtable config check {path}"] * bool(problems) + [_command(s) for s in steps]
    return Finding("config", FIX, str(ConfigError(path, problems, steps)), " ; ".join(fixes)), usable


def _command(step: str) -> str:
    """The command a step still to do names ("vision.calibration: ... does not exist yet: run
    cardtable calibrate --config table.toml"), or the whole step when it names none."""
    _, run, command = step.rpartition(": run ")
    return command if run else step


def check_groups(config: TableConfig | None, *, user: str | None = None) -> Finding:
    """The user is in the groups that own the devices, and this login has them."""
    user = user or pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0 and user == "root":
        return Finding("groups", OK, "root may open every device")
    wanted = [g for g in DEVICE_GROUPS if _group(g) is not None]
    member = {g for g in wanted if user in _group(g).gr_mem or _group(g).gr_gid == pwd.getpwnam(user).pw_gid}
    missing = [g for g in wanted if g not in member]
    if missing:
        return Finding("groups", FIX, f"{user} is not in {', '.join(missing)} (serial ports need dialout, "
                       "the camera video, buttons gpio)",
                       f"sudo usermod -aG {','.join(missing)} {user}   # then log out and in again")
    this_login = {grp.getgrgid(gid).gr_name for gid in os.getgroups() if _gid_known(gid)}
    stale = [g for g in wanted if g not in this_login]
    if stale and user == pwd.getpwuid(os.getuid()).pw_name:
        return Finding("groups", FIX, f"{user} was added to {', '.join(stale)} after this login began",
                       "log out and in again (or reboot)")
    return Finding("groups", OK, f"{user} is in {', '.join(wanted)}")


def _group(name: str):
    try:
        return grp.getgrnam(name)
    except KeyError:
        return None


def _gid_known(gid: int) -> bool:
    try:
        grp.getgrgid(gid)
    except KeyError:
        return False
    return True


def check_buses(config: TableConfig | None, *, dev: Path = Path("/dev")) -> Finding:
    """I2C and SPI are enabled when a display needs them."""
    needed = {d.interface for d in (config[DISPLAYS] if config else ()) if d.kind == "luma"} & {"i2c", "spi"}
    if not needed:
        return Finding("i2c/spi", OK, "no display here needs I2C or SPI")
    missing = [bus for bus in sorted(needed) if not list(dev.glob("i2c-*" if bus == "i2c" else "spidev*"))]
    if not missing:
        return Finding("i2c/spi", OK, f"{' and '.join(sorted(needed)).upper()} enabled")
    commands = " && ".join(f"sudo raspi-config nonint do_{bus} 0" for bus in missing)
    return Finding("i2c/spi", FIX, f"{' and '.join(missing).upper()} not enabled (no {dev}/"
                   f"{'i2c-*' if 'i2c' in missing else 'spidev*'})", f"{commands} && sudo reboot")


def video_formats(device: Path) -> list[str]:
    """The capture formats a V4L2 device offers (four-character codes, e.g. MJPG, YUYV).

    :raises OSError: when the device cannot be opened.
    """
    formats = []
    fd = os.open(device, os.O_RDWR | os.O_NONBLOCK)
    try:
        for index in range(64):
            buffer = bytearray(struct.pack("II", index, _CAPTURE) + bytes(56))
            try:
                fcntl.ioctl(fd, _VIDIOC_ENUM_FMT, buffer)
            except OSError:
                break
            formats.append(struct.unpack_from("4s", buffer, 44)[0].decode("ascii", "replace").strip())
    finally:
        os.close(fd)
    return formats


def check_camera(config: TableConfig | None, *, dev: Path = Path("/dev")) -> Finding:
    """The camera the config names is there, and which formats it offers (the camera's check, see
    :func:`check_readers`)."""
    if config is None:
        found = sorted(p.name for p in dev.glob("video*"))
        return Finding("camera", NOTE, f"cameras here: {', '.join(found) or 'none'}")
    camera = config[VISION].camera
    if camera == "picamera":
        return _check_picamera()
    if not camera.startswith("usb:"):
        return Finding("camera", OK, f"{camera} is a recording or a simulation, not a device")
    device = dev / f"video{camera.removeprefix('usb:')}"
    if not device.exists():
        found = sorted(p.name for p in dev.glob("video*"))
        return Finding("camera", FIX, f"no {device} (found: {', '.join(found) or 'no camera at all'})",
                       "plug the camera in (lsusb lists it), or set [vision] camera to one of those")
    try:
        formats = video_formats(device)
    except OSError as err:
        return Finding("camera", FIX, f"{device} cannot be opened: {err.strerror}",
                       "sudo usermod -aG video $USER   # then log out and in again")
    if "MJPG" not in formats:
        return Finding("camera", NOTE, f"{device} offers {', '.join(formats) or 'no capture format'}; without "
                       "MJPG, 1080p runs at a few frames a second", "a camera with MJPG is better")
    return Finding("camera", OK, f"{device} offers {', '.join(formats)}")


def _check_picamera() -> Finding:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        return Finding("camera", FIX, "picamera2 is not installed (it comes from apt, not PyPI)",
                       "sudo apt install python3-picamera2 && make clean setup")
    except ValueError as err:          # "numpy.dtype size changed": a PyPI numpy under apt's picamera2
        return Finding("camera", FIX, f"picamera2 was built for the system's numpy, but .venv has another ({err})",
                       "make clean setup   # the Makefile then keeps the system's numpy")
    return Finding("camera", OK, "picamera2 is installed")


def check_board(config: TableConfig | None, *, ports: Iterable | None = None) -> Finding:
    """The reader board answers the handshake, and its firmware version (``ports``: where to look
    for it with ``port = "auto"``, the machine's serial ports by default; the RFID readers' check,
    see :func:`check_readers`)."""
    if config is None:
        return Finding("reader board", NOTE, NOT_LOOKED_AT)
    import serial

    from firmware_bridge.detect import BoardNotFound, find_board, probe

    rfid = config[RFID]
    if rfid.compat:
        missing = [p for p in rfid.ports or (rfid.port,) if not Path(p).exists()]
        if missing:
            return Finding("reader board", FIX, f"no {', '.join(missing)}", "plug the board in (ls /dev/serial/by-id)")
        return Finding("reader board", OK, "stock sketches (compat mode) cannot say their version")
    fix = ("plug the board in and flash the firmware (docs/firmware_bridge.md); "
           "cardtable bridge monitor shows what it says")
    try:
        port, hello = find_board(ports) if rfid.port == "auto" else (rfid.port, probe(rfid.port))
    except BoardNotFound as err:
        return Finding("reader board", FIX, str(err), fix)
    except (serial.SerialException, OSError) as err:
        return Finding("reader board", FIX, f"{rfid.port} cannot be opened: {err}", fix)
    if hello is None:
        return Finding("reader board", FIX, f"{port} does not answer HELLO?", fix)
    return Finding("reader board", OK, f"{hello.board} on {port}, firmware {hello.fw}, {hello.readers} readers")


def check_readers(config: TableConfig | None) -> list[Finding]:
    """The checks of every reader kind: the table's own kind's, run; another kind's, each said to
    be of no use here (the table reads cards through its own). Without a config, all are run."""
    used = config.reader if config is not None else None
    findings = []
    for kind in reader_kinds().values():
        for name, check in kind.doctor:
            if used is None or kind is used:
                findings.append(check(config))
            else:
                findings.append(Finding(name, OK, f"the table reads cards through {used.described}"))
    return findings


def check_display(config: TableConfig | None, *, dev: Path = Path("/dev")) -> Finding:
    """Each display's device is there (and an I2C panel answers at its address)."""
    said = []
    for spec in config[DISPLAYS] if config else ():
        if spec.kind == "luma" and spec.interface == "i2c":
            bus = dev / f"i2c-{spec.port}"
            if not bus.exists():
                return Finding("display", FIX, f"no {bus} for the {spec.driver}", "sudo raspi-config nonint do_i2c 0")
            if not _i2c_answers(spec.port, spec.address):
                return Finding("display", FIX, f"nothing answers at {spec.address:#04x} on {bus}",
                               f"check the wiring; i2cdetect -y {spec.port} lists what answers")
            said.append(f"{spec.driver} answers at {spec.address:#04x}")
        elif spec.kind == "luma" and spec.interface == "spi":
            device = dev / f"spidev{spec.port}.{spec.device}"
            if not device.exists():
                return Finding("display", FIX, f"no {device} for the {spec.driver}", "sudo raspi-config nonint do_spi 0")
            said.append(f"{spec.driver} on {device} (SPI panels cannot answer back)")
        elif spec.kind == "hdmi" and not list(dev.glob("dri/card*")) and not os.environ.get("DISPLAY"):
            return Finding("display", FIX, "no HDMI screen driver (/dev/dri/card*)", "enable KMS: dtoverlay=vc4-kms-v3d")
        else:
            said.append(f"{spec.kind} display")
    return Finding("display", OK, "; ".join(said) or "the terminal")


def _i2c_answers(port: int, address: int) -> bool:
    try:
        from smbus2 import SMBus

        with SMBus(port) as bus:
            bus.read_byte(address)
    except OSError:
        return False
    return True


def check_journal(config: TableConfig | None) -> Finding:
    journal = config[JOURNAL].path if config else Path(DEFAULT_JOURNAL).expanduser()
    problems: list[str] = []
    writable_file(journal, "journal", problems)
    if problems:
        return Finding("journal", FIX, problems[0].removeprefix("journal: "),
                       "set [journal] path to a folder this user owns, e.g. ~/.local/share/cardtable/journal.sqlite")
    return Finding("journal", OK, f"{journal} can be written")


def check_disk(config: TableConfig | None, *, minimum: int = MIN_FREE_BYTES) -> Finding:
    folder = (config[JOURNAL].path if config else Path(DEFAULT_JOURNAL).expanduser()).parent
    while not folder.exists():
        folder = folder.parent
    free = shutil.disk_usage(folder).free
    text = f"{free / 2**30:.1f} GB free on the disk holding {folder}"
    if free < minimum:
        return Finding("disk", FIX, text, f"free some space (du -sh {folder}/* shows what is there)")
    return Finding("disk", OK, text)


def check_gpio(config: TableConfig | None) -> Finding:
    """On a Pi 5, gpiozero needs the lgpio pin factory, named, and lgpio from apt."""
    if config is None:
        return Finding("gpio", NOTE, NOT_LOOKED_AT)
    if config[GPIO] is None:
        return Finding("gpio", OK, "no buttons or LEDs configured")
    pins = config[GPIO]
    parts = join_words([plural(len(pins.buttons), "button"), plural(len(pins.seat_leds), "seat LED")]
                       + ["a buzzer"] * (pins.buzzer is not None))
    model = pi_model()
    if "Raspberry Pi" not in model:
        return Finding("gpio", NOTE, f"{parts}, but not a Raspberry Pi: they run on simulated pins")
    try:
        import lgpio  # noqa: F401
    except ImportError:
        return Finding("gpio", FIX, "the lgpio library is missing (no PyPI wheel for every Python)",
                       "sudo apt install python3-lgpio && make clean setup")
    if "Raspberry Pi 5" in model and os.environ.get("GPIOZERO_PIN_FACTORY") != "lgpio":
        return Finding("gpio", FIX, "a Pi 5 needs gpiozero's lgpio pin factory named",
                       "export GPIOZERO_PIN_FACTORY=lgpio   # cardtable install-service writes it in the unit")
    return Finding("gpio", OK, f"{parts} on a {model}: lgpio is there")


def run_checks(config_path: str | None) -> list[Finding]:
    """Every check, the config's first."""
    from cardtable.speech.check import check_speech   # it builds on this module's findings

    first, config = check_config(config_path)
    machine = [check(config) for check in (check_groups, check_buses, check_gpio)]
    outputs = [check(config) for check in (check_display, check_journal, check_disk, check_speech)]
    return [first, *machine, *check_readers(config), *outputs]


def report(findings: list[Finding]) -> str:
    """The findings as the lines ``cardtable doctor`` prints (and the owner's page shows), with a
    closing line that says whether the machine is ready."""
    lines = []
    for finding in findings:
        detail = finding.detail.splitlines() or [""]
        lines.append(f"{finding.status:4}  {finding.name}: {detail[0]}")
        lines += [f"      {line}" for line in detail[1:]]
        if finding.fix and finding.status != OK:
            lines.append(f"      to fix: {finding.fix}")
    to_fix = sum(f.status == FIX for f in findings)
    lines.append("ready for a table" if not to_fix else f"{to_fix} thing{'s' * (to_fix != 1)} to fix")
    return "\n".join(lines)
