"""Every source hands the table one input type, and every input walks one road: the owner's
requests are inputs of the same :class:`~cardtable.table.table.Table` as a card or a button, and
the reader bridge's sentences reach it as notices."""

import queue
import threading

from cardtable.table.journalled_game import TableSetup
from cardtable.table.loop import run_loop
from cardtable.table.owner_requests import ENDED
from cardtable.table.table import Table
from engine.decks import get_deck
from engine.games import get_game
from engine.table_events import ButtonPress, Notice, OwnerRequest, TableEvent
from engine.wording import default_names
from firmware_bridge.bridge import Bridge
from firmware_bridge.registry import TagRegistry
from firmware_bridge.twin import Twin
from vision.table_layout import seat_zones
from waiting import patience, wait_until

DECK = get_deck("standard")


def cut(table):
    """Both seats cut: the game's first actions are journalled."""
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        table.handle(TableEvent("placed", DECK.card(card), zone, 0.0, "test"))
    assert table.game.game_id is not None and table.game.kept == 2


def test_an_owner_start_is_an_input_of_the_same_table_and_the_old_game_ends_in_its_journal(journal, outputs):
    table = Table(TableSetup("cribbage", 2), journal, outputs, seat_zones=seat_zones(4))
    cut(table)
    old = table.game.game_id
    shown = len(outputs.views)
    request = OwnerRequest(kind="start", game="allfives", players=3, names=("Ann", " ", "Cy"))
    table.handle(request)
    assert request.answer.result(timeout=0) == "All Fives for 3 has started"
    assert len(outputs.views) == shown + 1                 # handled whole, then shown once, as a button
    assert table.game.setup.names == ("Ann", "Seat 2", "Cy") and table.game.rules.name == "allfives"
    assert journal.game(old).result == ENDED and table.game.game_id is None
    assert [view.game for view in outputs.views[-1:]] == ["All Fives"]


def test_an_owner_end_and_undo_walk_the_road_of_the_undo_button(journal, outputs):
    table = Table(TableSetup("cribbage", 2), journal, outputs)
    cut(table)
    undo = OwnerRequest(kind="undo")
    table.handle(undo)
    assert undo.answer.result(timeout=0) == "The last action was taken back"
    assert table.game.kept == 1 and outputs.views[-1].warning == "Undone: the last action was taken back"
    table.handle(ButtonPress("undo", 0.0))                 # the button: the same road, the same words
    assert table.game.kept == 0 and outputs.views[-1].warning == "Undone: the last action was taken back"
    cut(table)
    old = table.game.game_id
    end = OwnerRequest(kind="end")
    table.handle(end)
    assert end.answer.result(timeout=0) == "The game was ended; a new one has started"
    assert journal.game(old).result == ENDED and table.game.game_id is None and not table.game.finished


def test_the_loop_hands_an_owner_request_to_the_table_itself(journal, outputs):
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    table = Table(TableSetup("cribbage", 2), journal, outputs, seat_zones=seat_zones(4))
    request = OwnerRequest(kind="start", game="fifteen", players=2)
    items.put(request)
    loop = threading.Thread(target=run_loop, args=(table, items, stop), kwargs={"idle": 0.01})
    loop.start()
    try:
        assert request.answer.result(timeout=patience(10)) == "Fifteen for 2 has started"
    finally:
        stop.set()
        loop.join(timeout=patience(5))
    assert table.game.rules.name == "fifteen" and outputs.views[-1].game == "Fifteen"


def test_seats_are_named_by_default_in_one_place():
    assert default_names(3) == ("Seat 1", "Seat 2", "Seat 3")
    assert TableSetup("cribbage", 3).names == default_names(3)


def test_an_unknown_tag_reaches_the_table_as_a_notice_and_is_said(journal, outputs):
    """The real bridge on a microcontroller twin over a pseudo-terminal: its link coming up and a
    tag the registry does not know reach the table's queue as notices, nothing else."""
    items: queue.Queue = queue.Queue()
    got = []

    def arrived(wanted):
        while not items.empty():
            got.append(items.get())
        return any(isinstance(i, Notice) and wanted in i.text for i in got)

    with Twin(readers=2, heartbeat=0.25) as twin, \
            Bridge(twin.port, TagRegistry(DECK), zones=["seat1", "seat2"], on_input=items.put):
        wait_until(lambda: arrived("connected"), 10, what="the readers' link to come up")
        twin.place(1, "04A23B1C556607")
        wait_until(lambda: arrived("does not know"), 10, what="the unknown tag")
    assert all(isinstance(i, (TableEvent, ButtonPress, Notice)) for i in got)
    table = Table(TableSetup("cribbage", 2), journal, outputs)
    for item in got:
        table.handle(item)
    assert outputs.views[-1].warning == ("A card the table does not know is on seat2 (tag 04A23B1C556607): "
                                         "take it off, or enrol it with 'cardtable enroll rfid'")


def test_every_input_is_shown_once_and_a_card_accepted_computes_one_prompt(journal, outputs, monkeypatch):
    """The game's prompt is computed once per state it reaches, however many parts of the table
    ask for it (the rules' check of the action, the turn light, the view, the buttons)."""
    rules = get_game("cribbage")
    computed = []
    real = type(rules)._prompt
    monkeypatch.setattr(type(rules), "_prompt", lambda self, state: computed.append(state) or real(self, state))
    table = Table(TableSetup("cribbage", 2), journal, outputs)
    inputs = [TableEvent("placed", DECK.card("KH"), "seat1", 0.0, "test"), Notice("The card readers are connected"),
              ButtonPress("hint", 0.0), TableEvent("placed", DECK.card("AC"), "seat2", 0.0, "test"),
              TableEvent("removed", DECK.card("KH"), "seat1", 0.0, "test"), OwnerRequest(kind="fly")]
    for item in inputs:
        computed.clear()
        shown = len(outputs.views)
        kept = table.game.kept
        table.handle(item)
        assert len(outputs.views) == shown + 1, item                  # handled whole, then shown once
        assert len(computed) == table.game.kept - kept, item          # one prompt for each action accepted
    assert table.game.kept == 2
