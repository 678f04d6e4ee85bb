"""``cardtable club serve``: every table of the club live on one page, and the evening's standings.

:class:`ClubState` follows the broker (paho-mqtt, on paho's thread): each message is checked by
:func:`cardtable.club.topics.read_message`, stored in the :class:`~cardtable.club.store.ClubStore`
and pushed to the pages as a ``table`` or ``standings`` server-sent event. On start it reads the
store back, so a restart loses nothing; the broker's retained messages then bring it up to date.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardtable.club.link import new_client
from cardtable.club.spec import NAME, Broker
from cardtable.club.standings import standings
from cardtable.club.store import ClubStore
from cardtable.club.topics import ClubMessage, read_message, subscriptions
from cardtable.web.app import SECURITY_HEADERS, STATIC as WEB_STATIC
from cardtable.web.push import Broadcaster, Message, event_stream, make_message

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 1000
LOG_LINES = 6
EVENING = 12 * 3600.0


class ClubState:
    """The club as the page shows it: per table its status, view and latest scoring lines."""

    def __init__(self, store: ClubStore, club: str, *, evening: float = EVENING) -> None:
        self.store, self.club, self.evening = store, club, evening
        self.broadcaster = Broadcaster()
        self._lock = threading.Lock()
        self.tables: dict[str, dict] = {}
        self._logs: dict[tuple[str, str], list[str]] = {}
        self._finished: dict[tuple[str, str], dict] = {}
        for table, (status, view) in store.tables().items():
            self.tables[table] = {"status": status, "view": view}
        for record in store.games(since=time.time() - evening):
            self._remember(record["table"], record)
        self.standings = standings(list(self._finished.values()))

    def _remember(self, table: str, record: dict) -> None:
        key = (table, record["key"])
        self._logs[key] = [e["text"] for e in record["events"][-LOG_LINES:]]
        if record["winners"]:
            self._finished[key] = {k: record[k] for k in ("game", "title", "names", "scores", "winners")} | {
                "table": table, "margin": record.get("margin", "")}

    # -- messages from the broker (paho's thread) ---------------------------------------------------
    def receive(self, topic: str, payload: bytes) -> None:
        message = read_message(topic, payload, self.club)
        if message is None or (message.table not in self.tables and len(self.tables) >= MAX_TABLES):
            log.debug("ignored a message on %r", topic[:200])
            return
        self.apply(message)

    def apply(self, message: ClubMessage) -> None:
        table = message.table
        with self._lock:
            entry = self.tables.setdefault(table, {"status": "offline", "view": {}})
            if message.kind == "status":
                entry["status"] = message.data
            elif message.kind == "view":
                entry["view"] = message.data
            else:
                record = self.store.save_game(table, message.data)
                was = self._finished.get((table, message.key))
                self._remember(table, record)
                if self._finished.get((table, message.key)) != was:
                    self.standings = standings(list(self._finished.values()))
                    self.broadcaster.send("standings", self.standings)
            self.store.save_table(table, entry["status"], entry["view"])
            summary = self._summary(table)
        self.broadcaster.send("table", summary, at=summary["at"] or None)

    def _summary(self, table: str) -> dict:
        entry = self.tables[table]
        view = entry["view"]
        return {
            "table": table, "status": entry["status"], "game": view.get("game", ""),
            "game_status": view.get("status", ""), "prompt": view.get("prompt", ""),
            "seats": view.get("seats", []), "finished": view.get("finished", False),
            "last_score": view.get("last_score", ""), "key": view.get("key", ""),
            "log": self._logs.get((table, view.get("key", "")), []), "at": view.get("at", 0.0),
        }

    # -- what the pages read --------------------------------------------------------------------------
    def snapshot(self) -> list[Message]:
        with self._lock:
            tables = [self._summary(t) for t in sorted(self.tables)]
            return [make_message("tables", tables), make_message("standings", self.standings)]


class ClubServer:
    """Follows the broker into a :class:`ClubState`."""

    def __init__(self, broker: Broker, club: str, store: ClubStore) -> None:
        self.broker, self.club = broker, club
        self.state = ClubState(store, club)
        self.client = new_client(broker, f"cardtable-club-{club}-{uuid.uuid4().hex[:8]}")
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.connected = threading.Event()

    def start(self) -> ClubServer:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()
        return self

    def _connected(self, client, userdata, flags, reason, properties=None) -> None:
        if reason.is_failure:
            log.warning("the broker refused the club server: %s", reason)
            return
        client.subscribe([(topic, 1) for topic in subscriptions(self.club)])
        self.connected.set()

    def _message(self, client, userdata, message) -> None:
        try:
            self.state.receive(message.topic, message.payload)
        except Exception:  # one bad message must not stop the club
            log.exception("a message on %r could not be used", message.topic[:200])

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.state.broadcaster.close()


def create_club_app(state: ClubState) -> Starlette:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "club.html", headers=SECURITY_HEADERS)

    async def events(request: Request) -> Response:
        return StreamingResponse(event_stream(state.broadcaster, snapshot=state.snapshot),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def state_json(request: Request) -> Response:
        tables, ranking = state.snapshot()
        return Response(f'{{"tables":{tables.data},"standings":{ranking.data}}}', media_type="application/json")

    async def games_json(request: Request) -> Response:
        table = request.path_params["table"]
        if not NAME.match(table):
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(state.store.games(table=table))

    return Starlette(routes=[
        Route("/", page),
        Route("/events", events),
        Route("/state.json", state_json),
        Route("/tables/{table:str}/games.json", games_json),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Mount("/common", StaticFiles(directory=WEB_STATIC), name="common"),
    ])
