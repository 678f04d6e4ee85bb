"""``cardtable doctor`` on this machine, with the conditions made by the tests: a reader board
twin on a real pty, a folder the journal cannot be written in, a config with mistakes, missing
buses and devices."""

import os
from dataclasses import replace
from pathlib import Path

from cardtable.config import doctor
from cardtable.cli import main
from cardtable.config import TableConfig, check_values
from cardtable.config.app_sections import InputSpec, JournalSpec
from firmware_bridge.config import RfidSpec
from firmware_bridge.twin import Twin
from hardware.config import GPIO
from hardware.display.config import parse_display_config


def table(tmp_path, **specs) -> TableConfig:
    """A two-player cribbage table whose sections (by name) are ``specs``, the rest their defaults."""
    config = check_values({"game": {"name": "cribbage", "players": 2}}, tmp_path / "table.toml", [])
    specs = {"journal": JournalSpec(tmp_path / "journal.sqlite"), **specs}
    return replace(config, specs={**config.specs, **specs})


def test_the_reader_board_is_found_with_its_firmware_version(tmp_path):
    with Twin(readers=3) as twin:
        found = doctor.check_board(table(tmp_path, input=InputSpec("rfid"), rfid=RfidSpec(tmp_path / "t.json", port=twin.port)))
    assert found.status == doctor.OK and "firmware" in found.detail and "3 readers" in found.detail, found


def test_a_missing_reader_board_says_what_to_do(tmp_path):
    found = doctor.check_board(table(tmp_path, input=InputSpec("rfid"), rfid=RfidSpec(tmp_path / "t.json",
                                                                           port=str(tmp_path / "ttyNOPE"))))
    assert found.status == doctor.FIX and "flash the firmware" in found.fix


def test_a_journal_in_a_folder_that_cannot_be_written(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    unwritable = folder if os.geteuid() != 0 else Path("/proc/sys")   # root writes everywhere but /proc
    found = doctor.check_journal(table(tmp_path, journal=JournalSpec(unwritable / "cardtable" / "journal.sqlite")))
    assert found.status == doctor.FIX and "cannot be written by this user" in found.detail, found
    assert "[journal] path" in found.fix
    assert doctor.check_journal(table(tmp_path)).status == doctor.OK


def test_a_config_with_mistakes_is_named_and_the_rest_still_checked(tmp_path, capsys):
    (tmp_path / "bad.toml").write_text("[game]\nname = 'cribbage'\nplayers = 9\n")
    assert main(["doctor", "--config", str(tmp_path / "bad.toml")]) == 1
    out = capsys.readouterr().out
    assert "fix   config:" in out and "game.players: Cribbage is for 2, 3, 4 players, not 9" in out
    assert "disk:" in out and "journal:" in out and "thing" in out


def test_groups_say_the_usermod_command():
    found = doctor.check_groups(None, user="nobody")
    assert found.status == doctor.FIX and found.fix.startswith("sudo usermod -aG ") and "nobody" in found.fix
    assert "log out and in again" in found.fix


def test_i2c_and_spi_must_be_enabled_for_a_panel_that_needs_them(tmp_path):
    config = table(tmp_path, display=(parse_display_config({"kind": "luma", "driver": "ssd1306"}),))
    found = doctor.check_buses(config, dev=tmp_path)
    assert found.status == doctor.FIX and "sudo raspi-config nonint do_i2c 0" in found.fix
    (tmp_path / "i2c-1").touch()
    assert doctor.check_buses(config, dev=tmp_path).status == doctor.OK
    assert doctor.check_display(table(tmp_path, display=(parse_display_config(
        {"kind": "luma", "driver": "st7789"}),)), dev=tmp_path).fix == "sudo raspi-config nonint do_spi 0"


def test_a_missing_camera_and_a_full_disk_say_what_to_do(tmp_path):
    found = doctor.check_camera(table(tmp_path), dev=tmp_path)
    assert found.status == doctor.FIX and "no camera at all" in found.detail
    found = doctor.check_disk(table(tmp_path), minimum=2**62)
    assert found.status == doctor.FIX and "GB free" in found.detail and "du -sh" in found.fix
    assert doctor.check_disk(table(tmp_path)).status == doctor.OK


def test_a_pi5_without_lgpio_is_told_to_install_it(tmp_path, monkeypatch):
    from hardware.pins import PanelPins

    monkeypatch.setattr(doctor, "pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    monkeypatch.setitem(__import__("sys").modules, "lgpio", None)      # not installed
    found = doctor.check_gpio(table(tmp_path, gpio=PanelPins(seat_leds=(17,))))
    assert found.status == doctor.FIX and found.fix.startswith("sudo apt install python3-lgpio")


def test_picamera2_built_for_another_numpy_is_explained(tmp_path, monkeypatch):
    from vision.config import VisionConfig

    (tmp_path / "picamera2.py").write_text(
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    found = doctor.check_camera(table(tmp_path, vision=VisionConfig(camera="picamera")))
    assert found.status == doctor.FIX and "numpy" in found.detail and found.fix.startswith("make clean setup")


def example(tmp_path, *, input_kind: str = "camera") -> Path:
    """A fresh ``cardtable config example`` file, as a newcomer has it, read by the given input."""
    path = tmp_path / "table.toml"
    assert main(["config", "example", "--game", "cribbage", "--players", "2", "--out", str(path)]) == 0
    path.write_text(path.read_text().replace('kind = "camera"', f'kind = "{input_kind}"'))
    return path


def test_a_fresh_example_config_is_checked_whole_and_its_step_is_the_fix(tmp_path):
    """The example still needs calibrating: the fix is the calibrate command (not "edit the file"),
    and the rest of the file is still checked: its buttons, LEDs and buzzer, its camera."""
    path = example(tmp_path)
    found, config = doctor.check_config(str(path))
    assert found.status == doctor.FIX and "calibration.json does not exist yet" in found.detail
    assert found.fix == f"cardtable calibrate --config {path}"
    assert config is not None and config[GPIO] is not None
    gpio = doctor.check_gpio(config)
    assert "6 buttons, 2 seat LEDs, and a buzzer" in gpio.detail and "no buttons" not in gpio.detail, gpio
    camera = doctor.check_camera(config, dev=tmp_path)
    assert camera.status == doctor.FIX and "no camera at all" in camera.detail and "plug the camera in" in camera.fix


def test_an_rfid_example_says_to_enrol_the_tags_and_looks_for_the_board(tmp_path):
    found, config = doctor.check_config(str(example(tmp_path, input_kind="rfid")))
    assert found.status == doctor.FIX and found.fix == "cardtable enroll rfid --deck standard"
    board = doctor.check_board(config, ports=[])
    assert board.status == doctor.FIX and "no reader board found" in board.detail, board


def test_a_config_with_mistakes_says_that_the_rest_was_not_looked_at(tmp_path):
    for mistake in ("players = 9\n", "players = 2\n[gpio]\nseat_leds = [17, 99]\n"):
        (tmp_path / "bad.toml").write_text("[game]\nname = 'cribbage'\n" + mistake)
        found, config = doctor.check_config(str(tmp_path / "bad.toml"))
        assert found.status == doctor.FIX and config is None, found
    for check in (doctor.check_gpio, doctor.check_board):
        assert "not looked at" in check(None).detail and "no buttons" not in check(None).detail
