"""``cardtable club serve``: every table of the club live on one page, and the evening's standings.

:class:`ClubState` follows the broker (paho-mqtt, on paho's thread): each message is checked by
:func:`cardtable.club.topics.read_message`, stored in the :class:`~cardtable.club.store.ClubStore`
and pushed to the pages as a ``table`` or ``standings`` server-sent event. On start it reads the
store back, so a restart loses nothing; the broker's retained messages then bring it up to date.

What one message costs does not grow with the games played: the standings are kept game by game
(:class:`~cardtable.club.standings.Standings`), a table's oldest games beyond ``max_games`` are
folded into the totals, and the pages get the tables that changed and the standings at most every
``push_interval`` seconds (a burst of messages makes one push). Only games signed with a key the
club holds for their table count; a table the club holds a key for is heard only when it signs,
and what anyone else writes under its name is counted and said, never shown as the table's. Two
running tables publishing under one name, and a broker that cannot be reached, are said on the
page and in the terminal.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardtable.club.link import new_client
from cardtable.club.signing import SIGNED, UNSIGNED
from cardtable.club.spec import NAME, Broker
from cardtable.club.standings import Contribution, Standings, contribution
from cardtable.club.store import ClubStore
from cardtable.club.topics import ClubMessage, read_message, subscriptions
from cardtable.pages.files import SECURITY_HEADERS, common_files
from cardtable.pages.limits import BodyLimit
from cardtable.pages.push import Broadcaster, Message, event_stream, make_message

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 1000
MAX_GAMES = 100           # game records one table can make the club keep; older ones are folded into totals
LOG_LINES = 6
EVENING = 12 * 3600.0
PUSH_INTERVAL = 0.1       # seconds between two pushes to the pages
SAME_NAME_WINDOW = 120.0  # two running tables under one name: both heard within this many seconds
MAX_INSTANCES = 8


@dataclass
class Kept:
    """What the club keeps of one game while its record is kept."""

    part: Contribution
    log: list[str]
    started: float
    at: float


def same_name_notice(table: str) -> str:
    return (f"Two tables publish as {table}: their games and scores are mixed up here. Give each table its own "
            f"name: 'cardtable demo --table NAME', or table = \"NAME\" in [club] of its configuration")


class ClubState:
    """The club as the page shows it: per table its status, view and latest scoring lines, and
    the standings. ``keys`` are the tables' signing keys; ``on_notice`` hears each new notice
    (for the terminal)."""

    def __init__(self, store: ClubStore, club: str, *, keys: dict[str, bytes] | None = None,
                 evening: float = EVENING, max_games: int = MAX_GAMES, push_interval: float = PUSH_INTERVAL,
                 on_notice: Callable[[str], None] | None = None) -> None:
        self.store, self.club, self.evening = store, club, evening
        self.keys = dict(keys or {})
        self.max_games, self.push_interval = max_games, push_interval
        self.on_notice = on_notice or (lambda text: None)
        self.broadcaster = Broadcaster()
        self._lock = threading.Condition()
        self.tables: dict[str, dict] = {}
        self.notices: dict[str, str] = {}                 # club-wide: what -> sentence
        self.standings = Standings()
        self._games: dict[str, dict[str, Kept]] = {}
        self._folded_to = store.folded()
        self._dirty: set[str] = set()
        self._ranking_dirty = False
        self._closed = False
        for table, (status, view) in store.tables().items():
            self._entry(table).update(status=status, view=view)
        for part in store.totals(since=time.time() - evening):
            self.standings.add(part)
        for record in store.games(since=time.time() - evening):
            self._keep(record["table"], record)
        self._dirty.clear()
        self._pusher = threading.Thread(target=self._push, name="club-push", daemon=True)
        self._pusher.start()

    def _entry(self, table: str) -> dict:
        return self.tables.setdefault(table, {"status": "offline", "view": {}, "ignored": 0, "instances": {},
                                              "same_name": False})

    def rankings(self) -> list[dict]:
        with self._lock:
            return self.standings.rows()

    # -- messages from the broker (paho's thread) ---------------------------------------------------
    def receive(self, topic: str, payload: bytes) -> None:
        message = read_message(topic, payload, self.club, self.keys)
        if message is None or (message.table not in self.tables and len(self.tables) >= MAX_TABLES):
            log.debug("ignored a message on %r", topic[:200])
            return
        self.apply(message)

    def apply(self, message: ClubMessage) -> None:
        table = message.table
        with self._lock:
            entry = self._entry(table)
            if message.kind == "status":
                entry["status"] = message.data
            elif table in self.keys and message.trust != SIGNED:
                entry["ignored"] += 1                      # someone else writing under the table's name
            else:
                self._heard(table, entry, message.data)
                if message.kind == "view":
                    entry["view"] = {**message.data, "trust": message.trust}     # kept with it in the store
                else:
                    self._game(table, message)
            if message.kind != "game":
                self.store.save_table(table, entry["status"], entry["view"])
            self._dirty.add(table)
            self._lock.notify()

    def _game(self, table: str, message: ClubMessage) -> None:
        kept = self._games.get(table, {})
        record, old = message.data, kept.get(message.key)
        if old is None and record["started"] <= self._folded_to.get(table, -1.0):
            return                                         # folded already (or older than what was)
        if old is not None and record["at"] < old.at:
            return                                         # an older copy of what the club has
        self._keep(table, self.store.save_game(table, {**record, "trust": message.trust}))

    def _keep(self, table: str, record: dict) -> None:
        kept = self._games.setdefault(table, {})
        part = contribution({**record, "table": table}) if record.get("trust") == SIGNED else ()
        old = kept.pop(record["key"], None)
        if old is not None:
            self.standings.remove(old.part)
        self.standings.add(part)
        kept[record["key"]] = Kept(part, [e["text"] for e in record["events"][-LOG_LINES:]],
                                   record.get("started", 0.0), record.get("at", 0.0))
        self._ranking_dirty |= part != (old.part if old else ())
        if len(kept) > self.max_games:
            oldest = min(kept, key=lambda key: kept[key].started)
            folded = kept.pop(oldest)
            self._folded_to[table] = max(self._folded_to.get(table, -1.0), folded.started)
            self.store.fold(table, oldest, folded.part, folded.started)

    def _heard(self, table: str, entry: dict, data: dict) -> None:
        """Notes the running table (``instance``) that sent ``data``; says when two share a name."""
        instance, at = data.get("instance"), data.get("at", 0.0)
        if not instance or not at:
            return
        seen: dict[str, list[float]] = entry["instances"]
        first, last = seen.get(instance, (at, at))
        seen[instance] = [min(first, at), max(last, at)]
        newest = max(last for _, last in seen.values())
        for other in [i for i, (_, last) in seen.items() if last < newest - SAME_NAME_WINDOW]:
            del seen[other]
        while len(seen) > MAX_INSTANCES:
            del seen[min(seen, key=lambda i: seen[i][1])]
        spans = sorted(seen.values())
        clash = any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:]))
        if clash and not entry["same_name"]:
            self.on_notice(same_name_notice(table))
        entry["same_name"] = clash

    # -- what the pages get ---------------------------------------------------------------------------
    def say(self, what: str, text: str) -> None:
        """A club-wide notice (``text`` empty: it is over), pushed to the pages and told to ``on_notice``."""
        with self._lock:
            if self.notices.get(what, "") == text:
                return
            if text:
                self.notices[what] = text
            else:
                self.notices.pop(what, None)
            notices = list(self.notices.values())
        if text:
            self.on_notice(text)
        self.broadcaster.send("notices", notices)

    def _push(self) -> None:
        """The pusher's thread: the tables that changed and the standings, at most every ``push_interval``."""
        while True:
            with self._lock:
                while not (self._dirty or self._ranking_dirty or self._closed):
                    self._lock.wait()
                if self._closed:
                    return
                tables = [self._summary(t) for t in sorted(self._dirty)]
                ranking = self.standings.rows() if self._ranking_dirty else None
                self._dirty.clear()
                self._ranking_dirty = False
            if ranking is not None:
                self.broadcaster.send("standings", ranking)
            for summary in tables:
                self.broadcaster.send("table", summary, at=summary["at"] or None)
            time.sleep(self.push_interval)

    def _summary(self, table: str) -> dict:
        entry = self.tables[table]
        view = entry["view"]
        kept = self._games.get(table, {}).get(view.get("key", ""))
        return {
            "table": table, "status": entry["status"], "game": view.get("game", ""),
            "game_status": view.get("status", ""), "prompt": view.get("prompt", ""),
            "seats": view.get("seats", []), "finished": view.get("finished", False),
            "last_score": view.get("last_score", ""), "key": view.get("key", ""),
            "log": kept.log if kept else [], "at": view.get("at", 0.0),
            "trust": view.get("trust", UNSIGNED), "notices": self._table_notices(table, entry),
        }

    def _table_notices(self, table: str, entry: dict) -> list[str]:
        notices = [same_name_notice(table)] if entry["same_name"] else []
        if entry["ignored"]:
            notices.append(f"{entry['ignored']} messages under the name {table} were not signed with its key and "
                           "were ignored: someone else on the broker wrote them")
        if table not in self.keys and entry["view"]:
            notices.append(f"Not signed: {table}'s games are not counted in the standings. Make it a key "
                           f"('cardtable club key {table}'), set key_file in the table's [club], and give the "
                           "club the key (club serve --keys FOLDER)")
        return notices

    def snapshot(self) -> list[Message]:
        with self._lock:
            tables = [self._summary(t) for t in sorted(self.tables)]
            return [make_message("tables", tables), make_message("standings", self.standings.rows()),
                    make_message("notices", list(self.notices.values()))]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify()
        self._pusher.join(2)
        self.broadcaster.close()


