"""All Fives and Fifteen: the cards a player may play to a trick and why, and a suggested card.

The legal cards are public knowledge (anyone watching knows the suit led and, once a player has
shown out, that they hold none of it); the suggestion is about one player's hand. It follows the
strong trick bot's rule (:func:`~engine.advice.trick_choice.suggest`), which, unlike the greedy bot, counts the cards not yet
seen: a card is a *sure winner* when no unseen card could beat it on this trick.

- Last to play: take the trick with the cheapest winning card when it holds points, else throw the
  cheapest card that gives nothing away.
- Earlier: with points at stake or a point card to save, play a sure winner; otherwise play low
  and keep point cards back.
- Leading: lead a sure winner (the one with the most points: they are banked), else the lowest
  plain card.

>>> a = trick_advice("allfives", "5H KH 2C 9S", "QH", trump="H")
>>> a.reason
'you must follow hearts'
>>> [str(c) for c in a.legal], str(a.suggestion)
(['5H', 'KH'], 'KH')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.advice.hand_input import check_apart, read_cards
from engine.advice.trick_choice import suggest
from engine.cards import SUIT_NAMES, Card, parse_card, standard_52
from engine.errors import InvalidInput
from engine.games.allfives import trump_points
from engine.games.fifteen import card_points
from engine.games.tricks import check_suit, legal_plays

GAMES = ("allfives", "fifteen")


@dataclass(frozen=True)
class TrickAdvice:
    legal: tuple[Card, ...]
    reason: str
    suggestion: Card
    why: str

    def to_dict(self) -> dict:
        return {"legal": [str(c) for c in self.legal], "reason": self.reason,
                "suggestion": str(self.suggestion), "why": self.why}


def points_rule(game: str, trump: str, upcard: Card | None):
    """What a card won in a trick scores in ``game``: All Fives counts trumps A K Q J 10 5;
    Fifteen counts every trump and every card of the up-card's rank.

    :raises InvalidInput: for another game, or Fifteen without its up-card.
    """
    if game == "allfives":
        return lambda card: trump_points((card,), trump)
    if game == "fifteen":
        if upcard is None:
            raise InvalidInput("Fifteen advice needs the up-card (it sets trumps and the scoring rank)")
        return lambda card: card_points((card,), upcard)
    raise InvalidInput(f"trick advice is for {' or '.join(GAMES)}, not {game!r}")


def legal_reason(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> str:
    """Why these cards are the legal ones: "you lead: any card", "you must follow hearts"."""
    if not trick:
        return "you lead: any card"
    led = SUIT_NAMES[trick[0].suit]
    if any(card.suit == trick[0].suit for card in hand):
        return f"you must follow {led}"
    return f"you have no {led}, so any card"


def trick_advice(game: str, hand, trick=(), *, trump: str | None = None, upcard=None,
                 players: int = 2, seen=()) -> TrickAdvice:
    """The legal cards of ``hand`` with ``trick`` on the table (cards in the order played), why, and
    the strong bot's card. ``trump`` is the trump suit (Fifteen: the up-card's suit by default);
    ``seen`` the other cards seen this hand (tricks already played, the turn-up).

    :raises InvalidInput: for bad cards, a card in two places, a trick as long as the table, or an
        unknown game.
    """
    game = game.lower().replace(" ", "")
    up = parse_card(upcard) if upcard is not None else None
    if trump is None:
        if up is None:
            raise InvalidInput("say the trump suit (S, H, D or C)")
        trump = up.suit
    trump = check_suit(trump)
    rule = points_rule(game, trump, up)
    cards = read_cards(hand, sizes=tuple(range(1, 14)))
    laid = read_cards(trick, what="trick")
    others = read_cards(seen, what="seen cards")
    check_apart((cards, "hand"), (laid, "trick"), (others, "seen cards"), ((up,) if up else (), "up-card"))
    if len(laid) >= players:
        raise InvalidInput(f"a trick with {players} players has at most {players - 1} cards before yours")
    known = set(cards) | set(laid) | set(others) | ({up} if up else set())
    unseen = [c for c in standard_52() if c not in known]
    card, why = suggest(cards, laid, trump=trump, players=players, points=rule, unseen=unseen)
    return TrickAdvice(tuple(sorted(legal_plays(cards, laid[0].suit if laid else None))),
                       legal_reason(cards, laid), card, why)
