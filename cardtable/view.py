"""Builds the :class:`hardware.view.TableView` a display shows from the game's public state.

Only public information reaches it: scores, the dealer, whose turn, the prompt and its choices,
the engine's :meth:`~engine.game.Game.public_view` (face-up cards only), the latest scoring
breakdown and the current warning.
"""

from __future__ import annotations

import re

from engine.game import Event, Game
from hardware.view import SeatView, TableView


_SEAT = re.compile(r"\b[Ss]eat (\d)\b")


def with_names(text: str, names: list[str]) -> str:
    """Engine sentences say "Seat 2"; the table may have named its players."""
    def name(match: re.Match) -> str:
        index = int(match.group(1)) - 1
        return names[index] if 0 <= index < len(names) else match.group(0)

    return _SEAT.sub(name, text)


def card_text(cards) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def last_score_text(events: list[Event]) -> str:
    """The newest scoring sentence among ``events`` (empty when nothing scored)."""
    for event in reversed(events):
        if event.kind in ("score", "revoke", "false_go", "game_over") and event.text:
            return event.text
    return ""


def build_view(game: Game, state, names: list[str], *, last_score: str = "", warning: str = "",
               choice_index: int | None = None, collecting: str = "") -> TableView:
    prompt = game.prompt(state)
    public = game.public_view(state)
    scores = game.scores(state)
    dealer = getattr(state, "dealer", None)
    seats = tuple(
        SeatView(
            name=names[seat], score=scores[seat], is_dealer=seat == dealer,
            is_turn=seat == prompt.seat and not game.is_terminal(state),
            note=public.notes[seat] if seat < len(public.notes) else "",
        )
        for seat in range(len(scores))
    )
    text = with_names(prompt.text, names)
    if collecting:
        text = f"{text} ({collecting})"
    return TableView(
        game=game.title, seats=seats, prompt=text, choices=prompt.choices, selected=choice_index,
        status=public.status,
        centre_label=public.centre_label, centre_cards=card_text(public.centre_cards),
        play_label=public.play_label, play_cards=card_text(public.play_cards),
        last_score=with_names(last_score if last_score != prompt.text else "", names), warning=with_names(warning, names), finished=game.is_terminal(state),
    )
