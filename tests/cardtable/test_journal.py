"""The journal against damaged, empty, read-only and full files, and hostile rows.

Each test writes a real game (Cribbage, table mode, the crash-safety script) to a real SQLite
file, damages it the way a disk or a person would, and checks that nothing raises past the
application, that play resumes exactly after the last good action, and that the table is told.
"""

import json
import os
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardtable.cli import main
from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal, open_for_play
from crash_script import script
from hostile_files import fill
from engine.errors import InvalidInput
from engine.games import get_game
from engine.table_events import ButtonPress
from engine.serialize import action_from_text, loads

SEED = 11
GAME = get_game("cribbage")
ACTIONS = script(SEED)


def _state_after(n):
    state = GAME.new_game(2, mode="table", seed=SEED)
    for action in ACTIONS[:n]:
        state, _ = GAME.apply(state, action)
    return state


def _write_game(path, n=30):
    with Journal(path) as journal:
        controller = Table(TableSetup("cribbage", 2, seed=SEED), journal)
        for action in ACTIONS[:n]:
            assert controller.submit(action) is not None, controller.held.warning
    assert not Path(f"{path}-wal").exists()           # closed cleanly: everything is in the file
    return path


def _resume(path):
    opened = open_for_play(path)
    controller = Table(TableSetup("cribbage", 2, seed=SEED), opened.journal,
                            notices=tuple(opened.notices), cannot_write=opened.cannot_write)
    return opened, controller


def _cli(*argv):
    return main(list(argv))


def _copy(journal, path):
    """A copy of the journal file at ``path``, with the table's key file beside it."""
    path.write_bytes(journal.read_bytes())
    Path(f"{path}.key").write_bytes(Path(f"{journal}.key").read_bytes())
    return path


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    return _write_game(tmp_path_factory.mktemp("game") / "journal.sqlite")


# -- integrity: a changed card is found, named, and play resumes before it -----------------------
def test_a_changed_card_is_found_named_and_the_damaged_file_kept(tmp_path, written):
    path = _copy(written, tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(path)) as db, db:
        text = db.execute("SELECT action FROM actions WHERE seq = 7").fetchone()[0]
        card = json.loads(text)["cards"][0]["$card"]
        other = "9H" if card != "9H" else "8H"
        db.execute("UPDATE actions SET action = ? WHERE seq = 7", (text.replace(card, other),))
    damaged = path.read_bytes()
    opened, controller = _resume(path)
    assert controller.game.resumed and controller.game.state == _state_after(6)
    assert "game 1: action 7 is damaged, kept up to action 6" in controller.held.warning
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and p.suffix != ".key"]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    assert str(aside[0]) in controller.held.warning
    # play goes on from there and the repaired journal checks out
    controller.submit(ACTIONS[6])
    opened.journal.close()
    with Journal(path) as journal:
        assert not journal.damaged() and journal.replay(1).state == _state_after(7)


