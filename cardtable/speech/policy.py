"""What the table says next: a pure policy, with the time passed in (STYLE.md rule 12).

Sentences wait in arrival order, refusals first. A new prompt replaces one still waiting (only
the newest prompt is true), a refusal replaces a waiting one for the same seat (the newest tells
what to do now), and the same words twice wait once. A refusal that arrives while a play, a
prompt or a warning is being said interrupts it (:meth:`SpeechPolicy.add` says so).

A table can make sentences faster than they can be said (a burst of plays, a camera catching up).
When the chatter waiting (moves, prompts, warnings) would take longer than ``max_backlog`` seconds
to say, or the oldest sentence has waited that long, what waits is summarised rather than said sentence by sentence minutes late: the moves become one
sentence ("After four moves, Ann plays the five of hearts"), the scores one sentence that adds up
every seat's points ("Ann scored eight, and Bob two"), the ends the last two (the hand's and the
game's), the warnings the newest. Refusals and points are never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardtable.speech.sentences import (END, PLAY, PROMPT, REFUSAL, REPEAT, SCORE, WARNING, Utterance, scores_said,
                                        spoken)

#: What a refusal interrupts.
CHATTER = (PLAY, PROMPT, WARNING, REPEAT)
#: Seconds of a pause between sentences, beside the words.
PAUSE = 0.4


@dataclass(frozen=True)
class Waiting:
    """A sentence waiting to be said, and since when."""

    utterance: Utterance
    since: float


class SpeechPolicy:
    """The sentences waiting to be said, and which comes next.

    :param words_per_minute: the voice's rate, to tell how long a sentence takes to say.
    :param max_backlog: seconds of waiting chatter (or of waiting) before what waits is summarised:
        long enough for a cribbage show's counts, each with its breakdown, said in full.
    """

    def __init__(self, *, words_per_minute: int = 160, max_backlog: float = 20.0) -> None:
        self.words_per_minute = words_per_minute
        self.max_backlog = max_backlog
        self.waiting: list[Waiting] = []
        self.current: Utterance | None = None

    def seconds(self, text: str) -> float:
        """About how long ``text`` takes to say."""
        return len(text.split()) * 60 / self.words_per_minute + PAUSE

    def backlog(self, kinds: tuple[str, ...] = CHATTER) -> float:
        """About how long the waiting sentences of ``kinds`` take to say."""
        return sum(self.seconds(w.utterance.text) for w in self.waiting if w.utterance.kind in kinds)

    def add(self, utterance: Utterance, now: float) -> bool:
        """Queue ``utterance``; True when what is being said now should stop for it (a refusal
        over chatter: it is then no longer :attr:`current`)."""
        if any(w.utterance == utterance for w in self.waiting):
            return False
        if utterance.kind in (PROMPT, REPEAT):
            self.waiting = [w for w in self.waiting if w.utterance.kind != utterance.kind]
        elif utterance.kind == REFUSAL:
            self.waiting = [w for w in self.waiting
                            if not (w.utterance.kind == REFUSAL and w.utterance.seat == utterance.seat)]
        self.waiting.append(Waiting(utterance, now))
        if utterance.kind == REFUSAL and self.current is not None and self.current.kind in CHATTER:
            self.current = None
            return True
        return False

    def next(self, now: float) -> Utterance | None:
        """The sentence to say now (it becomes :attr:`current`), or ``None`` when nothing waits.
        A backlog is summarised first."""
        if not self.waiting:
            return None
        if self.backlog() > self.max_backlog or now - min(w.since for w in self.waiting) > self.max_backlog:
            self.waiting = summarised(self.waiting)
        first = next((w for w in self.waiting if w.utterance.kind == REFUSAL), self.waiting[0])
        self.waiting.remove(first)
        self.current = first.utterance
        return first.utterance

    def done(self) -> None:
        """What was being said has been said (or was stopped)."""
        self.current = None


def summarised(waiting: list[Waiting]) -> list[Waiting]:
    """``waiting`` in a few sentences: every refusal, the moves in one, the scores in one (every
    point kept), the last two ends, the newest warning, prompt and repeat."""
    def of(kind: str) -> list[Waiting]:
        return [w for w in waiting if w.utterance.kind == kind]

    since = min(w.since for w in waiting)
    kept = of(REFUSAL)
    plays = of(PLAY)
    if len(plays) > 2:
        last = plays[-1].utterance
        text = last.text[:1].lower() + last.text[1:] if last.text.startswith("The ") else last.text
        kept.append(Waiting(replace(last, text=spoken(f"After {len(plays) - 1} moves, {text}")), since))
    else:
        kept += plays
    scores = of(SCORE)
    if len(scores) > 1:
        tally = tuple(item for w in scores for item in w.utterance.tally)
        kept.append(Waiting(Utterance(SCORE, scores_said(tally), tally=tally), since))
    else:
        kept += scores
    return kept + of(END)[-2:] + of(WARNING)[-1:] + of(PROMPT)[-1:] + of(REPEAT)[-1:]
