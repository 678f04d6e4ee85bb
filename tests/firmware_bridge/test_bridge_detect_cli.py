"""Finding the board by USB id plus handshake, and the two commands, against the twin on a pty."""

import json
import threading
import time

import pytest
from serial.tools.list_ports_common import ListPortInfo

from cardtable.cli import main
from firmware_bridge.detect import BoardNotFound, candidates, find_board
from firmware_bridge.registry import TagRegistry

from bridge_helpers import uid_of
from waiting import patience, wait_until


def port(device, vid, pid):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_candidates_by_usb_id():
    ports = [port("/dev/ttyS0", None, None), port("/dev/ttyACM0", 0x2E8A, 0x0005), port("/dev/ttyUSB0", 0x1A86, 0x7523)]
    assert [(c.device, c.board.split()[0]) for c in candidates(ports)] == [("/dev/ttyACM0", "Raspberry"), ("/dev/ttyUSB0", "CH340")]


def test_the_handshake_confirms_a_candidate(twin, tmp_path):
    silent = tmp_path / "not-a-board"
    ports = [port(str(silent), 0x1A86, 0x7523), port(twin.port, 0x2E8A, 0x0005)]
    device, hello = find_board(ports, timeout=patience(1.0))
    assert device == twin.port and hello.board == "twin" and hello.readers == 4


def test_no_board_says_what_was_tried(tmp_path):
    with pytest.raises(BoardNotFound, match="no Pico, Arduino or ESP32"):
        find_board([])
    with pytest.raises(BoardNotFound, match="ttyUSB9 .*--port"):
        find_board([port(str(tmp_path / "ttyUSB9"), 0x1A86, 0x7523)], timeout=0.2)


def run_in_thread(argv):
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("code", main(argv)))
    thread.start()
    return thread, result


def output_until(capsys, text, timeout=3.0):
    """What the command printed until ``text`` shows up (failing after ``timeout`` seconds)."""
    printed = []

    def shown() -> bool:
        printed.append(capsys.readouterr().out)
        return text in "".join(printed)

    wait_until(shown, timeout, what=f"the command to print {text!r}")
    return "".join(printed)


@pytest.mark.slow
def test_monitor_prints_one_json_line_per_event_and_link_change(twin, registry, tmp_path, capsys):
    path = registry.save(tmp_path / "tags.json")
    thread, result = run_in_thread(["bridge", "monitor", "--port", twin.port, "--json", "--registry", str(path),
                                    "--zones", "seat1,seat2", "--seconds", "1.5"])
    out = output_until(capsys, "resynced")
    twin.place(1, uid_of(0))
    twin.place(0, "DEADBEEF")
    thread.join(timeout=patience(3))
    lines = [json.loads(line) for line in (out + capsys.readouterr().out).splitlines()]
    assert result["code"] == 0
    assert [(d["type"], d.get("state")) for d in lines[:2]] == [("link", "up"), ("link", "resynced")]
    cards = [(d["type"], d["zone"], d["uid"], d["card"]) for d in lines if d["type"] == "placed"]
    assert cards == [("placed", "seat2", "04000000", "AS"), ("placed", "seat1", "DEADBEEF", None)]


def test_enroll_rfid_walks_stops_and_resumes(twin, tmp_path, capsys):
    path = tmp_path / "tags.json"
    base = ["enroll", "rfid", "--deck", "french40", "--port", twin.port, "--registry", str(path)]

    def lay(index, reader, wait_for):
        twin.place(reader, uid_of(index))
        wait_until(lambda: path.exists() and len(json.loads(path.read_text())["tags"]) >= wait_for, 2,
                   what=f"{wait_for} tags in the registry")

    thread, result = run_in_thread(base + ["--count", "2"])
    out = output_until(capsys, "(1/40)")
    lay(0, 0, 1)
    twin.place(1, uid_of(0))    # the same tag again: refused
    out += output_until(capsys, "that tag is already")
    lay(1, 2, 2)
    thread.join(timeout=patience(3))
    out += capsys.readouterr().out
    assert result["code"] == 0
    assert out.index("link up") < out.index("place the ace of spades on any reader (1/40)")
    assert "that tag is already the ace of spades: take it off and place the two of spades" in out
    assert "2/40 cards enrolled" in out and "run the same command to carry on" in out
    thread, result = run_in_thread(base + ["--count", "1"])
    out = output_until(capsys, "place the three of spades on any reader (3/40)")
    lay(2, 3, 3)
    thread.join(timeout=patience(3))
    assert "place the three of spades on any reader (3/40)" in out
    registry = TagRegistry.load(path)
    assert [registry.card_for(uid_of(n)).id for n in range(3)] == ["AS", "2S", "3S"]


def test_a_found_board_is_named_by_its_stable_by_id_link(tmp_path):
    from firmware_bridge.detect import stable_path

    device = tmp_path / "ttyACM0"
    device.touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-Raspberry_Pi_Pico_E660-if00").symlink_to(device)
    assert stable_path(str(device), by_id) == str(by_id / "usb-Raspberry_Pi_Pico_E660-if00")
    assert stable_path(str(tmp_path / "ttyACM9"), by_id) == str(tmp_path / "ttyACM9")
    assert stable_path("/dev/pts/3", tmp_path / "missing") == "/dev/pts/3"


@pytest.mark.slow
def test_monitor_sentences_name_each_tag_once(twin, registry, tmp_path, capsys):
    path = registry.save(tmp_path / "tags.json")
    thread, result = run_in_thread(["bridge", "monitor", "--port", twin.port, "--registry", str(path),
                                    "--zones", "seat1,seat2", "--seconds", "1.5"])
    out = output_until(capsys, "resynced")
    twin.place(1, uid_of(0))
    twin.place(0, "04A23B1C")
    thread.join(timeout=patience(3))
    out += capsys.readouterr().out
    assert "seat2: placed AS (tag 04000000)" in out
    assert "seat1: placed unknown tag 04A23B1C\n" in out and "(04A23B1C)" not in out


@pytest.mark.parametrize("command", [["bridge", "monitor", "--seconds", "2"], ["enroll", "rfid"]])
def test_a_port_that_does_not_exist_is_said_at_once_and_exits_non_zero(command, tmp_path, capsys):
    started = time.monotonic()
    code = main(command + ["--port", "/dev/ttyNOPE", *(["--registry", str(tmp_path / "t.json")]
                                                         if command[0] == "enroll" else [])])
    err = capsys.readouterr().err
    assert code != 0 and time.monotonic() - started < 1.5
    assert "/dev/ttyNOPE" in err and "does not exist" in err


@pytest.mark.slow
def test_enroll_waits_for_the_board_before_asking_and_gives_up_on_a_silent_port(tmp_path, capsys):
    import os
    import pty

    master, slave = pty.openpty()
    try:
        code = main(["enroll", "rfid", "--port", os.ttyname(slave), "--registry", str(tmp_path / "t.json"),
                     "--wait", "0.5"])
    finally:
        os.close(master)
        os.close(slave)
    captured = capsys.readouterr()
    assert code == 1 and "place the" not in captured.out
    assert "no reader board answered" in captured.err and "--compat" in captured.err
