"""``[club]``: the broker a table publishes to, the club's name and the table's.

::

    [club]
    broker = "mqtt://192.168.1.10:1883"    # mqtts:// for TLS (port 8883 by default)
    club = "thursday"                       # default "club"
    table = "T1"                            # this table's name on the club page
    username = "table1"                     # optional
    password = "..."                        # optional
    ca_file = "/etc/ssl/club-ca.pem"        # optional, for a broker with its own certificate authority
    key_file = "/etc/cardtable/T1.key"      # optional: sign what the table publishes ('cardtable club key T1')

Without ``broker`` the table publishes nowhere. :func:`parse_club` names every mistake as
"club.key: what is wrong"; :data:`CLUB` also checks, on this machine, the certificate authority.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from cardtable.club.signing import read_key
from cardtable.os_errors import in_words
from config_kit.reads import unknown_keys
from config_kit.section import Context, Section
from engine.errors import InvalidInput
from engine.outside_files import read_bytes

NAME = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
_KEYS = {"broker", "club", "table", "username", "password", "ca_file", "key_file"}


@dataclass(frozen=True)
class Broker:
    host: str
    port: int = 1883
    tls: bool = False
    username: str = ""
    password: str = ""
    ca_file: str = ""


@dataclass(frozen=True)
class ClubSpec:
    broker: Broker | None = None
    club: str = "club"
    table: str = "table"
    key: bytes | None = None            # the table's signing key (cardtable.club.signing)


def parse_broker(url: str, *, username: str = "", password: str = "", ca_file: str = "") -> Broker:
    """``mqtt://host[:port]`` or ``mqtts://host[:port]`` (TLS).

    :raises InvalidInput: naming what is wrong with the address.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise InvalidInput(f"the broker {url!r} is not an address like mqtt://host:1883 (or mqtts:// for TLS)")
    try:
        port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
    except ValueError:
        raise InvalidInput(f"the broker {url!r} has a port that is not a number from 1 to 65535") from None
    return Broker(parts.hostname, port, parts.scheme == "mqtts", username or parts.username or "",
                  password or parts.password or "", ca_file)


def check_name(value, key: str, problems: list[str], default: str) -> str:
    if not isinstance(value, str) or not NAME.match(value):
        problems.append(f"{key}: expected 1 to 32 letters, digits, '.', '_' or '-', got {value!r}")
        return default
    return value


def parse_club(section: dict, problems: list[str]) -> ClubSpec:
    """The ``[club]`` section (empty: no club). Mistakes are added to ``problems``."""
    unknown_keys(section, _KEYS, "club", problems)
    club = check_name(section.get("club", "club"), "club.club", problems, "club")
    table = check_name(section.get("table", "table"), "club.table", problems, "table")
    texts = {}
    for key in ("broker", "username", "password", "ca_file", "key_file"):
        value = section.get(key, "")
        if not isinstance(value, str):
            problems.append(f"club.{key}: expected text in quotes, got {value!r}")
            value = ""
        texts[key] = value
    broker = None
    if texts["broker"]:
        try:
            broker = parse_broker(texts["broker"], username=texts["username"], password=texts["password"],
                                  ca_file=texts["ca_file"])
        except InvalidInput as err:
            problems.append(f"club.broker: {err}")
    elif section:
        problems.append("club.broker: missing; give the club's broker, e.g. broker = \"mqtt://192.168.1.10:1883\"")
    signing = None
    if texts["key_file"]:
        try:
            signing = read_key(texts["key_file"])
        except InvalidInput as err:
            problems.append(f"club.key_file: {err}")
    return ClubSpec(broker=broker, club=club, table=table, key=signing)


def check_ca_file(spec: ClubSpec, problems: list[str], steps: list[str], context: Context) -> None:
    """The broker's certificate authority, when one is named: a readable file holding a PEM certificate."""
    if spec.broker is None or not spec.broker.ca_file:
        return
    path = Path(spec.broker.ca_file)
    try:
        text = read_bytes(path, "certificate authority").decode("ascii", "replace")
    except InvalidInput as err:
        problems.append(f"club.ca_file: {err}")
        return
    except OSError as err:
        problems.append(f"club.ca_file: {in_words(err)}")
        return
    try:
        ssl.create_default_context(cadata=text)
    except (ssl.SSLError, ValueError):          # no PEM block at all, or a damaged one
        problems.append(f"club.ca_file: {path} holds no certificate (a PEM file, -----BEGIN CERTIFICATE-----)")


CLUB = Section("club", ClubSpec, lambda section, problems, context: parse_club(section, problems), check=check_ca_file)