def test_an_undo_mark_set_by_hand_is_damage_not_an_undo(tmp_path, written):
    path = _copy(written, tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE actions SET undone = 1 WHERE seq = 30")
    with Journal(path) as journal:
        record = journal.games()[0]
        assert record.damage == "action 30 is damaged (its undo mark)" and record.actions == 29


def test_lost_last_rows_are_found(tmp_path, written):
    path = _copy(written, tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM actions WHERE seq > 27")
    opened, controller = _resume(path)
    assert "game 1: the actions after action 27 are missing, kept up to action 27" in controller.held.warning
    assert controller.game.state == _state_after(27)
    opened.journal.close()
    with Journal(path) as journal:                    # the new file holds the 27 and checks out
        assert not journal.damaged()


def test_undo_is_sealed_and_survives_reopening(tmp_path):
    path = _write_game(tmp_path / "journal.sqlite", 10)
    with Journal(path) as journal:
        table = Table(TableSetup("cribbage", 2, seed=SEED), journal)
        table.handle(ButtonPress("undo", 0.0))
        assert table.game.kept == 9
    with Journal(path) as journal:
        assert not journal.damaged() and journal.replay(1).state == _state_after(9)


def test_a_journal_written_before_seals_gets_them_once_and_visibly(tmp_path, written, capsys):
    path = _as_old_format(_copy(written, tmp_path / "journal.sqlite"), sealed=False)
    assert _cli("history", "--journal", str(path)) == 0           # shown as it is, with a note
    shown = capsys.readouterr()
    assert "30 actions  unfinished\n" in shown.out and "damaged" not in shown.out and "without seals" in shown.err
    opened, controller = _resume(path)
    assert "was written by an older cardtable (without seals)" in controller.held.warning
    assert controller.game.state == _state_after(30)
    opened.journal.close()
    again, controller = _resume(path)
    assert "older cardtable" not in controller.held.warning and controller.game.state == _state_after(30)
    again.journal.close()


def test_a_start_time_no_clock_can_show_is_said_unknown_not_a_crash(tmp_path, written, capsys):
    """The defect (found by the flipped-bit test below, bit 2 of byte 842): a flipped bit in a
    game's start time made it 1e300-odd seconds, and ``cardtable history`` stopped with
    "timestamp out of range". The game is listed, damaged, with its time unknown."""
    path = _copy(written, tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE games SET started = 1e300")
    assert _cli("history", "--journal", str(path)) == 0
    shown = capsys.readouterr().out
    assert "time unknown" in shown and "damaged" in shown


# -- a flipped bit anywhere ----------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spot=st.integers(min_value=0, max_value=10**9), bit=st.integers(min_value=0, max_value=7))
def test_a_flipped_bit_anywhere_never_stops_the_commands_or_the_table(tmp_path_factory, written, spot, bit):
    folder = tmp_path_factory.mktemp("flip")
    path = _copy(written, folder / "journal.sqlite")
    data = bytearray(written.read_bytes())
    used = [i for i, byte in enumerate(data) if byte]       # a flip in free space changes nothing
    data[used[spot % len(used)]] ^= 1 << bit
    path.write_bytes(bytes(data))
    for command in (("history",), ("replay", "1"), ("export", "1")):
        assert _cli(*command, "--journal", str(path)) in (0, 2)
    opened, controller = _resume(path)
    kept = controller.game.kept
    assert controller.game.state == _state_after(kept)   # a prefix of what was accepted, never another game
    opened.journal.close()


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=3000))
def test_random_bytes_as_a_journal_never_stop_the_table(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "journal.sqlite"
    path.write_bytes(data)
    assert _cli("history", "--journal", str(path)) in (0, 2)
    opened, controller = _resume(path)
    assert not controller.game.finished and controller.game.kept == 0
    assert controller.submit(ACTIONS[0]) is not None  # and the table plays on
    opened.journal.close()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.one_of(st.text(max_size=60), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["$type", "$enum", "$card", "$its", "$dict", "kind", "seat", "cards", "value"]),
        inner, max_size=4),
    max_leaves=12).map(json.dumps)), min_size=1, max_size=4))
def test_random_rows_with_good_seals_are_skipped_and_nothing_accepted_is_lost(tmp_path_factory, written, rows):
    path = _copy(written, tmp_path_factory.mktemp("rows") / "journal.sqlite")
    with Journal(path) as journal:
        for text in rows:
            _append_sealed(journal, text)
        replay = journal.replay(1)
        assert [action for action, _ in replay.steps] == list(ACTIONS[:30])
        assert len(replay.problems) == len(rows)
    opened, controller = _resume(path)
    assert controller.game.resumed and controller.game.state == _state_after(30)
    assert f"{len(rows)} journalled action(s) could not be replayed" in controller.held.warning
    opened.journal.close()


def _append_sealed(journal, text):
    """A row of any text, sealed as the journal seals (as if this version had written it)."""
    journal._write(lambda db: journal._append_text(db, 1, text))


