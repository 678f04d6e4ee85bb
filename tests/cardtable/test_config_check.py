"""``cardtable config check`` is the whole truth about a config: every defect a mutated config
showed is named in words, all at once, and a config it accepts builds everything ``run`` needs."""

import numpy as np
import pytest

from cardtable.cli import main
from cardtable.config import ConfigError, check_values, load_config
from cardtable.sim.devices import demo_registry
from vision.calibration import Calibration, save_calibration

GOOD = """
[game]
name = "cribbage"
players = 2
[table]
names = ["Ann", "Bob"]
[input]
kind = "rfid"
[rfid]
port = "/dev/ttyACM0"
registry = "tags.json"
readers = ["seat1", "seat2", "starter", "crib"]
[[display]]
kind = "terminal"
[journal]
path = "journal.sqlite"
"""


@pytest.fixture
def table(tmp_path):
    """A folder with the files a table's tools write (the tag registry, a calibration)."""
    demo_registry("standard").save(tmp_path / "tags.json")
    save_calibration(Calibration(np.eye(3), (1920, 1080), 0.3), tmp_path / "calibration.json")
    return tmp_path


def check(folder, text: str | bytes, capsys) -> tuple[int, str]:
    path = folder / "table.toml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    code = main(["config", "check", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_good_config_is_accepted(table, capsys):
    code, out = check(table, GOOD, capsys)
    assert code == 0, out
    assert "looks right" in out


def test_a_file_starting_with_a_byte_order_mark_is_accepted(table, capsys):
    code, out = check(table, "\ufeff" + GOOD, capsys)
    assert code == 0, out


def test_a_file_that_is_not_utf8_is_named_not_a_traceback(table, capsys):
    code, out = check(table, GOOD.encode() + b"# caf\xe9\n", capsys)
    assert code == 1
    assert "not UTF-8 text" in out and "line 17" in out


@pytest.mark.parametrize("old, new, problem", [
    ('names = ["Ann", "Bob"]', "names = 7", "table.names: expected a list of names"),
    ('names = ["Ann", "Bob"]', 'names = "AB"', "table.names: expected a list of names"),
    ('names = ["Ann", "Bob"]', 'names = ["", "B\\u0007b"]', "table.names[0]: a name cannot be empty"),
    ('names = ["Ann", "Bob"]', 'names = ["Ann", "B\\u0007b"]', "table.names[1]: 'B\\x07b' holds a control character"),
    ('names = ["Ann", "Bob"]', 'names = ["Ann", "Ann"]', "table.names: two names are both 'Ann'"),
    ('names = ["Ann", "Bob"]', 'seat_zones = [["a"], ["b"]]', "table.seat_zones[0]: expected a zone name"),
    ('names = ["Ann", "Bob"]', 'seat_zones = "ab"', "table.seat_zones: expected a list of zone names"),
    ('path = "journal.sqlite"', 'path = "~nosuchuser/journal.sqlite"', "journal.path: there is no user 'nosuchuser'"),
    ('players = 2', 'players = 4611686018427387904', "game.players: Cribbage is for 2, 3, 4 players, not 4611686018427387904"),
    ('players = 2', 'players = "2"', "game.players: expected a whole number, got the text '2'"),
    ('players = 2', 'players = 2\nseed = 9223372036854775808', "game.seed: expected a whole number from 0 to"),
    ('players = 2', 'players = 2\nseed = -1', "game.seed: expected a whole number from 0 to"),
    ('players = 2', 'players = 2\n[game.options]\ntarget = "121"',
     "game.options.target: expected a whole number, got the text '121' (write it without quotes)"),
    ('players = 2', 'players = 2\n[game.options]\ntarget = 100', "game.options.target: choose one of 121, 61, not 100"),
    ('players = 2', 'players = 2\n[game.options]\nmugins = true', "game.options.mugins: Cribbage has no such option (did you mean 'muggins'?)"),
    ('port = "/dev/ttyACM0"', 'port = "/dev/ttyACM0"\nremove_after = nan', "rfid.remove_after: expected seconds from"),
    ('port = "/dev/ttyACM0"', 'port = "/dev/ttyACM0"\nremove_after = 1e300', "rfid.remove_after: expected seconds from"),
    ('readers = ["seat1", "seat2", "starter", "crib"]', 'readers = ["seat1", "seat2", "startr"]',
     "rfid.readers[2]: 'startr' is no seat's zone and not a zone Cribbage uses (did you mean 'starter'?)"),
    ('readers = ["seat1", "seat2", "starter", "crib"]', 'readers = "seat1"', "rfid.readers: expected a list of zone names"),
    ('registry = "tags.json"', 'registry = "nothere.json"',
     "rfid.registry: nothere.json does not exist yet: run cardtable enroll rfid --deck standard --registry"),
    ('kind = "rfid"', 'kind = ["rfid"]', "input.kind: expected one of camera, rfid, got ['rfid']"),
])
def test_each_defect_is_named(table, capsys, old, new, problem):
    assert old in GOOD
    code, out = check(table, GOOD.replace(old, new), capsys)
    assert code == 1
    assert problem in out, out
    assert "Traceback" not in out


