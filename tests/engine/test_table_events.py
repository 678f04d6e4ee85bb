"""Table events and their JSON lines: a card, or a face-down card that has no identity."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.decks import get_deck
from engine.errors import InvalidInput
from engine.table_events import KINDS, FaceDown, TableEvent

DECKS = [get_deck(name) for name in ("standard", "french40", "its15")]


def test_a_face_down_event_says_face_down_and_names_no_card():
    event = TableEvent("placed", FaceDown("face-down-3"), "crib", 1.25, "camera")
    assert event.face_down and not TableEvent("placed", DECKS[0].card("4S"), "crib", 1.25).face_down
    assert event.to_json() == {"type": "placed", "face_down": True, "placeholder": "face-down-3", "zone": "crib",
                               "time": 1.25, "source": "camera"}
    assert str(event.card) == "face-down-3"


@pytest.mark.parametrize("text", ["4S", "face-down-0", "face-down-", "Face-down-1", "face-down-1 ", ""])
def test_a_face_down_card_never_takes_another_id(text):
    with pytest.raises(InvalidInput, match="is not a face-down card: those are face-down-1, face-down-2"):
        FaceDown(text)


def test_no_card_of_any_deck_looks_like_a_face_down_card():
    for deck in DECKS:
        for card in deck.cards:
            with pytest.raises(InvalidInput):
                FaceDown(card.id)


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=8)


@st.composite
def events(draw) -> tuple[TableEvent, object]:
    deck = draw(st.sampled_from(DECKS))
    card = draw(st.one_of(st.sampled_from(deck.cards),
                          st.integers(1, 10**6).map(lambda n: FaceDown(f"face-down-{n}"))))
    kind = draw(st.sampled_from(KINDS))
    time = round(draw(st.floats(0, 10**6, allow_nan=False)), 4)
    return TableEvent(kind, card, draw(names), time, draw(st.text(max_size=6)),
                      draw(names) if kind == "moved" else None), deck


@settings(max_examples=200, deadline=None)
@given(events())
def test_an_event_round_trips_through_its_json_line(made):
    event, deck = made
    line = json.loads(json.dumps(event.to_json()))
    assert TableEvent.from_json(line, deck) == event


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                           max_leaves=10)
fields = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(KINDS) | json_values, "card": st.sampled_from(["4S", "10H", "ZZ"]) | json_values,
    "face": json_values, "face_down": st.booleans() | json_values, "placeholder": st.just("face-down-2") | json_values,
    "zone": st.just("crib") | json_values, "time": st.floats() | json_values, "source": json_values,
    "from_zone": json_values})


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.one_of(fields, json_values))
def test_any_json_is_an_event_or_a_plain_refusal(data):
    try:
        event = TableEvent.from_json(data, DECKS[0])
    except InvalidInput as err:
        assert str(err) and "Traceback" not in str(err)
        return
    assert event.kind in KINDS and isinstance(event.zone, str)
    if event.face_down:
        assert event.card.id.startswith("face-down-") and event.card.id not in DECKS[0]
    else:
        assert event.card.id in DECKS[0]
