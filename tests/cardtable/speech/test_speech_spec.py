"""``[speech]``: off by default, every mistake named, and part of ``config check``."""

from pathlib import Path

from hypothesis import given, settings, strategies as st

from cardtable.config import check_values
from cardtable.speech.spec import KINDS, SPEECH, SpeechSpec, parse_speech


def test_an_empty_section_is_a_silent_table_that_would_say_everything():
    problems = []
    spec = parse_speech({}, problems)
    assert not problems
    assert spec == SpeechSpec() and not spec.enabled and spec.say == frozenset(KINDS)


def test_a_full_section_is_read():
    problems = []
    spec = parse_speech({"enabled": True, "voice": "en-gb+f3", "rate": 200, "volume": 150, "plays": False,
                         "prompts": False}, problems)
    assert not problems
    assert (spec.enabled, spec.voice, spec.rate, spec.volume) == (True, "en-gb+f3", 200, 150)
    assert spec.say == {"scores", "warnings", "ends"}


def test_every_mistake_is_named_with_its_key():
    problems = []
    parse_speech({"enabled": "yes", "voice": "en; rm -rf /", "rate": 20, "volume": "loud", "scores": 1,
                  "speed": 3}, problems)
    said = "\n".join(problems)
    for key in ("speech.enabled", "speech.voice", "speech.rate", "speech.volume", "speech.scores"):
        assert key in said
    assert "speech.speed: unknown key" in said


def test_the_section_is_part_of_the_table_config():
    data = {"game": {"name": "cribbage"}, "input": {"kind": "rfid"},
            "speech": {"enabled": True, "rate": 170, "volume": 300}}
    problems = []
    config = check_values(data, Path("/tmp/table.toml"), problems)
    assert [p for p in problems if p.startswith("speech")] == ["speech.volume: expected a whole number from 0 to 200, got 300"]
    assert config[SPEECH].enabled and config[SPEECH].rate == 170


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["enabled", "voice", "rate", "volume", *KINDS, "x"]),
                       st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                                 st.lists(st.integers(), max_size=3))))
def test_any_section_gives_a_spec_and_sentences_never_an_exception(section):
    section = {k: v for k, v in section.items() if v is not None}
    problems = []
    spec = parse_speech(section, problems)
    assert isinstance(spec, SpeechSpec) and 80 <= spec.rate <= 450 and 0 <= spec.volume <= 200
    assert all(p.startswith("speech.") for p in problems)