def test_deeply_nested_json_is_a_bad_row_not_a_crash(tmp_path, written):
    path = _copy(written, tmp_path / "journal.sqlite")
    with Journal(path) as journal:
        _append_sealed(journal, "[" * 100_000 + "]" * 100_000)
        _append_sealed(journal, json.dumps({"kind": "play"}))          # a row that is not an action
        replay = journal.replay(1)
    assert len(replay.steps) == 30 and len(replay.problems) == 2
    assert "not JSON" in replay.problems[0] and "not an action" in replay.problems[1]
    assert _cli("replay", "1", "--journal", str(path)) == 0
    opened, controller = _resume(path)
    assert controller.game.state == _state_after(30)
    opened.journal.close()


def test_stored_data_never_calls_an_engine_function():
    with pytest.raises(InvalidInput, match="not a stored engine type"):
        loads('{"$enum": "engine.game.get_game", "value": "cribbage"}')
    with pytest.raises(InvalidInput):
        loads('{"$type": "engine.game.register", "game_class": 1}')
    with pytest.raises(InvalidInput, match="not an action"):
        action_from_text('{"$type": "engine.game.Termination", "value": "x"}')
    with pytest.raises(InvalidInput, match="nested deeper"):
        loads("[" * 40 + "]" * 40)


# -- files that cannot be used as they are ----------------------------------------------------------
def test_an_empty_journal_is_said_not_silently_a_new_game(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.touch()
    opened, controller = _resume(path)
    assert f"The journal {path} was empty: no earlier game could be resumed" in controller.held.warning
    opened.journal.close()


def test_a_failed_start_leaves_no_game_in_the_journal(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        Table(TableSetup("cribbage", 2, seed=SEED), journal)   # the table never got going
        assert journal.games() == []
    assert _cli("history", "--journal", str(path)) == 0


def test_no_such_game_names_the_journal_option(tmp_path, written, capsys):
    path = _copy(written, tmp_path / "journal.sqlite")
    assert _cli("replay", "99", "--journal", str(path)) == 2
    assert f"'cardtable history --journal {path}' lists them" in capsys.readouterr().err


def test_a_full_disk_is_said_the_game_kept_and_play_goes_on_once_freed(small_disk):
    path = _write_game(small_disk / "journal.sqlite", 20)
    opened, controller = _resume(path)
    fill(small_disk)
    refused = None
    for action in ACTIONS[20:]:                       # the WAL has room for a few: until it has none
        if controller.submit(action) is None:
            refused = action
            break
    assert refused is not None
    kept = controller.game.kept
    assert controller.held.warning.startswith(f"The disk is full: free space on {small_disk}; "
                                         f"the game is kept up to action {kept}")
    assert controller.game.state == _state_after(kept)
    opened.journal.close()
    again, table = _resume(path)                      # a restart on the full disk: no crash, same state
    assert table.game.resumed and table.game.state == _state_after(kept)
    assert f"full: free space on {small_disk}" in table.held.warning
    again.journal.close()
    (small_disk / "filler").unlink()
    third, table = _resume(path)
    assert table.submit(refused) is not None and table.game.state == _state_after(kept + 1)
    third.journal.close()


def test_a_read_only_journal_is_said_at_start_and_the_game_shown(small_disk):
    path = _write_game(small_disk / "journal.sqlite", 12)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    opened, controller = _resume(path)
    assert opened.cannot_write and "read-only" in opened.cannot_write
    assert controller.game.state == _state_after(12)
    assert "the game is kept up to action 12" in controller.held.warning
    assert controller.submit(ACTIONS[12]) is None and "read-only" in controller.held.warning
    opened.journal.close()


# -- what replay and export show -------------------------------------------------------------------
def _dealer_game(path, actions):
    """A dealer-mode Cribbage game journalled action by action (bots' choices)."""
    import random

    from engine.bots import RandomBot

    state = GAME.new_game(2, mode="dealer", seed=3)
    bots = [RandomBot(random.Random(n)) for n in range(2)]
    with Journal(path) as journal:
        controller = Table(TableSetup("cribbage", 2, mode="dealer", seed=3), journal)
        while not GAME.is_terminal(state) and (actions is None or controller.game.kept < actions):
            seat = GAME.prompt(state).seat
            action = bots[seat].choose(GAME, state, seat)
            assert controller.submit(action) is not None
            state = controller.game.state
    return path


def test_replay_and_export_of_an_unfinished_game_show_only_what_the_table_saw(tmp_path, capsys):
    path = _dealer_game(tmp_path / "journal.sqlite", 4)
    with Journal(path) as journal:
        discards = [a for a, _ in journal.replay(1).steps if a.kind == "discard"]
    crib = {str(card) for action in discards for card in action.cards}
    assert len(crib) == 4
    assert _cli("replay", "1", "--journal", str(path)) == 0
    out = capsys.readouterr().out
    assert not crib & set(out.split()) and "face-down cards are not shown" in out
    assert _cli("export", "1", "--journal", str(path)) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["seed"] is None and exported["hidden"] and not crib & set(json.dumps(exported).replace('"', " ").split())
    assert _cli("replay", "1", "--reveal", "--journal", str(path)) == 0
    assert crib <= set(capsys.readouterr().out.split())
    assert _cli("export", "1", "--reveal", "--journal", str(path)) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 3


@pytest.mark.slow
def test_a_finished_game_is_shown_whole(tmp_path, capsys):
    path = _dealer_game(tmp_path / "journal.sqlite", None)
    assert _cli("export", "1", "--journal", str(path)) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["seed"] == 3 and exported["result"] and not exported["hidden"]
    assert all(step["action"]["cards"] for step in exported["actions"] if step["action"]["kind"] == "discard")


@pytest.mark.slow
def test_history_and_replay_find_the_demos_journal_with_no_option(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))           # no table journal here
    monkeypatch.chdir(tmp_path)
    from cardtable.sim.demo import run_demo

    result = run_demo("cribbage", input_kind="rfid", out_dir="out/demo", seed=2)
    assert _cli("history") == 0
    captured = capsys.readouterr()
    assert f"{result.game_id:4d}" in captured.out and "out/demo/journal.sqlite" in captured.err
    assert _cli("replay", str(result.game_id)) == 0
    assert result.outcome in capsys.readouterr().out
    assert _cli("replay", "99") == 2
    assert f"'cardtable history --journal {tmp_path / 'out/demo/journal.sqlite'}' lists them" in capsys.readouterr().err


# -- through 'cardtable run' ---------------------------------------------------------------------------
def _config(folder, port):
    from cardtable.sim.devices import demo_registry

    demo_registry("standard").save(folder / "tags.json")
    (folder / "table.toml").write_text(f"""
game = {{ name = "cribbage", players = 2, seed = {SEED} }}
input = {{ kind = "rfid" }}
rfid = {{ port = "{port}", registry = "tags.json", readers = ["seat1", "seat2", "starter", "crib"] }}
journal = {{ path = "journal.sqlite" }}
""")
    return str(folder / "table.toml")


@pytest.mark.slow
def test_run_starts_on_a_damaged_journal_and_keeps_it_aside(tmp_path, written):
    import signal
    import threading

    from firmware_bridge.twin import Twin

    path = _copy(written, tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE actions SET action = replace(action, 'engine', 'engjne') WHERE seq = 12")
    with Twin(readers=3, heartbeat=0.3) as twin:
        stopper = threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGTERM))
        stopper.start()
        assert main(["run", "--config", _config(tmp_path, twin.port)]) == 0
        stopper.join()
    assert len([p for p in tmp_path.glob("journal.sqlite.damaged-*") if p.suffix != ".key"]) == 1
    with Journal(path) as journal:
        assert not journal.damaged() and journal.replay(1).state == _state_after(11)


