"""``cardtable demo --web PORT`` and ``--club BROKER``: the demo table's page and its club
publisher, opened for the game and closed (after ``--stay`` seconds for the page) when it ends.

With ``--pin`` the page's owner controls work: the owner's requests go to the demo (which stops
its bots when one changes the game), and while the page stays up after the game the table is the
owner's: a :class:`~cardtable.table.table.Table` on the demo's journal carries them out.
"""

from __future__ import annotations

import queue
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


class Held:
    """A display the demo shows views to but does not close: the page outlives the game."""

    def __init__(self, display) -> None:
        self.display = display

    def show(self, view) -> None:
        self.display.show(view)

    def close(self) -> None:
        pass


@dataclass
class DemoNetwork:
    """What ``--web`` and ``--club`` add to the demo: its ``displays``, the queue of the owner's
    ``requests`` (``None`` without a PIN), and :meth:`stay`."""

    args: object
    journal: Path
    displays: list = field(default_factory=list)
    requests: queue.Queue | None = None

    def stay(self, result) -> None:
        """Keeps the page up for ``--stay`` seconds (or until Ctrl-C), taking the owner's requests."""
        if self.args.web is None:
            return
        print("The page stays up" + (f" for {self.args.stay:g} s" if self.args.stay is not None
                                     else ": press Ctrl-C to stop")
              + ("; the owner's page takes requests" if self.requests is not None else ""), flush=True)
        stop = threading.Event()
        timer = threading.Timer(self.args.stay, stop.set) if self.args.stay is not None else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            if self.requests is None or result.setup is None:
                stop.wait()
            else:
                self._serve(result.setup, stop)
        except KeyboardInterrupt:
            pass
        finally:
            if timer is not None:
                timer.cancel()

    def _serve(self, setup, stop: threading.Event) -> None:
        from cardtable.journal import Journal
        from cardtable.table.loop import run_loop
        from cardtable.table.outputs import TableOutputs
        from cardtable.table.table import Table

        with Journal(self.journal) as journal:
            run_loop(Table(setup, journal, TableOutputs(self.displays), resume=True), self.requests, stop)


@contextmanager
def network_displays(args):
    """The :class:`DemoNetwork` for ``args.web`` and ``args.club`` (no displays without them)."""
    network = DemoNetwork(args, Path(args.out) / "journal.sqlite")
    opened = []
    publisher = None
    try:
        if args.web is not None:
            from cardtable.web.page import TablePage

            if args.pin:
                network.requests = queue.Queue()
            page = TablePage(host="127.0.0.1" if args.web == 0 else "0.0.0.0", port=args.web,
                             journal_path=network.journal, pin=args.pin,
                             submit=network.requests.put if network.requests is not None else None)
            opened.append(page)
            print(f"The table's page: {page.url}/  (overlay {page.url}/overlay, history {page.url}/history, "
                  + ("owner /owner)" if args.pin else "owner's pages off: give --pin to turn them on)"), flush=True)
        if args.club:
            from cardtable.club.publisher import ClubPublisher
            from cardtable.club.spec import ClubSpec, parse_broker, check_name
            from engine.errors import InvalidInput

            problems: list[str] = []
            key = None
            if args.club_key:
                from cardtable.club.signing import read_key

                key = read_key(args.club_key)
            spec = ClubSpec(parse_broker(args.club), check_name(args.club_name, "--club-name", problems, ""),
                            check_name(args.table, "--table", problems, ""), key=key)
            if problems:
                raise InvalidInput("; ".join(problems))
            publisher = ClubPublisher(spec, network.journal)
            opened.append(publisher)
            print(f"Publishing as table {spec.table} of club {spec.club} to {args.club}"
                  + (" (signed)" if key else " (unsigned: the club shows it but does not count its games)"),
                  flush=True)
        network.displays = [Held(d) for d in opened]
        yield network
    finally:
        for display in reversed(opened):
            display.close()
        if publisher is not None and publisher.unpublished:
            print(f"{publisher.unpublished}. Start mosquitto there (sudo systemctl start mosquitto) or give the "
                  "right --club address.", flush=True)
