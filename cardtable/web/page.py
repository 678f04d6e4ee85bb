"""The table's page as one of its displays: :class:`TablePage` serves the app from a thread and
shows every view to it. ``cardtable run`` and ``cardtable demo --web`` open one."""

from __future__ import annotations

from pathlib import Path

from cardtable.pages.server import WebServer
from cardtable.web.app import OwnerTools, ViewHub, create_app
from cardtable.web.owner import PinGate
from hardware.view import TableView


class TablePage:
    """A display that is a web page at :attr:`url`."""

    name = "web page"

    def __init__(self, *, host: str = "0.0.0.0", port: int = 8080, journal_path: Path | None = None,
                 pin: str = "", submit=None, camera=None, enrolment=None, doctor=None) -> None:
        self.hub = ViewHub()
        owner = OwnerTools(PinGate(pin), submit=submit, camera=camera, enrolment=enrolment, doctor=doctor)
        self.server = WebServer(create_app(self.hub, journal_path=journal_path, owner=owner), host, port).start()

    @property
    def url(self) -> str:
        return self.server.url

    def show(self, view: TableView) -> None:
        self.hub.show(view)

    def close(self) -> None:
        self.hub.close()
        self.server.close()