def test_a_failed_start_of_run_leaves_no_game(tmp_path, capsys):
    config = Path(_config(tmp_path, "auto"))
    text = config.read_text().replace('kind = "rfid"', 'kind = "camera"')
    config.write_text(text + """
[vision]
deck = "standard"
camera = "usb:0"
calibration = "calibration.json"
[vision.zones]
seat1 = [[0, 0], [100, 0], [100, 100], [0, 100]]
seat2 = [[200, 0], [300, 0], [300, 100], [200, 100]]
starter = [[0, 200], [100, 200], [100, 300], [0, 300]]
crib = [[200, 200], [300, 200], [300, 300], [200, 300]]
""")
    assert main(["run", "--config", str(config)]) == 2       # no camera here, no calibration made
    assert capsys.readouterr().err.startswith("cardtable: error: ")
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.games() == []


def test_a_folder_where_the_journal_should_be_is_said_and_left_alone(tmp_path):
    folder = tmp_path / "journal.sqlite"
    (folder / "keep").mkdir(parents=True)
    opened, controller = _resume(folder)
    assert opened.cannot_write and (folder / "keep").is_dir()
    assert "The journal cannot be used" in controller.held.warning
    assert controller.submit(ACTIONS[0]) is None and "the game is kept up to action 0" in controller.held.warning


