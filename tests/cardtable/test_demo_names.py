"""``cardtable demo --names "Ann,Bob"``: a demo that says the players' names, and a list of names
that does not fit the seats refused in words."""

import pytest
from hypothesis import given, strategies as st

from cardtable.cli import main
from cardtable.sim.demo import check_names
from engine.errors import InvalidInput


@pytest.mark.slow
def test_a_demo_with_names_says_them(tmp_path, capsys):
    assert main(["demo", "--input", "rfid", "--names", "Ann, Bob", "--seed", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    scores = [line for line in out.splitlines() if line.startswith("  +")]
    assert scores and all(line.split()[1].rstrip(":") in ("Ann", "Bob") for line in scores)
    assert "Seat 1" not in out and "Seat 2" not in out
    assert ("Ann wins" in out) != ("Bob wins" in out)


@pytest.mark.parametrize("names, said", [
    ("Ann", "--names gives 1 name for 2 players: give one name per seat, separated by commas"),
    ("Ann,Bob,Cy", "--names gives 3 names for 2 players: give one name per seat, separated by commas"),
    ("Ann, ", "--names has an empty name (name 2): give one name per seat, separated by commas"),
    ("Ann,ann", "--names gives the name 'ann' twice: each seat needs a name of its own"),
])
def test_names_that_do_not_fit_the_seats_are_refused_in_words(names, said, tmp_path, capsys):
    assert main(["demo", "--input", "rfid", "--names", names, "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"cardtable: error: {said}\n"
    assert not (tmp_path / "journal.sqlite").exists()


@given(st.text(max_size=60), st.integers(min_value=2, max_value=5))
def test_any_names_text_gives_one_name_a_seat_or_a_sentence(text, players):
    try:
        names = check_names(text, players)
    except InvalidInput as err:
        assert str(err).startswith("--names ")
        return
    assert len(names) == players and all(name == name.strip() and name and name.isprintable() for name in names)
    assert len({name.casefold() for name in names}) == players
