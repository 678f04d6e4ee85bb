"""What the table says, worded as a player says it: card names in words ("the five of hearts"),
numbers as they are spoken ("the count is twenty-one"), the players' names for the seats.

Every sentence comes from what the displays show: the events of an accepted action (the sentences
of the scoring log, named with the players' names) and the view's prompt and warning. Nothing
else is read, so nothing the displays may not show can be said.

>>> spoken("Bob plays 5H: 15")
'Bob plays the five of hearts: fifteen'
>>> spoken("Ann to play (count 21)")
'Ann to play, the count is twenty-one'
>>> spoken("Seat 1's crib: QS AD 3S")
"Seat one's crib: the queen of spades, the ace of diamonds, and the three of spades"
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardtable.table.view import its15_words
from engine.cards import parse_card
from engine.game import Event
from engine.wording import join_words, named, number_words
from hardware.view import TableView

REFUSAL, WARNING, SCORE, END, PLAY, PROMPT = "refusal", "warning", "score", "end", "play", "prompt"
#: What a button asks to hear: the ``say`` button's answer, the choice the left/right buttons highlight.
REPEAT = "repeat"
#: The ``[speech]`` switch (:data:`cardtable.speech.spec.KINDS`) each kind of sentence answers to
#: (a repeat is asked for, so always said).
SWITCH = {REFUSAL: "warnings", WARNING: "warnings", SCORE: "scores", END: "ends", PLAY: "plays", PROMPT: "prompts"}
#: Event kinds that score (said with their breakdown) and that end a hand, a round or the game.
SCORE_EVENTS = ("score", "round_won")
END_EVENTS = ("hand_over", "deal_over", "round_over", "game_over")
#: Event kinds that are also the table's warning (a revoke caught): said once, as a warning.
WARNING_EVENTS = ("revoke", "false_go")

_CODE = r"(?:10|[2-9AJQKT])[SHDC]"
_CARDS = re.compile(rf"\b(?:([Tt])he )?({_CODE}(?: {_CODE})*)\b")
_COUNT = re.compile(r"\s*\(count (\d+)\)")
_ASIDE = re.compile(r"\s*\(([^()]*)\)")
_NUMBER = re.compile(r"(?<!\d\.)(?<!\w)\d+(?!\w|\.\d)")      # whole numbers, not 1.5 or 3rd


@dataclass(frozen=True)
class Utterance:
    """One sentence to say: its ``kind`` (:data:`SWITCH`'s keys), the words, the seat it is for
    (a refusal's), and for a score the points it tells, as ``(who, points)`` pairs."""

    kind: str
    text: str
    seat: int | None = None
    tally: tuple[tuple[str, int], ...] = ()


def _cards(match: re.Match) -> str:
    names = [f"the {parse_card(code).name}" for code in match.group(2).split()]
    said = join_words(names)
    return said[:1].upper() + said[1:] if match.group(1) == "T" else said


def spoken(text: str) -> str:
    """``text`` as it is said: card codes and numbers in words, asides in commas."""
    text = its15_words(text)
    text = _CARDS.sub(_cards, text)
    text = _COUNT.sub(r", the count is \1", text)
    text = _ASIDE.sub(r", \1", text)
    return _NUMBER.sub(lambda match: number_words(int(match.group(0))), text)


def _kind(event: Event) -> str:
    if event.kind in SCORE_EVENTS:
        return SCORE
    if event.kind in END_EVENTS:
        return END
    return WARNING if event.kind in WARNING_EVENTS else PLAY


def event_utterances(events: Iterable[Event], names: Sequence[str]) -> list[Utterance]:
    """What the table says of an accepted action's events, in order."""
    said = []
    for event in events:
        if not event.text:
            continue
        kind = _kind(event)
        who = names[event.seat] if event.seat is not None and 0 <= event.seat < len(names) else ""
        tally = ((who, event.points),) if kind == SCORE else ()
        said.append(Utterance(kind, spoken(named(event.text, names)), event.seat, tally))
    return said


def view_utterances(before: TableView | None, after: TableView, *, refused: int | None | bool = False,
                    already: Iterable[str] = ()) -> list[Utterance]:
    """What the table says of a new view: its warning when it is new or a play was just refused
    (``refused``: ``False``, or the refused seat, ``None`` for none in particular; said to that
    seat by name when it does not name them), its prompt when it changed, and the choice the
    left/right buttons highlight when that changed. ``already`` are the words said of the same
    action's events (a revoke caught is an event and the warning: said once)."""
    said = []
    warning = spoken(after.warning) if after.warning else ""
    new_warning = before is None or after.warning != before.warning
    if warning and warning not in set(already) and (new_warning or refused is not False):
        said.append(Utterance(WARNING, warning) if refused is False
                    else Utterance(REFUSAL, _to(after, refused, warning), refused))
    if after.prompt and not after.finished and (before is None or after.prompt != before.prompt):
        said.append(Utterance(PROMPT, spoken(after.prompt)))
    chosen = after.selected is not None and 0 <= after.selected < len(after.choices)
    if chosen and (before is None or (before.selected, before.choices) != (after.selected, after.choices)):
        said.append(Utterance(REPEAT, spoken(after.choices[after.selected].replace("_", " "))))
    return said


def _to(view: TableView, seat: int | None, refusal: str) -> str:
    """A refusal said to the seat refused, when it does not name them: "Bob, it is not your turn: ..."
    (the seat's LED blinks; a player who cannot see it hears their name)."""
    if seat is None or not 0 <= seat < len(view.seats) or view.seats[seat].name in refusal:
        return refusal
    return f"{spoken(view.seats[seat].name)}, {refusal[:1].lower()}{refusal[1:]}"


def turn_and_scores(view: TableView) -> str:
    """Whose turn it is and the scores: "Ann to play, the count is nine. The scores: Ann twelve, Bob seven"."""
    scores = join_words([f"{seat.name} {seat.score}" for seat in view.seats])
    where = "The game is over" if view.finished else view.prompt
    return spoken(f"{where}. The scores: {scores}")


def scores_said(tally: Iterable[tuple[str, int]]) -> str:
    """Several scores in one sentence, each seat's points added up: "Ann scored eight, and Bob two".

    >>> scores_said([("Ann", 2), ("Bob", 3), ("Ann", 6), ("Cy", -2)])
    'Ann scored eight, Bob three, and Cy lost two'
    """
    points: dict[str, int] = {}
    for who, gained in tally:
        points[who or "The table"] = points.get(who or "The table", 0) + gained
    parts = [f"{who} {f'lost {-n}' if n < 0 else ('scored ' if i == 0 else '') + str(n)}"
             for i, (who, n) in enumerate(points.items())]
    return spoken(join_words(parts))