# -- the seal: keyed, over everything a reader shows, never written by a reader (issue 24) ----------
def _old_seal(*parts):
    import hashlib

    return hashlib.sha256(json.dumps(parts, ensure_ascii=True).encode()).hexdigest()


def _reseal_unkeyed(db):
    """Seal every row again as the unkeyed SHA-256 chain of the older format (anyone can)."""
    for row in db.execute("SELECT id, game, players, options, mode, seed, started FROM games").fetchall():
        seal = _old_seal("game", *row)
        db.execute("UPDATE games SET seal = ? WHERE id = ?", (seal, row[0]))
        for seq, text, at, undone in db.execute("SELECT seq, action, at, undone FROM actions WHERE game_id = ? "
                                                "ORDER BY seq", (row[0],)).fetchall():
            seal = _old_seal(seal, row[0], seq, text, at)
            db.execute("UPDATE actions SET seal = ?, undo_seal = ? WHERE game_id = ? AND seq = ?",
                       (seal, _old_seal(seal, "undone") if undone else None, row[0], seq))
        db.execute("UPDATE games SET head = ? WHERE id = ?", (seal, row[0]))


def _as_old_format(path, *, sealed=True):
    """The journal as an older cardtable wrote it: no key, the unkeyed chain (or no seals)."""
    Path(f"{path}.key").unlink()
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM meta")
        if sealed:
            _reseal_unkeyed(db)
        else:
            db.execute("UPDATE games SET seal = NULL, head = NULL")
            db.execute("UPDATE actions SET seal = NULL, undo_seal = NULL")
    return path


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    return _dealer_game(tmp_path_factory.mktemp("finished") / "journal.sqlite", None)


def _change_a_card(db):
    text = db.execute("SELECT action FROM actions WHERE seq = 7").fetchone()[0]
    card = json.loads(text)["cards"][0]["$card"]
    db.execute("UPDATE actions SET action = ? WHERE seq = 7", (text.replace(card, "9H" if card != "9H" else "8H"),))


FORGERIES = {
    "a forged result": (lambda db: db.execute("UPDATE games SET result = 'Seat 2 wins 121-3'"), "its result"),
    "finished = NULL": (lambda db: db.execute("UPDATE games SET finished = NULL"), "its result"),
    "DELETE FROM games": (lambda db: db.execute("DELETE FROM games"), "games were removed"),
    "DROP TABLE games": (lambda db: db.execute("DROP TABLE games"), "games were removed"),
    "a changed card, seal = NULL": (lambda db: (_change_a_card(db), db.execute("UPDATE actions SET seal = NULL"),
                                                db.execute("UPDATE games SET seal = NULL, head = NULL")),
                                    "damaged"),
    "a recomputed unkeyed chain": (lambda db: (_change_a_card(db), _reseal_unkeyed(db)), "damaged"),
    "the meta rows deleted": (lambda db: db.execute("DELETE FROM meta"), "changed by hand"),
}


