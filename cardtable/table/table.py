"""The table: every input in on one road, the game journalled, the table shown.

Every input, from the camera, the readers, the buttons, a device's sentence or the owner's page,
arrives through :meth:`Table.handle` as one type, :data:`engine.table_events.TableInput`, and is
handled whole; then the table is shown once. What a card laid or taken means is answered by
:func:`cardtable.table.gestures.answer` (submit, refuse or wait) from the engine's prompt and the
game's :attr:`~engine.game.Game.card_actions`; a button becomes the prompted decision; an owner's
request (start a game, undo, end the game) is carried out and answered in a sentence. The game,
its journal and undo are the :class:`~cardtable.table.journalled_game.JournalledGame`'s: an
accepted action is journalled (committed) before the display shows it, and a game the owner ends
is marked so there. What the table holds beside the game (cards collected, refused, accepted,
the choice pointed at, the face-down cards, the sentence said) is one value,
:class:`~cardtable.table.gestures.Held`, which each input replaces.

An action the journal cannot write (a full disk, a read-only file) is refused in words saying
what to do, and the table keeps showing the last good state. A refused card is answered in
words, with the buzzer and the seat's LED, and play waits until that card is taken back; a card
dealt face down through a reader is never named. A card the camera sees face down (its back: no
face) is never played either: it is counted in its zone
(:class:`cardtable.table.face_down.FaceDownCards`), said ("The crib: 4 cards face down") and
shown beside the prompt. ``undo`` takes back the last accepted action.

A card the camera finds ``present`` (already lying there when it started: ``cardtable run``
started again mid-game) is reconciled with the journal: a card whose face an accepted action
played is simply there (settled: moving it aside later plays nothing); any other card is said in
a sentence, and play goes on (nothing is refused: laid again, it is a play like any other).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Protocol

from cardtable.table import gestures
from cardtable.table.journalled_game import JournalledGame, TableSetup
from cardtable.table.gestures import Held, Refuse, Submit, Wait, Wants
from cardtable.table.owner_requests import ENDED, setup_to_start
from cardtable.journal import Journal, JournalError
from engine.decks import PhysicalCard
from engine.errors import CardtableError, IllegalAction
from engine.game import Action, Event
from engine.table_events import PRESENT, REMOVED, ButtonPress, Notice, OwnerRequest, TableEvent, TableInput
from engine.advice.hint import public_hint, teaching_advice
from engine.wording import capitalized, compose, named
from cardtable.table.view import build_view
from hardware.view import TableView

log = logging.getLogger(__name__)

UNDO, OK, LEFT, RIGHT, HINT, SAY = "undo", "ok", "left", "right", "hint", "say"


class Outputs(Protocol):
    """Where the table's answers go: a display, the seat LEDs, the buzzer, the voice."""

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


