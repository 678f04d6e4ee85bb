"""The config's one mechanism: every section is a :class:`config_kit.section.Section` its package
exports, read the same way; a section a package adds is its module plus one registration line
(tests/cardtable/lamp_section.py, registered here), and any value TOML can hold in any section
gives a typed spec and sentences, never an exception."""

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.config import check_config, check_values, sections
from config_kit.section import Context
from lamp_section import LAMP, LampSpec

PATH = Path("/tmp/cardtable-table/table.toml")
GOOD = {"game": {"name": "cribbage", "players": 2}, "input": {"kind": "rfid"},
        "rfid": {"readers": ["seat1", "seat2", "starter", "crib"]}, "journal": {"path": "journal.sqlite"}}
#: keys each section knows (and a few it does not), for documents built at random
KEYS = {
    "game": ["name", "players", "mode", "seed", "options"],
    "table": ["names", "seat_zones", "teaching"],
    "input": ["kind"],
    "vision": ["deck", "marker", "decoder", "calibration", "zone_units", "zones", "place_after", "remove_after",
               "camera", "resolution", "fps", "recognition", "faces"],
    "rfid": ["port", "ports", "registry", "readers", "compat", "remove_after"],
    "display": ["kind", "driver", "interface", "port", "address", "device", "gpio_dc", "width", "height", "mode",
                "folder", "prefix", "live", "fullscreen", "rotate", "backlight"],
    "gpio": ["buttons", "seat_leds", "buzzer", "buzzer_tone_hz", "button_pull_up", "led_active_high", "debounce_ms"],
    "journal": ["path"],
    "web": ["enabled", "port", "host", "pin"],
    "club": ["broker", "club", "table", "username", "password"],
    "speech": ["enabled", "voice", "rate", "volume", "plays", "scores"],
}
WORDS = ["cribbage", "rfid", "camera", "luma", "png", "terminal", "ssd1306", "spi", "i2c", "qr", "aruco", "faces",
         "mqtt://127.0.0.1:1", "seat1", "starter", "en", "~nosuchuser/x", "", " ", "a\x00b"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-3, 300), st.floats(),
                    st.text(max_size=12), st.sampled_from(WORDS))


def toml_values(keys: list[str]):
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(keys), st.text(max_size=6)), inner, max_size=5)), max_leaves=16)


def _values(keys: list[str]):
    """A section's value: its table, a list of tables ([[name]]), or anything else TOML holds."""
    tables = st.dictionaries(st.sampled_from(keys + ["nonsense"]), toml_values(keys), max_size=6)
    return st.one_of(tables, st.lists(tables, max_size=3), toml_values(keys))


SECTION_VALUES = st.one_of(*[st.tuples(st.just(section), _values(KEYS[section.name]))
                             for section in sections.SECTIONS])


@cache
def good_specs() -> dict:
    """The specs of a good document: what a section may read of those before it."""
    return dict(check_values(GOOD, PATH, []).specs)


def test_every_section_has_its_own_name_and_the_random_documents_know_them_all():
    names = [section.name for section in sections.SECTIONS]
    assert len(names) == len(set(names)) and set(names) == set(KEYS)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(SECTION_VALUES)
def test_any_value_in_any_section_gives_its_typed_spec_and_sentences_never_an_exception(case):
    section, value = case
    problems: list[str] = []
    spec = section.read({section.name: value}, problems, Context(PATH, "standard", good_specs()))
    assert isinstance(spec, section.spec) or (section.optional and spec is None), spec
    assert all(isinstance(p, str) and p.startswith(section.name) for p in problems), problems


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(KEYS) + ["lamp"]), toml_values(sum(KEYS.values(), [])), max_size=5))
def test_a_whole_document_of_anything_is_checked_in_words(document):
    problems: list[str] = []
    config = check_values({**GOOD, **document}, PATH, problems)
    assert config is not None or problems
    assert all(isinstance(line, str) and ": " in line for line in problems)


@pytest.fixture
def lamp(monkeypatch):
    """The config with the lamp's section registered (the registered sections untouched after)."""
    assert "lamp" not in [section.name for section in sections.SECTIONS]
    monkeypatch.setattr(sections, "SECTIONS", sections.SECTIONS + (LAMP,))    # the registration line
    return LAMP


def test_an_unregistered_section_is_an_unknown_key(tmp_path):
    problems = []
    check_values({**GOOD, "lamp": {"brightness": 30}}, tmp_path / "table.toml", problems)
    assert "config.lamp: unknown key; expected one of club, display, game, gpio, input, journal, rfid, speech, " \
           "table, vision, web" in problems


def test_a_registered_section_is_read_and_its_mistakes_said_with_the_others(lamp, tmp_path):
    problems = []
    config = check_values({**GOOD, "game": {"name": "cribbage", "players": 9}, "lamp": {"brightness": 300, "hue": 2}},
                          tmp_path / "table.toml", problems)
    assert config is None
    assert problems == ["game.players: Cribbage is for 2, 3, 4 players, not 9",
                        "lamp.hue: unknown key; expected one of brightness, device, enabled",
                        "lamp.brightness: expected a whole number from 0 to 100, got 300"]
    problems = []
    config = check_values({**GOOD, "lamp": {"enabled": True}}, tmp_path / "table.toml", problems)
    assert problems == [] and config[LAMP] == LampSpec(enabled=True)
    assert check_values(GOOD, tmp_path / "table.toml", [])[LAMP] == LampSpec()      # absent: its defaults


def test_a_registered_sections_check_runs_on_this_machine_and_keeps_what_it_loaded(lamp, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))          # the tag registry where enrolling writes it
    from cardtable.sim.devices import demo_registry
    from firmware_bridge.registry import default_path

    default_path("standard").parent.mkdir(parents=True)
    demo_registry("standard").save(default_path("standard"))
    document = {**GOOD, "lamp": {"device": "lamp0"}}
    found = check_config(document, tmp_path / "table.toml")
    assert found.config is None and found.steps == ["lamp.device: lamp0 does not exist yet: plug the lamp in"]
    (tmp_path / "lamp0").write_text("warm white\n")
    found = check_config(document, tmp_path / "table.toml")
    assert found.problems == found.steps == [], found
    assert found.config[LAMP].device == tmp_path / "lamp0" and found.config.loaded["lamp"] == "warm white"
