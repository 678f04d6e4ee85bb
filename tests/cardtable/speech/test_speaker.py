"""The speaker as one of the table's outputs: the controller's events and views said in order
through real espeak-ng WAV files, a refusal said (again when laid again), the say button on a
gpiozero mock pin, no hidden card ever said, and the table never waiting for speech."""

import threading
import time
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.table.outputs import TableOutputs
from cardtable.speech.speaker import Speaker
from cardtable.speech.spec import SpeechSpec
from cardtable.speech.voice import WavFiles
from engine.decks import get_deck
from engine.game import Event
from engine.table_events import ButtonPress, TableEvent
from hardware.gpio import RefusalPattern, TablePanel
from hardware.view import SeatView, TableView
from waiting import patience

DECK = get_deck("standard")


def lay(controller, card, zone, kind="placed"):
    """Lay a card, then wait for what it makes said: a table at a person's pace, slower than speech."""
    controller.handle(TableEvent(kind, DECK.card(card), zone, 0.0, "test"))
    assert controller.outputs.speaker.drain(30)


def press(controller, name):
    controller.handle(ButtonPress(name, 0.0))
    assert controller.outputs.speaker.drain(30)


@pytest.fixture
def speaking(tmp_path, journal):
    """A cribbage table for Ann and Bob whose speaker writes WAV files; yields (controller, speaker, files)."""
    files = WavFiles(SpeechSpec(), tmp_path / "said")
    speaker = Speaker(files)
    controller = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal, TableOutputs(speaker=speaker))
    yield controller, speaker, files
    speaker.close()


def said(speaker, files):
    assert speaker.drain(30)
    return [text for _, text in files.written]


def to_the_play(c):
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):        # Bob deals
        lay(c, card, zone)
    for card, zone in (("KH", "seat1"), ("AC", "seat2")):
        lay(c, card, zone, "removed")
    press(c, "ok")
    press(c, "ok")
    lay(c, "2H", "starter")


@pytest.mark.slow
def test_the_table_says_each_move_its_score_and_whose_turn_in_order(speaking):
    c, speaker, files = speaking
    to_the_play(c)
    lay(c, "5H", "seat1")
    lay(c, "10S", "seat2")
    texts = said(speaker, files)
    # The first prompt is said first, unless a newer one replaced it while it still waited (only
    # the newest prompt is true: cardtable.speech.policy), as on a loaded machine before the
    # speaker's thread reached it.
    first = "Ann: cut the pack and show a card; lowest deals"
    assert first not in texts or texts.index(first) == 0
    assert "Ann cuts the king of hearts" in texts and "Bob cuts the ace of clubs" in texts
    tail = texts[texts.index("The starter is the two of hearts"):]
    assert tail == ["The starter is the two of hearts", "Ann to play, the count is zero",
                    "Ann plays the five of hearts: five", "Bob to play, the count is five",
                    "Bob plays the ten of spades: fifteen", "Bob: fifteen two", "Ann to play, the count is fifteen"]
    assert all(path.stat().st_size > 10_000 for path, _ in files.written)


@pytest.mark.slow
def test_a_refusal_is_said_and_said_again_when_the_card_is_laid_again(speaking):
    c, speaker, files = speaking
    to_the_play(c)
    said(speaker, files)
    lay(c, "5H", "seat2")                                         # Bob, out of turn
    lay(c, "5H", "seat2", "removed")
    lay(c, "5H", "seat2")                                         # and again
    refusals = [t for t in said(speaker, files) if "not your turn" in t]
    assert len(refusals) == 2 and "Take back the five of hearts" in refusals[0]


@pytest.mark.slow
def test_the_say_button_repeats_the_last_sentence_and_says_whose_turn_and_the_scores(speaking):
    c, speaker, files = speaking
    to_the_play(c)
    lay(c, "5H", "seat1")
    lay(c, "10S", "seat2")
    said(speaker, files)
    factory = MockFactory()
    with TablePanel({"buttons": {"say": 16}}, pin_factory=factory, refusal=RefusalPattern(0, 0, 0, 0)) as panel:
        factory.pin(16).drive_low()
        factory.pin(16).drive_high()
        c.handle(panel.get_press(timeout=patience(1)))
    last = said(speaker, files)[-1]
    assert last == "Ann to play, the count is fifteen. The scores: Ann zero and Bob two"


