"""Setting up a club's broker: the settings ``docs/club.md`` gives open Mosquitto 2 to tables on
other machines (run with each of its ``/etc/mosquitto/conf.d/cardtable.conf`` files on a free
port, a real Mosquitto answers a CONNECT sent to this machine's network address, not only to
127.0.0.1), and ``club serve`` says in words which club and broker it serves."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from web_helpers import MOSQUITTO, die_with_parent, free_port, wait_until
from waiting import patience

DOCS = Path(__file__).resolve().parents[3] / "docs" / "club.md"
ACCEPTED, NOT_AUTHORISED = 0, 5          # CONNACK return codes (MQTT 3.1.1, 3.2.2.3)


def network_address() -> str:
    """This machine's address on its network (the interface a route out would use), not loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))          # no packet is sent for a UDP connect
        except OSError:
            return ""
        address = s.getsockname()[0]
    return "" if address.startswith("127.") else address


def connack(host: str, port: int, user: str = "", password: str = "") -> int | None:
    """The CONNACK return code a broker gives an MQTT 3.1.1 CONNECT, or None when it takes no connection."""
    flags, payload = 0x02, b"\x00\x01t"
    for on, text in ((0x80, user), (0x40, password)):
        if text:
            flags |= on
            payload += len(text).to_bytes(2, "big") + text.encode()
    body = b"\x00\x04MQTT\x04" + bytes([flags]) + b"\x00\x3c" + payload
    try:
        with socket.create_connection((host, port), timeout=patience(5)) as s:
            s.sendall(bytes([0x10, len(body)]) + body)
            answer = s.recv(4)
    except OSError:
        return None
    return answer[3] if answer[:2] == b"\x20\x02" else None


def docs_files() -> list[str]:
    """The conf.d files docs/club.md gives, in order."""
    return re.findall(r"```\n# /etc/mosquitto/conf.d/cardtable.conf\n(.*?)```", DOCS.read_text(), re.S)


@pytest.fixture
def broker(tmp_path):
    """``broker(args)``: a Mosquitto started with ``args``, on ``port``; all stopped at the end."""
    if not os.path.exists(MOSQUITTO) or not network_address():
        pytest.skip("needs mosquitto and a network address besides loopback")
    started = []

    def start(*args: str) -> None:
        started.append(subprocess.Popen([MOSQUITTO, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=die_with_parent))
        wait_until(lambda: connack("127.0.0.1", start.port) is not None, timeout=10)
    start.port = free_port()
    yield start
    for process in started:
        process.kill()
        process.wait(5)


def conf(tmp_path: Path, settings: str, port: int) -> str:
    """The docs' settings on ``port``, run as this user (as root Mosquitto would drop to its own)."""
    assert "listener 1883\n" in settings
    path = tmp_path / f"cardtable-{port}.conf"
    path.write_text(f"user {getpass.getuser()}\npersistence false\n"
                    + settings.replace("listener 1883", f"listener {port}")
                    .replace("/etc/mosquitto/passwd", str(tmp_path / "passwd")))
    return str(path)


def test_the_open_club_file_lets_a_table_on_the_network_in(broker, tmp_path):
    anyone = docs_files()[0]
    broker("-c", conf(tmp_path, anyone, broker.port))
    assert connack(network_address(), broker.port) == ACCEPTED


def test_the_password_file_lets_in_only_a_table_with_its_password(broker, tmp_path):
    if not shutil.which("mosquitto_passwd"):
        pytest.skip("needs mosquitto_passwd")
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(tmp_path / "passwd"), "table1", "s3cret"], check=True)
    with_passwords = docs_files()[1]
    broker("-c", conf(tmp_path, with_passwords, broker.port))
    assert connack(network_address(), broker.port, "table1", "s3cret") == ACCEPTED
    assert connack(network_address(), broker.port) == NOT_AUTHORISED


def test_mosquitto_2_alone_refuses_a_table_on_the_network(broker):
    """What the docs warn about: ``mosquitto -p PORT`` listens on loopback only."""
    broker("-p", str(broker.port))
    assert connack(network_address(), broker.port) is None


@pytest.mark.slow
def test_club_serve_says_which_club_and_broker_in_words(mosquitto, tmp_path):
    """It said "(club club, broker ...)" for the default club name."""
    import sys

    serve = subprocess.Popen([sys.executable, "-m", "cardtable.cli", "club", "serve", "--broker", mosquitto.url,
                              "--port", "0", "--host", "127.0.0.1", "--db", str(tmp_path / "club.sqlite")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
    try:
        banner = serve.stdout.readline()
    finally:
        serve.terminate()
        serve.wait(10)
    assert "club club" not in banner, banner
    assert f'(the club "club" on the broker {mosquitto.url}, kept in {tmp_path / "club.sqlite"})' in banner, banner
