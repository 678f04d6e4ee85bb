"""A table started again mid-game: the cards the camera finds lying there (``present``) are
reconciled with the journal. Cards the game accepted are simply there, an unknown card is said
in a sentence, nothing is refused, and the game plays on to its end."""

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.sim.simulation import table_moves
from engine.decks import get_deck
from engine.games import get_game
from engine.table_events import ButtonPress, TableEvent


def play(controller, moves, on_table):
    """Feed the bots' moves as the camera reports them; nothing may be refused."""
    for move in moves:
        if move.kind == "place":
            controller.handle(TableEvent("placed", move.card, move.zone, 0.0, "camera"))
            on_table[move.card.id] = move
        elif move.kind == "press":
            controller.handle(ButtonPress(move.button, 0.0))
        else:
            for card in move.cards or (move.card,):
                controller.handle(TableEvent("removed", card, on_table.pop(card.id).zone, 0.0, "camera"))
        assert not controller.held.refused, (move, controller.held.warning)


@pytest.mark.slow
@pytest.mark.parametrize("name, options, cut", [("cribbage", {"target": 61}, 30), ("quinze", {"target": 1}, 40),
                                                ("allfives", {"target": 11}, 25)])
def test_a_table_started_again_mid_game_knows_the_cards_it_accepted_and_plays_on(tmp_path, name, options, cut):
    game = get_game(name)
    moves, dealt = table_moves(game, 2, seed=3, options=options, buttons=frozenset({"ok", "right", "left"}))
    setup = TableSetup(name, 2, options, seed=3)
    on_table = {}
    with Journal(tmp_path / "journal.sqlite") as journal:
        play(Table(setup, journal), moves[:cut], on_table)
    assert on_table, "cards lie on the table when it stops"
    with Journal(tmp_path / "journal.sqlite") as journal:
        again = Table(TableSetup(name, 2, options, seed=3), journal)
        assert again.game.resumed
        said = []
        for move in on_table.values():           # the camera, started again, finds them
            again.handle(TableEvent("present", move.card, move.zone, 0.0, "camera"))
            said.append(again.held.warning)
        assert not again.held.refused and not any(said), said
        play(again, moves[cut:], on_table)
        assert again.game.finished and game.scores(again.game.state) == game.scores(dealt)


def test_a_card_found_lying_that_the_game_never_saw_played_is_said_and_play_goes_on(tmp_path):
    game = get_game("cribbage")
    moves, _ = table_moves(game, 2, seed=3, options={"target": 61}, buttons=frozenset({"ok", "right", "left"}))
    on_table = {}
    with Journal(tmp_path / "journal.sqlite") as journal:
        play(Table(TableSetup("cribbage", 2, {"target": 61}, seed=3), journal), moves[:30], on_table)
        stranger = next(c for c in get_deck(game.deck).cards if c.id not in on_table and all(
            m.card is None or m.card.id != c.id for m in moves))
        again = Table(TableSetup("cribbage", 2, {"target": 61}, seed=3), journal)
        again.handle(TableEvent("present", stranger, "seat2", 0.0, "camera"))
        assert f"found the {stranger.face} lying in seat2" in again.held.warning
        assert not again.held.refused
        play(again, moves[30:40], on_table)
