"""``cardtable run`` with RFID readers: a real pty twin, the real bridge, config from TOML."""

import os
import signal
import sqlite3
import threading
from contextlib import closing, contextmanager

import numpy as np
from cardtable.cli import main
from cardtable.journal import Journal
from cardtable.sim.devices import demo_registry
from firmware_bridge.registry import default_path
from firmware_bridge.twin import Twin
import pytest
from waiting import wait_until


def journalled(path, count: int) -> bool:
    """Whether the journal at ``path`` holds ``count`` actions yet (read beside the running table)."""
    if not path.exists():
        return False
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        try:
            return db.execute("SELECT count(*) FROM actions").fetchone()[0] >= count
        except sqlite3.OperationalError:        # the table is still creating it
            return False


@contextmanager
def beside_the_table(steps):
    """Run ``steps`` in a thread while the block runs ``cardtable run``, then stop the table with
    SIGTERM, also when a step failed; the step's failure is the test's."""
    failed = []

    def drive():
        try:
            steps()
        except AssertionError as err:
            failed.append(err)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)

    driver = threading.Thread(target=drive)
    driver.start()
    try:
        yield
    finally:
        driver.join()
    assert not failed, failed[0]


def reader_table(tmp_path, twin) -> None:
    """``table.toml`` for a cribbage table on the twin's readers (tags.json beside it), with a PNG display."""
    (tmp_path / "table.toml").write_text(f"""
[game]
name = "cribbage"
players = 2
[input]
kind = "rfid"
[rfid]
port = "{twin.port}"
registry = "tags.json"
readers = ["seat1", "seat2", "starter", "crib"]
[[display]]
kind = "png"
folder = "{tmp_path / 'shots'}"
width = 128
height = 64
mode = "1"
[journal]
path = "journal.sqlite"
""")


@pytest.mark.slow
def test_run_with_readers_plays_cards_into_the_journal_and_stops_on_sigterm(tmp_path):
    registry = demo_registry("standard")
    registry.save(tmp_path / "tags.json")
    with Twin(readers=3, heartbeat=0.3) as twin:
        reader_table(tmp_path, twin)

        def table():
            for count, (reader, card) in enumerate(((0, "KH"), (1, "AC")), 1):   # the cut: seat 2 deals
                twin.place(reader, registry.uid_for(card))      # before the link is up: its snapshot says it
                wait_until(lambda: journalled(tmp_path / "journal.sqlite", count), 20, what=f"the cut {card}")
                twin.remove(reader)
            shown = len(list((tmp_path / "shots").glob("*.png")))
            twin.place(0, "04DEADBEEF0000")             # a tag the table does not know: the display says so
            wait_until(lambda: len(list((tmp_path / "shots").glob("*.png"))) > shown, 10, what="the warning shown")

        with beside_the_table(table):
            assert main(["run", "--config", str(tmp_path / "table.toml")]) == 0
    with Journal(tmp_path / "journal.sqlite") as journal:
        replay = journal.replay(journal.games()[-1].id)
    assert [str(a) for a, _ in replay.steps] == ["seat 1 cut KH", "seat 2 cut AC"]
    assert replay.state.dealer == 1
    shots = sorted((tmp_path / "shots").glob("*.png"))
    assert shots, "the display showed the table"


