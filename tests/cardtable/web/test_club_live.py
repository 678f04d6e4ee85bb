"""Demo tables publish into a club through a real Mosquitto; the club server shows them live and
keeps the standings; nothing a foreign publisher sends can crash it or put HTML in its page."""

from __future__ import annotations

import json
import threading
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from cardtable.club.publisher import ClubPublisher
from cardtable.club.server import ClubServer, create_club_app
from cardtable.club.spec import ClubSpec, parse_broker
from cardtable.club.store import ClubStore
from cardtable.sim.demo import run_demo
from cardtable.journal import Journal
from cardtable.pages.records import game_key, game_record
from cardtable.pages.server import WebServer
from web_helpers import wait_until
from test_page_browser import keep
from waiting import patience

pytestmark = pytest.mark.slow          # demo tables playing into a club over a real broker


class Club:
    """A club server on the broker, with its page on a free port."""

    def __init__(self, broker_url: str, db, keys: dict[str, bytes] | None = None) -> None:
        self.store = ClubStore(db)
        self.server = ClubServer(parse_broker(broker_url), "club", self.store, keys=keys).start()
        assert self.server.connected.wait(10)
        self.page = WebServer(create_club_app(self.server.state), "127.0.0.1", 0, name="club").start()

    def state(self) -> dict:
        return json.loads(urllib.request.urlopen(self.page.url + "/state.json", timeout=patience(10)).read())

    def games(self, table: str) -> list[dict]:
        return json.loads(urllib.request.urlopen(f"{self.page.url}/tables/{table}/games.json", timeout=patience(10)).read())

    def close(self) -> None:
        self.server.close()
        self.page.close()
        self.store.close()


KEYS = {"T1": bytes(range(32)), "T2": bytes(range(1, 33))}     # the tables' signing keys in these tests


@pytest.fixture
def club(mosquitto, tmp_path):
    club = Club(mosquitto.url, tmp_path / "club.sqlite", KEYS)
    yield club
    club.close()


def play_table(broker_url: str, table: str, folder, *, game="cribbage", players=2, seed=1):
    publisher = ClubPublisher(ClubSpec(parse_broker(broker_url), "club", table, key=KEYS.get(table)),
                              folder / "journal.sqlite")
    result = run_demo(game, players=players, input_kind="rfid", seed=seed, out_dir=folder, displays=[publisher])
    return result


def journal_events(folder) -> dict[str, list[str]]:
    with Journal(folder / "journal.sqlite") as journal:
        return {game_key(r): [e["text"] for e in game_record(journal, r)["events"]] for r in journal.games()}


def test_two_demo_tables_play_into_the_club_and_make_the_standings(club, mosquitto, tmp_path, sse, browser):
    reader = sse(club.page.url + "/events")
    results = {}
    threads = [threading.Thread(target=lambda t=t, s=s: results.__setitem__(t, play_table(
        mosquitto.url, t, tmp_path / t, seed=s))) for t, s in (("T1", 1), ("T2", 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    state = wait_until(lambda: (s := club.state()) and len(s["tables"]) == 2
                       and all(t["finished"] and t["status"] == "offline" for t in s["tables"]) and s)
    for table in state["tables"]:
        assert tuple(seat["score"] for seat in table["seats"]) == tuple(results[table["table"]].scores)
    # every scoring event the table accepted is at the club once, in order
    for name in ("T1", "T2"):
        wanted = journal_events(tmp_path / name)
        got = {g["key"]: [e["text"] for e in g["events"]] for g in club.games(name)}
        assert got == wanted
    board = state["standings"][0]
    assert board["game"] == "cribbage" and sum(r["wins"] for r in board["rows"]) == 2
    assert {r["points"] for r in board["rows"]} <= {0, 2, 3}
    # the page heard of the end of both games as it happened
    reader.wait_for(lambda e, d: e == "standings" and d and sum(r["wins"] for r in d[0]["rows"]) == 2)
    for name, size in (("club-tv", {"width": 1920, "height": 1080}), ("club-phone", {"width": 390, "height": 844})):
        page = browser.new_page(viewport=size, bypass_csp=True)
        page.goto(club.page.url + "/")
        # (The standings and the tables are drawn as each arrives: on a slow machine the
        # ranking was there a moment before the tables.)
        page.wait_for_function("document.querySelectorAll('.ranking tr').length === 5 && "
                               "document.querySelectorAll('.club-table').length === 2")
        scores = page.locator(".club-table").first.locator(".club-score").all_inner_texts()
        assert tuple(map(int, scores)) == tuple(results["T1"].scores)
        page.screenshot(path=tmp_path / f"{name}.png", full_page=True)
        keep(tmp_path / f"{name}.png")


def test_a_foreign_publisher_cannot_crash_the_club_or_put_html_in_it(club, mosquitto, browser, tmp_path):
    intruder = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="intruder")
    intruder.connect("127.0.0.1", mosquitto.port)
    intruder.loop_start()
    nasty = "<img src=x onerror=alert(1)><script>document.title='owned'</script>"
    view = {"game": nasty, "prompt": nasty, "seats": [{"name": nasty, "score": "<b>9</b>", "turn": "yes"}] * 50,
            "centre": {"cards": [nasty] * 500}, "at": "soon"}
    messages = [
        ("cardtable/club/EVIL/view", json.dumps(view)),
        ("cardtable/club/EVIL/status", "online"),
        ("cardtable/club/EVIL/game/1-2", json.dumps({"events": [{"text": nasty, "seat": 99}] * 5000,
                                                       "scores": [1e308, None], "winners": [0, True, -1]})),
        ("cardtable/club/EVIL/game/1-2", b"\xff\xfe not json"),
        ("cardtable/club/EVIL/view", "[" * 100000),
        ("cardtable/club/EVIL/game/../../x", "{}"),
        ("cardtable/club/" + "x" * 500 + "/view", "{}"),
        ("cardtable/club/EVIL/view", json.dumps([1, 2, 3])),
        ("cardtable/club/EVIL/view", b"\x00" * 300_000),
    ]
    for topic, payload in messages:
        intruder.publish(topic, payload, qos=1).wait_for_publish(5)
    intruder.loop_stop()
    intruder.disconnect()
    state = wait_until(lambda: (s := club.state()) and s["tables"] and s["tables"][0]["status"] == "online" and s)
    evil = state["tables"][0]
    assert evil["table"] == "EVIL" and len(evil["seats"]) <= 8 and evil["seats"][0]["score"] == 0
    page = browser.new_page(bypass_csp=True)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(club.page.url + "/")
    page.wait_for_selector(".club-table")
    assert page.locator(".club-table img, .club-table script, .club-table b").count() == 0
    assert nasty[:20] in page.locator(".club-table").first.inner_text()
    assert page.title() == "Club" and not dialogs
    # and the club still follows a real table
    result = play_table(mosquitto.url, "T9", tmp_path / "T9", seed=4)
    wait_until(lambda: any(t["table"] == "T9" and t["finished"] for t in club.state()["tables"]))
    assert result.agrees
