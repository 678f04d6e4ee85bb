"""``[web]``: whether the table serves its page, where, and the owner's PIN.

::

    [web]
    enabled = true
    port = 8080            # default 8080
    host = "0.0.0.0"       # default: every interface (phones in the room); "127.0.0.1" for this machine only
    pin = "4921"           # the owner's pages; without a PIN they are off

:func:`parse_web` checks the section and names every mistake as "web.key: what is wrong";
:data:`WEB` also checks, on this machine, that the page can listen on ``host``.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from config_kit.reads import flag, unknown_keys
from config_kit.section import Context, Section

DEFAULT_PORT = 8080
_KEYS = {"enabled", "port", "host", "pin"}


@dataclass(frozen=True)
class WebSpec:
    enabled: bool = False
    port: int = DEFAULT_PORT
    host: str = "0.0.0.0"
    pin: str = ""


def parse_port(value, key: str, problems: list[str]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        problems.append(f"{key}: expected a port number from 1 to 65535, got {value!r}")
        return None
    return value


def parse_web(section: dict, problems: list[str]) -> WebSpec:
    """The ``[web]`` section (an empty one: the page is off). Mistakes are added to ``problems``."""
    unknown_keys(section, _KEYS, "web", problems)
    enabled = flag(section.get("enabled", False), "web.enabled", problems) or False
    port = parse_port(section.get("port", DEFAULT_PORT), "web.port", problems) or DEFAULT_PORT
    host = section.get("host", "0.0.0.0")
    if not isinstance(host, str) or not host:
        problems.append(f"web.host: expected an address such as \"0.0.0.0\" or \"127.0.0.1\", got {host!r}")
        host = "0.0.0.0"
    pin = section.get("pin", "")
    if isinstance(pin, int) and not isinstance(pin, bool):
        problems.append("web.pin: write the PIN in quotes (\"0421\"), so leading zeros are kept")
        pin = ""
    elif not isinstance(pin, str) or (pin and not (pin.isdigit() and 4 <= len(pin) <= 12)):
        problems.append("web.pin: expected 4 to 12 digits in quotes, e.g. pin = \"4921\"")
        pin = ""
    return WebSpec(enabled=enabled, port=port, host=host, pin=pin)


def check_host(spec: WebSpec, problems: list[str], steps: list[str], context: Context) -> None:
    """The page's ``host`` is an address this machine can listen on."""
    if why := _not_bindable(spec.host):
        problems.append(f"web.host: {spec.host!r} is not an address of this machine ({why}): "
                        f"\"0.0.0.0\" serves every network, \"127.0.0.1\" this machine only")


def _not_bindable(host: str) -> str | None:
    """Why the web page could not listen on ``host`` here, or None (a numeric address is never
    looked up by name)."""
    numeric = all(part.isdigit() for part in host.split(".")) or ":" in host
    try:
        if numeric:
            ipaddress.ip_address(host)
        family, kind, _, _, address = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind) as probe:
            probe.bind(address)
    except ValueError:
        return "not a valid IP address"
    except OSError as err:
        return err.strerror or str(err)
    return None


WEB = Section("web", WebSpec, lambda section, problems, context: parse_web(section, problems), check=check_host)
