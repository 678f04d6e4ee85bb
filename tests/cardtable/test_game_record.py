"""The public record of a finished game carries the margin its game gave the win, for the club."""

import random

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.pages.records import game_record
from engine.bots import RandomBot
from engine.game import Margin
from engine.games import get_game


def test_a_finished_games_record_carries_its_outcomes_margin(tmp_path):
    game = get_game("cribbage")
    bots = [RandomBot(random.Random(n)) for n in range(2)]
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = Table(TableSetup("cribbage", 2, mode="dealer", seed=3), journal)
        while not game.is_terminal(controller.game.state):
            seat = game.prompt(controller.game.state).seat
            assert controller.submit(bots[seat].choose(game, controller.game.state, seat)) is not None
        record = game_record(journal, journal.games()[-1])
    margin = game.outcome(controller.game.state).margin
    assert record["margin"] == margin.value and Margin(record["margin"]) is margin and record["winners"]