class ClubServer:
    """Follows the broker into a :class:`ClubState`; a broker that cannot be reached or refuses
    the club is said (after ``patience`` seconds without a connection) until it is reached."""

    def __init__(self, broker: Broker, club: str, store: ClubStore, *, keys: dict[str, bytes] | None = None,
                 on_notice: Callable[[str], None] | None = None, patience: float = 3.0) -> None:
        self.broker, self.club = broker, club
        self.state = ClubState(store, club, keys=keys, on_notice=on_notice)
        self.client = new_client(broker, f"cardtable-club-{club}-{uuid.uuid4().hex[:8]}")
        self.client.on_connect = self._connected
        self.client.on_connect_fail = self._failed
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.connected = threading.Event()
        self._problem = ""
        self._timer = threading.Timer(patience, self._still_away)
        self._timer.daemon = True

    @property
    def where(self) -> str:
        return f"mqtt{'s' if self.broker.tls else ''}://{self.broker.host}:{self.broker.port}"

    def start(self) -> ClubServer:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()
        self._timer.start()
        return self

    def _connected(self, client, userdata, flags, reason, properties=None) -> None:
        if reason.is_failure:
            log.warning("the broker refused the club server: %s", reason)
            self._problem = (f"The broker at {self.where} refused the club ({reason}): give the club's user name "
                             "and password (--username, --password)")
            self._still_away()
            return
        client.subscribe([(topic, 1) for topic in subscriptions(self.club)])
        self._problem = ""
        self.connected.set()
        self.state.say("broker", "")

    def _failed(self, client, userdata) -> None:
        self._problem = (f"The club cannot reach the broker at {self.where}, so no table can be heard: start "
                         "mosquitto there (sudo systemctl start mosquitto) or give the right --broker; the club "
                         "keeps trying")

    def _disconnected(self, client, userdata, flags, reason, properties=None) -> None:
        self.connected.clear()

    def _still_away(self) -> None:
        if not self.connected.is_set():
            self.state.say("broker", self._problem or f"The club has not reached the broker at {self.where} yet")

    def _message(self, client, userdata, message) -> None:
        try:
            self.state.receive(message.topic, message.payload)
        except Exception:  # one bad message must not stop the club
            log.exception("a message on %r could not be used", message.topic[:200])

    def close(self) -> None:
        self._timer.cancel()
        self.client.disconnect()
        self.client.loop_stop()
        self.state.close()


def create_club_app(state: ClubState) -> BodyLimit:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "club.html", headers=SECURITY_HEADERS)

    async def events(request: Request) -> Response:
        return StreamingResponse(event_stream(state.broadcaster, snapshot=state.snapshot),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def state_json(request: Request) -> Response:
        tables, ranking, notices = state.snapshot()
        return Response(f'{{"tables":{tables.data},"standings":{ranking.data},"notices":{notices.data}}}',
                        media_type="application/json")

    async def games_json(request: Request) -> Response:
        table = request.path_params["table"]
        if not NAME.match(table):
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(state.store.games(table=table))

    return BodyLimit(Starlette(routes=[
        Route("/", page),
        Route("/events", events),
        Route("/state.json", state_json),
        Route("/tables/{table:str}/games.json", games_json),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        common_files(),
    ]))
