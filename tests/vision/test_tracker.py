"""The tracker's rules, on hand-made sightings and a fake clock."""

from engine.decks import get_deck
import pytest
from vision.tracker import Sighting, Tracker

DECK = get_deck("standard")
TEN, QUEEN = DECK.card("10H"), DECK.card("QS")


def run(tracker, frames):
    """frames: list of (time, [(card, zone), ...]) -> list of (kind, card id, zone, time)."""
    out = []
    for now, seen in frames:
        out += [(e.kind, e.card.id, e.zone, round(e.time, 2), e.from_zone)
                for e in tracker.update([Sighting(c, z) for c, z in seen], now)]
    return out


def frames(t0, t1, seen, fps=30):
    return [(t0 + i / fps, seen) for i in range(int((t1 - t0) * fps))]


def test_placed_after_steady_sighting_then_removed_after_long_absence():
    t = Tracker(place_after=0.25, remove_after=3.0)
    events = run(t, frames(0, 1, [(TEN, "seat1")]) + frames(1, 5, []))
    assert events == [("placed", "10H", "seat1", 0.27, None), ("removed", "10H", "seat1", 3.97, None)]


def test_a_two_second_occlusion_does_not_remove():
    t = Tracker()
    events = run(t, frames(0, 1, [(TEN, "seat1")]) + frames(1, 3, []) + frames(3, 4, [(TEN, "seat1")]))
    assert [e[0] for e in events] == ["placed"]
    assert t.on_table == {"10H": "seat1"}


def test_a_glimpse_shorter_than_place_after_is_no_event():
    assert run(Tracker(place_after=0.25), frames(0, 0.2, [(TEN, "seat1")]) + frames(0.2, 1, [])) == []


def test_sliding_to_another_zone_is_one_moved_event():
    events = run(Tracker(), frames(0, 1, [(TEN, "seat1")]) + frames(1, 1.5, []) + frames(1.5, 2.5, [(TEN, "centre")]))
    assert [(e[0], e[2], e[4]) for e in events] == [("placed", "seat1", None), ("moved", "centre", "seat1")]


def test_outside_every_zone_counts_as_not_seen():
    assert run(Tracker(), frames(0, 1, [(TEN, None)])) == []


def test_two_cards_are_independent():
    events = run(Tracker(), frames(0, 1, [(TEN, "seat1"), (QUEEN, "seat2")]))
    assert sorted(e[1] for e in events) == ["10H", "QS"]


def test_by_default_a_card_is_placed_at_once_and_removed_on_evidence_not_on_absence():
    t = Tracker()
    events = run(t, frames(0, 0.1, [(TEN, "seat1")]) + frames(0.1, 10.1, []))   # covered for 10 s
    assert events == [("placed", "10H", "seat1", 0.0, None)]
    assert [(e.kind, e.card.id, e.time) for e in t.update([], 10.2, gone={"10H"})] == [("removed", "10H", 10.2)]
    assert t.update([], 10.3, gone={"10H"}) == [] and t.on_table == {}


@pytest.mark.slow
def test_a_card_seen_this_frame_is_not_removed_by_evidence_from_its_old_place():
    t = Tracker()
    run(t, frames(0, 0.2, [(TEN, "seat1")]))
    events = t.update([Sighting(TEN, "centre")], 0.3, gone={"10H"})
    assert [(e.kind, e.zone, e.from_zone) for e in events] == [("moved", "centre", "seat1")]
