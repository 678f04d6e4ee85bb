"""The table's web app (Starlette): the live page, the overlay, the history, the owner's pages.

Spectators' routes serve only the public view (:mod:`cardtable.pages.viewdata`) and the journal's
public records (:mod:`cardtable.pages.records`). The owner's routes answer 403 until the PIN set in
``[web] pin`` has been given; without a PIN they are off. Whatever the owner posts must come from
the table's own page: a browser's ``Origin`` naming another site or port is refused, and the
session's token (given to the owner's page in ``/owner/status.json``, which no other page can
read) must come with it. No request body may be longer than :data:`~cardtable.pages.limits.MAX_BODY`
(:class:`~cardtable.pages.limits.BodyLimit`). Pages are plain files shipped in the
package and load nothing from elsewhere (the table may be offline); the Content-Security-Policy
forbids inline scripts and other origins.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardtable.journal import Journal
from cardtable.pages.files import SECURITY_HEADERS, common_files
from cardtable.pages.limits import BodyLimit
from cardtable.pages.push import Broadcaster, event_stream
from cardtable.pages.records import game_list, game_record, list_entry
from cardtable.pages.viewdata import view_data
from cardtable.web.owner import PinGate
from cardtable.web.public_pages import Page, register_page, registered_pages
from engine.errors import CardtableError
from engine.table_events import OwnerRequest
from engine.games import all_games
from hardware.view import TableView

STATIC = Path(__file__).parent / "static"
COOKIE = "cardtable_owner"
TOKEN_HEADER = "X-Cardtable-Token"
MAX_DELAY = 600.0

register_page(Page("/", STATIC / "table.html"))
register_page(Page("/overlay", STATIC / "overlay.html"))
register_page(Page("/history", STATIC / "history.html"))


class ViewHub:
    """A display backend for the web: each view shown becomes a pushed ``view`` message."""

    name = "web page"

    def __init__(self) -> None:
        self.broadcaster = Broadcaster(retained=("view",))

    def show(self, view: TableView) -> None:
        self.broadcaster.send("view", view_data(view))

    def close(self) -> None:
        self.broadcaster.close()


@dataclass
class OwnerTools:
    """What the owner's pages can reach. ``submit`` hands a request to the table's thread;
    ``camera`` gives the annotated camera picture as JPEG (``None``: no camera);
    ``enrolment`` and ``doctor`` give the enrolment progress and ``cardtable doctor``'s report."""

    gate: PinGate
    submit: Callable[[OwnerRequest], None] | None = None
    camera: Callable[[], bytes | None] | None = None
    enrolment: Callable[[], str] | None = None
    doctor: Callable[[], str] | None = None
    timeout: float = 10.0


