"""The controller: table events and button presses in, engine actions out, the table shown.

Every input, from the camera, the readers or the buttons, arrives through :meth:`Controller.handle`.
What a card laid or taken means is answered by :func:`cardtable.table.gestures.answer` (submit, refuse
or wait) from the engine's prompt and the game's :attr:`~engine.game.Game.card_actions`; a button
becomes the prompted decision. The game, its journal and undo are the
:class:`~cardtable.table.journalled_game.GameSession`'s: an accepted action is journalled (committed) before
the display shows it. Each input is handled whole, then the table is shown once. An action the journal cannot write (a full disk, a
read-only file) is refused in words saying what to do, and the table keeps showing the last good
state. A refused card is answered in words, with the buzzer and the seat's LED, and play waits
until that card is taken back; a card dealt face down through a reader is never named. A card the
camera sees face down (its back: no face) is never played either: it is counted in its zone
(:class:`cardtable.table.face_down.FaceDownCards`), said ("The crib: 4 cards face down") and shown
beside the prompt.
``undo`` takes back the last accepted action.

A card the camera finds ``present`` (already lying there when it started: ``cardtable run``
started again mid-game) is reconciled with the journal: a card whose face an accepted action
played is simply there (settled: moving it aside later plays nothing); any other card is said in
a sentence, and play goes on (nothing is refused: laid again, it is a play like any other).
"""

from __future__ import annotations

import logging
from typing import Protocol

from cardtable.table import gestures
from cardtable.table.face_down import FaceDownCards
from cardtable.table.journalled_game import GameSession, TableSetup
from cardtable.table.gestures import Cards, Refuse, Submit, Wait, Wants
from cardtable.journal import Journal, JournalError
from engine.decks import PhysicalCard
from engine.errors import IllegalAction
from engine.game import Action, Event
from engine.table_events import PRESENT, REMOVED, ButtonPress, Notice, TableEvent, TableInput
from engine.advice.hint import public_hint, teaching_advice
from engine.wording import capitalized, compose, named
from cardtable.table.view import build_view
from hardware.view import TableView

log = logging.getLogger(__name__)

UNDO, OK, LEFT, RIGHT, HINT, SAY = "undo", "ok", "left", "right", "hint", "say"


class Outputs(Protocol):
    """Where the controller's answers go: a display, the seat LEDs, the buzzer, the voice."""

    def show(self, view: TableView) -> None: ...
    def turn(self, seat: int | None) -> None: ...
    def refuse(self, seat: int | None) -> None: ...
    def happened(self, events: list[Event]) -> None: ...
    def say_again(self) -> None: ...


class NoOutputs:
    """Outputs that go nowhere (tests, replay)."""

    def show(self, view: TableView) -> None:
        pass

    def turn(self, seat: int | None) -> None:
        pass

    def refuse(self, seat: int | None) -> None:
        pass

    def happened(self, events: list[Event]) -> None:
        """The events of an accepted action, before the view that shows it."""

    def say_again(self) -> None:
        """The ``say`` button: the last sentence again, whose turn it is, the scores."""


def _of_session(name: str) -> property:
    """A read-only attribute of the controller's :class:`GameSession`."""
    return property(lambda self: getattr(self.session, name), doc=f"The game session's ``{name}``.")


