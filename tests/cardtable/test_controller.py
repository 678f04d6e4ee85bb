"""The controller at a simulated table: cards and buttons in, actions journalled, refusals shown."""

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal, open_for_play
from cardtable.sim.simulation import table_moves
from engine.decks import get_deck
from engine.games import get_game
from engine.table_events import ButtonPress, Notice, TableEvent
from vision.table_layout import seat_zone

DECK = get_deck("standard")


def placed(card_id, zone):
    return TableEvent("placed", DECK.card(card_id), zone, 0.0, "test")


def removed(card_id, zone):
    return TableEvent("removed", DECK.card(card_id), zone, 0.0, "test")


def press(name):
    return ButtonPress(name, 0.0)


def feed(controller, moves):
    on_table = {}
    for move in moves:
        if move.kind == "place":
            controller.handle(TableEvent("placed", move.card, move.zone, 0.0, "sim"))
            on_table[move.card.id] = move
        elif move.kind == "press":
            controller.handle(press(move.button))
        else:
            for m in on_table.values():
                controller.handle(TableEvent("removed", m.card, m.zone, 0.0, "sim"))
            on_table.clear()
        assert not controller.held.refused, (move, controller.held.warning)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_played_with_cards_and_buttons_matches_the_dealt_game(players, journal):
    game = get_game("cribbage")
    moves, final = table_moves(game, players, seed=players)
    controller = Table(TableSetup("cribbage", players), journal)
    feed(controller, moves)
    assert controller.game.finished
    assert game.scores(controller.game.state) == game.scores(final)
    assert journal.games()[-1].result == game.outcome(final).text


def _at_play(journal, outputs=None):
    """Cut (seat 2 deals), both discard, starter 2H: seat 1 to play."""
    c = Table(TableSetup("cribbage", 2), journal, outputs)
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        c.handle(placed(card, zone))
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        c.handle(removed(card, zone))
    c.handle(press("ok"))
    c.handle(press("ok"))
    c.handle(placed("2H", "starter"))
    assert c.game.rules.prompt(c.game.state).kinds == ("play", "go") and c.game.rules.prompt(c.game.state).seat == 0
    return c


def test_a_card_out_of_turn_is_refused_and_play_waits_until_it_is_taken_back(journal, outputs):
    c = _at_play(journal, outputs)
    c.handle(placed("5H", "seat2"))
    assert "not your turn" in c.held.warning and "Take back the 5H" in c.held.warning
    assert outputs.refusals[-1] == 1
    assert "not your turn" in outputs.views[-1].warning
    c.handle(placed("7C", "seat1"))                       # the right seat, but 5H is still out
    assert "Play waits: take back the 5H 7C first" == c.held.warning
    assert c.game.state.count == 0
    c.handle(removed("5H", "seat2"))
    assert "7C" in c.held.refused                              # 7C was laid while waiting: it goes back too
    c.handle(removed("7C", "seat1"))
    assert not c.held.refused and not c.held.warning
    c.handle(placed("7C", "seat1"))
    assert c.game.state.count == 7 and not c.held.warning


def test_a_played_card_slid_aside_is_not_a_new_play(journal):
    c = _at_play(journal)
    c.handle(placed("7C", "seat1"))
    c.handle(TableEvent("moved", DECK.card("7C"), "seat2", 0.0, "test", from_zone="seat1"))
    assert c.game.state.count == 7 and not c.held.warning and not c.held.refused


def test_an_illegal_card_is_refused_with_the_engines_reason(journal):
    c = _at_play(journal)
    for card, zone in (("KH", "seat1"), ("QH", "seat2"), ("JH", "seat1")):
        c.handle(placed(card, zone))
    c.handle(placed("5S", "seat2"))                        # 30 + 5
    assert "past 31" in c.held.warning and "5S" in c.held.refused
    assert c.game.state.count == 30


def test_a_card_in_the_wrong_zone_is_refused(journal):
    c = _at_play(journal)
    c.handle(placed("5S", "crib"))
    assert c.held.warning.startswith("No card is wanted in crib now")