def create_app(hub: ViewHub, *, journal_path: Path | None = None, owner: OwnerTools | None = None) -> BodyLimit:
    """The app for one table: ``hub`` carries its views, ``journal_path`` its history."""
    owner = owner or OwnerTools(PinGate(""))

    async def events(request: Request) -> Response:
        try:
            delay = min(max(float(request.query_params.get("delay", 0)), 0.0), MAX_DELAY)
        except ValueError:
            delay = 0.0
        return StreamingResponse(event_stream(hub.broadcaster, delay=delay), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def view_json(request: Request) -> Response:
        latest = hub.broadcaster.retained.get("view")
        return Response(latest.data if latest else "null", media_type="application/json")

    def read_journal(work):
        if journal_path is None or not Path(journal_path).exists():
            return None
        with Journal(journal_path, read_only=True) as journal:
            return work(journal)

    async def history_json(request: Request) -> Response:
        games = await asyncio.to_thread(read_journal, lambda j: [list_entry(r) for r in game_list(j)])
        return JSONResponse(list(reversed(games or [])))

    async def game_json(request: Request) -> Response:
        game_id = request.path_params["game_id"]

        def one(journal: Journal):
            try:
                return game_record(journal, journal.game(game_id))
            except CardtableError:
                return None
        record = await asyncio.to_thread(read_journal, one)
        return JSONResponse(record) if record else JSONResponse({"error": f"no game {game_id}"}, status_code=404)

    # -- the owner ----------------------------------------------------------------------------
    def allowed(request: Request) -> bool:
        return owner.gate.allows(request.cookies.get(COOKIE))

    async def owner_page(request: Request) -> Response:
        if not owner.gate.enabled and "off" not in request.query_params:
            return RedirectResponse("/owner?off=1", status_code=303)      # the page says how to turn it on
        return FileResponse(STATIC / ("owner.html" if allowed(request) else "login.html"), headers=SECURITY_HEADERS)

    async def login(request: Request) -> Response:
        if not from_this_page(request):
            return elsewhere()
        form = parse_qs((await request.body()).decode("utf-8", "replace"))
        client = request.client.host if request.client else ""
        cookie = owner.gate.login((form.get("pin") or [""])[0][:32], client)
        if cookie is None:
            return RedirectResponse(f"/owner?wrong=1&wait={math.ceil(owner.gate.wait(client))}", status_code=303)
        response = RedirectResponse("/owner", status_code=303)
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict")
        return response

    async def logout(request: Request) -> Response:
        owner.gate.logout(request.cookies.get(COOKIE))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE)
        return response

    def guarded(handler):
        async def check(request: Request) -> Response:
            if not allowed(request):
                return JSONResponse({"error": "the owner's PIN is needed"}, status_code=403)
            if request.method == "POST":
                if not from_this_page(request):
                    return elsewhere()
                if not owner.gate.allows_post(request.cookies.get(COOKIE), await posted_token(request)):
                    return JSONResponse({"error": "Not done: the request did not come from the owner's page; "
                                                  "open /owner again"}, status_code=403)
            return await handler(request)
        return check

    async def status(request: Request) -> Response:
        enrolment = await asyncio.to_thread(owner.enrolment) if owner.enrolment else None
        doctor = await asyncio.to_thread(owner.doctor) if owner.doctor else None
        return JSONResponse({
            "games": [{"name": g.name, "title": g.title, "players": list(g.players),
                       "options": [{"name": o.name, "default": o.default, "help": o.help, "choices": list(o.choices)}
                                   for o in g.options]} for g in all_games()],
            "enrolment": enrolment, "doctor": doctor, "camera": owner.camera is not None,
            "can_act": owner.submit is not None, "token": owner.gate.token(request.cookies.get(COOKIE)),
        })

    async def act(request: Request) -> Response:
        if owner.submit is None:
            return JSONResponse({"answer": "This table takes no requests from the owner's page"}, status_code=409)
        try:
            body = json.loads(await request.body() or b"{}")
            if not isinstance(body, dict):
                raise ValueError
            options = body.get("options") or {}
            names = body.get("names") or []
            if not isinstance(options, dict) or not isinstance(names, list):
                raise ValueError
            item = OwnerRequest(kind=request.path_params["kind"], game=str(body.get("game", ""))[:32],
                                players=int(body.get("players") or 0),
                                names=tuple(str(n) for n in names[:8]), options=options)
        except (ValueError, TypeError, OverflowError):
            return JSONResponse({"answer": "Not done: the request was not understood"}, status_code=400)
        owner.submit(item)
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(item.answer), owner.timeout)
        except TimeoutError:
            answer = "The table has not answered yet; look at the table"
        return JSONResponse({"answer": answer})

    async def camera(request: Request) -> Response:
        jpeg = await asyncio.to_thread(owner.camera) if owner.camera else None
        if jpeg is None:
            return Response(status_code=404)
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    routes = [
        *(route for page in registered_pages() for route in page.routes()),
        Route("/events", events),
        Route("/view.json", view_json),
        Route("/history.json", history_json),
        Route("/history/{game_id:int}.json", game_json),
        Route("/owner", owner_page),
        Route("/owner/login", login, methods=["POST"]),
        Route("/owner/logout", guarded(logout), methods=["POST"]),
        Route("/owner/status.json", guarded(status)),
        Route("/owner/camera.jpg", guarded(camera)),
        Route("/owner/{kind:str}", guarded(act), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        common_files(),
    ]
    return BodyLimit(Starlette(routes=routes))


def from_this_page(request: Request) -> bool:
    """Whether a browser says the request comes from this server's own pages (same scheme, host
    and port). A client that says nothing (not a browser) is let through: the session's token
    still guards the owner's requests."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    return origin is None or origin in (f"http://{host}", f"https://{host}")


def elsewhere() -> Response:
    return JSONResponse({"error": "Not done: the request came from another page, not the table's own"},
                        status_code=403)


async def posted_token(request: Request) -> str:
    """The session's token, from the request's header or (a plain form) its ``token`` field."""
    token = request.headers.get(TOKEN_HEADER)
    if token is None and request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        token = (parse_qs((await request.body()).decode("utf-8", "replace")).get("token") or [""])[0]
    return token or ""