@pytest.mark.slow
def test_the_say_button_repeats_a_sentence_before_the_turn_and_scores(speaking):
    c, speaker, files = speaking
    to_the_play(c)
    lay(c, "5H", "seat2")                                         # refused: the last sentence said
    refusal = said(speaker, files)[-1]
    press(c, "say")
    assert refusal == "Bob, it is not your turn: Ann to play, the count is zero. Take back the five of hearts to go on"
    assert said(speaker, files)[-1] == f"{refusal}. Ann to play, the count is zero. The scores: Ann zero and Bob zero"


@pytest.mark.slow
def test_a_card_dealt_face_down_is_never_said(tmp_path, journal):
    files = WavFiles(SpeechSpec(), tmp_path)
    speaker = Speaker(files)
    c = Table(TableSetup("allfives", 2, options={"reader_deal": True}, swipe=True), journal,
                   TableOutputs(speaker=speaker))
    for card, zone in (("KH", "seat1"), ("3C", "seat2")):
        lay(c, card, zone)
    dealt = ["2S", "3S", "4S", "5S", "6S", "7S"]
    for card in dealt:
        lay(c, card, "seat1")
    lay(c, "QD", "seat1")                                         # a seventh card: refused, not named
    texts = " ".join(said(speaker, files))
    speaker.close()
    assert "Take back the card just laid" in texts
    for card in dealt + ["QD"]:
        assert DECK.card(card).face.name not in texts


def test_only_the_kinds_switched_on_are_said(tmp_path, journal):
    files = WavFiles(SpeechSpec(), tmp_path)
    speaker = Speaker(files, say={"scores"})
    c = Table(TableSetup("cribbage", 2, names=("Ann", "Bob")), journal, TableOutputs(speaker=speaker))
    to_the_play(c)
    lay(c, "5H", "seat1")
    lay(c, "10S", "seat2")
    assert said(speaker, files) == ["Bob: fifteen two"]
    speaker.close()


class HeldVoice:
    """A voice that speaks until it is let go or stopped: to see that the table never waits."""

    def __init__(self):
        self.let_go, self.started, self.texts, self.stops = threading.Event(), threading.Event(), [], 0

    def say(self, text):
        self.texts.append(text)
        self.started.set()
        return self.let_go.wait(10)

    def stop(self):
        self.stops += 1
        self.let_go.set()

    def close(self):
        self.let_go.set()


def test_the_table_never_waits_for_speech_and_a_refusal_cuts_chatter_short():
    voice = HeldVoice()
    speaker = Speaker(voice)
    view = TableView("Cribbage", (SeatView("Ann", 0), SeatView("Bob", 0)), "Ann to play (count 0)")
    try:
        speaker.show(view)
        assert voice.started.wait(5)                              # saying the prompt, and held there
        started = time.perf_counter()
        for n in range(100):                                      # a burst while the voice is busy
            speaker.happened([Event("play", n % 2, text=f"{['Ann', 'Bob'][n % 2]} plays card {n}")])
            speaker.show(replace(view, prompt=f"Seat {2 - n % 2} to play (count {n})"))
        assert time.perf_counter() - started < patience(0.5)
        speaker.refuse(1)
        speaker.show(replace(view, warning="it is not your turn"))
        assert voice.stops == 1                                   # the prompt was cut short
        assert speaker.drain(10)
        assert voice.texts[1] == "Bob, it is not your turn"
        assert voice.texts[2:] == ["After ninety-nine moves, Bob plays card ninety-nine",   # summarised
                                   "Ann to play, the count is zero"]                        # the newest prompt
    finally:
        speaker.close()


def test_a_table_that_cannot_speak_plays_on_and_says_why(tmp_path, monkeypatch):
    from cardtable.speech.speaker import open_speaker

    speaker, silent = open_speaker(SpeechSpec(enabled=True, rate=200))
    assert silent == "" and speaker.policy.words_per_minute == 200
    speaker.close()
    monkeypatch.setenv("PATH", str(tmp_path))
    assert open_speaker(SpeechSpec(enabled=True)) == (None, "espeak-ng is not installed, so the table cannot "
                                                      "speak: sudo apt install espeak-ng")
