"""docs/adding_a_reader.md, proven: a reader kind (a hand-held code scanner,
tests/cardtable/scanner_reader.py) joins the table with its module and one registration line
(the supervisor's ``watch``): over real pseudo-terminals its scans reach the controller through
the table loop and are journalled, a code that is not a card is said and ignored, and an unplugged
scanner is started again with a sentence."""

from __future__ import annotations

import os
import queue
import threading
import tty

import pytest
from hypothesis import given, settings, strategies as st

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.table.loop import InputFailed, Supervisor, run_loop
from engine.decks import get_deck
from engine.table_events import Notice, TableEvent
from scanner_reader import ScannerReader
from vision.markers import payload_for
from waiting import patience, wait_until

DECK = get_deck("standard")


def _pty() -> tuple[int, int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


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
            for master, slave, _ in ptys.values():
                for fd in (master, slave):
                    try:
                        os.close(fd)
                    except OSError:
                        pass


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