@pytest.mark.slow
@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_every_forgery_is_said_by_every_reader_and_the_table_and_never_resealed(tmp_path, finished, capsys,
                                                                                 forgery):
    change, said = FORGERIES[forgery]
    path = _copy(finished, tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(path)) as db, db:
        change(db)
    before = path.read_bytes()
    assert _cli("history", "--journal", str(path)) == 0
    out = capsys.readouterr().out
    assert said in out and "Seat 2 wins 121-3" not in out, out
    assert "no games yet" not in out or "problem:" in out
    for command in (("replay", "1"), ("export", "1")):
        _cli(*command, "--journal", str(path))
        assert "Seat 2 wins 121-3" not in capsys.readouterr().out
    assert path.read_bytes() == before                      # no reader writes, least of all a seal
    assert _cli("history", "--journal", str(path)) == 0 and said in capsys.readouterr().out
    opened = open_for_play(path)
    assert any("damaged" in notice for notice in opened.notices), opened.notices
    opened.journal.close()


def test_the_key_is_made_for_this_user_only_beside_the_journal(tmp_path, capsys):
    path = _write_game(tmp_path / "journal.sqlite", 3)
    key = Path(f"{path}.key")
    assert key.is_file() and key.stat().st_mode & 0o777 == 0o600
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(path.read_bytes())                    # the journal without its key
    assert _cli("history", "--journal", str(copy)) == 0
    assert f"its key {copy}.key is missing" in capsys.readouterr().out


def test_an_old_format_journal_is_upgraded_once_visibly_and_then_needs_the_key(tmp_path, written, capsys):
    path = _as_old_format(_copy(written, tmp_path / "journal.sqlite"))
    assert _cli("history", "--journal", str(path)) == 0      # read as it is: said, not upgraded
    assert "older cardtable" in capsys.readouterr().err and not Path(f"{path}.key").exists()
    opened, controller = _resume(path)
    assert "was written by an older cardtable (with seals anyone could recompute)" in controller.held.warning
    assert f"sealed with the table's key {path}.key" in controller.held.warning
    assert controller.game.state == _state_after(30)
    opened.journal.close()
    with closing(sqlite3.connect(path)) as db, db:          # now the unkeyed chain is a forgery
        _change_a_card(db)
        _reseal_unkeyed(db)
    assert _cli("history", "--journal", str(path)) == 0
    assert "damaged" in capsys.readouterr().out


def test_the_history_page_and_the_club_read_an_old_journal_without_upgrading_it(tmp_path, written):
    """A spectator's page and the club's publisher only read: opening the journal to write would
    upgrade an older journal and write its key from a web request or the club's thread."""
    from starlette.testclient import TestClient

    from cardtable.club.publisher import ClubPublisher
    from cardtable.club.spec import ClubSpec, parse_broker
    from cardtable.web.app import ViewHub, create_app
    from hardware.view import SeatView, TableView

    path = _as_old_format(_copy(written, tmp_path / "journal.sqlite"))
    before = path.read_bytes()
    client = TestClient(create_app(ViewHub(), journal_path=path))
    games = client.get("/history.json").json()
    assert len(games) == 1 and client.get(f"/history/{games[0]['id']}.json").status_code == 200
    publisher = ClubPublisher(ClubSpec(parse_broker("mqtt://127.0.0.1:9"), "club", "T1"), path)
    publisher.show(TableView("Cribbage", (SeatView("Ann", 0), SeatView("Bob", 0)), "Ann to play"))
    publisher.close()                                     # after the view queued is published
    assert not Path(f"{path}.key").exists() and path.read_bytes() == before


