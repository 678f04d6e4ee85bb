"""Random config documents built from the real keys: checking never raises, and a config the
check accepts builds everything ``run`` needs (the game, the camera pipeline or the tag registry,
the button panel on mock pins) without an error. Random bytes, special files (FIFOs, devices,
folders, symlink loops), other encodings, deep nesting and huge sizes as the config, the
calibration or the tag registry are refused in words, without waiting or reading without end."""

import tomllib

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardtable.config import ConfigError, check_config, load_config
from cardtable.config.app_sections import INPUT
from cardtable.table.table import Table
from cardtable.config.example import example_config
from cardtable.journal import Journal
from cardtable.sim.devices import demo_registry
from engine.decks import DECKS
from engine.games import all_games
from firmware_bridge.registry import TagRegistry, default_path
from hardware.config import GPIO
from hardware.gpio import TablePanel
from hostile_files import finishes, put_hostile
from vision.calibration import Calibration, save_calibration
from vision.config import VISION
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


@pytest.mark.slow
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
        Table(config.setup, journal, resume=False)
    if config[INPUT].kind == "camera":
        Pipeline(config[VISION], calibration=config.calibration)
    else:
        assert isinstance(config.registry, TagRegistry)
    if config[GPIO] is not None:
        TablePanel(config[GPIO], pin_factory=MockFactory()).close()


def test_the_unmutated_examples_start(folder, monkeypatch):
    """The property above is not empty: every example with its files is accepted."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "xdg"))
    for name, game in GAMES.items():
        for players in game.players:
            for kind in ("camera", "rfid"):
                found = check_config(_document(name, players, kind, []), folder / "table.toml")
                assert found.config is not None, found.problems + found.steps


@pytest.mark.slow
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


# -- hostile files: special files, encodings, deep nesting, huge sizes (issue 24) -----------------
CAMERA_TABLE = example_config(GAMES["cribbage"], 2)
RFID_TABLE = CAMERA_TABLE.replace('kind = "camera"', 'kind = "rfid"') + '\n[rfid]\nregistry = "tags.json"\n'
SPECIAL = ["fifo", "/dev/zero", "/dev/null", "/dev/urandom", "folder", "loop", "missing"]
ENCODINGS = ["utf-16", "utf-32", "latin-1", "cp1252", "shift_jis"]
contents = st.one_of(
    st.sampled_from(SPECIAL),
    st.binary(max_size=300),
    st.tuples(st.text(min_size=1, max_size=60), st.sampled_from(ENCODINGS)).map(
        lambda t: t[0].encode(t[1], "replace")),
    st.tuples(st.sampled_from(["[", '{"a":', "a = [", "x = {y = "]), st.integers(20, 300_000)).map(
        lambda t: (t[0] * t[1]).encode()),
    st.integers(min_value=(1 << 20) - 2, max_value=8 << 30),          # a sparse file of this many bytes
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.sampled_from(["table.toml", "calibration.json", "tags.json"]), content=contents)
def test_a_hostile_file_as_config_calibration_or_registry_is_refused_in_words(folder, tmp_path_factory, target,
                                                                              content):
    table = tmp_path_factory.mktemp("hostile")
    (table / "table.toml").write_text(RFID_TABLE if target == "tags.json" else CAMERA_TABLE, encoding="utf-8")
    (table / "calibration.json").write_bytes((folder / "calibration.json").read_bytes())
    demo_registry("standard").save(table / "tags.json")
    (table / target).unlink()
    put_hostile(table / target, content)
    event(f"{target}: {content if isinstance(content, str) else type(content).__name__}")

    def load():
        try:
            return load_config(table / "table.toml")
        except ConfigError as err:
            return err

    found = finishes(load)
    assert isinstance(found, ConfigError), "a hostile file was accepted"
    assert found.problems or found.steps
    said = "\n".join(found.problems + found.steps)
    assert "Errno" not in said and "Traceback" not in said
