"""docs/adding_a_reader.md, proven: a reader kind (a hand-held code scanner,
tests/cardtable/scanner_reader.py) joins the table with its module and one registration line.
Watched by the table's supervisor, over real pseudo-terminals, its scans reach the table through
its loop and are journalled, a code that is not a card is said and ignored, and an unplugged
scanner is started again with a sentence. Registered as a reader kind, the configuration file
chooses it (``[input] kind = "scanner"`` and its ``[scanner]`` section), checks it, and
``cardtable run`` starts it: a card scanned reaches the journal. Unregistered, the kind is
refused with a sentence naming the kinds there are."""

from __future__ import annotations

import os
import queue
import threading
import tty
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import cardtable.readers.kinds as kinds
from cardtable.cli import main
from cardtable.config import check_values, doctor, load_config
from cardtable.readers.kinds import reader_kinds, register_reader_kind
from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.table.loop import InputFailed, Supervisor, run_loop
from config_kit.section import Context
from engine.decks import get_deck
from engine.table_events import Notice, TableEvent
from scanner_reader import SCANNER, SCANNER_SECTION, ScannerReader, ScannerSpec
from test_run import beside_the_table, journalled
from test_config_sections import toml_values
from vision.markers import payload_for
from waiting import patience, wait_until

DECK = get_deck("standard")


