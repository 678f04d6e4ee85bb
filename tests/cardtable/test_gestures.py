"""What a card laid or taken means: every gesture against every kind of prompt, and examples."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.table.gestures import Refuse, Submit, Wait, Wants, answer, seat_of
from engine.decks import get_deck
from engine.game import CardSlot, Prompt
from engine.table_events import MOVED, PLACED, REMOVED

CARDS = get_deck("standard").cards[:12]
ZONES = ("seat1", "seat2", "seat3", "crib", "starter", "nowhere")
SLOTS = {"play": CardSlot(1), "discard": CardSlot(2), "crib": CardSlot(4, "crib"), "cut": CardSlot(1, "starter"),
         "capture": CardSlot(1, "seat", taken=True)}
SEAT_ZONES = ("seat1", "seat2", "seat3")


def faces(cards):
    return " ".join(str(c.face) for c in cards)


@st.composite
def situations(draw):
    kinds = tuple(draw(st.lists(st.sampled_from([*SLOTS, "go", "bid"]), unique=True, max_size=3)))
    choices = tuple(draw(st.lists(st.lists(st.sampled_from(CARDS), min_size=1, max_size=3, unique=True)
                                  .map(faces), max_size=3, unique=True)))
    prompt = Prompt(draw(st.none() | st.integers(0, 2)), kinds, "Seat 1 to play", choices)
    needs = {kind: draw(st.integers(1, 4)) for kind in SLOTS}
    pending = {kind: tuple(draw(st.lists(st.sampled_from(CARDS), unique_by=lambda c: c.id, max_size=needs[kind] - 1)))
               for kind in draw(st.lists(st.sampled_from([k for k in SLOTS if k != "capture"]), unique=True))}
    taking = tuple(draw(st.lists(st.sampled_from(CARDS), unique_by=lambda c: c.id, max_size=2)))
    settled = frozenset(draw(st.lists(st.sampled_from([c.id for c in CARDS]))))
    return Wants(prompt, SLOTS, SEAT_ZONES, needs.__getitem__, pending, taking, settled,
                 blocked=draw(st.booleans()), finished=draw(st.booleans()), swipe=draw(st.booleans()))


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(situations(), st.sampled_from((PLACED, MOVED, REMOVED)), st.sampled_from(CARDS), st.sampled_from(ZONES))
def test_every_gesture_has_one_answer_that_keeps_to_what_the_table_wants(wants, kind, card, zone):
    got = answer(kind, card, zone, wants)
    prompt = wants.prompt
    held = any(c.id == card.id for c in wants.taking)
    if isinstance(got, Submit):
        assert got.kind in prompt.kinds and not wants.finished and not wants.blocked
        assert card in got.cards and len({c.id for c in got.cards}) == len(got.cards)   # never a card twice
        if got.taken:                                  # a capture: the cards taken off make a shown set
            assert kind == REMOVED and not wants.swipe
            assert " ".join(sorted(faces(got.cards).split())) in {" ".join(sorted(c.split())) for c in prompt.choices}
        else:                                          # laid: all the cards the kind needs, in its zone
            assert kind != REMOVED and not held
            assert len(got.cards) == wants.needed(got.kind)
            assert got.cards[:-1] == wants.pending.get(got.kind, ()) and got.cards[-1] == card
            slot = SLOTS[got.kind]
            if slot.zone != "seat":
                assert zone == slot.zone and got.seat == prompt.seat
            elif prompt.seat is None:
                assert got.seat == seat_of(zone, SEAT_ZONES) is not None
            else:
                assert got.seat == prompt.seat and zone == SEAT_ZONES[prompt.seat]
    elif isinstance(got, Refuse):
        assert kind != REMOVED and not held and got.reason
        assert got.blocked == (wants.blocked and not wants.finished)
        if wants.finished:
            assert got.reason == "the game is over"
        elif not wants.blocked:
            assert got.seat == seat_of(zone, SEAT_ZONES)
            assert got.reason.endswith(prompt.text)
    else:
        assert isinstance(got, Wait)
        if got.pending is not None:                     # collected: never as many as the kind needs
            assert all(len(cards) < wants.needed(k) for k, cards in got.pending.items())
            assert not wants.swipe or kind != REMOVED
            if kind == REMOVED:
                assert all(c.id != card.id for cards in got.pending.values() for c in cards)
            else:
                assert sum(map(len, got.pending.values())) == sum(map(len, wants.pending.values())) + 1
        if got.taking is not None:
            assert (card in got.taking) == (kind == REMOVED) and (kind == REMOVED or held)
    if kind == MOVED and card.id in wants.settled and not held:
        assert got == Wait()                           # a card slid aside is not a new play
    if kind == REMOVED and wants.swipe:
        assert got == Wait()                           # a swiped card taken off takes nothing back


def wants(prompt, **kwargs):
    return Wants(prompt, SLOTS, SEAT_ZONES, lambda kind: SLOTS[kind].count, **kwargs)


def test_a_crib_is_collected_card_by_card_then_submitted():
    w = wants(Prompt(None, ("crib",), "Lay the crib"))
    pending = {}
    for card in CARDS[:3]:
        got = answer(PLACED, card, "crib", wants(w.prompt, pending=pending))
        assert isinstance(got, Wait) and len(got.pending["crib"]) == len(pending.get("crib", ())) + 1
        pending = got.pending
    assert answer(PLACED, CARDS[0], "crib", wants(w.prompt, pending=pending)) == Wait()   # seen again
    assert answer(PLACED, CARDS[3], "crib", wants(w.prompt, pending=pending)) == Submit("crib", None, tuple(CARDS[:4]))


def test_a_card_out_of_turn_names_the_turn_and_the_seat_it_came_from():
    got = answer(PLACED, CARDS[0], "seat2", wants(Prompt(0, ("play",), "Seat 1 to play")))
    assert got == Refuse("it is not your turn: Seat 1 to play", 1)
    got = answer(PLACED, CARDS[0], "starter", wants(Prompt(0, ("play",), "Seat 1 to play")))
    assert got == Refuse("no card is wanted in starter now: Seat 1 to play", None)


def test_a_capture_is_the_set_of_cards_that_leave_the_table():
    a, b, c = CARDS[:3]
    prompt = Prompt(0, ("capture",), "Seat 1 takes", (f"{a.face} {b.face}", f"{c.face}"))
    first = answer(REMOVED, a, "centre", wants(prompt))
    assert first == Wait(taking=(a,))
    assert answer(REMOVED, b, "centre", wants(prompt, taking=(a,))) == Submit("capture", 0, (a, b), taken=True)
    wrong = answer(REMOVED, c, "centre", wants(prompt, taking=(a,)))
    assert isinstance(wrong, Wait) and "not one of the captures" in wrong.note
    assert answer(PLACED, a, "centre", wants(prompt, taking=(a,))) == Wait(taking=())       # put back