class Table:
    """Runs the game at a table, one input at a time; resumes the journal's unfinished game of the
    same setup. ``seat_zones`` are the zones the table has for seats (the setup's by default): the
    owner may start a game for as many seats as there are.

    :attr:`game` is the game being played and its journal; :attr:`held` what the table holds
    beside it."""

    def __init__(self, setup: TableSetup, journal: Journal, outputs: Outputs | None = None,
                 *, resume: bool = True, notices: tuple[str, ...] = (), cannot_write: str | None = None,
                 seat_zones: tuple[str, ...] | None = None) -> None:
        self.game = JournalledGame(setup, journal, resume=resume)
        self.outputs = outputs or NoOutputs()
        self.seat_zones = tuple(seat_zones or setup.seat_zones)
        said = [*notices, self.game.problem]
        said += [self.game.kept_text(cannot_write)] if cannot_write else []
        self.held = Held(warning=". ".join(text[0].upper() + text[1:] for text in said if text))
        self.render()

    def submit(self, action: Action) -> list[Event] | None:
        """Apply ``action`` as if the table had read it (a bot's move, a replay): journal it, then
        show it. Returns its events, or ``None`` if refused (the sentence says why)."""
        events, said = self._submit(action)
        self._show(said)
        return events

    # -- inputs ---------------------------------------------------------------------------------
    # Each step returns the sentence the table says now (``None``: it keeps the one it says).
    def handle(self, item: TableInput) -> None:
        """One input (a :class:`TableEvent`, a :class:`ButtonPress`, a :class:`Notice` or an
        :class:`OwnerRequest`), then the table is shown."""
        said = None
        if isinstance(item, TableEvent) and item.face_down:
            said = self._on_face_down(item)
        elif isinstance(item, TableEvent):
            said = self._on_card(item)
        elif isinstance(item, ButtonPress):
            said = self._on_button(item.name)
        elif isinstance(item, Notice):
            said = item.text
        elif isinstance(item, OwnerRequest):
            said = self._on_request(item)
        else:
            log.warning("ignored an input of type %s", type(item).__name__)
        self._show(said)

    def _on_card(self, event: TableEvent) -> str | None:
        card, held = event.card, self.held
        if event.kind == PRESENT:
            return self._on_present(card, event.zone)
        if event.kind == REMOVED and card.id in held.refused:
            self.held = held.taken_back(card)
            return None if self.held.refused else ""
        prompt, rules, setup = self.game.prompt, self.game.rules, self.game.setup
        wants = Wants(prompt, rules.card_actions, setup.seat_zones,
                      lambda kind: rules.cards_needed(self.game.state, kind), held.pending, held.taking,
                      held.settled, bool(held.refused), self.game.finished, setup.swipe)
        answer = gestures.answer(event.kind, card, event.zone, wants)
        laid = event.kind != REMOVED and not (isinstance(answer, Wait) and answer.pending is None)
        if laid and any(rules.is_secret(kind) for kind in prompt.kinds):
            self.held = self.held.hiding(card)            # a card dealt face down: never named
        if isinstance(answer, Submit):
            return self._submit_gesture(answer)
        if isinstance(answer, Refuse) and answer.blocked:
            self.held = self.held.refusing((card,))
            self.outputs.refuse(None)
            return f"Play waits: take back {self._named(self.held.refused.values())} first"
        if isinstance(answer, Refuse):
            return self._refuse(answer.reason, answer.seat, (card,))
        self.held = self.held.waiting(answer)
        return answer.note or None

    def _on_present(self, card: PhysicalCard, zone: str) -> str | None:
        """A card lying on the table when the camera started: played already, or said."""
        if card.id in self.held.accepted or self.game.claim(card.face):
            self.held = self.held.accepting((card,))
            return None
        return (f"The camera found the {card.face} lying in {zone}, which this game has not seen played: "
                f"if it is a play, take it back and lay it again")

    def _on_face_down(self, event: TableEvent) -> str | None:
        """A face-down card laid, moved or taken: counted where it lies and said, never played
        (while refused cards are out, the table keeps saying what play waits for)."""
        face_down = self.held.face_down.after(event)
        self.held = replace(self.held, face_down=face_down)
        return None if self.held.refused else face_down.sentence(event.zone, self.game.setup.seat_zones)

    def _submit_gesture(self, answer: Submit) -> str:
        action = Action(answer.kind, answer.seat, tuple(c.face for c in answer.cards))
        self.held = self.held.submitting(answer)
        if answer.taken:                                  # nothing to take back if the capture is refused
            return self._submit(action)[1]
        events, said = self._submit(action, answer.cards)
        if events is not None:
            self.held = self.held.accepting(answer.cards)
        return said

    def _on_button(self, name: str) -> str | None:
        if name == UNDO:
            return self._undo()[1]
        if name == HINT:
            return self._hint()
        if name == SAY:
            self.outputs.say_again()
            return None
        prompt, rules, state = self.game.prompt, self.game.rules, self.game.state
        choices = prompt.choices
        if self.game.score_log.press(name, choices_pending=bool(choices)):
            return None                                   # a button the game does not need pages the log
        if self.game.finished:
            return self._next_game() if name == OK else None
        if name in (LEFT, RIGHT) and choices:
            self.held = self.held.pointing(1 if name == RIGHT else -1, len(choices))
            return None
        if name in choices:
            return self._submit(rules.action_for_choice(state, name))[1]
        if name == OK:
            if choices and self.held.choice is not None:
                return self._submit(rules.action_for_choice(state, choices[self.held.choice]))[1]
            if len(prompt.kinds) == 1:                     # e.g. "discard" face down: the engine decides
                return self._submit(Action(prompt.kinds[0], prompt.seat))[1]
        return compose(f"The {name} button does nothing now: ", prompt.text)

    def _hint(self) -> str:
        """What may be played now, from public knowledge only; at a teaching table (where the
        shared display may show a hand's advice) also the advice for the seat to act."""
        seat, rules, state = self.game.prompt.seat, self.game.rules, self.game.state
        parts = [public_hint(rules, state) or "No rule to point out now"]
        if self.game.setup.teaching and seat is not None and not self.game.finished:
            advice = teaching_advice(rules, state, seat)
            parts += [". ", advice] if advice else []
        return compose(*parts)

    def _on_request(self, request: OwnerRequest) -> str | None:
        """Carry out the owner's request and answer it; what the table says of it."""
        try:
            answer, said = self._carry_out(request)
        except CardtableError as err:
            answer, said = f"Not done: {err}", None
        except Exception as err:  # the table must go on whatever the owner's page sent
            log.exception("owner request %s failed", request.kind)
            answer, said = f"Not done: {err}", None
        request.answer.set_result(answer)
        return said

    def _carry_out(self, request: OwnerRequest) -> tuple[str, str | None]:
        """The answer to the owner, and what the table says.

        :raises CardtableError: a request that cannot be carried out (a bad game, a journal that
            cannot be written), in words for the owner.
        """
        if request.kind == "undo":
            undone, said = self._undo()
            return ("The last action was taken back" if undone else said), said
        if request.kind == "end":
            if self.game.finished:
                return "The game is already over", None
            return "The game was ended; a new one has started", self._next_game(ENDED)
        if request.kind == "start":
            setup = setup_to_start(request, self.game.setup, self.seat_zones)
            said = self._next_game(ENDED, setup)
            return f"{self.game.rules.title} for {setup.players} has started", said
        return f"Not done: the table does not know the request {request.kind!r}", None

    # -- the game (the journalled game's), and what the table says of it -------------------------
    def _next_game(self, ended: str | None = None, setup: TableSetup | None = None) -> str:
        """Start the next game (of ``setup`` when given); the one before, unless over, is first
        journalled as ``ended``.

        :raises JournalError: the journal cannot mark the game before ended (nothing changes).
        """
        if ended is None:
            self.game.next_game()
        else:
            self.game.end(ended, setup)
        self.held = self.held.cleared()
        return ""

    def _submit(self, action: Action, cards: tuple[PhysicalCard, ...] = ()) -> tuple[list[Event] | None, str]:
        try:                                              # committed before it is shown as accepted
            events = self.game.apply(action)
        except IllegalAction as err:
            return None, self._refuse(str(err), action.seat, cards)
        except JournalError as err:
            return None, self._refuse(self.game.kept_text(str(err)), action.seat, cards)
        self.held = self.held.applied()
        self.outputs.happened(events)
        return events, next((e.text for e in reversed(events) if e.kind in ("revoke", "false_go")), "")

    def _undo(self) -> tuple[bool, str]:
        try:
            undone = self.game.undo()
        except JournalError as err:
            return False, self.game.kept_text(f"nothing was undone: {err}")
        if not undone:
            return False, "Nothing to undo"
        self.held = self.held.cleared()
        return True, "Undone: the last action was taken back"

    def _refuse(self, reason: str, seat: int | None, cards: tuple[PhysicalCard, ...] = ()) -> str:
        """Refuse ``cards`` (they must be taken back), buzz, and say why."""
        self.held = self.held.refusing(cards)
        if cards and any(c.id in self.held.secret for c in cards):
            log.info("refused a face-down card: %s", reason)   # the reason may name it: not shown
            reason = compose(f"{self._named(cards).capitalize()} cannot be taken now: ", self.game.prompt.text)
        if cards:
            reason = compose(reason, f". Take back {self._named(cards)} to go on")
        self.outputs.refuse(seat)
        return capitalized(reason)

    # -- outputs --------------------------------------------------------------------------------
    def _named(self, cards) -> str:
        """The cards as the table may hear them: their faces, or, for one dealt face down, where it lies."""
        cards = list(cards)
        if any(c.id in self.held.secret for c in cards):
            return "the card just laid" if len(cards) == 1 else f"the {len(cards)} cards just laid"
        return "the " + " ".join(str(c.face) for c in cards)

    def view(self) -> TableView:
        held, rules, state, setup = self.held, self.game.rules, self.game.state, self.game.setup
        collecting = ""
        for kind, cards in held.pending.items():
            if cards:
                collecting = f"{len(cards)} of {rules.cards_needed(state, kind)} cards seen"
        face_down = named(held.face_down.summary(setup.seat_zones), setup.names)
        collecting = "; ".join(part for part in (collecting, face_down) if part)
        # the crib laid out face up so far (never the cards of an action whose cards stay hidden)
        laying = tuple(card.face for kind, cards in held.pending.items()
                       if getattr(rules.card_actions.get(kind), "zone", "") == "crib" and not rules.is_secret(kind)
                       for card in cards)
        log_ = self.game.score_log
        return build_view(rules, state, list(setup.names), score_log=tuple(log_.entries),
                          log_page=log_.page(), log_fresh=log_.fresh,
                          warning=held.warning, choice_index=held.choice, collecting=collecting,
                          recent=self.game.recent, laying=laying)

    def _show(self, said: str | None) -> None:
        """Say ``said`` (``None``: keep what the table says) and show the table."""
        self.held = self.held.saying(said)
        self.render()

    def render(self) -> None:
        """Show the table: the acting seat's LED and the view on every display."""
        self.outputs.turn(None if self.game.finished else self.game.prompt.seat)
        self.outputs.show(self.view())