def test_undo_takes_back_the_last_accepted_action(journal):
    c = _at_play(journal)
    c.handle(placed("7C", "seat1"))
    before = c.game.state
    c.handle(placed("8C", "seat2"))
    assert c.game.state.count == 15
    c.handle(press("undo"))
    assert c.game.state == before
    c.handle(removed("8C", "seat2"))
    c.handle(placed("9C", "seat2"))
    assert c.game.state.count == 16


def test_buttons_that_mean_nothing_now_say_so(journal):
    c = _at_play(journal)
    c.handle(press("beg"))
    assert "beg button does nothing now" in c.held.warning


def _at_22(journal, outputs=None):
    """Seat 1 to play at a count of 22, where a go is a claim the rules allow."""
    c = _at_play(journal, outputs)
    for card, zone in (("10H", "seat1"), ("QS", "seat2"), ("AC", "seat1"), ("AD", "seat2")):
        c.handle(placed(card, zone))
    assert c.game.state.count == 22 and c.game.rules.prompt(c.game.state).seat == 0
    return c


def test_the_go_button_is_the_prompted_choice(journal):
    c = _at_22(journal)
    c.handle(press("go"))
    assert c.game.state.passed == (True, False) and c.game.state.turn == 1


def test_a_go_when_every_card_fits_is_not_offered(journal):
    c = _at_play(journal)
    c.handle(press("go"))
    assert c.game.state.passed == (False, False) and "The go button does nothing now" in c.held.warning


def test_left_right_and_ok_pick_a_shown_choice(journal, outputs):
    c = _at_22(journal, outputs)
    c.handle(press("right"))
    assert outputs.views[-1].choices == ("go",) and outputs.views[-1].selected == 0
    c.handle(press("ok"))
    assert c.game.state.passed == (True, False)


def test_the_crib_is_collected_card_by_card(journal, outputs):
    c = _at_play(journal, outputs)
    for card, zone in (("10H", "seat1"), ("10S", "seat2"), ("5C", "seat1"), ("6D", "seat2"),
                       ("9H", "seat1"), ("9S", "seat2"), ("AH", "seat1"), ("AS", "seat2")):
        c.handle(placed(card, zone))
    assert c.game.rules.prompt(c.game.state).kinds == ("crib",)
    for card in ("5D", "5S", "5H"):
        c.handle(placed(card, "crib"))
    assert "3 of 4 cards seen" in outputs.views[-1].prompt
    c.handle(removed("5H", "crib"))
    assert "2 of 4 cards seen" in outputs.views[-1].prompt
    c.handle(placed("5H", "crib"))
    c.handle(placed("JH", "crib"))
    assert c.game.rules.prompt(c.game.state).kinds == ("discard",) and c.game.state.hand_no == 1


def test_a_notice_from_an_input_is_shown(journal, outputs):
    c = _at_play(journal, outputs)
    c.handle(Notice("A card the table does not know (tag 04A23B1C): enrol it first", "rfid"))
    assert "enrol it first" in outputs.views[-1].warning


