"""``cardtable run`` with ``[web]`` and ``[club]``: the page shows the real table (readers on a pty
twin), the owner starts a game from it, and the club hears the table come and go."""

from __future__ import annotations

import os
import signal
import threading

import httpx2

from cardtable.cli import main
from cardtable.sim.devices import demo_registry
import pytest
from web_helpers import free_port, owner_client
from firmware_bridge.twin import Twin
from web_helpers import wait_until
from test_club_live import Club


def answers(url: str) -> bool:
    try:
        return httpx2.get(url).status_code == 200
    except httpx2.HTTPError:
        return False


@pytest.mark.slow
def test_run_serves_the_page_takes_the_owners_requests_and_publishes_to_the_club(tmp_path, mosquitto):
    registry = demo_registry("standard")
    registry.save(tmp_path / "tags.json")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    club = Club(mosquitto.url, tmp_path / "club.sqlite")
    seen = {}
    try:
        with Twin(readers=3, heartbeat=0.3) as twin:
            (tmp_path / "table.toml").write_text(f"""
[game]
name = "cribbage"
[table]
names = ["Ann", "Bob"]
[input]
kind = "rfid"
[rfid]
port = "{twin.port}"
registry = "tags.json"
readers = ["seat1", "seat2", "starter", "crib"]
[[display]]
kind = "png"
folder = "{tmp_path / 'shots'}"
[journal]
path = "journal.sqlite"
[web]
enabled = true
host = "127.0.0.1"
port = {port}
pin = "97531"
[club]
broker = "{mosquitto.url}"
table = "T7"
""")

            def table():
                try:
                    # the page answers before the table has shown its first view (null until then)
                    wait_until(lambda: answers(url + "/view.json") and httpx2.get(url + "/view.json").json(), timeout=20)
                    twin.place(0, registry.uid_for("KH"))
                    wait_until(lambda: httpx2.get(url + "/view.json").json()["prompt"].startswith("Bob"))
                    seen["club"] = wait_until(lambda: [t for t in club.state()["tables"]
                                                       if t["status"] == "online" and t["prompt"].startswith("Bob")])
                    owner = owner_client(url, "97531")
                    seen["status"] = owner.get("/owner/status.json").json()
                    seen["start"] = owner.post("/owner/start", json={"game": "allfives", "players": 2,
                                                                     "names": ["Cy", "Di"]}).json()["answer"]
                    seen["view"] = httpx2.get(url + "/view.json").json()
                finally:
                    os.kill(os.getpid(), signal.SIGTERM)

            driver = threading.Thread(target=table)
            driver.start()
            assert main(["run", "--config", str(tmp_path / "table.toml")]) == 0
            driver.join()
        assert seen["club"][0]["seats"][0]["name"] == "Ann"
        assert seen["status"]["enrolment"] == "52 of 52 cards have a tag. Every card is enrolled."
        assert "journal:" in seen["status"]["doctor"] and "to fix" in seen["status"]["doctor"]
        assert seen["start"] == "All Fives for 2 has started"
        assert seen["view"]["game"] == "All Fives" and [s["name"] for s in seen["view"]["seats"]] == ["Cy", "Di"]
        wait_until(lambda: club.state()["tables"][0]["status"] == "offline")
        games = club.games("T7")
        assert [g["game"] for g in games] == ["cribbage"] and games[0]["result"] == "ended by the owner"  # All Fives: no action yet
    finally:
        club.close()
