"""Face-down cards at the table: counted per zone, said in plain words and shown beside the
prompt, never played and never refused (a crib laid away, a hand put down)."""

from __future__ import annotations

import pytest

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from engine.decks import get_deck
from engine.table_events import ButtonPress, FaceDown, TableEvent
from hardware.display.layout import render_frame

DECK = get_deck("standard")


def down(kind: str, n: int, zone: str, from_zone: str | None = None) -> TableEvent:
    return TableEvent(kind, FaceDown(f"face-down-{n}"), zone, 0.0, "camera", from_zone)


def card(kind: str, card_id: str, zone: str) -> TableEvent:
    return TableEvent(kind, DECK.card(card_id), zone, 0.0, "camera")


@pytest.fixture
def discarding(journal, outputs):
    """Cribbage for Ann and Bob, cut (Bob deals): Ann to lay two cards away to the crib."""
    c = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal, outputs)
    for kind in ("placed", "removed"):
        c.handle(card(kind, "KH", "seat1"))
        c.handle(card(kind, "AC", "seat2"))
    assert c.game.prompt.kinds == ("discard",) and c.game.prompt.seat == 0
    return c


def test_a_crib_laid_face_down_is_counted_and_said_not_played(discarding, outputs):
    c = discarding
    actions = len(c.game.journal.raw_actions(c.game.game_id))
    c.handle(down("placed", 1, "crib"))
    c.handle(down("placed", 2, "crib"))
    assert c.held.warning == "The crib: 2 cards face down"
    assert not c.held.refused and outputs.refusals == []
    assert len(c.game.journal.raw_actions(c.game.game_id)) == actions             # a face-down card is never an action
    assert outputs.views[-1].prompt == "Ann: lay two cards away to Bob's crib (the crib: 2 cards face down)"
    c.handle(ButtonPress("ok", 0.0))                                 # Ann has laid away
    for n in (3, 4):
        c.handle(down("placed", n, "crib"))
    assert c.held.warning == "The crib: 4 cards face down"
    assert outputs.views[-1].prompt == "Bob: lay two cards away to Bob's crib (the crib: 4 cards face down)"


def test_a_hand_put_down_is_counted_at_its_seat_and_followed_between_zones(discarding, outputs):
    c = discarding
    for n in (1, 2, 3):
        c.handle(down("placed", n, "seat2"))
    assert outputs.views[-1].warning == "Bob: 3 cards face down"          # the seat said with its player's name
    c.handle(down("moved", 3, "crib", from_zone="seat2"))
    assert c.held.warning == "The crib: 1 card face down"
    assert outputs.views[-1].prompt.endswith("(Bob: 2 cards face down, the crib: 1 card face down)")
    c.handle(down("removed", 1, "seat2"))
    c.handle(down("removed", 2, "seat2"))
    assert outputs.views[-1].warning == "Bob: no cards face down"
    assert outputs.views[-1].prompt.endswith("(the crib: 1 card face down)")


def test_a_face_down_card_while_a_card_is_refused_keeps_the_table_asking_for_it(discarding, outputs):
    c = discarding
    c.handle(card("placed", "5H", "seat2"))                        # not Bob's turn: refused, never named
    waiting = c.held.warning
    assert waiting.endswith("Take back the card just laid to go on")
    c.handle(down("placed", 1, "crib"))
    assert c.held.warning == waiting and list(c.held.refused) == ["5H"]
    assert "the crib: 1 card face down" in outputs.views[-1].prompt


def test_the_display_shows_the_count_with_the_prompt(discarding, outputs, tmp_path):
    discarding.handle(down("placed", 1, "crib"))
    image, frame = render_frame(outputs.views[-1], 320, 240)
    image.save(tmp_path / "face_down.png")
    assert "1 card face down" in frame.text_of("prompt")
