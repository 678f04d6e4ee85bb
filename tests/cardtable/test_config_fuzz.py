"""Random config documents built from the real keys: checking never raises, and a config the
check accepts builds everything ``run`` needs (the game, the camera pipeline or the tag registry,
the button panel on mock pins) without an error."""

import tomllib

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardtable.commands.run_cmd import table_setup, tag_registry
from cardtable.config import ConfigError, check_config, load_config
from cardtable.controller import Controller
from cardtable.example_config import example_config
from cardtable.journal import Journal
from cardtable.sim.devices import demo_registry
from engine.decks import DECKS
from engine.game import all_games
from firmware_bridge.registry import default_path
from hardware.gpio import TablePanel
from vision.calibration import Calibration, save_calibration
from vision.pipeline import Pipeline

GAMES = {game.name: game for game in all_games()}
KEYS = {
    "game": ["name", "players", "mode", "seed", "options"],
    "table": ["names", "seat_zones"],
    "input": ["kind"],
    "vision": ["deck", "marker", "decoder", "calibration", "zone_units", "zones", "place_after", "remove_after",
               "camera", "resolution", "fps"],
    "rfid": ["port", "ports", "registry", "readers", "compat", "remove_after"],
    "gpio": ["buttons", "seat_leds", "buzzer", "buzzer_tone_hz", "button_pull_up", "led_active_high", "debounce_ms"],
    "journal": ["path"],
}
OPTIONS = sorted({option.name for game in all_games() for option in game.options})
ZONES = ["seat1", "seat2", "seat3", "seat4", "seat5", "starter", "crib", "centre", "pot", "seat 1", ""]

scalars = st.one_of(
    st.integers(min_value=-3, max_value=6), st.integers(), st.floats(), st.booleans(),
    st.text(max_size=8), st.sampled_from(ZONES + list(GAMES) + list(DECKS) + ["camera", "rfid", "table", "dealer",
                                                                               "auto", "~nosuchuser/x", "qr", "px"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.sampled_from(ZONES + OPTIONS), inner,
                                                                       max_size=4)), max_leaves=12)
mutation = st.one_of(
    st.tuples(st.sampled_from(sorted(KEYS)), st.sampled_from(sum(KEYS.values(), [])), values),
    st.tuples(st.just("game"), st.just("options"), st.dictionaries(st.sampled_from(OPTIONS), values, max_size=3)),
    st.tuples(st.just("vision"), st.just("zones"), st.dictionaries(st.sampled_from(ZONES), values, max_size=6)),
    st.tuples(st.sampled_from(sorted(KEYS) + ["display", "nonsense"]), st.none(), values),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A table folder holding the calibration the examples name and every deck's tag registry."""
    folder = tmp_path_factory.mktemp("table")
    save_calibration(Calibration(np.eye(3), (1920, 1080), 0.2), folder / "calibration.json")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(folder / "xdg"))
        for deck in DECKS:
            default_path(deck).parent.mkdir(parents=True, exist_ok=True)
            demo_registry(deck).save(default_path(deck))
        yield folder


def _document(game: str, players: int, kind: str, mutations) -> dict:
    data = tomllib.loads(example_config(GAMES[game], players).replace('kind = "camera"', f'kind = "{kind}"'))
    for section, key, value in mutations:
        if key is None:
            data[section] = value
        elif isinstance(data.get(section), dict):
            data[section][key] = value
    return data


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(GAMES)), players=st.integers(2, 5), kind=st.sampled_from(["camera", "rfid"]),
       mutations=st.lists(mutation, max_size=3))
def test_check_never_raises_and_what_it_accepts_starts(folder, monkeypatch, game, players, kind, mutations):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "xdg"))
    players = min(players, max(GAMES[game].players))
    found = check_config(_document(game, players, kind, mutations), folder / "table.toml")
    assert found.problems or found.steps or found.config is not None
    config = found.config
    event("accepted" if config else "refused")
    if config is None:
        assert found.problems or found.steps
        return
    with Journal(":memory:") as journal:
        Controller(table_setup(config), journal, resume=False)
    if config.input == "camera":
        Pipeline(config.vision)
    else:
        tag_registry(config)
    if config.gpio is not None:
        TablePanel(config.gpio, pin_factory=MockFactory()).close()


def test_the_unmutated_examples_start(folder, monkeypatch):
    """The property above is not empty: every example with its files is accepted."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "xdg"))
    for name, game in GAMES.items():
        for players in game.players:
            for kind in ("camera", "rfid"):
                found = check_config(_document(name, players, kind, []), folder / "table.toml")
                assert found.config is not None, found.problems + found.steps


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
                 st.sampled_from([b"\xef\xbb\xbf[game]\nname = 'cribbage'\n", b"a = " + b"[" * 5000,
                                  b"[game]\nplayers = 99999999999999999999999\n", b"[[display]]\n[[display]]\n"])))
def test_any_bytes_are_read_or_refused_in_words(folder, raw):
    (folder / "raw.toml").write_bytes(raw)
    try:
        load_config(folder / "raw.toml")
    except ConfigError as err:
        assert err.problems or err.steps
