"""``cardtable config check`` is the whole truth about a config: every defect a mutated config
showed is named in words, all at once, and a config it accepts builds everything ``run`` needs."""

import numpy as np
import pytest

from cardtable.cli import main
from cardtable.config import ConfigError, check_values, load_config
from cardtable.sim.devices import demo_registry
from hostile_files import finishes, put_hostile
from table_configs import RFID_CRIBBAGE
from vision.calibration import Calibration, save_calibration
from vision.config import VISION

HUGE = "1" + "0" * 310            # a whole number no float can hold (TOML reads it exactly)
GOOD = RFID_CRIBBAGE


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
    # issue 24: what a hostile or unlucky value does
    ('port = "/dev/ttyACM0"', f'port = "/dev/ttyACM0"\nremove_after = {HUGE}', "rfid.remove_after: expected seconds"),
    ('names = ["Ann", "Bob"]', 'names = ["Ann", "ann"]', "table.names: 'Ann' and 'ann' are the same name"),
    ('names = ["Ann", "Bob"]', 'names = ["Ann", "Ann "]', "table.names: 'Ann' and 'Ann ' are the same name"),
    ('path = "journal.sqlite"', 'path = "/dev/null"', "journal.path: /dev/null is not a regular file (a device)"),
    ("[journal]", '[web]\nhost = "999.1.1.1"\n[journal]',
     "web.host: '999.1.1.1' is not an address of this machine"),
    ("[journal]", '[club]\nbroker = "mqtts://127.0.0.1:8883"\nca_file = "/nope.pem"\n[journal]',
     "club.ca_file: /nope.pem does not exist"),
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
    assert load_config(table / "table.toml")[VISION].deck == "standard"
    code, out = check(table, CAMERA.replace("[game]\nname = \"cribbage\"", "[game]\nname = \"quinze\"")
                      .replace("starter =", "centre =").replace("crib =", "pot ="), capsys)
    assert code == 0, out
    assert load_config(table / "table.toml")[VISION].deck == "french40"


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
    # issue 24: what a hostile or unlucky value does
    ("seat1 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]", f"seat1 = [[0, 0], [200, 0], [0, {HUGE}]]",
     "vision.zones.seat1: expected a list of at least three [x, y] points"),
    ('camera = "usb:0"', f'camera = "usb:0"\nremove_after = {HUGE}', "vision.remove_after: expected seconds"),
    ('camera = "usb:0"', 'camera = "usb:-1"', "vision.camera: 'usb:-1' is no camera: write usb:0, usb:1, ..."),
    ("seat2 = [[-200, -250], [200, -250], [200, -110], [-200, -110]]",
     "seat2 = [[-200, 110], [200, 110], [200, 250], [-200, 250]]",
     "vision.zones: seat1 and seat2 overlap (100% of seat2): a card there would be in both"),
    ("crib = [[0, -90], [70, -90], [70, 90], [0, 90]]", "crib = [[0, 5000], [70, 5000], [70, 5180], [0, 5180]]",
     "vision.zones.crib: the point [0, 5000] is 5.0 m from the mat's centre"),
    ('calibration = "calibration.json"', 'calibration = "/dev/zero"',
     "vision.calibration: /dev/zero is not a regular file (a device)"),
])
def test_each_camera_defect_is_named(table, capsys, old, new, problem):
    assert old in CAMERA
    code, out = check(table, CAMERA.replace(old, new), capsys)
    assert code == 1 and "Traceback" not in out
    assert problem in out, out


def test_a_calibration_file_that_is_damaged_is_named(table, capsys):
    (table / "calibration.json").write_text("{")
    code, out = check(table, CAMERA, capsys)
    assert code == 1 and "vision.calibration: " in out and "calibration.json is not valid JSON" in out, out


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


