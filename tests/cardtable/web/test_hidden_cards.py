"""The page never sends a hidden card: every byte the server sends during whole games, in table
mode (the demo at a simulated table) and in dealer mode (the engine deals and knows every hand),
is read, and no card a player holds hidden appears in it, by its code ("QS") or its name
("the queen of spades")."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.sim.demo import run_demo
from cardtable.journal import Journal
from cardtable.table.outputs import TableOutputs
from cardtable.network.demo import Held
from cardtable.web.page import TablePage
from engine.bots import GreedyBot, RandomBot
from engine.games import get_game
from waiting import patience

pytestmark = pytest.mark.slow          # whole games watched through the page's stream

RANKS = {"ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
         "nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K"}
CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")
NAME = re.compile(r"\b(" + "|".join(RANKS) + r") of (spade|heart|diamond|club)s\b", re.IGNORECASE)


def cards_in(text: str) -> set[str]:
    found = {rank + suit for rank, suit in CODE.findall(text)}
    found |= {RANKS[rank.lower()] + suit[0].upper() for rank, suit in NAME.findall(text)}
    return found


def test_the_card_reader_finds_codes_and_names():
    assert cards_in('{"cards":["10H","QS"],"t":"the ace of diamonds; KC10"}') == {"10H", "QS", "AD"}


class Wire:
    """Every byte of the page's event stream, checked piece by piece as the game goes on."""

    def __init__(self, sse, page: TablePage) -> None:
        self.page = page
        self.reader = sse(page.url + "/events")
        self.checked = 0
        self.reader.wait_for(lambda e, d: True, timeout=10) if page.hub.broadcaster.retained else time.sleep(0.2)

    def new_bytes(self) -> str:
        """What arrived since the last call, once the page has received the latest view."""
        latest = self.page.hub.broadcaster.retained.get("view")
        if latest is not None:
            want = json.loads(latest.data)
            self.reader.wait_for(lambda event, data: event == "view" and data == want, timeout=10)
        with self.reader.lock:
            raw = bytes(self.reader.raw[self.checked:])
            self.checked = len(self.reader.raw)
        return raw.decode("utf-8")


def held_cards(state) -> set[str]:
    """The dealer-mode state's hidden cards: hands, the crib, the stock."""
    cards: set[str] = set()

    def walk(value):
        if isinstance(value, (tuple, list)):
            for item in value:
                walk(item)
        elif value is not None and hasattr(value, "suit"):
            cards.add(str(value))
    for name in ("hands", "crib", "stock"):
        walk(getattr(state, name, ()))
    return cards


def public_cards(game, state) -> set[str]:
    view = game.public_view(state)
    return {str(c) for c in view.centre_cards + view.play_cards}


@pytest.fixture
def page(tmp_path):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite")
    yield page
    page.close()


@pytest.mark.parametrize("game_name, players", [("cribbage", 2), ("allfives", 2), ("quinze", 2)])
def test_dealer_mode_never_sends_a_card_someone_holds(game_name, players, page, sse, tmp_path):
    game = get_game(game_name)
    wire = Wire(sse, page)
    leaks = []
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = Table(TableSetup(game.name, players, mode="dealer", seed=5), journal,
                                TableOutputs([page]), resume=False)
        bots = [(GreedyBot if n % 2 else RandomBot)(random.Random(n)) for n in range(players)]
        # a card once shown may be named again later (a scoring sentence still on the display
        # after the next deal put it back in the stock); a card never shown may not appear at all
        shown_ever: set[str] = set()
        steps = 0
        while not controller.game.finished and steps < 2000:
            state = controller.game.state
            prompt = game.prompt(state)
            action = (game.legal_actions(state)[0] if prompt.seat is None
                      else bots[prompt.seat].choose(game, state, prompt.seat))
            events = controller.submit(action)
            assert events is not None
            steps += 1
            # the hands and the crib laid out in the show are the table's to see (and stay in view)
            laid_out = {str(c) for e in events if e.kind == "show" for c in e.cards}
            shown_now = public_cards(game, controller.game.state) | {str(c) for c in game.conceal(action).cards} | laid_out
            shown_ever |= shown_now
            hidden = held_cards(controller.game.state) - shown_ever
            view = json.loads(page.hub.broadcaster.retained["view"].data)
            assert set(view["centre"]["cards"] + view["play"]["cards"]) <= public_cards(game, controller.game.state)
            sent = cards_in(wire.new_bytes())
            if sent & hidden:
                leaks.append((steps, str(action), sorted(sent & hidden)))
        assert controller.game.finished
        never_shown = held_cards(game.new_game(players, mode="dealer", seed=5)) - shown_ever
        for path in ("/history.json", f"/history/{controller.game.game_id}.json", "/view.json"):
            body = urllib.request.urlopen(page.url + path, timeout=patience(10)).read().decode()
            assert not (cards_in(body) & never_shown - cards_in_events(journal, controller.game.game_id)), path
    assert not leaks, leaks[:5]


def cards_in_events(journal: Journal, game_id: int) -> set[str]:
    """Cards the engine said aloud to the whole table (a hand laid out for the show)."""
    return {card for _, events in journal.replay(game_id).steps for e in events for card in cards_in(e.text)}


@pytest.mark.parametrize("game_name, players", [("cribbage", 2), ("fifteen", 2)])
def test_table_mode_sends_only_cards_that_were_laid_face_up(game_name, players, page, sse, tmp_path):
    wire = Wire(sse, page)
    laid: set[str] = set()
    leaks = []

    def on_move(move, controller):
        if move.kind == "place":
            laid.add(str(move.card.face))
        extra = cards_in(wire.new_bytes()) - laid
        if extra:
            leaks.append((str(move), sorted(extra)))
    result = run_demo(game_name, players=players, input_kind="rfid", seed=4, out_dir=tmp_path,
                      displays=[Held(page)], on_move=on_move)
    assert result.agrees
    assert not leaks, leaks[:5]
