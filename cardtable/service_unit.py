"""The systemd unit that starts the table at boot: its text for one user, checkout and config.

A system service (``/etc/systemd/system``) with ``User=`` rather than a ``systemctl --user`` one:
a user manager starts only at that user's login (or with lingering), and most of the sandboxing
below (device policy, kernel protections, system-call filter) needs the system manager. The unit
is hardened to an exposure of 1.7 in ``systemd-analyze security`` (systemd 252): the process sees the
system and home read-only except the folders it writes (the journal's, PNG snapshots), a private
/tmp, only the device classes a table uses (cameras, serial, GPIO, I2C, SPI, the HDMI screen), and
only the system calls of an ordinary service.
"""

from __future__ import annotations

import grp
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

#: The groups that own the table's devices on Raspberry Pi OS.
DEVICE_GROUPS = ("video", "render", "gpio", "i2c", "spi", "dialout")
#: Device classes (the kernel's driver names in /proc/devices) the table may open.
DEVICES = (
    ("video4linux", "USB cameras and the Pi camera (V4L2)"),
    ("media", "the Pi camera through libcamera"),
    ("dma_heap", "camera buffers (picamera2)"),
    ("drm", "the HDMI screen (SDL_VIDEODRIVER=kmsdrm)"),
    ("ttyACM", "the reader board (USB serial, Pico)"),
    ("ttyUSB", "stock reader boards (USB serial adapters)"),
    ("gpiochip", "buttons, LEDs, buzzer"),
    ("gpiomem", "buttons, LEDs, buzzer (older GPIO libraries)"),
    ("i2c", "I2C displays"),
    ("spi", "SPI displays"),
)


@dataclass(frozen=True)
class UnitPlan:
    """What the unit names: who runs it, from which checkout, with which config."""

    user: str
    group: str
    checkout: Path
    config: Path
    writable: tuple[Path, ...]
    groups: tuple[str, ...] = DEVICE_GROUPS
    environment: tuple[str, ...] = field(default=())


def existing_groups(names: Iterable[str] = DEVICE_GROUPS) -> tuple[str, ...]:
    """The groups among ``names`` this machine has (a missing one would stop the unit starting)."""
    found = []
    for name in names:
        try:
            grp.getgrnam(name)
        except KeyError:
            continue
        found.append(name)
    return tuple(found)


def unit_text(plan: UnitPlan) -> str:
    """The unit file. Every line a user may need to change carries a comment saying so."""
    exe = plan.checkout / ".venv" / "bin" / "cardtable"
    lines = [
        "# cardtable: starts the table at boot and restarts it if it fails; the journal makes a",
        "# restart resume the game. Written by 'cardtable install-service' (see docs/raspberry_pi.md).",
        "# Follow it with: journalctl -u cardtable -f",
        "# (systemd reads a comment only on a line of its own: each one below is about the next line.)",
        "[Unit]",
        "Description=cardtable card-table controller",
        "After=network.target",
        "",
        "[Service]",
        "# The user the table runs as, who owns the checkout and the config:",
        f"User={plan.user}",
        f"Group={plan.group}",
        "# The groups owning the devices: video (camera), render, gpio, i2c, spi, dialout (serial):",
        f"SupplementaryGroups={' '.join(plan.groups)}",
        "# The checkout, and the table's config:",
        f"WorkingDirectory={plan.checkout}",
        f"ExecStart={exe} run --config {plan.config}",
        "Restart=on-failure",
        "RestartSec=2",
        "Environment=PYTHONUNBUFFERED=1",
        *(f"Environment={setting}" for setting in plan.environment),
        "# For an HDMI screen on Raspberry Pi OS Lite (no desktop), uncomment:",
        "# Environment=SDL_VIDEODRIVER=kmsdrm",
        "",
        "# The sandbox. The whole system and every home folder are read-only ...",
        "ProtectSystem=strict",
        "ProtectHome=read-only",
        "# ... except the folders the table writes: the journal's, PNG snapshots (add yours here):",
        f"ReadWritePaths={' '.join(map(str, plan.writable))}",
        "PrivateTmp=yes",
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=",
        "AmbientCapabilities=",
        "# No device but these kinds (a name of /proc/devices each; add one for another device):",
        "DevicePolicy=closed",
        *(line for name, why in DEVICES for line in (f"# {why}", f"DeviceAllow=char-{name} rw")),
        "ProtectKernelTunables=yes",
        "ProtectKernelModules=yes",
        "ProtectKernelLogs=yes",
        "ProtectControlGroups=yes",
        "ProtectClock=yes",
        "ProtectHostname=yes",
        "ProtectProc=invisible",
        "# (not ProcSubset=pid: gpiozero reads the Pi's model from /proc/device-tree and /proc/cpuinfo)",
        "PrivateMounts=yes",
        "PrivateIPC=yes",
        "# Local sockets, the network (the web page, the club), udev (device hot-plug):",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
        "RestrictNamespaces=yes",
        "RestrictRealtime=yes",
        "RestrictSUIDSGID=yes",
        "LockPersonality=yes",
        "RemoveIPC=yes",
        "KeyringMode=private",
        "UMask=0077",
        "# Only the system calls of an ordinary service; others fail with EPERM:",
        "SystemCallArchitectures=native",
        "SystemCallFilter=@system-service",
        "SystemCallFilter=~@privileged",
        "SystemCallErrorNumber=EPERM",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ]
    return "\n".join(lines)
