"""``cardtable doctor`` with ``[speech]`` on: espeak-ng, its voice, a player and a sound device,
each said with what to type when it is missing."""

from dataclasses import replace

from cardtable.config import TableConfig, check_values, doctor
from cardtable.config.app_sections import JournalSpec
from cardtable.speech.check import check_speech, sound_cards
from cardtable.speech.spec import SpeechSpec

PI_CARDS = """\
 0 [Headphones     ]: bcm2835_headphonbcm2835 Headphones - bcm2835 Headphones
                      bcm2835 Headphones
 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
"""


def speaking(tmp_path, **spec) -> TableConfig:
    config = check_values({"game": {"name": "cribbage", "players": 2}}, tmp_path / "table.toml", [])
    return replace(config, specs={**config.specs, "journal": JournalSpec(tmp_path / "j.sqlite"),
                                  "speech": SpeechSpec(enabled=True, **spec)})


def asound(tmp_path, text):
    folder = tmp_path / "asound"
    folder.mkdir(exist_ok=True)
    (folder / "cards").write_text(text)
    return folder


def test_a_pi_with_its_sound_cards_is_ready_to_speak(tmp_path):
    found = check_speech(speaking(tmp_path), asound=asound(tmp_path, PI_CARDS))
    assert found.status == doctor.OK, found
    assert "voice en" in found.detail and "bcm2835 Headphones, vc4-hdmi-0" in found.detail


def test_no_sound_device_says_how_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))            # and no sound server runs
    found = check_speech(speaking(tmp_path), asound=asound(tmp_path, "--- no soundcards ---\n"))
    assert found.status == doctor.FIX and "no sound device" in found.detail
    assert "dtparam=audio=on" in found.fix and "aplay -l" in found.fix
    assert check_speech(speaking(tmp_path), asound=tmp_path / "none").status == doctor.FIX   # no ALSA at all


def test_a_sound_server_without_a_card_is_noted(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    (tmp_path / "pipewire-0").touch()
    found = check_speech(speaking(tmp_path), asound=asound(tmp_path, "--- no soundcards ---\n"))
    assert found.status == doctor.NOTE and "PipeWire" in found.detail


def test_no_espeak_ng_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    found = check_speech(speaking(tmp_path), asound=asound(tmp_path, PI_CARDS))
    assert found.status == doctor.FIX and "espeak-ng is not installed" in found.detail
    assert found.fix == "sudo apt install espeak-ng"


def test_a_voice_espeak_ng_does_not_have(tmp_path):
    found = check_speech(speaking(tmp_path, voice="xx-nowhere"), asound=asound(tmp_path, PI_CARDS))
    assert found.status == doctor.FIX and "no voice 'xx-nowhere'" in found.detail and "--voices" in found.fix


def test_a_silent_table_needs_nothing(tmp_path):
    assert check_speech(None).status == doctor.OK
    assert sound_cards(asound(tmp_path, PI_CARDS)) == ["bcm2835 Headphones", "vc4-hdmi-0"]


def test_the_doctor_runs_the_speech_check(tmp_path):
    names = [finding.name for finding in doctor.run_checks(None)]
    assert names[-1] == "speech"
