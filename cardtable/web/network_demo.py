"""``cardtable demo --web PORT`` and ``--club BROKER``: the demo table's page and its club
publisher, opened for the game and closed (after ``--stay`` seconds for the page) when it ends."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path


class Held:
    """A display the demo shows views to but does not close: the page outlives the game."""

    def __init__(self, display) -> None:
        self.display = display

    def show(self, view) -> None:
        self.display.show(view)

    def close(self) -> None:
        pass


@contextmanager
def network_displays(args):
    """The displays for ``args.web`` and ``args.club`` (none without them)."""
    journal = Path(args.out) / "journal.sqlite"
    opened = []
    publisher = None
    try:
        if args.web is not None:
            from cardtable.web.page import TablePage

            page = TablePage(host="127.0.0.1" if args.web == 0 else "0.0.0.0", port=args.web,
                             journal_path=journal, pin=args.pin)
            opened.append(page)
            print(f"The table's page: {page.url}/  (overlay {page.url}/overlay, history {page.url}/history)",
                  flush=True)
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
            publisher = ClubPublisher(spec, journal)
            opened.append(publisher)
            print(f"Publishing as table {spec.table} of club {spec.club} to {args.club}"
                  + (" (signed)" if key else " (unsigned: the club shows it but does not count its games)"),
                  flush=True)
        yield [Held(d) for d in opened]
        if args.web is not None:
            if args.stay is None:
                print("The page stays up: press Ctrl-C to stop", flush=True)
            try:
                threading.Event().wait(args.stay)
            except KeyboardInterrupt:
                pass
    finally:
        for display in reversed(opened):
            display.close()
        if publisher is not None and publisher.unpublished:
            print(f"{publisher.unpublished}. Start mosquitto there (sudo systemctl start mosquitto) or give the "
                  "right --club address.", flush=True)