def test_config_check_names_every_mistake(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("""
[game]
name = "crib"
players = 5
mode = "x"
[gmae]
[table]
names = "a"
[rfid]
compat = "yes"
remove_after = 0
[gpio]
buttons = { ok = 5, go = 5 }
[[display]]
kind = "lcd"
""")
    assert main(["config", "check", str(path)]) == 1
    out = capsys.readouterr().out
    for problem in ("config.gmae: unknown key (did you mean 'game'?)", "game.players: Cribbage is for 2, 3, 4 players, not 5",
                    "game.mode:", "table.names: expected a list of names", "rfid.compat:", "rfid.remove_after:",
                    "gpio.buttons.go: GPIO5 is already used by gpio.buttons.ok", "display.kind:"):
        assert problem in out


@pytest.mark.slow
def test_config_example_for_every_game_checks_clean_once_its_tools_have_run(tmp_path, capsys, monkeypatch):
    """Fresh, an example only lacks what its tools write; with those files it starts."""
    from engine.games import all_games
    from vision.calibration import Calibration, save_calibration

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for game in all_games():
        for players in game.players:
            path = tmp_path / f"{game.name}{players}.toml"
            assert main(["config", "example", "--game", game.name, "--players", str(players), "--out", str(path)]) == 0
            assert main(["config", "check", str(path)]) == 1
            out = capsys.readouterr().out
            assert "has no mistakes, but 1 step still to do" in out, out
            assert f"calibration.json does not exist yet: run cardtable calibrate --config {path}" in out
            save_calibration(Calibration(np.eye(3), (1920, 1080), 0.2), tmp_path / "calibration.json")
            assert main(["config", "check", str(path)]) == 0, capsys.readouterr().out
            (tmp_path / "calibration.json").unlink()
            path.write_text(path.read_text().replace('kind = "camera"', 'kind = "rfid"'))
            assert main(["config", "check", str(path)]) == 1
            assert f"run cardtable enroll rfid --deck {game.deck}\n" in capsys.readouterr().out
            demo_registry(game.deck).save(default_path(game.deck))
            assert main(["config", "check", str(path)]) == 0, capsys.readouterr().out
            default_path(game.deck).unlink()


def test_config_example_for_a_player_count_the_game_does_not_have_is_refused(tmp_path, capsys):
    for game, players in (("fifteen", "4"), ("cribbage", "9"), ("cribbage", "0")):
        assert main(["config", "example", "--game", game, "--players", players, "--out", str(tmp_path / "x.toml")]) == 2
        assert f"players, not {players}" in capsys.readouterr().err
        assert not (tmp_path / "x.toml").exists()


def test_config_example_to_a_bad_place_is_said_in_words(tmp_path, capsys):
    assert main(["config", "example", "--out", str(tmp_path / "no" / "x.toml")]) == 2
    assert capsys.readouterr().err == f"cardtable: error: {tmp_path / 'no' / 'x.toml'}: the folder {tmp_path / 'no'} does not exist\n"
    assert main(["config", "example", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"cardtable: error: {tmp_path} is a folder, not a file\n"


@pytest.mark.slow
def test_run_with_stock_single_reader_boards_in_compat_mode(tmp_path):
    """Four boards running the MFRC522 library's example sketch, one per zone, on four ports."""
    import pty
    import tty

    registry = demo_registry("standard")
    registry.save(tmp_path / "tags.json")
    boards = [pty.openpty() for _ in range(4)]
    for master, _ in boards:
        tty.setraw(master)
    names = [os.ttyname(slave) for _, slave in boards]
    (tmp_path / "table.toml").write_text(f"""
[game]
name = "cribbage"
[input]
kind = "rfid"
[rfid]
compat = true
ports = ["{names[0]}", "{names[1]}", "{names[2]}", "{names[3]}"]
registry = "tags.json"
readers = ["seat1", "seat2", "starter", "crib"]
[[display]]
kind = "png"
folder = "{tmp_path / 'shots'}"
[journal]
path = "journal.sqlite"
""")

    def card_line(card_id):
        uid = registry.uid_for(card_id)
        return ("Card UID: " + " ".join(uid[i:i + 2] for i in range(0, len(uid), 2)) + "\r\n").encode()

    def table():
        for count, (board, card) in enumerate(((0, "KH"), (1, "AC")), 1):
            def presented(board=board, card=card, count=count):
                """A stock sketch prints the UID each time the card is presented: present it again until
                the table has it (a line written before the table opens the port is lost)."""
                os.write(boards[board][0], card_line(card))
                return journalled(tmp_path / "journal.sqlite", count)
            wait_until(presented, 20, every=0.3, what=f"the cut {card}")

    try:
        with beside_the_table(table):
            assert main(["run", "--config", str(tmp_path / "table.toml")]) == 0
    finally:
        for master, slave in boards:
            os.close(master)
            os.close(slave)
    with Journal(tmp_path / "journal.sqlite") as journal:
        replay = journal.replay(journal.games()[-1].id)
    assert [str(a) for a, _ in replay.steps] == ["seat 1 cut KH", "seat 2 cut AC"]
