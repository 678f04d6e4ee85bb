"""The tag registry file and the enrolment walk (pure: no port)."""

import json

import pytest

from engine.decks import get_deck
from engine.errors import InvalidInput
from firmware_bridge.enrol import DUPLICATE, ENROLLED, Enrolment
from firmware_bridge.registry import TagAlreadyEnrolled, TagRegistry


def test_save_load_round_trip_in_deck_order(tmp_path):
    registry = TagRegistry(get_deck("french40"))
    registry.enrol("04:a2:3b:1d", "2S")
    registry.enrol("04A23B1C", "AS")
    path = registry.save(tmp_path / "tags.json")
    data = json.loads(path.read_text())
    assert data["deck"] == "french40" and list(data["tags"].items()) == [("04A23B1C", "AS"), ("04A23B1D", "2S")]
    again = TagRegistry.load(path, deck="french40")
    assert again.card_for("04 A2 3B 1D").id == "2S" and again.uid_for("AS") == "04A23B1C" and len(again) == 2


def test_unknown_uids_are_never_cards():
    registry = TagRegistry(get_deck("standard"), {"04A23B1C": "7H"})
    assert registry.card_for("04A23B1D") is None and registry.card_for("not a uid") is None


def test_a_tag_cannot_be_two_cards_and_a_card_keeps_its_tag_unless_replaced():
    registry = TagRegistry(get_deck("standard"), {"04A23B1C": "7H"})
    with pytest.raises(TagAlreadyEnrolled, match="already enrolled as the seven of hearts"):
        registry.enrol("04A23B1C", "8H")
    with pytest.raises(InvalidInput, match="already has tag 04A23B1C"):
        registry.enrol("0A0B0C0D", "7H")
    registry.enrol("0A0B0C0D", "7H", replace=True)
    assert registry.card_for("04A23B1C") is None and registry.card_for("0A0B0C0D").id == "7H"


@pytest.mark.parametrize("text, message", [
    ("not json", "is not valid JSON"),
    ('{"format": "other", "tags": {}}', "not a cardtable RFID tag registry"),
    ('{"format": "cardtable-rfid-tags", "version": 9, "deck": "standard", "tags": {}}', "version 9"),
    ('{"format": "cardtable-rfid-tags", "version": 1, "deck": "standard", "tags": {"04A23B1C": "ZZ"}}', "no card 'ZZ'"),
    ('{"format": "cardtable-rfid-tags", "version": 1, "deck": "standard", "tags": {"04A23B1C": "7H", "04a23b1c": "8H"}}', "already enrolled"),
])
def test_damaged_files_give_clear_errors(tmp_path, text, message):
    path = tmp_path / "tags.json"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=message):
        TagRegistry.load(path)


def test_a_file_of_another_deck_is_refused(tmp_path):
    path = TagRegistry(get_deck("standard")).save(tmp_path / "t.json")
    with pytest.raises(InvalidInput, match="standard deck, not its15"):
        TagRegistry.load(path, deck="its15")


def test_enrolment_walks_the_deck_catches_a_tag_twice_and_resumes_from_the_file(tmp_path):
    path = tmp_path / "tags.json"
    walk = Enrolment(TagRegistry.load(path, deck="its15", create=True))
    assert walk.prompt() == "place the brown 1 on any reader (1/54)"
    assert walk.offer("04000001").status == ENROLLED
    duplicate = walk.offer("04000001")
    assert duplicate.status == DUPLICATE and duplicate.message == "that tag is already the brown 1: take it off and place the brown 2"
    assert walk.offer("04000002").status == ENROLLED
    walk.registry.save()
    resumed = Enrolment(TagRegistry.load(path, deck="its15"))
    assert resumed.progress == (2, 54) and resumed.prompt() == "place the brown 3 on any reader (3/54)"
    for n in range(3, 55):
        resumed.offer(f"04{n:06X}")
    assert resumed.current is None and resumed.offer("05000000").status == "done"
    assert resumed.registry.card_for("04000036").id == "V2O-2"
