"""A section a package adds to the table config, as docs/controller.md's guide writes one: a lamp
over the table that lights the seat whose turn it is. One module: its spec, its parser (a row of
typed reads), this machine's check (the lamp's device file), and the :class:`Section` that joins
them. Registering it is one line in ``cardtable/config/sections.py``
(tests/cardtable/test_config_sections.py registers it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from config_kit.reads import file_path, flag, unknown_keys, whole
from config_kit.section import Context, Section


@dataclass(frozen=True)
class LampSpec:
    enabled: bool = False
    brightness: int = 80
    device: Path | None = None


def parse_lamp(section: Mapping[str, object], problems: list[str], context: Context) -> LampSpec:
    unknown_keys(section, ("enabled", "brightness", "device"), "lamp", problems)
    device = section.get("device")
    return LampSpec(enabled=flag(section.get("enabled", False), "lamp.enabled", problems) or False,
                    brightness=whole(section.get("brightness", 80), "lamp.brightness", problems, 0, 100) or 80,
                    device=None if device is None else file_path(device, "lamp.device", problems, context.base_dir))


def check_lamp(spec: LampSpec, problems: list[str], steps: list[str], context: Context) -> str | None:
    """The lamp's device file is there; what it says is loaded for the table."""
    if spec.device is None:
        return None
    if not spec.device.exists():
        steps.append(f"lamp.device: {spec.device.name} does not exist yet: plug the lamp in")
        return None
    return spec.device.read_text().strip()


LAMP = Section("lamp", LampSpec, parse_lamp, check=check_lamp)