@pytest.mark.slow
def test_undo_and_replay_after_opening_check_only_the_new_rows(tmp_path, monkeypatch):
    """Incremental verification: once a journal of many games is checked, an undo, a replay and
    the next action seal and check a handful of rows, not the whole history."""
    import hmac

    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        for game in range(12):
            controller = Table(TableSetup("cribbage", 2, seed=SEED), journal, resume=False)
            for action in ACTIONS[:20]:
                assert controller.submit(action) is not None
    made = []
    real = hmac.new
    monkeypatch.setattr(hmac, "new", lambda *a, **k: made.append(1) or real(*a, **k))
    opened, controller = _resume(path)
    assert controller.game.resumed and len(made) >= 12 * 21        # each game's chain, once
    made.clear()
    controller.handle(ButtonPress("undo", 0.0))
    assert controller.game.state == _state_after(19)
    assert controller.submit(ACTIONS[19]) is not None
    opened.journal.replay(controller.game.game_id)
    assert len(made) < 20, len(made)
    opened.journal.close()


def _shown(path):
    """Everything the readers show of a journal: each game's record and replayed actions."""
    def replayed(journal, game_id):
        try:
            return [str(a) for a, _ in journal.replay(game_id).steps]
        except InvalidInput as err:                       # said in words (a damaged setup)
            return str(err)

    with Journal(path, read_only=True) as journal:
        records = journal.games()
        return ([(r.id, r.result, r.finished, r.actions, r.damage) for r in records],
                [replayed(journal, r.id) for r in records], journal.problems)


EDITS = st.one_of(
    st.tuples(st.just("games"), st.sampled_from(["result", "finished", "seal", "head", "ending", "seed", "players",
                                                  "started", "options"]),
              st.one_of(st.none(), st.integers(-2, 5), st.floats(allow_nan=False), st.text(max_size=12))),
    st.tuples(st.just("actions"), st.sampled_from(["action", "at", "undone", "seal", "undo_seal", "seq"]),
              st.one_of(st.none(), st.integers(-2, 50), st.floats(allow_nan=False), st.text(max_size=12))),
    st.tuples(st.just("meta"), st.just("value"), st.one_of(st.none(), st.text(max_size=12))),
    st.tuples(st.sampled_from(["games", "actions", "meta"]), st.just("DELETE"), st.none()),
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(EDITS, st.integers(0, 10**6)), min_size=1, max_size=3),
       unkeyed=st.booleans())
def test_a_forged_journal_is_shown_as_it_was_or_said_damaged_never_otherwise(tmp_path_factory, finished, edits,
                                                                           unkeyed):
    """Any edits by someone without the key (values changed, rows deleted, the unkeyed chain
    recomputed over them): every reader either shows exactly what the table wrote, or says the
    journal is damaged; and no reader writes to the file."""
    path = _copy(finished, tmp_path_factory.mktemp("forged") / "journal.sqlite")
    original = _shown(path)
    with closing(sqlite3.connect(path)) as db, db:
        for (table, column, value), pick in edits:
            rowids = [r[0] for r in db.execute(f"SELECT rowid FROM {table}")]
            if not rowids:
                continue
            rowid = rowids[pick % len(rowids)]
            if column == "DELETE":
                db.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
            else:
                try:
                    db.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (value, rowid))
                except sqlite3.IntegrityError:
                    continue
        if unkeyed:
            _reseal_unkeyed(db)
    before = path.read_bytes()
    records, steps, problems = _shown(path)
    damaged = problems or any(record[-1] for record in records)
    assert damaged or (records, steps) == original[:2]
    assert path.read_bytes() == before


def test_a_key_other_users_can_read_is_said_at_start(tmp_path):
    path = _write_game(tmp_path / "journal.sqlite", 3)
    Path(f"{path}.key").chmod(0o644)
    opened, controller = _resume(path)
    assert f"can be read by other users, who could forge its seals: chmod 600 {path}.key" in controller.held.warning
    opened.journal.close()
