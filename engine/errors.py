"""The engine's errors: one root, each also a builtin, each worded for a person at the table."""

from __future__ import annotations


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

    def _sentence(self) -> str:
        if self.seat is None:
            return self.reason
        subject = f"seat {self.seat + 1}"
        if self.card is not None:
            return f"{subject} cannot {self.verb} {self.card}: {self.reason}"
        return f"{subject}: {self.reason}"
