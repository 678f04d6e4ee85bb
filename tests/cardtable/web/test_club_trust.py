"""Who may write the club's standings, through a real Mosquitto: only what a table signs with the
key the club holds for it counts; a forged or unsigned record under a table's name changes no
standing and is said on the page; two running tables under one name are said on the page and in
``club serve``'s output; an unreachable broker is said by ``club serve`` and by ``demo --club``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request

import paho.mqtt.client as mqtt

from cardtable.club.link import TableLink
from cardtable.club.publisher import ClubPublisher
from cardtable.club.server import ClubServer, create_club_app
from cardtable.club.signing import new_key_file, read_keys, seal
from cardtable.club.spec import ClubSpec, parse_broker
from cardtable.club.store import ClubStore
from cardtable.sim.demo import run_demo
from cardtable.pages.server import WebServer
import pytest
from test_page_browser import keep
from web_helpers import die_with_parent, free_port, wait_until
from waiting import patience

ENV = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}


def make_keys(folder, *tables) -> dict[str, bytes]:
    for table in tables:
        new_key_file(folder / f"{table}.key")
    return read_keys(folder)


def state_of(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url + "/state.json", timeout=patience(10)).read())


@pytest.mark.slow
def test_a_forged_record_changes_no_standing_and_is_shown_as_such(mosquitto, tmp_path, browser):
    keys = make_keys(tmp_path / "keys", "T1")
    store = ClubStore(tmp_path / "club.sqlite")
    server = ClubServer(parse_broker(mosquitto.url), "club", store, keys=keys).start()
    page = WebServer(create_club_app(server.state), "127.0.0.1", 0, name="club").start()
    try:
        assert server.connected.wait(10)
        publisher = ClubPublisher(ClubSpec(parse_broker(mosquitto.url), "club", "T1", key=keys["T1"]),
                                  tmp_path / "T1" / "journal.sqlite")
        run_demo("cribbage", input_kind="rfid", seed=1, out_dir=tmp_path / "T1", displays=[publisher])
        state = wait_until(lambda: (s := state_of(page.url))["standings"] and s)
        before = state["standings"]
        assert sum(r["wins"] for r in before[0]["rows"]) == 1
        game = json.loads(urllib.request.urlopen(page.url + "/tables/T1/games.json", timeout=patience(10)).read())[0]
        loser = 1 - game["winners"][0]
        forged = {**game, "winners": [loser], "scores": [121 if s == loser else 10 for s in range(2)]}
        mallory = {"game": "cribbage", "title": "Cribbage", "players": 2, "names": ["Mallory", "Bob"],
                   "scores": [999, 0], "winners": [0], "events": [], "started": 1.0, "finished": 2.0,
                   "at": time.time()}
        topic = f"cardtable/club/T1/game/{game['key']}"
        intruder = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="intruder")
        intruder.connect("127.0.0.1", mosquitto.port)
        intruder.loop_start()
        for where, payload in ((topic, json.dumps(forged)),
                               (topic, seal(os.urandom(32), topic, json.dumps(forged))),   # another key
                               ("cardtable/club/T1/game/9-9", json.dumps(mallory)),
                               ("cardtable/club/MAL/game/1-1", json.dumps(mallory)),
                               ("cardtable/club/MAL/view", json.dumps({"game": "Cribbage", "at": time.time(),
                                                                       "seats": [{"name": "Mallory", "score": 999}]}))):
            intruder.publish(where, payload, qos=1, retain=True).wait_for_publish(5)
        intruder.loop_stop()
        intruder.disconnect()
        state = wait_until(lambda: (s := state_of(page.url)) and any(t["table"] == "MAL" for t in s["tables"])
                           and any("3 messages" in n for t in s["tables"] for n in t["notices"]) and s)
        assert state["standings"] == before and "Mallory" not in json.dumps(state["standings"])
        tables = {t["table"]: t for t in state["tables"]}
        assert tables["T1"]["trust"] == "signed"
        assert tables["MAL"]["trust"] == "unsigned" and any("not counted" in n for n in tables["MAL"]["notices"])
        shown = json.loads(urllib.request.urlopen(page.url + "/tables/T1/games.json", timeout=patience(10)).read())
        assert [(g["key"], g["winners"]) for g in shown] == [(game["key"], game["winners"])]
        tab = browser.new_page(bypass_csp=True)
        tab.goto(page.url + "/")
        tab.wait_for_selector(".club-table")
        text = tab.locator("body").inner_text()
        assert "were ignored" in text and "not counted in the standings" in text
        tab.screenshot(path=tmp_path / "club-forged.png", full_page=True)
        keep(tmp_path / "club-forged.png")
    finally:
        server.close()
        page.close()
        store.close()


def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardtable.cli", "club", "serve", *args], env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)


def read_until(process: subprocess.Popen, words: str, lines: list[str], timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if words in line:
            return line
    raise AssertionError(f"no {words!r} in {''.join(lines)!r}")


@pytest.mark.slow
def test_club_serve_says_an_unreachable_broker_and_two_tables_under_one_name(mosquitto, tmp_path, browser):
    mosquitto.stop()
    port = free_port()
    club = serve("--broker", mosquitto.url, "--port", str(port), "--host", "127.0.0.1", "--db", str(tmp_path / "c.db"))
    lines: list[str] = []
    try:
        said = read_until(club, "cannot reach the broker", lines)
        assert f"127.0.0.1:{mosquitto.port}" in said and "mosquitto" in said
        assert any("cannot reach" in n for n in state_of(f"http://127.0.0.1:{port}")["notices"])
        tab = browser.new_page()
        tab.goto(f"http://127.0.0.1:{port}/")
        tab.wait_for_selector("#notices", state="visible")
        assert "cannot reach the broker" in tab.locator("#notices").inner_text()
        tab.screenshot(path=tmp_path / "club-no-broker.png")
        keep(tmp_path / "club-no-broker.png")
        mosquitto.start()
        wait_until(lambda: not state_of(f"http://127.0.0.1:{port}")["notices"])
        tab.wait_for_selector("#notices", state="hidden")
        tab.close()
        broker = parse_broker(mosquitto.url)
        first, second = TableLink(broker, "club", "T1"), TableLink(broker, "club", "T1")
        wait_until(lambda: first.connected and second.connected)
        now = time.time()
        for n, link in enumerate((first, second, first, second)):
            link.publish("view", {"game": "Cribbage", "seats": [], "at": now + n})
        said = read_until(club, "Two tables publish as T1", lines)
        assert "--table NAME" in said
        table = wait_until(lambda: [t for t in state_of(f"http://127.0.0.1:{port}")["tables"] if t["notices"]])[0]
        assert any("Two tables publish as T1" in n for n in table["notices"])
        # a table that restarts (a new instance after the old one stopped) is not two tables
        third = TableLink(broker, "club", "T2")
        wait_until(lambda: third.connected)
        third.publish("view", {"game": "Cribbage", "seats": [], "at": now})
        third.close()
        fourth = TableLink(broker, "club", "T2")
        wait_until(lambda: fourth.connected)
        fourth.publish("view", {"game": "Cribbage", "seats": [], "at": now + 5})
        wait_until(lambda: any(t["table"] == "T2" and t["at"] == now + 5 for t in state_of(f"http://127.0.0.1:{port}")["tables"]))
        assert not any("Two tables publish as T2" in n for t in state_of(f"http://127.0.0.1:{port}")["tables"] for n in t["notices"])
        for link in (first, second, fourth):
            link.close()
    finally:
        club.terminate()
        club.wait(10)


@pytest.mark.slow
def test_a_demo_with_an_unreachable_broker_says_nothing_was_published(tmp_path):
    port = free_port()
    done = subprocess.run([sys.executable, "-m", "cardtable.cli", "demo", "--input", "rfid", "--out", str(tmp_path),
                           "--club", f"mqtt://127.0.0.1:{port}"], env=ENV, capture_output=True, text=True, timeout=patience(120))
    assert done.returncode == 0, done.stderr
    assert f"Nothing was published to the club: the broker at 127.0.0.1:{port} cannot be reached" in done.stdout


def test_club_key_makes_a_key_once_and_says_where_it_goes(tmp_path, capsys):
    from cardtable.cli import main

    assert main(["club", "key", "T1", "--folder", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert f'key_file = "{tmp_path / "T1.key"}"' in said and f"--keys {tmp_path}" in said
    assert (tmp_path / "T1.key").stat().st_mode & 0o077 == 0 and read_keys(tmp_path).keys() == {"T1"}
    assert main(["club", "key", "T1", "--folder", str(tmp_path)]) != 0
    assert "exists already" in capsys.readouterr().err
    assert main(["club", "key", "../T1", "--folder", str(tmp_path)]) != 0


@pytest.mark.slow
def test_a_table_says_once_that_its_broker_cannot_be_reached_and_when_it_is_again(mosquitto, tmp_path):
    mosquitto.stop()
    said: list[str] = []
    publisher = ClubPublisher(ClubSpec(parse_broker(mosquitto.url), "club", "T1"), tmp_path / "journal.sqlite",
                              on_problem=said.append)
    try:
        wait_until(lambda: said, timeout=15)
        assert said[0].startswith(f"The club: the broker at 127.0.0.1:{mosquitto.port} cannot be reached. "
                                  "The table plays on")
        time.sleep(3)
        assert len(said) == 1                                   # said once, not at every try
        mosquitto.start()
        wait_until(lambda: len(said) == 2)
        assert said[1] == f"The club's broker at 127.0.0.1:{mosquitto.port} is reached: the table is published again"
    finally:
        publisher.close()
