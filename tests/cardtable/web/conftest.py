"""Fixtures for the page and the club: a real Mosquitto on a free 127.0.0.1 port, a real headless
Chromium (Debian's, through Playwright; no browser is downloaded), and a reader of server-sent
events that keeps every byte the server sent."""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import threading
import time
import urllib.parse

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.table.outputs import TableOutputs
from cardtable.table.loop import run_loop
from cardtable.web.page import TablePage
from vision.table_layout import seat_zones
from web_helpers import CHROMIUM, CHROMIUM_ARGS, MOSQUITTO, Mosquitto
from waiting import patience


@pytest.fixture
def table(tmp_path):
    """A running table loop with its page (PIN 2468) on a table with zones for 5 seats, playing
    Cribbage for 2; yields (page, the table, the loop's queue)."""
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    page = TablePage(host="127.0.0.1", port=0, journal_path=path, pin="2468", submit=items.put)
    table = Table(TableSetup("cribbage", 2), journal, TableOutputs([page]), seat_zones=seat_zones(5))
    loop = threading.Thread(target=run_loop, args=(table, items, stop), kwargs={"idle": 0.05})
    loop.start()
    yield page, table, items
    stop.set()
    loop.join(5)
    page.close()
    journal.close()

@pytest.fixture
def mosquitto(tmp_path):
    if not os.path.exists(MOSQUITTO):
        pytest.skip("mosquitto is not installed (sudo apt-get install mosquitto)")
    broker = Mosquitto(tmp_path)
    broker.start()
    yield broker
    broker.stop()


class EventReader(threading.Thread):
    """Reads a server-sent event stream over a plain socket (HTTP/1.0, so the body is not
    chunked); keeps every raw byte the server sent and each parsed message."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        parts = urllib.parse.urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=patience(60))
        self.sock.sendall(f"GET {parts.path}?{parts.query} HTTP/1.0\r\nHost: {parts.netloc}\r\n\r\n".encode())
        self.raw = bytearray()
        self.messages: list[tuple[str, object, float]] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                now = time.time()
                with self.lock:
                    self.raw += chunk
                buffer += chunk
                if b"\r\n\r\n" in buffer and buffer.startswith(b"HTTP/"):
                    buffer = buffer.split(b"\r\n\r\n", 1)[1]
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.decode().splitlines()
                                  if not line.startswith(":") and ": " in line)
                    if "data" in fields:
                        with self.lock:
                            self.messages.append((fields.get("event", "message"), json.loads(fields["data"]), now))
        except (OSError, ValueError):
            return

    def wait_for(self, test, timeout: float = 10.0):
        timeout = patience(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for event, data, _ in reversed(self.messages):
                    if test(event, data):
                        return data
            time.sleep(0.01)
        raise AssertionError(f"no such message from {self.url} in {timeout} s")

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


@pytest.fixture
def sse():
    readers = []

    def open_reader(url: str) -> EventReader:
        reader = EventReader(url)
        reader.start()
        readers.append(reader)
        return reader
    yield open_reader
    for reader in readers:
        reader.close()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        pytest.skip("chromium is not installed (sudo apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