def _pty() -> tuple[int, int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def _close(ptys: dict) -> None:
    """Close each pseudo-terminal's two ends (a test may have closed a master already: a cable pulled)."""
    for master, slave, _ in ptys.values():
        for fd in (master, slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def table(tmp_path, outputs):
    """A cribbage table for two with a scanner at each seat, its loop running; yields
    (the scanners' pty masters by zone, the outputs, the journal, why the loop stopped)."""
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    ptys = {zone: _pty() for zone in ("seat1", "seat2")}
    supervisor = Supervisor(items.put)
    for zone, (_, _, port) in ptys.items():
        supervisor.watch(f"scanner at {zone}", lambda port=port, zone=zone: ScannerReader(   # the registration line
            port, zone, DECK.name, items.put).started())
    with Journal(tmp_path / "journal.sqlite") as journal:
        at_table = Table(TableSetup("cribbage", 2, swipe=True), journal, outputs)
        stopped: list[InputFailed] = []

        def run():
            try:
                run_loop(at_table, items, stop, idle=0.02, supervisor=supervisor)
            except InputFailed as err:           # the table stops, for the service manager to start it again
                stopped.append(err)

        loop = threading.Thread(target=run)
        loop.start()
        try:
            yield {zone: master for zone, (master, _, _) in ptys.items()}, outputs, journal, stopped
        finally:
            stop.set()
            loop.join(timeout=patience(5))
            supervisor.close()
            _close(ptys)


def _scan(master: int, text: str) -> None:
    os.write(master, text.encode() + b"\r\n")


def _actions(journal: Journal) -> int:
    return sum(game.actions for game in journal.games())


def test_scans_reach_the_table_through_its_loop_and_are_journalled(table):
    masters, outputs, journal, stopped = table
    _scan(masters["seat1"], payload_for(DECK.card("KH"), DECK))
    wait_until(lambda: _actions(journal) >= 1, 10, what="the first cut journalled")
    _scan(masters["seat2"], payload_for(DECK.card("AC"), DECK))
    wait_until(lambda: _actions(journal) >= 2, 10, what="the second cut journalled")
    # The view of the second cut is shown after it is journalled: wait for a dealer on the display.
    seats = wait_until(lambda: outputs.views and any(s.is_dealer for s in outputs.views[-1].seats)
                       and outputs.views[-1].seats, 5, what="the dealer shown")
    assert seats[1].is_dealer and not seats[0].is_dealer               # the ace cut low: seat 2 deals
    assert not stopped


def test_a_code_that_is_not_a_card_is_said_and_nothing_is_played(table):
    masters, outputs, journal, _ = table
    _scan(masters["seat1"], "https://example.org/coupon")
    wait_until(lambda: any("not one of this deck's cards" in v.warning for v in outputs.views), 10,
               what="the sentence on the display")
    assert _actions(journal) == 0


def test_an_unplugged_scanner_is_started_again_with_a_sentence_and_then_stops_the_table(table):
    """Like every input the supervisor watches: started again, said, and when it cannot come back
    the table stops with a sentence, so that the service manager starts it again."""
    masters, outputs, journal, stopped = table
    os.close(masters["seat1"])                                          # the cable pulled: the pty is gone
    wait_until(lambda: any(v.warning.startswith("The scanner at seat1 stopped (the scanner at seat1 stopped "
                                                "answering") for v in outputs.views), 10, what="the scanner's sentence")
    wait_until(lambda: stopped, 10, what="the table stopping")
    assert outputs.views[-1].warning.startswith("The scanner at seat1 failed 6 times in a minute")


@settings(max_examples=200, deadline=None)
@given(line=st.binary(max_size=300) | st.sampled_from([payload_for(c, DECK).encode() for c in DECK.cards]))
def test_whatever_a_scanner_sends_it_never_invents_a_card_or_raises(line):
    master, slave, port = _pty()
    said: list = []
    try:
        reader = ScannerReader(port, "crib", DECK.name, said.append)
        reader.scanned(line)
        reader.link.close()
    finally:
        os.close(master)
        os.close(slave)
    assert len(said) <= 1
    for item in said:
        if isinstance(item, TableEvent):
            assert payload_for(item.card, DECK) == line.decode().strip() and item.zone == "crib"
        else:
            assert isinstance(item, Notice) and "it is ignored" in item.text


# --- chosen in the configuration file: [input] kind = "scanner" ---------------------------------

ZONES = ("seat1", "seat2", "starter", "crib")
CONFIG = """
[game]
name = "cribbage"
players = 2
[input]
kind = "scanner"
[scanner]
ports = {{ {ports} }}
[[display]]
kind = "png"
folder = "shots"
width = 128
height = 64
mode = "1"
[journal]
path = "journal.sqlite"
"""


@pytest.fixture
def scanner(monkeypatch):
    """The registry with the scanner added (and the shipped kinds' registry untouched after)."""
    monkeypatch.setattr(kinds, "_KINDS", reader_kinds())
    register_reader_kind(SCANNER)                                # the registration line
    return SCANNER


@pytest.fixture
def scanners(tmp_path):
    """A scanner's pseudo-terminal at each zone of a cribbage table for two, and its ``table.toml``
    naming them; yields the masters by zone and the config's path."""
    ptys = {zone: _pty() for zone in ZONES}
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.format(ports=", ".join(f'{zone} = "{port}"' for zone, (_, _, port) in ptys.items())))
    try:
        yield {zone: master for zone, (master, _, _) in ptys.items()}, path
    finally:
        _close(ptys)


def _check(path: Path, capsys) -> tuple[int, str]:
    code = main(["config", "check", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_an_unregistered_kind_is_refused_naming_the_kinds_and_with_its_line_the_config_takes_it(scanners, capsys):
    _, path = scanners
    code, out = _check(path, capsys)
    assert code == 1
    assert "input.kind: expected one of camera, rfid, got the text 'scanner'" in out
    assert "config.scanner: unknown key" in out
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kinds, "_KINDS", reader_kinds())
        register_reader_kind(SCANNER)
        code, out = _check(path, capsys)
        with pytest.raises(TypeError, match="already registered"):             # another kind of that name
            register_reader_kind(replace(SCANNER, described="barcode guns"))
    assert code == 0, out
    assert "calibration" not in out and "registry" not in out       # the camera's and the readers' files: not looked for


def test_its_section_and_its_zones_are_checked_like_every_kind(scanner, tmp_path):
    problems: list[str] = []
    document = {"game": {"name": "cribbage", "players": 2}, "input": {"kind": "scanner"},
                "scanner": {"ports": {"seat1": "/dev/ttyACM0", "seat2": 7, "crib": "/dev/ttyACM2"}, "port": "x"},
                "journal": {"path": "journal.sqlite"}}
    config = check_values(document, tmp_path / "table.toml", problems)
    assert problems == ["scanner.port: unknown key (did you mean 'ports'?)",
                        "scanner.ports.seat2: expected a serial port such as /dev/ttyACM0, got 7",
                        "scanner.ports: no scanner for zone 'seat2' for seat 2",
                        "scanner.ports: no scanner for zone 'starter', which Cribbage needs"]
    assert config.setup.swipe and config.reader is SCANNER


def test_the_doctor_and_the_owners_page_ask_the_kind(scanner, scanners):
    _, path = scanners
    config = load_config(path)
    assert [(f.name, f.status, f.detail) for f in doctor.check_readers(config)] == [
        ("camera", doctor.OK, "the table reads cards through code scanners"),
        ("reader board", doctor.OK, "the table reads cards through code scanners")]
    assert config.reader.enrolment(config) == "The scanners read the cards' printed codes: there is nothing to enrol."


def test_cardtable_run_starts_the_kind_the_config_names_and_its_scans_are_journalled(scanner, scanners):
    masters, path = scanners
    journal = path.parent / "journal.sqlite"

    def table():
        for count, (zone, card) in enumerate((("seat1", "KH"), ("seat2", "AC")), 1):   # the cut: seat 2 deals
            wait_until(lambda: _reading(f"scanner at {zone}"), 20, what=f"the scanner at {zone} started by the table")
            _scan(masters[zone], payload_for(DECK.card(card), DECK))
            wait_until(lambda: journalled(journal, count), 20, what=f"the cut {card} journalled")

    with beside_the_table(table):
        assert main(["run", "--config", str(path)]) == 0
    with Journal(journal) as kept:
        replay = kept.replay(kept.games()[-1].id)
    assert [str(a) for a, _ in replay.steps] == ["seat 1 cut KH", "seat 2 cut AC"]


def _reading(name: str) -> bool:
    """Whether the reader thread ``name`` runs: its port is open (opening it flushes what was sent before)."""
    return any(thread.name == name and thread.is_alive() for thread in threading.enumerate())


@settings(max_examples=200, deadline=None)
@given(value=toml_values(["ports", "seat1", "crib"]))
def test_whatever_its_section_holds_it_gives_its_spec_and_sentences(value):
    problems: list[str] = []
    spec = SCANNER_SECTION.read({"scanner": value}, problems, Context())
    assert isinstance(spec, ScannerSpec)
    assert all(isinstance(p, str) and p.startswith("scanner") for p in problems), problems
    assert all(isinstance(zone, str) and isinstance(port, str) and port.strip() for zone, port in spec.ports)
