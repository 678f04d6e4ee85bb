"""The reader view: edges and snapshots give exactly the changes, never a repeat."""

from firmware_bridge.readers import ReaderView


def kinds(changes):
    return [(c.kind, c.reader, c.uid, c.from_reader) for c in changes]


def test_repeated_placed_is_nothing_new_and_a_new_tag_replaces_the_old():
    view = ReaderView()
    assert kinds(view.tag(0, True, "AAAAAAAA", 1)) == [("placed", 0, "AAAAAAAA", None)]
    assert view.tag(0, True, "AAAAAAAA", 2) == []
    assert kinds(view.tag(0, True, "BBBBBBBB", 3)) == [("removed", 0, "AAAAAAAA", None), ("placed", 0, "BBBBBBBB", None)]


def test_a_removed_whose_placed_was_lost_reports_both_in_order():
    view = ReaderView()
    assert kinds(view.tag(2, False, "AAAAAAAA", 1)) == [("placed", 2, "AAAAAAAA", None), ("removed", 2, "AAAAAAAA", None)]
    assert view.uids == {}


def test_a_tag_placed_on_another_reader_moved():
    view = ReaderView()
    view.tag(0, True, "AAAAAAAA", 1)
    assert kinds(view.tag(1, True, "AAAAAAAA", 2)) == [("moved", 1, "AAAAAAAA", 0)]
    assert view.uids == {1: "AAAAAAAA"}


def test_a_snapshot_heals_lost_edges_and_repeating_it_changes_nothing():
    view = ReaderView()
    view.tag(0, True, "AAAAAAAA", 1)
    view.tag(3, True, "CCCCCCCC", 1)
    snapshot = (None, "BBBBBBBB", None, "CCCCCCCC")
    assert kinds(view.state(0, snapshot, 2)) == [("removed", 0, "AAAAAAAA", None), ("placed", 1, "BBBBBBBB", None)]
    assert view.state(0, snapshot, 3) == []


def test_a_snapshot_swapping_two_cards_reports_two_moves():
    view = ReaderView()
    view.state(0, ("AAAAAAAA", "BBBBBBBB"), 1)
    assert sorted(kinds(view.state(0, ("BBBBBBBB", "AAAAAAAA"), 2))) == [
        ("moved", 0, "BBBBBBBB", 1), ("moved", 1, "AAAAAAAA", 0)]


def test_a_split_snapshot_sees_a_move_across_its_parts():
    view = ReaderView()
    view.state(4, ("AAAAAAAA",), 1)
    assert kinds(view.state(0, ("AAAAAAAA", None, None, None), 2)) == [("moved", 0, "AAAAAAAA", 4)]
    assert view.state(4, (None, None, None, None), 3) == []


def test_cross_talk_showing_one_tag_on_two_readers_does_not_ping_pong():
    view = ReaderView()
    view.tag(1, True, "AAAAAAAA", 1)
    for now in (2, 3, 4):
        assert view.state(0, ("AAAAAAAA", "AAAAAAAA"), now) == []
    assert view.uids == {1: "AAAAAAAA"}
