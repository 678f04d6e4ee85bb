"""espeak-ng for real: the WAV files are speech (energy, a duration fitting their words), the
stream reaches a real player, a sentence can be cut short, and a missing program is said."""

import threading
import time

import pytest

from cardtable.speech.spec import SpeechSpec
from cardtable.speech.voice import NO_ESPEAK, SoundVoice, WavFiles, espeak_command
from hardware.errors import DeviceUnavailable

#: ALSA's null device: a real player, run as on the Pi, with no sound card needed.
NULL_PLAYER = ["aplay", "-q", "-D", "null"]


def test_each_sentence_is_a_wav_file_of_real_speech_as_long_as_its_words(tmp_path, audio):
    files = WavFiles(SpeechSpec(rate=160), tmp_path)
    sentences = ["Ann to play", "Bob plays the five of hearts: fifteen for two",
                 "Ann: fifteen two, fifteen four, fifteen six, and a pair is eight. Bob to play, the count is twenty-one"]
    for text in sentences:
        assert files.say(text)
    lengths = []
    for (path, text), expected in zip(files.written, sentences):
        assert text == expected
        seconds, rms = audio(path)
        words = len(text.split())
        assert 0.15 * words <= seconds <= 0.8 * words + 0.5, (text, seconds)    # 160 words a minute: ~0.38 s a word
        assert rms > 0.02, (path, rms)                                            # not silence
        lengths.append(seconds)
    assert lengths == sorted(lengths)
    lines = (tmp_path / "transcript.tsv").read_text().splitlines()
    assert lines == [f"{n:03d}.wav\t{text}" for n, text in enumerate(sentences, 1)]


def test_a_faster_rate_and_a_lower_volume_are_heard(tmp_path, audio):
    slow, fast = WavFiles(SpeechSpec(rate=120), tmp_path / "slow"), WavFiles(SpeechSpec(rate=300, volume=40), tmp_path / "fast")
    text = "Bob, you must follow hearts. Take back the king of spades to go on"
    slow.say(text)
    fast.say(text)
    (slow_s, slow_rms), (fast_s, fast_rms) = audio(slow.written[0][0]), audio(fast.written[0][0])
    assert fast_s < 0.6 * slow_s and fast_rms < 0.6 * slow_rms


def test_the_stream_reaches_a_real_player_and_the_first_sound_is_marked():
    heard = []
    voice = SoundVoice(SpeechSpec(), player=NULL_PLAYER, on_sound=lambda: heard.append(time.perf_counter()))
    started = time.perf_counter()
    assert voice.say("Ann plays the five of hearts")
    assert len(heard) == 1 and heard[0] - started < 1.0


@pytest.mark.slow
def test_a_sentence_is_cut_short_from_another_thread():
    voice = SoundVoice(SpeechSpec(), player=["sh", "-c", "cat > /dev/null; sleep 5"])   # still playing for 5 s
    threading.Timer(0.3, voice.stop).start()
    started = time.monotonic()
    assert voice.say("Ann plays the five of hearts") is False
    assert time.monotonic() - started < 3


def test_a_player_that_fails_is_logged_never_raised(caplog):
    voice = SoundVoice(SpeechSpec(), player=["false"])
    assert voice.say("Ann to play") is False and voice.say("Bob to play") is False
    assert voice.failures == 2
    assert sum("could not play" in r.message for r in caplog.records if r.levelname == "WARNING") == 1


def test_without_espeak_ng_the_table_is_told_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(DeviceUnavailable, match="sudo apt install espeak-ng") as caught:
        espeak_command(SpeechSpec())
    assert str(caught.value) == NO_ESPEAK


def test_text_that_looks_like_an_option_is_said_not_obeyed(tmp_path, audio):
    files = WavFiles(SpeechSpec(), tmp_path)
    assert files.say("-w /tmp/elsewhere.wav --version")
    seconds, rms = audio(files.written[0][0])
    assert seconds > 1 and rms > 0.02
