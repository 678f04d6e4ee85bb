"""The scoring log and its pager: every score kept with its breakdown, paged with the buttons the
game does not need at that moment, held while it is read."""

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.table.score_log import ScoreLog
from cardtable.sim.simulation import table_moves
from engine.decks import get_deck
from engine.game import Event
from engine.games import get_game
from engine.table_events import ButtonPress, TableEvent
import pytest

DECK = get_deck("standard")


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def scored(seat, points, text):
    return Event("score", seat, points, text=text)


def test_left_and_right_page_when_no_choice_is_pending_and_the_log_button_always():
    clock = Clock()
    log = ScoreLog(clock=clock)
    log.add([scored(0, 2, "Seat 1: fifteen two"), Event("play", 1, text="Seat 2 plays 5H"),
             scored(1, 1, "Seat 2: one for last card"), scored(0, 6, "Seat 1: a pair royal is six")])
    assert log.entries == ["+2 Seat 1: fifteen two", "+1 Seat 2: one for last card", "+6 Seat 1: a pair royal is six"]
    assert log.page() is None
    assert not log.press("left", choices_pending=True) and log.page() is None   # the choices need them
    assert log.press("left", choices_pending=False) and log.page() == 2
    assert log.press("left", choices_pending=False) and log.page() == 1
    assert log.press("right", choices_pending=False) and log.page() == 2
    assert log.press("right", choices_pending=False) and log.page() is None     # past the newest
    for expected in (2, 1, 0, None):                                              # the log button cycles
        assert log.press("log", choices_pending=True) and log.page() == expected
    assert not log.press("ok", choices_pending=False)


def test_a_page_is_held_while_scores_come_in_and_until_the_hold_is_over():
    clock = Clock()
    log = ScoreLog(size=3, hold=30.0, clock=clock)
    log.add([scored(0, 2, "Seat 1: fifteen two"), scored(1, 2, "Seat 2: a pair is two")])
    log.press("log", choices_pending=True)
    log.press("log", choices_pending=True)
    assert log.entries[log.page()] == "+2 Seat 1: fifteen two"
    clock.now = 20.0
    log.add([scored(0, 1, "Seat 1: one for the go")])
    assert log.entries[log.page()] == "+2 Seat 1: fifteen two"                    # held, not moved
    log.add([scored(1, 3, "Seat 2: a run of three is three")])                   # the oldest drops out
    assert log.page() == 0 and log.count == 4 and len(log.entries) == 3
    clock.now = 51.0
    assert log.page() is None                                                     # back to the newest


def test_an_empty_log_leaves_the_buttons_to_the_controller():
    log = ScoreLog()
    assert not log.press("log", choices_pending=False) and not log.press("left", choices_pending=False)


def placed(card_id, zone):
    return TableEvent("placed", DECK.card(card_id), zone, 0.0, "test")


def press(name):
    return ButtonPress(name, 0.0)


def test_the_controller_logs_scores_pages_with_the_log_button_and_undo_takes_the_score_back(journal, outputs):
    c = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal, outputs)
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        c.handle(placed(card, zone))
    c.handle(press("ok"))
    c.handle(press("ok"))
    c.handle(placed("2H", "starter"))
    c.handle(placed("7C", "seat1"))
    c.handle(placed("8C", "seat2"))
    assert outputs.views[-1].score_log == ("+2 Bob: fifteen two",) and outputs.views[-1].log_fresh == 1
    assert outputs.views[-1].choices == () and outputs.views[-1].log_page is None   # at 15 every card fits: no go
    c.handle(press("log"))
    assert outputs.views[-1].log_page == 0 and not c.held.warning
    c.handle(placed("2C", "seat1"))                            # a move that scores nothing
    assert outputs.views[-1].log_fresh == 0 and outputs.views[-1].log_page == 0
    c.handle(press("undo"))
    assert outputs.views[-1].score_log == ("+2 Bob: fifteen two",)
    c.handle(press("undo"))
    assert outputs.views[-1].score_log == () and outputs.views[-1].log_page is None


@pytest.mark.slow
def test_after_the_game_left_and_right_page_through_its_last_scores(journal, outputs):
    game = get_game("cribbage")
    moves, _ = table_moves(game, 2, seed=3)
    c = Table(TableSetup("cribbage", 2), journal, outputs)
    for move in moves:                       # cards gathered up need not be said: they were played
        if move.kind in ("place", "press"):
            c.handle(TableEvent("placed", move.card, move.zone, 0.0, "sim") if move.kind == "place"
                     else press(move.button))
    assert c.game.finished
    final = outputs.views[-1]
    assert len(final.score_log) == 16 and c.game.score_log.count > 16
    c.handle(press("left"))
    c.handle(press("left"))
    assert outputs.views[-1].log_page == 14 and c.game.finished