CAMERA = """
[game]
name = "cribbage"
[input]
kind = "camera"
[vision]
camera = "usb:0"
calibration = "calibration.json"
[vision.zones]
seat1 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]
seat2 = [[-200, -250], [200, -250], [200, -110], [-200, -110]]
starter = [[-80, -90], [-10, -90], [-10, 90], [-80, 90]]
crib = [[0, -90], [70, -90], [70, 90], [0, 90]]
"""


def test_a_good_camera_config_is_accepted_and_its_deck_is_the_games(table, capsys):
    code, out = check(table, CAMERA, capsys)
    assert code == 0, out
    assert load_config(table / "table.toml").vision.deck == "standard"
    code, out = check(table, CAMERA.replace("[game]\nname = \"cribbage\"", "[game]\nname = \"quinze\"")
                      .replace("starter =", "centre =").replace("crib =", "pot ="), capsys)
    assert code == 0, out
    assert load_config(table / "table.toml").vision.deck == "french40"


@pytest.mark.parametrize("old, new, problem", [
    ('camera = "usb:0"', 'camera = "usb:0"\ndeck = "french40"',
     "vision.deck: Cribbage is played with the standard deck, not french40"),
    ("seat1 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]", "seat1 = [[0, 0], [1]]",
     "vision.zones.seat1: expected a list of at least three [x, y] points"),
    ("seat1 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]", "seat1 = [[0, 0], [1, 1], [2, 2]]",
     "vision.zones.seat1: the points enclose no area"),
    ("seat1 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]", 'seat1 = [[0, 0], [1, "a"], [2, 2]]',
     "vision.zones.seat1: expected a list of at least three [x, y] points"),
    ("seat1 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]", "seat1 = [[0, 0], [1, inf], [2, 0]]",
     "vision.zones.seat1: expected a list of at least three [x, y] points"),
    ("crib =", "crbi =", "vision.zones: no zone 'crib', which Cribbage needs (did you mean 'crbi'?)"),
    ("seat2 =", "seat_2 =", "vision.zones: no zone 'seat2' for seat 2 (did you mean 'seat_2'?)"),
    ('calibration = "calibration.json"', 'calibration = "cal.json"',
     "vision.calibration: cal.json does not exist yet: run cardtable calibrate --config"),
    ('calibration = "calibration.json"', "",
     "vision.calibration: the zones are in table millimetres, which needs a calibration"),
    ('camera = "usb:0"', "camera = \"usb:0\"\nresolution = [1280, 720]",
     "vision.resolution: calibration.json was made at 1920x1080, not 1280x720: calibrate again"),
    ('camera = "usb:0"', "camera = \"usb:0\"\nremove_after = nan", "vision.remove_after: expected seconds from"),
    ("[vision.zones]", "[vision.zones]\nnowhere = 5", "vision.zones.nowhere: expected a list of at least three"),
])
def test_each_camera_defect_is_named(table, capsys, old, new, problem):
    assert old in CAMERA
    code, out = check(table, CAMERA.replace(old, new), capsys)
    assert code == 1
    assert problem in out, out


