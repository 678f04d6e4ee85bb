"""What ``cardtable run`` adds to a table from ``[web]`` and ``[club]``: the page, the club
publisher, the camera tap for the owner's page, and the owner's reports (the reader kind's
enrolment, the doctor's)."""

from __future__ import annotations

from pathlib import Path


def doctor_report(config_path: Path) -> str:
    """What ``cardtable doctor`` says about this table."""
    from cardtable.config.doctor import report, run_checks

    return report(run_checks(str(config_path)))


class TableNetwork:
    """The page and the club publisher for one table, as displays; ``submit`` takes the owner's
    requests to the table's loop."""

    def __init__(self, config, submit) -> None:
        self.displays: list = []
        self.camera_tap = None
        from cardtable.club.spec import CLUB
        from cardtable.config.app_sections import JOURNAL
        from cardtable.web.spec import WEB

        web, club, journal = config[WEB], config[CLUB], config[JOURNAL].path
        if web is not None and web.enabled:
            from cardtable.web.page import TablePage

            page = TablePage(host=web.host, port=web.port, journal_path=journal, pin=web.pin,
                             submit=submit, camera=self._camera,
                             enrolment=lambda: config.reader.enrolment(config), doctor=lambda: doctor_report(config.path))
            print(f"The table's page: http://<this machine>:{page.server.port}/ (the owner's: /owner)", flush=True)
            self.displays.append(page)
        if club is not None and club.broker is not None:
            from cardtable.club.publisher import ClubPublisher
            from engine.table_events import Notice

            # an unreachable broker is said on the table's displays, through the table's loop
            self.displays.append(ClubPublisher(club, journal,
                                               on_problem=lambda text: submit(Notice(text, "club"))))

    def _camera(self) -> bytes | None:
        return self.camera_tap.jpeg() if self.camera_tap is not None else None

    def tap(self, source, pipeline):
        """``source`` with its latest frame kept for the owner's camera view."""
        from cardtable.web.camera_view import FrameTap

        self.camera_tap = FrameTap(source, pipeline)
        return self.camera_tap

    def close(self) -> None:
        for display in self.displays:
            display.close()
