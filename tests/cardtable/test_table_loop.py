"""The running table's camera thread: events and notices from real rendered frames."""

import queue
import threading

import numpy as np
import pytest

from cardtable.table.loop import CameraThread, InputFailed, Supervisor, run_loop
from engine.table_events import Notice, TableEvent
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.pipeline import Pipeline
from vision.sim.script import parse_script
from vision.sources import SyntheticSource
from vision.sim.synthetic import Effects, SyntheticCamera
from waiting import patience, wait_until


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
    thread.join(timeout=patience(60))
    got = []
    while not items.empty():
        got.append(items.get())
    cards = [i for i in got if isinstance(i, TableEvent)]
    notices = [i.text for i in got if isinstance(i, Notice)]
    assert [(e.kind, e.card.id) for e in cards] == [("placed", "7H")]
    assert any("not one of this deck's cards" in text for text in notices)
    assert notices[-1] == "The camera stopped sending pictures"


def test_reader_reports_become_words_for_the_table_at_the_bridge():
    from firmware_bridge.bridge import UnknownTag, table_input
    from firmware_bridge.host import LinkChange

    assert "not answering: no answer for 3 s" in table_input(LinkChange("down", 0.0, "no answer for 3 s")).text
    assert table_input(LinkChange("up", 1.0)).text == "The card readers are connected"
    assert table_input(LinkChange("resynced", 1.0)) is None
    placed = table_input(UnknownTag("placed", 0, "seat1", "04A23B1C", 1.0))
    assert placed == Notice("A card the table does not know is on seat1 (tag 04A23B1C): take it off, "
                            "or enrol it with 'cardtable enroll rfid'", "rfid")
    assert table_input(UnknownTag("removed", 0, "seat1", "04A23B1C", 2.0)) is None
    assert table_input(object()) is None


# --- no input ends an input thread; a thread that dies is started again, or the table stops ------


def table_camera(duration=1.5):
    script = parse_script("0.2 place 7H seat1\n")
    camera = SyntheticCamera("standard", "qr", script, resolution="720p", effects=Effects(hands=False))
    return SyntheticSource(camera, fps=10, duration=duration)


def pipeline():
    return Pipeline(VisionConfig(deck="standard", zones={}, place_after=0.1), calibration=None)


class FaultyPipeline:
    """The real pipeline, except that the frames numbered in ``bad`` make it raise, as a decoder
    meeting input it was never written for does."""

    def __init__(self, real, bad):
        self.real, self.bad, self.frames = real, set(bad), 0
        self.stats = real.stats

    def process(self, frame, now):
        self.frames += 1
        if self.frames in self.bad:
            raise ValueError("invalid literal for int() with base 10: '¹'")
        return self.real.process(frame, now)


class FailingSource:
    """A camera whose reads fail from the ``fail_at``-th on (a camera unplugged)."""

    def __init__(self, real, fail_at):
        self.real, self.fail_at, self.reads = real, fail_at, 0

    def read(self):
        self.reads += 1
        if self.reads >= self.fail_at:
            raise OSError("the camera stopped sending frames")
        return self.real.read()

    def close(self):
        self.real.close()


def drain(items):
    got = []
    while not items.empty():
        got.append(items.get())
    return got


def test_a_frame_that_makes_the_pipeline_raise_is_skipped_and_said_and_the_thread_goes_on():
    items: queue.Queue = queue.Queue()
    thread = CameraThread(table_camera(), FaultyPipeline(pipeline(), {2, 3}), items.put, threading.Event())
    thread.start()
    thread.join(timeout=patience(60))
    got = drain(items)
    assert [(e.kind, e.card.id) for e in got if isinstance(e, TableEvent)] == [("placed", "7H")]
    notices = [i.text for i in got if isinstance(i, Notice)]
    assert notices.count("A camera picture could not be read (invalid literal for int() with base 10: '¹'): "
                         "it was skipped") == 1
    assert notices[-1] == "The camera stopped sending pictures" and thread.skipped == 2


