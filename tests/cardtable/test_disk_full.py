"""A full disk stops only what needs the space, says so on the display, and the game goes on:
PNG snapshots that cannot be written stop (said once) while play and the other displays go on;
a journal that cannot be made on a full disk is said, and no start leaves a copy behind.

The real case runs on a 1 MiB tmpfs (skipped where mounting is not allowed); the same failure
injected at the write boundary (``OSError(ENOSPC)`` from saving the PNG) runs everywhere."""

import errno
import logging

from PIL import Image

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal, open_for_play
from cardtable.table.outputs import TableOutputs
from crash_script import script
from hardware.display.snapshots import SnapshotDisplay
from hostile_files import fill
from waiting import patience
import pytest

SEED = 11
ACTIONS = script(SEED)


def _play_while_the_snapshots_fill(folder, journal, other, fill_after, caplog):
    """Play 16 actions with PNG snapshots in ``folder`` and another display; ``fill_after(n)``
    runs after each action; ``other`` records what another display showed."""
    snapshots = SnapshotDisplay(folder, 320, 240)
    controller = Table(TableSetup("cribbage", 2, seed=SEED), journal, TableOutputs([snapshots, other]))
    with caplog.at_level(logging.WARNING):
        for n, action in enumerate(ACTIONS[:16]):
            assert controller.submit(action) is not None, controller.held.warning   # the game goes on
            fill_after(n)
    return controller, snapshots, other


def _check_stopped_and_said(controller, snapshots, other, caplog):
    assert controller.game.kept == 16
    said = [view.warning for view in other.views if "PNG snapshots stopped" in view.warning]
    assert said and "is full" in said[-1] and "PNG snapshots stopped" in other.views[-1].warning
    assert sum("PNG snapshots stopped" in r.getMessage() for r in caplog.records) == 1   # said once
    for png in snapshots.folder.glob("*.png"):                                   # no half-written PNG left
        Image.open(png).verify()


def test_png_snapshots_on_a_disk_that_fills_mid_game_stop_and_the_game_goes_on(small_disk, tmp_path, outputs, caplog):
    with Journal(tmp_path / "journal.sqlite") as journal:
        found = _play_while_the_snapshots_fill(small_disk / "shots", journal, outputs,
                                               lambda n: n == 5 and fill(small_disk), caplog)
        _check_stopped_and_said(*found, caplog)


def test_png_snapshots_that_fail_with_enospc_stop_and_the_game_goes_on(tmp_path, monkeypatch, outputs, caplog):
    full = {"now": False}
    save = Image.Image.save

    def save_or_fail(image, target, *args, **kwargs):
        if full["now"]:
            with open(target, "wb") as partial:
                partial.write(b"\x89PNG")                   # a part written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return save(image, target, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "save", save_or_fail)
    with Journal(tmp_path / "journal.sqlite") as journal:
        found = _play_while_the_snapshots_fill(tmp_path / "shots", journal, outputs,
                                               lambda n: full.update(now=n >= 5), caplog)
        _check_stopped_and_said(*found, caplog)


def test_no_journal_on_a_full_disk_is_said_and_no_start_leaves_a_copy(small_disk):
    fill(small_disk)
    path = small_disk / "journal.sqlite"
    for _ in range(3):
        opened = open_for_play(path)
        controller = Table(TableSetup("cribbage", 2, seed=SEED), opened.journal,
                                notices=tuple(opened.notices), cannot_write=opened.cannot_write)
        assert "disk is full" in controller.held.warning, controller.held.warning
        assert controller.submit(ACTIONS[0]) is None and "the game is kept up to action 0" in controller.held.warning
        opened.journal.close()
    assert not list(small_disk.glob("*.damaged-*")), list(small_disk.iterdir())


@pytest.mark.slow
def test_run_goes_on_when_its_png_folder_fills_mid_game(small_disk, tmp_path):
    """The reproducer: `run` with PNG snapshots on a disk that fills mid-game exited 2 ("No
    space left on device"), which the service's Restart=on-failure turned into a loop."""
    import os
    import signal
    import threading
    import time

    from cardtable.cli import main
    from cardtable.sim.devices import demo_registry
    from firmware_bridge.twin import Twin

    registry = demo_registry("standard")
    registry.save(tmp_path / "tags.json")
    with Twin(readers=3, heartbeat=0.3) as twin:
        (tmp_path / "table.toml").write_text(f"""
game = {{ name = "cribbage", players = 2 }}
input = {{ kind = "rfid" }}
rfid = {{ port = "{twin.port}", registry = "tags.json", readers = ["seat1", "seat2", "starter", "crib"] }}
display = [{{ kind = "png", folder = "{small_disk / 'shots'}", width = 320, height = 240 }}]
journal = {{ path = "journal.sqlite" }}
""")

        def table():
            time.sleep(patience(1.0))
            for reader, card in ((0, "KH"), (1, "AC")):   # the cut, the disk filling between
                twin.place(reader, registry.uid_for(card))
                time.sleep(patience(0.3))
                twin.remove(reader)
                time.sleep(patience(0.3))
                fill(small_disk)
            time.sleep(patience(0.3))
            os.kill(os.getpid(), signal.SIGTERM)

        driver = threading.Thread(target=table)
        driver.start()
        assert main(["run", "--config", str(tmp_path / "table.toml")]) == 0
        driver.join()
    with Journal(tmp_path / "journal.sqlite") as journal:
        replay = journal.replay(journal.games()[-1].id)
    assert [str(a) for a, _ in replay.steps] == ["seat 1 cut KH", "seat 2 cut AC"]
