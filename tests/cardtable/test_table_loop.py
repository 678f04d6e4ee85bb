"""The running table's camera thread: events and notices from real rendered frames."""

import queue
import threading

from cardtable.controller import Notice
from cardtable.table_loop import CameraThread, as_input
from engine.table_events import TableEvent
from vision.config import VisionConfig
from vision.pipeline import Pipeline
from vision.script import parse_script
from vision.sources import SyntheticSource
from vision.synthetic import Effects, SyntheticCamera


def test_the_camera_thread_reports_cards_and_says_when_a_code_is_not_this_decks():
    """A standard card and a card of the French pack (another deck's code) on a standard table."""
    script = parse_script("0.2 place 7H seat1\n")
    camera = SyntheticCamera("standard", "qr", script, resolution="720p", effects=Effects(hands=False))
    foreign = SyntheticCamera("french40", "qr", parse_script("0.2 place KC seat3\n"), resolution="720p",
                              effects=Effects(hands=False))

    class TwoDecks(SyntheticSource):
        """Frames with the standard card on the near half and the French card on the far half."""

        def read(self):
            got = super().read()
            if got is None:
                return None
            frame, now = got
            other = foreign.frame_at(now)
            frame[: frame.shape[0] // 2] = other[: frame.shape[0] // 2]
            return frame, now

    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    pipeline = Pipeline(VisionConfig(deck="standard", zones={}, place_after=0.1), calibration=None)
    thread = CameraThread(TwoDecks(camera, fps=10, duration=1.5), pipeline, items.put, stop)
    thread.start()
    thread.join(timeout=60)
    got = []
    while not items.empty():
        got.append(items.get())
    cards = [i for i in got if isinstance(i, TableEvent)]
    notices = [i.text for i in got if isinstance(i, Notice)]
    assert [(e.kind, e.card.id) for e in cards] == [("placed", "7H")]
    assert any("not one of this deck's cards" in text for text in notices)
    assert notices[-1] == "The camera stopped sending pictures"


def test_reader_notices_become_words_for_the_table():
    class Link:
        state, reason = "down", "no answer for 3 s"

    class Tag:
        uid = "04A23B1C"

        def __str__(self):
            return "unknown tag 04A23B1C on seat1"

    assert "not answering: no answer for 3 s" in as_input(Link()).text
    assert "enrol it" in as_input(Tag()).text
    assert as_input(object()) is None