def test_starting_again_resumes_the_same_game_at_the_same_point(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        c = _at_play(journal)
        c.handle(placed("7C", "seat1"))
        state = c.game.state
    with Journal(path) as journal:
        again = Table(TableSetup("cribbage", 2), journal)
        assert again.game.resumed and again.game.state == state


def test_the_view_never_shows_a_hand_or_the_crib_before_the_show(journal, outputs):
    c = _at_play(journal, outputs)
    c.handle(placed("7C", "seat1"))
    view = outputs.views[-1]
    shown = set(view.centre_cards) | set(view.play_cards)
    assert shown == {"2H", "7C"}


def test_a_bad_journal_row_is_found_by_its_seal_and_play_resumes_before_it(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        c = _at_play(journal)
        c.handle(placed("7C", "seat1"))
        state = c.game.state
        journal._db.execute("INSERT INTO actions (game_id, seq, action, at) VALUES (?, 99, '{\"$type\": \"os.system\"}', 0)",
                            (c.game.game_id,))
    opened = open_for_play(path)
    again = Table(TableSetup("cribbage", 2), opened.journal, notices=tuple(opened.notices))
    assert again.game.state == state
    assert "action 7 is damaged, kept up to action 6" in again.held.warning
    opened.journal.close()


def test_a_reader_deal_takes_each_seats_cards_and_never_names_them(journal, outputs):
    """All Fives with reader_deal: the table deals (no seat prompted); each card scanned at a
    seat's reader is dealt to that seat, and a refused one is not named on the display."""
    setup = TableSetup("allfives", 2, options={"reader_deal": True}, swipe=True)
    c = Table(setup, journal, outputs)
    for card, zone in (("KH", "seat1"), ("3C", "seat2")):         # cut: seat 1 deals
        c.handle(placed(card, zone))
    assert c.game.rules.prompt(c.game.state).kinds == ("deal",)
    dealt = ["2S", "3S", "4S", "5S", "6S", "7S", "2D", "3D", "4D", "5D", "6D", "7D"]
    for n, card in enumerate(dealt):
        c.handle(placed(card, seat_zone(n % 2)))
        assert not c.held.refused, c.held.warning
    assert c.game.state.held == (6, 6) and c.game.rules.prompt(c.game.state).kinds == ("turn_up",)
    c.handle(placed("9H", "starter"))                 # the turn-up is face up: play goes on
    assert c.game.rules.prompt(c.game.state).kinds != ("turn_up",)
    shown = " ".join(v.warning for v in outputs.views)
    assert not any(card in shown for card in dealt)


def test_a_refused_dealt_card_is_not_named(journal, outputs):
    c = Table(TableSetup("allfives", 2, options={"reader_deal": True}, swipe=True), journal, outputs)
    for card, zone in (("KH", "seat1"), ("3C", "seat2")):
        c.handle(placed(card, zone))
    for n in range(6):
        c.handle(placed(f"{n + 2}S", "seat1"))
    c.handle(placed("QD", "seat1"))                   # a seventh card for seat 1: refused
    assert c.held.refused and "QD" not in c.held.warning and "Take back the card just laid" in c.held.warning
    assert all("QD" not in v.warning and "2S" not in v.warning for v in outputs.views)


@pytest.mark.slow
@pytest.mark.parametrize("name, players, swipe", [("allfives", 2, False), ("allfives", 3, True), ("fifteen", 2, True)])
def test_a_whole_game_dealt_through_readers_matches_the_dealt_game(name, players, swipe, journal, outputs):
    game, options = get_game(name), {"reader_deal": True}
    moves, final = table_moves(game, players, seed=5, options=options, swipe=swipe)
    controller = Table(TableSetup(name, players, options=options, swipe=swipe), journal, outputs)
    feed(controller, moves)
    assert controller.game.finished and game.scores(controller.game.state) == game.scores(final)
    dealt = {str(m.card.face) for m in moves if m.kind == "place" and m.zone.startswith("seat")}
    warnings = " ".join(view.warning for view in outputs.views).split()
    assert not dealt & set(warnings)


def test_the_hint_button_says_the_rule_for_the_next_card_and_no_card_of_a_hand(journal, outputs):
    c = _at_play(journal, outputs)
    c.handle(placed("9C", "seat1"))
    c.handle(press("hint"))
    warning = outputs.views[-1].warning
    assert warning == "Count 9: any card worth 22 or less fits; with none, say go"


def test_at_a_teaching_table_the_hint_also_advises_the_seat_to_act_by_its_name(journal, outputs):
    c = Table(TableSetup("cribbage", 2, mode="dealer", names=("Ann", "Bob"), teaching=True), journal, outputs)
    c.handle(press("hint"))
    assert outputs.views[-1].warning.startswith("No rule to point out now. Ann: lay away ")
    plain = Table(TableSetup("cribbage", 2, mode="dealer", names=("Ann", "Bob")), journal, outputs)
    plain.handle(press("hint"))
    assert outputs.views[-1].warning == "No rule to point out now"          # not a teaching table: no hand
