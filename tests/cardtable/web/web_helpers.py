"""Helpers the page and club tests share: free ports, waiting, a real Mosquitto broker process.
(Kept out of ``conftest.py``: other test folders have a ``conftest`` of their own.)"""

from __future__ import annotations

import getpass
import socket
import subprocess
import time
from pathlib import Path

import waiting

from cardtable.table.table import NoOutputs
from cardtable.web.app import TOKEN_HEADER
from waiting import patience

MOSQUITTO = "/usr/sbin/mosquitto"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]




def owner_client(url: str, pin: str, **options):
    """An httpx2 client signed in as the owner, sending the session's token with every request."""
    import httpx2

    client = httpx2.Client(base_url=url, timeout=patience(10), **options)
    assert client.post("/owner/login", data={"pin": pin}).status_code == 303
    client.headers[TOKEN_HEADER] = client.get("/owner/status.json").json()["token"]
    return client


def wait_until(test, timeout: float = 30.0):
    """What ``test`` returns once it is true (the club and its pages take their time)."""
    return waiting.wait_until(test, timeout, every=0.05, what="the club")


def die_with_parent() -> None:
    """In a child process: end when the test run ends, even a killed one (Linux prctl)."""
    import ctypes
    import signal

    ctypes.CDLL(None).prctl(1, signal.SIGTERM)      # PR_SET_PDEATHSIG


class Mosquitto:
    """A broker process on ``port``; :meth:`stop` kills it, :meth:`start` brings it back on the same port."""

    def __init__(self, folder: Path, settings: str = "allow_anonymous true\n") -> None:
        self.port = free_port()
        self.config = folder / "mosquitto.conf"
        # run as the user running the tests (mosquitto run by root would drop to its own user,
        # which cannot read files in the test's folder)
        self.config.write_text(f"user {getpass.getuser()}\npersistence false\nlistener {self.port} 127.0.0.1\n{settings}")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)
        deadline = time.monotonic() + patience(10)
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(patience(5))


def open_tab(browser, url: str, viewport: dict, *, scale: float = 1):
    """A new page of ``browser`` at ``viewport`` size that has loaded ``url`` (waits of 10 s at most)."""
    tab = browser.new_page(viewport=viewport, device_scale_factor=scale, bypass_csp=True)
    tab.set_default_timeout(patience(10000))
    tab.goto(url)
    return tab


class Outputs(NoOutputs):
    """A controller's outputs in a test: every view shown is kept."""

    def __init__(self) -> None:
        self.views: list = []

    def show(self, view) -> None:
        self.views.append(view)


def play_with_bots(controller, until=lambda: False) -> None:
    """Greedy bots play ``controller``'s dealt game until it ends or ``until()`` is true."""
    import random

    from engine.bots import GreedyBot

    bots = [GreedyBot(random.Random(n)) for n in range(controller.game.setup.players)]
    while not controller.game.finished and not until():
        seat = controller.game.rules.prompt(controller.game.state).seat
        controller.submit(bots[seat].choose(controller.game.rules, controller.game.state, seat))