def test_a_camera_thread_that_dies_is_started_again_with_a_sentence():
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    sources = [FailingSource(table_camera(), fail_at=2), table_camera()]
    threads = []

    def start():
        threads.append(CameraThread(sources.pop(0), pipeline(), items.put, stop).started())
        return threads[-1]

    supervisor = Supervisor(items.put)
    supervisor.watch("camera", start)
    wait_until(lambda: supervisor.check() or (len(threads) == 2 and threads[1].finished), 60,
               what="the camera started again to finish")
    supervisor.close()
    got = drain(items)
    assert "The camera stopped (the camera stopped sending frames): starting it again" in [
        i.text for i in got if isinstance(i, Notice)]
    assert [(e.kind, e.card.id) for e in got if isinstance(e, TableEvent)] == [("placed", "7H")]


def test_an_input_that_keeps_dying_stops_the_table_so_the_service_restarts_it():
    items: queue.Queue = queue.Queue()
    stop = threading.Event()

    def start():
        return CameraThread(FailingSource(table_camera(), fail_at=1), pipeline(), items.put, stop).started()

    supervisor = Supervisor(items.put, most=3, within=60.0)
    supervisor.watch("camera", start)
    with pytest.raises(InputFailed, match="the camera failed 4 times in a minute"):
        wait_until(supervisor.check, 10, what="the supervisor to give up")
    supervisor.close()


def test_the_loop_shows_why_the_table_stops_before_it_stops(tmp_path):
    from cardtable.table.journalled_game import TableSetup
    from cardtable.table.table import Table
    from cardtable.journal import Journal

    items: queue.Queue = queue.Queue()

    class Dead:
        failure = "the reader board link ended"

        def is_alive(self):
            return False

        def close(self):
            pass

    supervisor = Supervisor(items.put, most=0)
    supervisor.watch("card readers", Dead)
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = Table(TableSetup("cribbage", 2), journal)
        with pytest.raises(InputFailed):
            run_loop(controller, items, threading.Event(), idle=0.01, supervisor=supervisor)
        assert "card readers" in controller.held.warning


def test_an_owner_request_and_a_reader_report_go_through_the_loop_in_order(tmp_path, outputs):
    from cardtable.table.journalled_game import TableSetup
    from cardtable.table.table import Table
    from cardtable.journal import Journal
    from engine.table_events import OwnerRequest
    from firmware_bridge.bridge import table_input
    from firmware_bridge.host import LinkChange

    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    with Journal(tmp_path / "journal.sqlite") as journal:
        table = Table(TableSetup("cribbage", 2), journal, outputs)
        request = OwnerRequest(kind="undo")
        items.put(table_input(LinkChange("down", 1.0, "no answer for 3 s")))
        items.put(request)
        loop = threading.Thread(target=run_loop, args=(table, items, stop), kwargs={"idle": 0.01})
        loop.start()
        try:
            assert request.answer.result(timeout=patience(10)) == "Nothing to undo"
        finally:
            stop.set()
            loop.join(timeout=patience(5))
        said = [view.warning for view in outputs.views]
        assert said[-2:] == ["The card readers are not answering: no answer for 3 s", "Nothing to undo"]


def test_the_camera_thread_puts_the_pipelines_sentences_on_the_queue_with_its_events():
    """The pipeline returns a frame's sentences with its events; the thread puts both on the
    table's queue as they come (before: a queue of warnings the thread polled)."""
    items: queue.Queue = queue.Queue()
    calibrated = Pipeline(VisionConfig(deck="standard", zones={}), calibration=Calibration(np.eye(3), (1920, 1080), 0.0))
    thread = CameraThread(table_camera(duration=1.0), calibrated, items.put, threading.Event())   # 720p frames
    thread.start()
    thread.join(timeout=patience(60))
    said = [i.text for i in drain(items) if isinstance(i, Notice)]
    assert said == ["A camera frame could not be used: the calibration was made at 1920x1080 but the camera "
                    "gives 1280x720: calibrate again at this resolution", "The camera stopped sending pictures"]
