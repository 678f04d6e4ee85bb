"""``cardtable advise``: ranked discards (text and JSON), the other games, and errors in words."""

import json

import pytest

from cardtable.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cribbage_json_is_the_ranked_discards_best_first(capsys):
    code, out, _ = run(capsys, "advise", "cribbage", "--hand", "5H 5D 5S JC 6H 4C", "--dealer", "--json")
    assert code == 0
    ranked = json.loads(out)
    assert len(ranked) == 15
    assert all(set(d) == {"discard", "keep", "hand_ev", "crib_ev", "net_ev"} for d in ranked)
    assert [d["net_ev"] for d in ranked] == sorted((d["net_ev"] for d in ranked), reverse=True)
    for d in ranked:
        assert sorted(d["discard"] + d["keep"]) == sorted("5H 5D 5S JC 6H 4C".split())
        assert d["net_ev"] == pytest.approx(d["hand_ev"] + d["crib_ev"], abs=0.002)


def test_cribbage_text_for_the_pone(capsys):
    code, out, _ = run(capsys, "advise", "cribbage", "--hand", "5H 5D 5S JC 6H 4C")
    lines = out.splitlines()
    assert code == 0 and "your opponent's" in lines[0]
    assert lines[2].startswith("6H 4C     5H 5D 5S JC    16.63")       # best first, crib subtracted
    assert len(lines) == 2 + 15


def test_cribbage_five_cards_with_three_players(capsys):
    code, out, _ = run(capsys, "advise", "cribbage", "--hand", "5H 5D 5S JC 6H", "--players", "3", "--json")
    assert code == 0 and len(json.loads(out)) == 5


@pytest.mark.parametrize("hand, message", [
    ("5H 5D 5S JC 6H 7X", "7X is not a card"),
    ("5H 5D 5S JC 6H 5H", "5H is in the hand twice"),
    ("5H 5D 5S", "has 5 or 6 cards, not 3"),
])
def test_bad_hands_get_a_clear_error(capsys, hand, message):
    code, out, err = run(capsys, "advise", "cribbage", "--hand", hand)
    assert code == 2 and out == ""
    assert err.startswith("cardtable: error: ") and message in err


def test_pegging(capsys):
    code, out, _ = run(capsys, "advise", "pegging", "--hand", "5H 9C 7D 8S", "--count", "10S 6H 7C")
    assert code == 0 and out.splitlines()[0].startswith("8S makes 31: thirty-one, a run of three for 5")
    code, out, _ = run(capsys, "advise", "pegging", "--hand", "KH", "--count", "10S JD QC", "--json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = run(capsys, "advise", "pegging", "--hand", "KH", "--count", "10S JD QC")
    assert "say go" in out


def test_tricks(capsys):
    code, out, _ = run(capsys, "advise", "tricks", "--game", "allfives", "--hand", "5H KH 2C", "--trick", "QH",
                       "--trump", "H", "--json")
    advice = json.loads(out)
    assert code == 0 and advice["legal"] == ["5H", "KH"] and advice["reason"] == "you must follow hearts"
    assert advice["suggestion"] == "KH"


def test_quinze_and_its15(capsys):
    code, out, _ = run(capsys, "advise", "quinze", "--table", "6S 2H JD 4C", "--hand", "7C 3D")
    assert code == 0 and out.splitlines()[0].startswith("7C takes 2H 6S: 3 cards, 1 seven, 1 club, the seven of clubs")
    code, out, _ = run(capsys, "advise", "its15", "--mine", "9", "--centre", "5", "--others", "1", "--json")
    assert code == 0 and json.loads(out)["chance"] == pytest.approx(8 / 9, abs=1e-4)
    code, _, err = run(capsys, "advise", "its15", "--mine", "nine", "--centre", "5", "--others", "1")
    assert code == 2 and "'nine' is not a number" in err
