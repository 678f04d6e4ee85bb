"""The spectators' pages of the table's web app: a :class:`Page` is an HTML file (and a folder of
its own scripts and styles) served at a path; :func:`register_page` adds one, and
:func:`~cardtable.web.app.create_app` serves every page registered when it makes the app. The
shipped pages (the table, the overlay, the history) are registered in :mod:`cardtable.web.app`;
docs/adding_a_page.md says how to add one.

Every page is served with the shared security headers (:data:`~cardtable.pages.files.SECURITY_HEADERS`:
no inline script, nothing from another site) and reads only what the app gives everyone: the
public view (``/events``, ``/view.json``) and the journal's public records (``/history.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from cardtable.pages.files import SECURITY_HEADERS

#: paths the app serves itself: no page may take them, nor a path below them (ending in "/": only below)
TAKEN = ("/events", "/view.json", "/history.json", "/history/", "/owner", "/static", "/common")

_PAGES: dict[str, Page] = {}


@dataclass(frozen=True)
class Page:
    """``html`` served at ``path``; ``files`` (a folder: the page's scripts and styles) at
    ``path/files/`` (``/files/`` for the page at ``/``)."""

    path: str
    html: Path
    files: Path | None = None

    @property
    def files_path(self) -> str:
        return self.path.rstrip("/") + "/files"

    def routes(self) -> list[BaseRoute]:
        async def serve(request: Request) -> Response:
            return FileResponse(self.html, headers=SECURITY_HEADERS)

        routes: list[BaseRoute] = [Route(self.path, serve)]
        if self.files is not None:
            routes.append(Mount(self.files_path, StaticFiles(directory=self.files), name=self.files_path))
        return routes


def register_page(page: Page) -> Page:
    """Serve ``page`` in every app made from now on (the one line that adds a page).

    :raises ValueError: the path is not a plain path, is the app's own or another page's, or the
        page's HTML file is missing.
    """
    path = page.path
    if not path.startswith("/") or any(c in path for c in "{}?#") or (path != "/" and path.endswith("/")):
        raise ValueError(f"a page's path is a plain path like /scores, not {path!r}")
    taken = [t for t in TAKEN if path.startswith(t) if t.endswith("/") or path == t or path[len(t)] == "/"]
    if taken or _PAGES.get(path, page) != page:
        raise ValueError(f"the path {path} is taken by {'the app' if taken else 'another page'}")
    if not page.html.is_file():
        raise ValueError(f"the page at {path} has no HTML file {page.html}")
    _PAGES[path] = page
    return page


def registered_pages() -> list[Page]:
    """Every registered page, in the order registered."""
    return list(_PAGES.values())
