"""Builds the :class:`hardware.view.TableView` a display shows from the game's public state.

Only public information reaches it: scores, the dealer (once decided), whose turn, the prompt and
its choices, the engine's :meth:`~engine.game.Game.public_view` (face-up cards only), the scoring
log and the current warning. Engine sentences say "Seat 2"; the view says them with the players'
names (:func:`engine.wording.named`: the sentences know their seats, nothing is parsed), and
It's 15 cards as the players know them ("brown 7", "green 4", "red 1") rather than by their codes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.decks import ITS15_COLOURS, ITS15_KIND_NAMES, ItsFace
from cardtable.table.recent import Counted, Recent, change, side_scores
from engine.game import Event, Game, ScoreItem
from engine.wording import compose, join_words, named
from hardware.view import SeatView, ShownHand, ShownItem, SideView, TableView

_ITS15_CODE = re.compile(r"\b(?:([BG])(10|[1-9])|V([12])([RBYPO])(?:-\d+)?)\b")

def its15_name(code: str) -> str:
    """An It's 15 card as the players call it: "B7" → "brown 7", "G4" → "green 4", "V1R" → "red 1".

    >>> its15_name("V2Y-1")
    'yellow 2'
    """
    match = _ITS15_CODE.fullmatch(code)
    if match is None:
        return code
    kind, number, value, colour = match.groups()
    return f"{ITS15_KIND_NAMES[kind]} {number}" if kind else f"{ITS15_COLOURS[colour]} {value}"


def its15_words(text: str) -> str:
    """Every It's 15 card code in ``text`` as the players call the card."""
    return _ITS15_CODE.sub(lambda match: its15_name(match.group(0)), text)


def card_text(cards: Iterable) -> tuple[str, ...]:
    """Cards as the display writes them: "10H" (the display adds the suit symbol), "brown 7"."""
    return tuple(its15_name(str(card)) if isinstance(card, ItsFace) else str(card) for card in cards)


def score_lines(events: Iterable[Event]) -> list[str]:
    """One sentence per change of a score among ``events``, in order, each led by the change:
    "+6 Seat 1: fifteen two, fifteen four, and a pair is six"; "-2 Seat 3 bids 2"."""
    lines = []
    for event in events:
        points = change(event)
        if points is not None and event.text:
            lines.append(compose(f"{points:+d} ", event.text))
    return lines


def card_name(card) -> str:
    """A card in words: "jack of hearts", "brown 7"."""
    return its15_name(str(card)) if isinstance(card, ItsFace) else getattr(card, "name", str(card))


def item_words(item: ScoreItem) -> str:
    """One line of a breakdown in words: "a pair for 2: jack of diamonds and jack of hearts"."""
    label = item.label or item.category
    if not item.cards:
        return label
    return f"{label} for {item.points}: {join_words([card_name(card) for card in item.cards])}"


def _shown(counted: Counted, names: list[str]) -> ShownHand:
    return ShownHand(
        owner=names[counted.seat], whose=counted.whose, cards=card_text(counted.cards),
        starter=str(counted.starter) if counted.starter else "", points=counted.points,
        items=tuple(ShownItem(item.label or item.category, item.points, card_text(item.cards))
                    for item in counted.items))


def _sides(game: Game, state, names: list[str], recent: Recent | None) -> tuple[SideView, ...]:
    """The scores as pegged: one side per score the state keeps (partners, seat modulo sides)."""
    scores = side_scores(game, state)
    back = recent.back if recent is not None and len(recent.back) == len(scores) else scores
    return tuple(
        SideView(" & ".join(names[seat] for seat in range(len(names)) if seat % len(scores) == side),
                 score, back[side])
        for side, score in enumerate(scores))


def build_view(game: Game, state, names: list[str], *, score_log: tuple[str, ...] = (),
               log_page: int | None = None, log_fresh: int = 0, warning: str = "",
               choice_index: int | None = None, collecting: str = "", recent: Recent | None = None,
               laying: tuple = ()) -> TableView:
    """The view of ``state``; ``score_log`` holds the engine's sentences (see :func:`score_lines`),
    ``log_page`` the entry the buttons have paged to, ``log_fresh`` how many the last move made;
    ``recent`` what the table has just seen (the show, the back pegs, the last move); ``laying``
    the cards of the crib laid face up so far, while the prompted seat lays it out."""
    def words(text: str) -> str:
        text = named(text, names)
        return its15_words(text) if game.deck == "its15" else text

    prompt = game.prompt(state)
    public = game.public_view(state)
    scores = game.scores(state)
    finished = game.is_terminal(state)
    dealer = None if getattr(state, "phase", None) == "cut" else getattr(state, "dealer", None)
    seats = tuple(
        SeatView(
            name=names[seat], score=scores[seat], is_dealer=seat == dealer,
            is_turn=seat == prompt.seat and not finished,
            note=words(public.notes[seat]) if seat < len(public.notes) else "",
        )
        for seat in range(len(scores))
    )
    text = words(prompt.text)
    if collecting:
        text = f"{text} ({collecting})"
    # once the game is over an empty trick ("Trick 6" after five tricks) is not shown
    play_label = public.play_label if public.play_cards or not finished else ""
    shown = tuple(_shown(counted, names) for counted in (recent.shows if recent is not None else ()))
    if laying and prompt.seat is not None:
        starter = recent.starter if recent is not None and recent.starter else ""
        shown += (ShownHand(names[prompt.seat], "crib", card_text(laying), str(starter)),)
    return TableView(
        game=game.title, seats=seats, prompt=text, choices=prompt.choices, selected=choice_index,
        status=public.status,
        centre_label=public.centre_label, centre_cards=card_text(public.centre_cards),
        play_label=play_label, play_cards=card_text(public.play_cards),
        score_log=tuple(words(line) for line in score_log), log_page=log_page, log_fresh=log_fresh,
        warning=words(warning), finished=finished, sides=_sides(game, state, names, recent),
        board="cribbage" if game.name == "cribbage" else "track", target=game.target(state),
        shown=shown, last_move=words(recent.move) if recent is not None else "",
    )
