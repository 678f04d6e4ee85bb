"""The engine's errors: one root, each also a builtin, each worded for a person at the table."""

from __future__ import annotations

from engine.wording import compose, who, words


class CardtableError(Exception):
    """Root of every error cardtable raises on purpose."""


class InvalidInput(CardtableError, ValueError):
    """Text or data that does not describe anything: "card text '1X' is not a card"."""


class IllegalAction(CardtableError, ValueError):
    """An action the rules do not allow now.

    Carries the seat and card involved and a reason written for the display, so that
    ``str(err)`` reads like "seat 2 cannot play KS: you must follow hearts"; ``verb`` names what
    the seat tried ("cut", "lay away", "give"), "play" unless said.
    """

    def __init__(self, reason: str, *, seat: int | None = None, card: object = None, verb: str = "play") -> None:
        self.reason = reason
        self.seat = seat
        self.card = card
        self.verb = verb
        super().__init__(self._sentence())

    def doing(self, verb: str) -> IllegalAction:
        """The same refusal, worded for an action that is not a card play."""
        return IllegalAction(self.reason, seat=self.seat, card=self.card, verb=verb)

    def __str__(self) -> str:
        """The sentence, as :class:`~engine.wording.Words` when it names the seat (so that a
        display can say it with the player's name)."""
        return self.args[0]

    def _sentence(self) -> str:
        if self.seat is None:
            return words(self.reason)
        subject = who(self.seat, "seat")
        if self.card is not None:
            return compose(f"{subject} cannot {self.verb} {self.card}: ", self.reason)
        return compose(f"{subject}: ", self.reason)