# -- issue 24: what a hostile or unlucky file does to config check and run -----------------------
def test_a_ca_file_that_is_no_certificate_is_named(table, capsys):
    (table / "ca.pem").write_text("not a certificate\n")
    code, out = check(table, GOOD.replace("[journal]", '[club]\nbroker = "mqtts://127.0.0.1:8883"\n'
                                          f'ca_file = "{table / "ca.pem"}"\n[journal]'), capsys)
    assert code == 1 and "club.ca_file: " in out and "holds no certificate" in out, out


def test_a_journal_that_is_a_fifo_is_named(table, capsys):
    put_hostile(table / "journal.fifo", "fifo")
    code, out = finishes(lambda: check(table, GOOD.replace('path = "journal.sqlite"', 'path = "journal.fifo"'),
                                       capsys))
    assert code == 1 and "journal.path: " in out and "is not a regular file (a FIFO)" in out, out


@pytest.mark.parametrize("raw, problem", [
    (b"\xff\xfe{\x00}\x00", "is not UTF-8 text (line 1 holds the byte 0xff): save it as UTF-8"),
    (b"[" * 200_000, "nested too deeply"),
    (b'{"format": "cardtable-calibration-1", "image_size": [1920, 1080], "reprojection_error_px": 0.1, '
     b'"image_to_table": [[1, 0, 0], [0, 1, 0], [0, 0, 1' + b"0" * 400 + b"]]}", "not a cardtable calibration"),
])
def test_a_hostile_calibration_file_is_named_by_check_and_run(table, capsys, raw, problem):
    (table / "calibration.json").write_bytes(raw)
    code, out = check(table, CAMERA, capsys)
    assert code == 1 and "Traceback" not in out
    assert "vision.calibration: " in out and problem in out, out
    assert main(["run", "--config", str(table / "table.toml")]) == 2
    assert problem in capsys.readouterr().err


def test_special_files_as_config_calibration_or_registry_are_named_not_waited_on(table, capsys):
    assert main(["config", "check", "/dev/zero"]) == 1
    assert "it is not a regular file (a device)" in capsys.readouterr().out
    put_hostile(table / "fifo", "fifo")
    assert finishes(lambda: main(["config", "check", str(table / "fifo")])) == 1
    assert "is not a regular file (a FIFO)" in capsys.readouterr().out
    code, out = finishes(lambda: check(table, CAMERA.replace("calibration.json", "fifo"), capsys))
    assert code == 1 and "vision.calibration: " in out and "is not a regular file (a FIFO)" in out, out
    code, out = finishes(lambda: check(table, GOOD.replace("tags.json", "fifo"), capsys))
    assert code == 1 and "rfid.registry: " in out and "is not a regular file (a FIFO)" in out, out


def test_an_enrolled_deck_that_is_a_fifo_is_named_not_waited_on(table, capsys):
    put_hostile(table / "deck.npz", "fifo")
    code, out = finishes(lambda: check(table, CAMERA.replace('camera = "usb:0"', 'camera = "usb:0"\n'
                                                             'recognition = "faces"\nfaces = "deck.npz"'), capsys))
    assert code == 1 and "vision.faces: " in out and "is not a regular file (a FIFO)" in out, out


def test_a_huge_file_is_refused_before_it_is_read(table, capsys):
    (table / "calibration.json").unlink()
    put_hostile(table / "calibration.json", 4 << 30)   # a sparse 4 GiB file: refused by its size
    code, out = check(table, CAMERA, capsys)
    assert code == 1 and "vision.calibration: " in out and "is 4096 MiB" in out, out


def test_zones_that_only_touch_are_not_an_overlap(table, capsys):
    touching = CAMERA.replace("starter = [[-80, -90], [-10, -90], [-10, 90], [-80, 90]]",
                              "starter = [[-70, -90], [0, -90], [0, 90], [-70, 90]]")
    code, out = check(table, touching, capsys)
    assert code == 0, out
    from vision.config import overlap

    square = ((0, 0), (30, 0), (30, 30), (0, 30))
    assert overlap(square, ((30, 0), (600, 0), (600, 600), (30, 600))) == 0    # a small zone beside a large one
    assert overlap(square, ((0, 0), (15, 0), (15, 30), (0, 30))) > 0.5         # one inside the other