def test_a_calibration_file_that_is_damaged_is_named(table, capsys):
    (table / "calibration.json").write_text("{")
    code, out = check(table, CAMERA, capsys)
    assert code == 1 and "vision.calibration: " in out and "not a cardtable calibration" in out, out


def test_every_problem_is_said_at_once(table, capsys):
    code, out = check(table, """
[game]
name = "cribbage"
players = 2
seed = -4
[game.options]
target = "121"
[table]
names = "AB"
seat_zones = [["a"], ["b"]]
[rfid]
remove_after = nan
readers = ["nowhere"]
[journal]
path = "~nosuchuser/j.sqlite"
""", capsys)
    assert code == 1
    for problem in ("game.seed:", "game.options.target:", "table.names:", "table.seat_zones[0]:",
                    "rfid.remove_after:", "journal.path:"):
        assert problem in out, out
    assert "problems:" in out, out


def test_a_folder_or_a_missing_file_is_said_in_words(tmp_path, capsys):
    assert main(["config", "check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "is a folder, not a configuration file" in out and "Errno" not in out
    assert main(["config", "check", str(tmp_path / "none.toml")]) == 1
    out = capsys.readouterr().out
    assert "does not exist" in out and "cardtable config example" in out


def test_a_journal_that_cannot_be_written_is_named(table, capsys):
    (table / "file").write_text("")
    code, out = check(table, GOOD.replace('path = "journal.sqlite"', 'path = "file/journal.sqlite"'), capsys)
    assert code == 1 and "journal.path:" in out and "is a file, not a folder" in out, out


def test_a_huge_player_count_without_a_game_is_refused_at_once(table, capsys):
    code, out = check(table, "[game]\nplayers = 4611686018427387904\n[table]\nnames = ['a']\n", capsys)
    assert code == 1 and "game.players: expected a whole number from 1 to 8" in out, out


def test_load_config_raises_with_every_problem(table):
    (table / "table.toml").write_text("[game]\nname = 5\n[table]\nnames = 7\n")
    with pytest.raises(ConfigError) as info:
        load_config(table / "table.toml")
    assert len(info.value.problems) == 2


def test_an_unknown_section_alone_is_a_mistake(table, capsys):
    code, out = check(table, GOOD + "[gmae]\n", capsys)
    assert code == 1 and "config.gmae: unknown key (did you mean 'game'?)" in out, out


def test_zone_problems_are_said_with_value_problems(table, capsys):
    code, out = check(table, '[game]\nname = "cribbage"\n[game.options]\ntarget = "121"\n', capsys)
    assert code == 1 and "game.options.target:" in out and "vision.zones: none given" in out, out


def test_a_missing_file_is_said_with_the_mistakes(table, capsys):
    code, out = check(table, GOOD.replace('registry = "tags.json"', 'registry = "nothere.json"')
                      .replace('names = ["Ann", "Bob"]', "names = 7"), capsys)
    assert code == 1 and "has 1 problem:" in out and "table.names:" in out, out
    assert "and 1 step still to do" in out and "nothere.json does not exist yet" in out, out


def test_the_camera_commands_read_a_config_the_same_way(table, capsys):
    (table / "latin.toml").write_bytes(b"[vision]\n# caf\xe9\n")
    assert main(["calibrate", "--config", str(table / "latin.toml")]) == 2
    assert "it is not UTF-8 text (line 2 holds the byte 0xe9)" in capsys.readouterr().err


def test_teaching_must_be_true_or_false(tmp_path):
    problems: list[str] = []
    check_values({"game": {"name": "cribbage"}, "table": {"teaching": "yes"}}, tmp_path / "t.toml", problems)
    assert any(p.startswith("table.teaching:") for p in problems)
