"""Speech benchmark: from a card accepted by the table to the first sound of what it says, and the
table loop's latency with speech on and off.

Run: ``.venv/bin/python benchmarks/speech_bench.py [--quick]``

* First sound: the cards of a bot Cribbage game (two players) are laid at a controller whose
  speaker streams espeak-ng into a real player (ALSA's ``aplay`` on its ``null`` device, so no
  sound card is needed; on a Pi the same command plays through the speakers). Latency = from
  handing the card to the controller (engine, journal commit, display, the sentence worded and
  queued) to the first audio bytes reaching the player, split into the queue's delay (until the
  speaker's thread starts the sentence) and espeak-ng's time to its first sound. The naive voice
  in the same run has espeak-ng write the whole sentence to a WAV file first, then plays the file.
  Beside them: espeak-ng's time to synthesise a whole typical sentence. Each card waits until the
  last one's sentences are said (a table at a person's pace).
* The table loop: ``benchmarks/latency_bench.py``'s readers measurement (the microcontroller twin
  on a pseudo-terminal, the bridge, the loop, the controller and a display), with no speaker and
  with one, in the same run.

Target: first sound at most 300 ms median; the loop's median with speech within 20% (+2 ms) of
without.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from latency_bench import reader_latencies  # noqa: E402

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table  # noqa: E402
from cardtable.journal import Journal  # noqa: E402
from cardtable.table.outputs import TableOutputs  # noqa: E402
from cardtable.sim.devices import DEMO_BUTTONS  # noqa: E402
from cardtable.sim.simulation import table_moves  # noqa: E402
from cardtable.speech.speaker import Speaker  # noqa: E402
from cardtable.speech.spec import SpeechSpec  # noqa: E402
from cardtable.speech.voice import SoundVoice, espeak_command  # noqa: E402
from engine.games import get_game  # noqa: E402
from engine.table_events import ButtonPress, TableEvent  # noqa: E402

GAME = get_game("cribbage")
PLAYER = ["aplay", "-q", "-D", "null"]
SENTENCE = "Ann plays the five of hearts: fifteen. Bob to play, the count is fifteen"
SPEC = SpeechSpec(enabled=True)


class Timed:
    """Wraps a voice: when each sentence was started and when its first sound reached the player."""

    def __init__(self, voice) -> None:
        self.voice, self.started, self.sounded = voice, [], []
        voice.on_sound = lambda: self.sounded.append(time.perf_counter())

    def say(self, text: str) -> bool:
        self.started.append(time.perf_counter())
        return self.voice.say(text)

    def stop(self) -> None:
        self.voice.stop()

    def close(self) -> None:
        self.voice.close()


class WholeFileVoice(SoundVoice):
    """The naive voice: espeak-ng writes the whole sentence to a WAV file, then the player plays it."""

    def say(self, text: str) -> bool:
        with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
            subprocess.run(espeak_command(SPEC, Path(wav.name)), input=text.encode(), check=True)
            if self.on_sound is not None:
                self.on_sound()
            return subprocess.run([*self.player, wav.name]).returncode == 0


def first_sounds(voice_class, cards: int) -> tuple[list[float], list[float]]:
    """Per card accepted: (seconds to the first sound, of which in the queue)."""
    moves, _ = table_moves(GAME, 2, seed=5, buttons=frozenset(DEMO_BUTTONS), swipe=True)
    timed = Timed(voice_class(SPEC, player=PLAYER))
    speaker = Speaker(timed)
    totals, queued = [], []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.sqlite")
        controller = Table(TableSetup("cribbage", 2, seed=5, swipe=True), journal,
                                TableOutputs(speaker=speaker), resume=False)
        for move in moves:
            speaker.drain()
            said = len(timed.sounded)
            start = time.perf_counter()
            if move.kind == "place":
                before = controller.game.kept
                controller.handle(TableEvent("placed", move.card, move.zone, time.monotonic(), "bench"))
                if controller.game.kept > before and move.zone.startswith("seat") and controller.game.prompt.kinds:
                    speaker.drain()
                    if len(timed.sounded) > said:
                        totals.append(timed.sounded[said] - start)
                        queued.append(timed.started[said] - start)
                controller.handle(TableEvent("removed", move.card, move.zone, time.monotonic(), "bench"))
            elif move.kind == "press":
                controller.handle(ButtonPress(move.button, time.monotonic()))
            if controller.game.finished or len(totals) >= cards:
                break
        speaker.close()
        journal.close()
    return totals, queued


def synthesis_seconds(runs: int) -> list[float]:
    """espeak-ng writing :data:`SENTENCE` whole to a WAV file."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(espeak_command(SPEC, Path(tmp) / "s.wav"), input=SENTENCE.encode(), check=True)
            times.append(time.perf_counter() - start)
    return times


def _ms(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer cards")
    args = parser.parse_args()
    cards = 15 if args.quick else 60
    streamed, queued = first_sounds(SoundVoice, cards)
    whole, whole_queued = first_sounds(WholeFileVoice, cards)
    synth = synthesis_seconds(10 if args.quick else 30)
    print(f"{'card accepted -> first sound':40s} {'cards':>6s} {'median ms':>10s} {'p95 ms':>8s}  target")
    failed = False
    for name, values, target in (("streamed espeak-ng -> player", streamed, 300),
                                 ("  of which in the queue", queued, None),
                                 ("naive: whole WAV file, then play", whole, None),
                                 ("  of which in the queue", whole_queued, None)):
        median, p95 = _ms(values)
        verdict = ""
        if target is not None:
            ok = median <= target
            failed |= not ok
            verdict = f"median <= {target} ms: {'PASS' if ok else 'FAIL'}"
        print(f"{name:40s} {len(values):6d} {median:10.1f} {p95:8.1f}  {verdict}")
    median, p95 = _ms(synth)
    print(f"{'espeak-ng: synthesise a whole sentence':40s} {len(synth):6d} {median:10.1f} {p95:8.1f}  "
          f"({len(SENTENCE.split())} words)")
    loop_cards = 25 if args.quick else 120
    rows = []
    for name, speaker in (("speech off", None), ("speech on", Speaker(SoundVoice(SPEC, player=PLAYER))),
                          ("speech off again", None)):
        rows.append((name, reader_latencies(loop_cards, None, speaker=speaker)))
    print(f"\n{'table loop (readers -> display)':40s} {'cards':>6s} {'median ms':>10s} {'p95 ms':>8s}")
    for name, values in rows:
        median, p95 = _ms(values)
        print(f"{name:40s} {len(values):6d} {median:10.1f} {p95:8.1f}")
    off = statistics.median(rows[0][1] + rows[2][1]) * 1000
    on = statistics.median(rows[1][1]) * 1000
    ok = on <= off * 1.2 + 2
    failed |= not ok
    print(f"loop median with speech {on:.1f} ms vs without {off:.1f} ms: within 20% (+2 ms): {'PASS' if ok else 'FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
