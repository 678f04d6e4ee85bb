"""Command-line options list their choices and defaults; paths that cannot be written are said in words."""

import os
import warnings

import pytest

from cardtable.cli import main
from cardtable.sim.devices import demo_registry


def help_text(capsys, *argv):
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_print_deck_help_lists_every_choice_and_default(capsys):
    text = help_text(capsys, "print-deck")
    assert "which deck: standard, french40, its15 (default: standard)" in text
    assert "qr, aruco (default: qr)" in text and "(default: cards)" in text and "a4, letter (default: a4)" in text
    assert "a4, letter (default: a4)" in help_text(capsys, "print-mat")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["print-deck", "print-mat"])
def test_a_pdf_in_a_missing_folder_is_said_in_words(command, tmp_path, capsys):
    missing = tmp_path / "nope"
    assert main([command, "--out", str(missing / "deck.pdf")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"cardtable: error: cannot write deck.pdf: the folder {missing} does not exist"


def test_a_pdf_named_like_a_folder_is_said_in_words(tmp_path, capsys):
    assert main(["print-mat", "--out", str(tmp_path)]) == 2
    assert f"{tmp_path} is a folder; give a file name" in capsys.readouterr().err


def test_run_off_a_pi_says_once_that_there_are_no_gpio_pins(tmp_path, capsys, monkeypatch):
    from gpiozero import Device

    if os.path.exists("/proc/device-tree/model"):
        pytest.skip("this machine may have GPIO pins")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    demo_registry("standard").save(tmp_path / "tags.json")
    (tmp_path / "table.toml").write_text(f"""
game = {{ name = "cribbage", players = 2 }}
input = {{ kind = "rfid" }}
rfid = {{ port = "/dev/ttyNOPE", registry = "tags.json", readers = ["seat1", "seat2", "starter", "crib"] }}
gpio = {{ buttons = {{ ok = 5, left = 6, right = 13, undo = 19 }}, seat_leds = [17, 27] }}
journal = {{ path = "journal.sqlite" }}
display = [{{ kind = "png", folder = "{tmp_path / 'shots'}" }}]
""")
    with warnings.catch_warnings():
        warnings.simplefilter("default")                 # as a user's Python shows them
        assert main(["run", "--config", str(tmp_path / "table.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("there are no GPIO pins here") == 1 and "PinFactoryFallback" not in err


def test_the_examples_of_the_view_and_the_out_paths_hold():
    import doctest

    import cardtable.out_paths
    import cardtable.table.view

    for module in (cardtable.out_paths, cardtable.table.view):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["games"], ["replay", "1"]])
def test_a_reader_that_stops_early_ends_no_command_with_a_traceback(argv, tmp_path):
    """``cardtable replay 1 | head``: the reader leaves before the output is written; the command
    stops quietly (every command, not only replay)."""
    import subprocess
    import sys

    from cardtable.sim.demo import run_demo

    if argv[0] == "replay":
        run_demo(input_kind="rfid", out_dir=tmp_path / "demo")
        argv = [*argv, "--journal", str(tmp_path / "demo" / "journal.sqlite")]
    read, write = os.pipe()
    os.close(read)                       # no reader at all: the first write meets a broken pipe
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # as at a terminal
    done = subprocess.run([sys.executable, "-m", "cardtable.cli", *argv], stdout=write, stderr=subprocess.PIPE,
                          text=True, cwd=tmp_path, env=buffered)
    os.close(write)
    assert done.stderr == "" and done.returncode == 0, done.stderr
