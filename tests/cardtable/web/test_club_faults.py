"""Faults: the broker killed mid-game and started again, a table closed just as its broker is back,
a table killed and restarted, the club server killed and restarted. Every score the tables
accepted ends up on the club page once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from cardtable.sim.demo import run_demo
from cardtable.club.link import TableLink
from cardtable.club.publisher import ClubPublisher
from cardtable.club.spec import ClubSpec, parse_broker
from web_helpers import die_with_parent, free_port
from web_helpers import wait_until
from test_club_live import Club, journal_events
from waiting import patience

pytestmark = pytest.mark.slow          # servers, brokers and tables killed and started again

ENV = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}


def cardtable(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardtable.cli", *args], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)


def club_has_everything(club_games, folder) -> bool:
    wanted = journal_events(folder)
    got = {g["key"]: [e["text"] for e in g["events"]] for g in club_games}
    return bool(wanted) and got == wanted


def test_the_broker_killed_mid_game_and_started_again_loses_no_score(mosquitto, tmp_path):
    club = Club(mosquitto.url, tmp_path / "club.sqlite")
    try:
        publisher = ClubPublisher(ClubSpec(parse_broker(mosquitto.url), "club", "T1"), tmp_path / "journal.sqlite")
        moves = []
        box = {}

        def play():
            box["result"] = run_demo("cribbage", input_kind="rfid", seed=6, out_dir=tmp_path, displays=[publisher],
                                     on_move=lambda m, c: (moves.append(m), time.sleep(0.01)))
        thread = threading.Thread(target=play)
        thread.start()
        wait_until(lambda: len(moves) > 40)
        mosquitto.stop()                                  # scores are accepted while the broker is away
        count = len(moves)
        wait_until(lambda: len(moves) > count + 40)
        mosquitto.start()
        thread.join(120)
        assert box["result"].agrees
        wait_until(lambda: club_has_everything(club.games("T1"), tmp_path), timeout=20)
        table = club.state()["tables"][0]
        assert tuple(s["score"] for s in table["seats"]) == box["result"].scores
    finally:
        club.close()


def test_a_table_closed_before_its_next_try_to_reach_the_broker_first_gives_it_what_it_held(mosquitto):
    link = TableLink(parse_broker(mosquitto.url), "club", "T1")
    tries = []
    failed = link.client.on_connect_fail
    link.client.on_connect_fail = lambda client, userdata: (tries.append(1), failed(client, userdata))
    wait_until(lambda: link.connected)
    mosquitto.stop()
    wait_until(lambda: len(tries) >= 3)                 # the link's next try is 1.6 s away
    link.publish("view", {"game": "Cribbage", "seats": [], "at": time.time()})
    mosquitto.start()
    link.close()                                      # the end of a game: it comes before that try
    heard = []
    club = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="club")
    club.on_message = lambda client, userdata, message: heard.append(message.payload)
    club.connect("127.0.0.1", mosquitto.port)
    club.subscribe("cardtable/club/T1/view", qos=1)
    club.loop_start()
    try:
        assert b'"game":"Cribbage"' in wait_until(lambda: heard, timeout=10)[0]
    finally:
        club.loop_stop()
        club.disconnect()


def test_a_table_killed_mid_game_is_offline_and_republishes_from_its_journal_when_restarted(mosquitto, tmp_path):
    club = Club(mosquitto.url, tmp_path / "club.sqlite")
    out = str(tmp_path / "T1")
    args = ("demo", "--input", "rfid", "--club", mosquitto.url, "--table", "T1", "--out", out, "--pace", "0.02")
    try:
        table = cardtable(*args, "--seed", "7")
        wait_until(lambda: (t := club.state()["tables"]) and t[0]["seats"] and max(s["score"] for s in t[0]["seats"]) > 20)
        table.send_signal(signal.SIGKILL)
        table.wait(10)
        wait_until(lambda: club.state()["tables"][0]["status"] == "offline")
        # the journal holds what the table accepted; the club holds the same once the table is back
        table = cardtable(*args, "--seed", "8", "--pace", "0")
        assert table.wait(120) == 0
        wait_until(lambda: club_has_everything(club.games("T1"), tmp_path / "T1"), timeout=20)
        assert len(club.games("T1")) == 2
    finally:
        club.close()


def test_the_club_server_killed_and_restarted_loses_nothing(mosquitto, tmp_path):
    port = free_port()
    db = str(tmp_path / "club.sqlite")
    serve = ("club", "serve", "--broker", mosquitto.url, "--port", str(port), "--host", "127.0.0.1", "--db", db)
    server = cardtable(*serve)
    table = cardtable("demo", "--input", "rfid", "--club", mosquitto.url, "--table", "T1", "--out",
                      str(tmp_path / "T1"), "--pace", "0.02", "--seed", "9")
    try:
        time.sleep(patience(3))
        server.send_signal(signal.SIGKILL)               # the club server dies mid-game
        server.wait(10)
        time.sleep(patience(1))
        server = cardtable(*serve)
        assert table.wait(120) == 0
        import json
        import urllib.request

        def games():
            try:
                return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/tables/T1/games.json",
                                                         timeout=patience(5)).read())
            except OSError:
                return []
        wait_until(lambda: club_has_everything(games(), tmp_path / "T1"), timeout=30)
        # and once more, with the table gone: the club reads it all back from its own SQLite
        server.send_signal(signal.SIGTERM)
        server.wait(10)
        mosquitto.stop()
        server = cardtable(*serve)
        wait_until(lambda: club_has_everything(games(), tmp_path / "T1"), timeout=30)
    finally:
        for process in (server, table):
            if process.poll() is None:
                process.kill()
                process.wait(10)