class Controller:
    """Runs one game at a table; resumes the journal's unfinished game of the same setup.

    Each input is handled whole, then the table is shown once."""

    def __init__(self, setup: TableSetup, journal: Journal, outputs: Outputs | None = None,
                 *, resume: bool = True, notices: tuple[str, ...] = (), cannot_write: str | None = None) -> None:
        self.session = GameSession(setup, journal, resume=resume)
        self.outputs = outputs or NoOutputs()
        self.refused: dict[str, PhysicalCard] = {}      # cards to be taken back before play goes on
        self.secret: set[str] = set()                     # refused cards that must not be named
        self.pending: dict[str, Cards] = {}               # cards collected for a multi-card action
        self.taking: Cards = ()                           # cards taken off the table for a capture
        self.accepted: set[str] = set()                   # physical cards that made accepted actions
        self.choice_index: int | None = None
        self.face_down = FaceDownCards()                  # cards lying back up: counted, never played
        said = [*notices, self.session.problem]
        said += [self.session.kept_text(cannot_write)] if cannot_write else []
        self.warning = ". ".join(text[0].upper() + text[1:] for text in said if text)
        self.render()

    # -- the game and its journal (the session's) ----------------------------------------------
    setup = _of_session("setup")
    game = _of_session("game")
    journal = _of_session("journal")
    state = _of_session("state")
    game_id = _of_session("game_id")
    kept = _of_session("kept")
    resumed = _of_session("resumed")
    score_log = _of_session("score_log")
    finished = _of_session("finished")

    def new_game(self) -> None:
        """Start the next game with the same setup (the finished one stays in the journal)."""
        self._show(self._next_game())

    def submit(self, action: Action, cards: tuple[PhysicalCard, ...] = ()) -> list[Event] | None:
        """Apply ``action``: journal it, then show it. Returns its events, or ``None`` if refused
        (then ``cards``, the physical cards that made it, must be taken back)."""
        events, said = self._submit(action, cards)
        self._show(said)
        return events

    def undo(self) -> bool:
        """Take back the last accepted action (rebuilding the state from the journal)."""
        undone, said = self._undo()
        self._show(said)
        return undone

    # -- inputs ---------------------------------------------------------------------------------
    # Each step returns the sentence the table says now (``None``: it keeps the one it says).
    def handle(self, item: TableInput) -> None:
        """One input (a :class:`TableEvent`, a :class:`ButtonPress` or a :class:`Notice`), then the
        table is shown."""
        said = None
        if isinstance(item, TableEvent) and item.face_down:
            said = self._on_face_down(item)
        elif isinstance(item, TableEvent):
            said = self._on_card(item)
        elif isinstance(item, ButtonPress):
            said = self._on_button(item.name)
        elif isinstance(item, Notice):
            said = item.text
        else:
            log.warning("ignored an input of type %s", type(item).__name__)
        self._show(said)

    def _on_card(self, event: TableEvent) -> str | None:
        card = event.card
        if event.kind == PRESENT:
            return self._on_present(card, event.zone)
        if event.kind == REMOVED and self.refused.pop(card.id, None) is not None:
            self.secret.discard(card.id)
            return None if self.refused else ""
        prompt = self.session.prompt
        wants = Wants(prompt, self.game.card_actions, self.setup.seat_zones,
                      lambda kind: self.game.cards_needed(self.state, kind), self.pending, self.taking,
                      self.accepted | self.refused.keys(), bool(self.refused), self.finished, self.setup.swipe)
        answer = gestures.answer(event.kind, card, event.zone, wants)
        laid = event.kind != REMOVED and not (isinstance(answer, Wait) and answer.pending is None)
        if laid and any(self.game.is_secret(kind) for kind in prompt.kinds):
            self.secret.add(card.id)                      # a card dealt face down: never named
        if isinstance(answer, Submit):
            return self._submit_gesture(answer)
        if isinstance(answer, Refuse) and answer.blocked:
            self.refused[card.id] = card
            self.outputs.refuse(None)
            return f"Play waits: take back {self._named(self.refused.values())} first"
        if isinstance(answer, Refuse):
            return self._refuse(answer.reason, answer.seat, (card,))
        self.pending = dict(self.pending if answer.pending is None else answer.pending)
        self.taking = self.taking if answer.taking is None else answer.taking
        return answer.note or None

    def _on_present(self, card: PhysicalCard, zone: str) -> str | None:
        """A card lying on the table when the camera started: played already, or said."""
        if card.id in self.accepted or self.session.claim(card.face):
            self.accepted.add(card.id)
            return None
        return (f"The camera found the {card.face} lying in {zone}, which this game has not seen played: "
                f"if it is a play, take it back and lay it again")

    def _on_face_down(self, event: TableEvent) -> str | None:
        """A face-down card laid, moved or taken: counted where it lies and said, never played
        (while refused cards are out, the table keeps saying what play waits for)."""
        self.face_down.note(event)
        return None if self.refused else self.face_down.sentence(event.zone, self.setup.seat_zones)

    def _submit_gesture(self, answer: Submit) -> str:
        action = Action(answer.kind, answer.seat, tuple(c.face for c in answer.cards))
        if answer.taken:                                  # nothing to take back if the capture is refused
            self.taking = ()
            return self._submit(action)[1]
        self.pending.pop(answer.kind, None)
        events, said = self._submit(action, answer.cards)
        if events is not None:
            self.accepted |= {c.id for c in answer.cards}
            self.secret -= {c.id for c in answer.cards}
        return said

    def _on_button(self, name: str) -> str | None:
        if name == UNDO:
            return self._undo()[1]
        if name == HINT:
            return self._hint()
        if name == SAY:
            self.outputs.say_again()
            return None
        prompt = self.session.prompt
        choices = prompt.choices
        if self.score_log.press(name, choices_pending=bool(choices)):
            return None                                   # a button the game does not need pages the log
        if self.finished:
            return self._next_game() if name == OK else None
        if name in (LEFT, RIGHT) and choices:
            step = 1 if name == RIGHT else -1
            self.choice_index = ((self.choice_index if self.choice_index is not None else -step) + step) % len(choices)
            return None
        if name in choices:
            return self._submit(self.game.action_for_choice(self.state, name))[1]
        if name == OK:
            if choices and self.choice_index is not None:
                return self._submit(self.game.action_for_choice(self.state, choices[self.choice_index]))[1]
            if len(prompt.kinds) == 1:                     # e.g. "discard" face down: the engine decides
                return self._submit(Action(prompt.kinds[0], prompt.seat))[1]
        return compose(f"The {name} button does nothing now: ", prompt.text)

    def _hint(self) -> str:
        """What may be played now, from public knowledge only; at a teaching table (where the
        shared display may show a hand's advice) also the advice for the seat to act."""
        seat = self.session.prompt.seat
        parts = [public_hint(self.game, self.state) or "No rule to point out now"]
        if self.setup.teaching and seat is not None and not self.finished:
            advice = teaching_advice(self.game, self.state, seat)
            parts += [". ", advice] if advice else []
        return compose(*parts)

    # -- the game (the session's), and what the table says of it ---------------------------------
    def _next_game(self) -> str:
        self.session.next_game()
        self._clear()
        return ""

    def _submit(self, action: Action, cards: tuple[PhysicalCard, ...] = ()) -> tuple[list[Event] | None, str]:
        try:                                              # committed before it is shown as accepted
            events = self.session.apply(action)
        except IllegalAction as err:
            return None, self._refuse(str(err), action.seat, cards)
        except JournalError as err:
            return None, self._refuse(self.session.kept_text(str(err)), action.seat, cards)
        self.choice_index = None
        self.taking = ()
        self.outputs.happened(events)
        return events, next((e.text for e in reversed(events) if e.kind in ("revoke", "false_go")), "")

    def _undo(self) -> tuple[bool, str]:
        try:
            undone = self.session.undo()
        except JournalError as err:
            return False, self.session.kept_text(f"nothing was undone: {err}")
        if not undone:
            return False, "Nothing to undo"
        self._clear()
        return True, "Undone: the last action was taken back"

    def _clear(self) -> None:
        self.pending.clear()
        self.refused.clear()
        self.secret.clear()
        self.taking = ()

    def _refuse(self, reason: str, seat: int | None, cards: tuple[PhysicalCard, ...] = ()) -> str:
        """Refuse ``cards`` (they must be taken back), buzz, and say why."""
        for card in cards:
            self.refused[card.id] = card
        if cards and any(c.id in self.secret for c in cards):
            log.info("refused a face-down card: %s", reason)   # the reason may name it: not shown
            reason = compose(f"{self._named(cards).capitalize()} cannot be taken now: ", self.session.prompt.text)
        if cards:
            reason = compose(reason, f". Take back {self._named(cards)} to go on")
        self.outputs.refuse(seat)
        return capitalized(reason)

    # -- outputs --------------------------------------------------------------------------------
    def _named(self, cards) -> str:
        """The cards as the table may hear them: their faces, or, for one dealt face down, where it lies."""
        cards = list(cards)
        if any(c.id in self.secret for c in cards):
            return "the card just laid" if len(cards) == 1 else f"the {len(cards)} cards just laid"
        return "the " + " ".join(str(c.face) for c in cards)

    def view(self) -> TableView:
        collecting = ""
        for kind, cards in self.pending.items():
            if cards:
                collecting = f"{len(cards)} of {self.game.cards_needed(self.state, kind)} cards seen"
        face_down = named(self.face_down.summary(self.setup.seat_zones), self.setup.names)
        collecting = "; ".join(part for part in (collecting, face_down) if part)
        # the crib laid out face up so far (never the cards of an action whose cards stay hidden)
        laying = tuple(card.face for kind, cards in self.pending.items()
                       if getattr(self.game.card_actions.get(kind), "zone", "") == "crib" and not self.game.is_secret(kind)
                       for card in cards)
        return build_view(self.game, self.state, list(self.setup.names), score_log=tuple(self.score_log.entries),
                          log_page=self.score_log.page(), log_fresh=self.score_log.fresh,
                          warning=self.warning, choice_index=self.choice_index, collecting=collecting,
                          recent=self.session.recent, laying=laying)

    def _show(self, said: str | None) -> None:
        """Say ``said`` (``None``: keep what the table says) and show the table."""
        if said is not None:
            self.warning = said
        self.render()

    def render(self) -> None:
        """Show the table: the acting seat's LED and the view on every display."""
        self.outputs.turn(None if self.finished else self.session.prompt.seat)
        self.outputs.show(self.view())
