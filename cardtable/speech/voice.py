"""espeak-ng as the table's voice, offline: Debian's ``espeak-ng`` command, heard through the
machine's sound player, or written to WAV files.

:class:`SoundVoice` streams espeak-ng's output into the player as it is made (the first sound
comes as soon as espeak-ng has made it, not once the whole sentence is), through whichever player
the machine has (:data:`PLAYERS`: ALSA's ``aplay``, which Raspberry Pi OS routes to PipeWire or
PulseAudio when they run, then ``paplay``, then ``pw-play``). :class:`WavFiles` writes each
sentence as a numbered WAV file beside a transcript, so that what the table said can be checked
without a sound card. Both say one sentence at a time, blocking, and :meth:`stop` from another
thread cuts the current one short. The text goes to espeak-ng on its standard input, never as an
argument.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cardtable.speech.spec import SpeechSpec
from hardware.errors import DeviceUnavailable

log = logging.getLogger(__name__)

#: Sound players that read a WAV stream on their standard input, in the order they are tried.
PLAYERS: tuple[tuple[str, ...], ...] = (("aplay", "-q"), ("paplay",), ("pw-play", "-"))
NO_ESPEAK = "espeak-ng is not installed, so the table cannot speak: sudo apt install espeak-ng"
NO_PLAYER = ("no sound player (aplay, paplay or pw-play) is installed, so the table cannot be heard: "
             "sudo apt install alsa-utils")
_CHUNK = 4096


def espeak_command(spec: SpeechSpec, out: Path | None = None) -> list[str]:
    """espeak-ng with the spec's voice, rate and volume, reading its standard input, writing a WAV
    stream to its standard output (or the file ``out``).

    :raises DeviceUnavailable: espeak-ng is not installed.
    """
    found = shutil.which("espeak-ng")
    if found is None:
        raise DeviceUnavailable(NO_ESPEAK)
    where = ["-w", str(out)] if out is not None else ["--stdout"]
    return [found, "-v", spec.voice, "-s", str(spec.rate), "-a", str(spec.volume), *where, "--stdin"]


def find_player() -> list[str] | None:
    """The first sound player of :data:`PLAYERS` this machine has, as a command, or ``None``."""
    for command in PLAYERS:
        found = shutil.which(command[0])
        if found is not None:
            return [found, *command[1:]]
    return None


class _Stoppable:
    """The processes of the sentence being said, which :meth:`stop` ends from another thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[subprocess.Popen] = []
        self._stopped = False

    def _start(self, command: Sequence[str], **kwargs) -> subprocess.Popen:
        with self._lock:                                  # its own group: stop ends what it started too
            process = subprocess.Popen(command, start_new_session=True, **kwargs)
            self._running.append(process)
            return process

    def _begin(self) -> None:
        with self._lock:
            self._stopped = False

    def _end(self) -> bool:
        """Wait for the sentence's processes; True unless it was stopped."""
        for process in self._running:
            process.wait()
        with self._lock:
            self._running.clear()
            return not self._stopped

    def stop(self) -> None:
        """Cut the sentence being said short."""
        with self._lock:
            self._stopped = True
            for process in self._running:
                if process.poll() is None:
                    try:
                        os.killpg(process.pid, signal.SIGKILL)
                    except ProcessLookupError:            # it ended meanwhile
                        pass


class SoundVoice(_Stoppable):
    """Says sentences aloud: espeak-ng streamed into the sound player.

    :param player: the player's command (default: :func:`find_player`).
    :param on_sound: called (with no argument) when the first sound of a sentence reaches the player.
    :raises DeviceUnavailable: espeak-ng or a sound player is missing.
    """

    def __init__(self, spec: SpeechSpec, *, player: Sequence[str] | None = None,
                 on_sound: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.command = espeak_command(spec)
        self.player = list(player) if player is not None else find_player()
        if self.player is None:
            raise DeviceUnavailable(NO_PLAYER)
        self.on_sound = on_sound
        self.failures = 0

    def say(self, text: str) -> bool:
        """Say ``text``; False when it was stopped or the player failed (logged: never raised)."""
        self._begin()
        espeak = self._start(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        player = self._start(self.player, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        espeak.stdin.write(text.encode())
        espeak.stdin.close()
        first = True
        try:
            while chunk := espeak.stdout.read1(_CHUNK):
                if first and self.on_sound is not None:
                    self.on_sound()
                first = False
                player.stdin.write(chunk)
            player.stdin.close()
        except (BrokenPipeError, ValueError):           # the player ended (stopped, or no sound device)
            espeak.kill()
        said = self._end()
        problem = player.stderr.read().decode(errors="replace").strip()
        espeak.stdout.close()
        player.stderr.close()
        if said and player.returncode:
            self.failures += 1                            # said once in the log, then quietly counted
            (log.warning if self.failures == 1 else log.debug)(
                "the sound player %s could not play: %s", self.player[0], problem or player.returncode)
            return False
        return said

    def close(self) -> None:
        self.stop()


class WavFiles(_Stoppable):
    """Writes each sentence as ``001.wav``, ``002.wav`` ... in ``folder``, and a line
    "001.wav<TAB>the sentence" in ``transcript.tsv`` there.

    :raises DeviceUnavailable: espeak-ng is missing.
    :raises OSError: ``folder`` cannot be made.
    """

    TRANSCRIPT = "transcript.tsv"

    def __init__(self, spec: SpeechSpec, folder: str | Path) -> None:
        super().__init__()
        self.spec = spec
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        espeak_command(spec)
        self.written: list[tuple[Path, str]] = []
        (self.folder / self.TRANSCRIPT).write_text("")

    def say(self, text: str) -> bool:
        """Write ``text`` as the next WAV file; False when it was stopped."""
        self._begin()
        path = self.folder / f"{len(self.written) + 1:03d}.wav"
        started = time.perf_counter()
        process = self._start(espeak_command(self.spec, path), stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
        process.communicate(text.encode())
        if not self._end() or process.returncode:
            path.unlink(missing_ok=True)
            return False
        log.debug("wrote %s in %.0f ms", path.name, (time.perf_counter() - started) * 1000)
        self.written.append((path, text))
        with open(self.folder / self.TRANSCRIPT, "a", encoding="utf-8") as transcript:
            transcript.write(f"{path.name}\t{text}\n")
        return True

    def close(self) -> None:
        self.stop()
