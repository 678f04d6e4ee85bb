"""The table's voice as one of its outputs: what the table shows is worded, queued and said
on the speaker's own thread, so that speaking never holds up the table.

The table hands its outputs the events of each accepted action (:meth:`Speaker.happened`),
a refusal (:meth:`Speaker.refuse`) and then the new view (:meth:`Speaker.show`); from these the
speaker makes its sentences (:mod:`cardtable.speech.sentences`), keeps the kinds ``[speech]``
switches on, and queues them in the :class:`~cardtable.speech.policy.SpeechPolicy`, which says what
comes next. A refusal cuts a play or a prompt short. The ``say`` button
(:meth:`Speaker.say_again`) says the last sentence again, whose turn it is and the scores.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from cardtable.speech.policy import SpeechPolicy
from cardtable.speech.sentences import REPEAT, SWITCH, Utterance, event_utterances, turn_and_scores, view_utterances
from cardtable.speech.spec import KINDS, SpeechSpec
from engine.game import Event
from hardware.view import TableView

log = logging.getLogger(__name__)
_NOT_REFUSED = False


class Voice(Protocol):
    """Says one sentence, blocking; :meth:`stop` (from another thread) cuts it short."""

    def say(self, text: str) -> bool: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...


class Speaker:
    """Says what happens at the table through ``voice``, on its own thread.

    :param say: the kinds of sentence to say (:data:`cardtable.speech.spec.KINDS`).
    :param policy: what to say next (default: a :class:`SpeechPolicy` at 160 words a minute).
    :param clock: monotonic seconds, for the policy.
    """

    def __init__(self, voice: Voice, *, say: Iterable[str] = KINDS, policy: SpeechPolicy | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.voice = voice
        self.kinds = frozenset(say)
        self.policy = policy or SpeechPolicy()
        self.clock = clock
        self.last = ""                                    # the last sentence said
        self._view: TableView | None = None
        self._events: list[Event] = []
        self._refused: int | None | bool = _NOT_REFUSED
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()

    # -- the table's side: called on the table's thread, never waits for speech ---------------------
    def happened(self, events: list[Event]) -> None:
        """The events of an accepted action (said when the view that shows them comes)."""
        self._events += events

    def refuse(self, seat: int | None) -> None:
        """A play was refused: the next view's warning is said as a refusal, even when it is the same."""
        self._refused = seat

    def show(self, view: TableView) -> None:
        """Say what is new in ``view``: the events handed over since the last view, its warning, its prompt."""
        names = [seat.name for seat in view.seats]
        said = event_utterances(self._events, names)
        said += view_utterances(self._view, view, refused=self._refused, already=[u.text for u in said])
        self._events, self._refused, self._view = [], _NOT_REFUSED, view
        self._queue(u for u in said if u.kind == REPEAT or SWITCH[u.kind] in self.kinds)   # a repeat is asked for

    def say_again(self) -> None:
        """Say the last sentence again, then whose turn it is and the scores."""
        if self._view is None:
            return
        now = turn_and_scores(self._view)
        last = self.last if self.last[-1:] in (".", "!", "?") else f"{self.last}."
        self._queue([Utterance(REPEAT, f"{last} {now}" if self.last and self.last not in now else now)])

    def _queue(self, utterances: Iterable[Utterance]) -> None:
        with self._cond:
            for utterance in utterances:
                if self.policy.add(utterance, self.clock()):
                    self.voice.stop()
            self._cond.notify_all()

    # -- the speaker's thread -----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not self.policy.waiting:
                    self._cond.wait()
                if self._closed:
                    return
                utterance = self.policy.next(self.clock())
            try:                                          # unless a refusal cut it short meanwhile
                said = utterance is self.policy.current and self.voice.say(utterance.text)
            except Exception:  # a voice that fails never ends the speaker (nor the table)
                log.exception("could not say %r", utterance.text)
                said = False
            with self._cond:
                self.policy.done()
                if said and utterance.kind != REPEAT:
                    self.last = utterance.text
                self._cond.notify_all()

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until everything queued has been said (the demo, tests); False on timeout."""
        end = time.monotonic() + timeout
        with self._cond:
            while self.policy.waiting or self.policy.current is not None:
                left = end - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        """Stop speaking and end the thread (idempotent)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self.voice.stop()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self.voice.close()


def open_speaker(spec: SpeechSpec) -> tuple[Speaker | None, str]:
    """The table's voice for ``[speech]``: a :class:`Speaker` heard through the sound player, or
    ``None`` and the sentence that tells the table why it cannot speak (it plays on silent)."""
    from cardtable.speech.voice import SoundVoice
    from hardware.errors import DeviceUnavailable

    try:
        voice = SoundVoice(spec)
    except DeviceUnavailable as err:
        return None, str(err)
    return Speaker(voice, say=spec.say, policy=SpeechPolicy(words_per_minute=spec.rate)), ""
