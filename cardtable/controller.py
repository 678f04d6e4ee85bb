"""The controller: table events and button presses in, engine actions out, the table shown.

Every input, from the camera, the readers or the buttons, arrives through :meth:`Controller.handle`.
A card laid in a zone becomes an engine action through the engine's prompt (who must act, which
kinds of action) and the game's :attr:`~engine.game.Game.card_actions` (how many cards, in which
zone); a button becomes the prompted decision. An accepted action is journalled (committed) before
the display shows it; a game is written to the journal with its first accepted action, so a table
that never got going leaves nothing behind. An action the journal cannot write (a full disk, a
read-only file) is refused in words saying what to do, and the table keeps showing the last good
state. A refused card is answered in words, with the buzzer and the seat's LED, and play waits
until that card is taken back; a card dealt face down through a reader is never named.
``undo`` takes back the last accepted action.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from engine.decks import PhysicalCard
from engine.errors import IllegalAction
from engine.game import Action, Event, Game, get_game
from engine.table_events import MOVED, REMOVED, TableEvent
from engine.wording import capitalized, compose
from cardtable.journal import GameSetup, Journal, JournalError
from cardtable.score_log import ScoreLog
from cardtable.view import build_view
from hardware.gpio import ButtonPress
from hardware.view import TableView

log = logging.getLogger(__name__)

UNDO, OK, LEFT, RIGHT = "undo", "ok", "left", "right"


@dataclass(frozen=True)
class Notice:
    """A warning from an input that is not a card: an unknown tag, a foreign code, a link down."""

    text: str
    source: str = ""


class Outputs(Protocol):
    """Where the controller's answers go: a display, the seat LEDs, the buzzer."""

    def show(self, view: TableView) -> None: ...
    def turn(self, seat: int | None) -> None: ...
    def refuse(self, seat: int | None) -> None: ...


class NoOutputs:
    """Outputs that go nowhere (tests, replay)."""

    def show(self, view: TableView) -> None:
        pass

    def turn(self, seat: int | None) -> None:
        pass

    def refuse(self, seat: int | None) -> None:
        pass


@dataclass
class TableSetup:
    """A game at a table: which game, how many seats, options, mode, and the zones of the seats."""

    game: str
    players: int
    options: dict = field(default_factory=dict)
    mode: str = "table"
    seed: int = 0
    seat_zones: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    #: readers see cards swiped past them: taking a card off does not take it back
    swipe: bool = False

    def __post_init__(self) -> None:
        self.seat_zones = tuple(self.seat_zones) or tuple(f"seat{n + 1}" for n in range(self.players))
        self.names = tuple(self.names) or tuple(f"Seat {n + 1}" for n in range(self.players))


class Controller:
    """Runs one game at a table; resumes the journal's unfinished game of the same setup."""

    def __init__(self, setup: TableSetup, journal: Journal, outputs: Outputs | None = None,
                 *, resume: bool = True, notices: tuple[str, ...] = (), cannot_write: str | None = None) -> None:
        self.setup = setup
        self.game: Game = get_game(setup.game)
        self.journal = journal
        self.outputs = outputs or NoOutputs()
        self.refused: dict[str, PhysicalCard] = {}      # cards to be taken back before play goes on
        self.secret: set[str] = set()                     # refused cards that must not be named
        self.pending: dict[str, list[PhysicalCard]] = {}  # cards collected for a multi-card action
        self.taking: list[PhysicalCard] = []              # cards taken off the table for a capture
        self.accepted: set[str] = set()                   # physical cards that made accepted actions
        self.warning = ""
        self.score_log = ScoreLog()
        self.choice_index: int | None = None
        self.resumed = False
        self.game_id: int | None = None                   # until the game's first action is journalled
        self.kept = 0                                     # the game's live actions in the journal
        self._start(resume)
        said = [*notices, self.warning] + ([self._kept_text(cannot_write)] if cannot_write else [])
        self.warning = ". ".join(text[0].upper() + text[1:] for text in said if text)
        self.render()

    # -- the game and its journal ------------------------------------------------------------
    def _start(self, resume: bool) -> None:
        s = self.setup
        record = self.journal.latest_unfinished(self.game.name) if resume else None
        if record and record.players == s.players and record.mode == s.mode:
            replay = self.journal.replay(record.id)
            self.game_id, self.state, self.kept = record.id, replay.state, record.actions
            self.resumed = True
            if replay.problems:                           # bad journal rows: said, never fatal
                self.warning = (f"{len(replay.problems)} journalled action(s) could not be replayed and were "
                                f"skipped: see 'cardtable replay {record.id}'")
            events = [e for _, evs in replay.steps for e in evs]
            self.score_log.restart(events)
            log.info("resumed game %s after %d actions", record.id, len(replay.steps))
        else:
            self.state = self.game.new_game(s.players, options=s.options, mode=s.mode, seed=s.seed)
            self.game_id, self.kept = None, 0

    def new_game(self) -> None:
        """Start the next game with the same setup (the finished one stays in the journal)."""
        self.setup.seed += 1
        self._start(resume=False)
        self.pending.clear()
        self.refused.clear()
        self.secret.clear()
        self.warning = ""
        self.score_log.restart()
        self.render()

    @property
    def finished(self) -> bool:
        return self.game.is_terminal(self.state)

    def submit(self, action: Action, cards: tuple[PhysicalCard, ...] = ()) -> list[Event] | None:
        """Apply ``action``: journal it, then show it. Returns its events, or ``None`` if refused
        (then ``cards``, the physical cards that made it, must be taken back)."""
        try:
            state, events = self.game.apply(self.state, action)
        except IllegalAction as err:
            self._refuse(str(err), action.seat, cards)
            return None
        s = self.setup
        try:                                              # committed before it is shown as accepted
            self.game_id, _ = self.journal.append(
                self.game_id if self.game_id is not None
                else GameSetup(self.game.name, s.players, s.options, s.mode, s.seed), action,
                result=self.game.outcome(state).text if self.game.is_terminal(state) else None)
        except JournalError as err:
            self._refuse(self._kept_text(str(err)), action.seat, cards)
            return None
        self.kept += 1
        self.state = state
        self.warning = ""
        self.choice_index = None
        self.taking = []
        self.score_log.add(events)
        for event in events:
            if event.kind in ("revoke", "false_go"):
                self.warning = event.text
        self.render()
        return events

    def undo(self) -> bool:
        """Take back the last accepted action (rebuilding the state from the journal)."""
        try:
            undone = self.journal.undo_last(self.game_id)
        except JournalError as err:
            self.warning = self._kept_text(f"nothing was undone: {err}")
            self.render()
            return False
        if not undone:
            self.warning = "Nothing to undo"
            self.render()
            return False
        replay = self.journal.replay(self.game_id)
        self.state, self.kept = replay.state, replay.record.actions
        self.score_log.restart(e for _, evs in replay.steps for e in evs)
        self.pending.clear()
        self.refused.clear()
        self.secret.clear()
        self.taking = []
        self.warning = "Undone: the last action was taken back"
        self.render()
        return True

    # -- inputs ---------------------------------------------------------------------------------
    def handle(self, item) -> None:
        """One input: a :class:`TableEvent`, a :class:`ButtonPress` or a :class:`Notice`."""
        if isinstance(item, TableEvent):
            self._on_card(item)
        elif isinstance(item, ButtonPress):
            self._on_button(item.name)
        elif isinstance(item, Notice):
            self.warning = item.text
            self.render()
        else:
            log.warning("ignored an input of type %s", type(item).__name__)

    def _on_card(self, event: TableEvent) -> None:
        card = event.card
        if event.kind == REMOVED:
            self._on_removed(card)
            return
        if any(c.id == card.id for c in self.taking):   # a card taken off is put back
            self.taking = [c for c in self.taking if c.id != card.id]
            self.render()
            return
        if event.kind == MOVED and (card.id in self.accepted or card.id in self.refused):
            return                                        # a card slid aside is not a new play
        if self.finished:
            self._refuse("the game is over", None, (card,))
            return
        prompt = self.game.prompt(self.state)
        if any(self.game.is_secret(kind) for kind in prompt.kinds):
            self.secret.add(card.id)                      # a card dealt face down: never named
        if self.refused:
            self.refused[card.id] = card
            self.warning = f"Play waits: take back {self._named(self.refused.values())} first"
            self.outputs.refuse(None)
            self.render()
            return
        kind, seat = self._kind_for(event.zone, prompt)
        if kind is None:
            self._refuse(self._misplaced(event.zone, prompt), self._seat_of(event.zone), (card,))
            return
        cards = self.pending.setdefault(kind, [])
        if any(c.id == card.id for c in cards):
            return                                        # seen again: nothing new
        cards.append(card)
        if len(cards) < self.game.cards_needed(self.state, kind):
            self.render()
            return
        del self.pending[kind]
        if self.submit(Action(kind, seat, tuple(c.face for c in cards)), tuple(cards)) is not None:
            self.accepted |= {c.id for c in cards}
            self.secret -= {c.id for c in cards}

    def _on_removed(self, card: PhysicalCard) -> None:
        prompt = self.game.prompt(self.state)
        taking = [k for k in prompt.kinds if k in self.game.card_actions and self.game.card_actions[k].taken]
        if taking and not self.setup.swipe and not self.refused and not self.finished:
            self._on_taken(taking[0], prompt, card)
            return
        if self.refused.pop(card.id, None) is not None:
            self.secret.discard(card.id)
            if not self.refused:
                self.warning = ""
            self.render()
            return
        if self.setup.swipe:
            return
        for cards in self.pending.values():
            if any(c.id == card.id for c in cards):
                cards[:] = [c for c in cards if c.id != card.id]
                self.render()

    def _on_taken(self, kind: str, prompt, card: PhysicalCard) -> None:
        """A capture is named by the cards that leave the table: once they make one of the
        prompt's choices, that is the action."""
        choices = [frozenset(choice.split()) for choice in prompt.choices]
        if not any(str(card.face) in choice for choice in choices):
            return                                        # the played card itself, swept up with them
        self.taking.append(card)
        taken = frozenset(str(c.face) for c in self.taking)
        if taken in choices:
            cards, self.taking = tuple(self.taking), []
            self.submit(Action(kind, prompt.seat, tuple(c.face for c in cards)))
            return
        if not any(taken <= choice for choice in choices):
            self.warning = (f"{' '.join(sorted(taken))} is not one of the captures "
                            f"({', '.join(prompt.choices)}): put back what is not taken")
        self.render()

    def _kind_for(self, zone: str, prompt) -> tuple[str | None, int | None]:
        """The action kind a card laid in ``zone`` makes now, and whose it is: the prompted
        seat's, or, when the table deals (no seat prompted), the seat whose zone it is."""
        for kind in prompt.kinds:
            slot = self.game.card_actions.get(kind)
            if slot is None or slot.taken:
                continue
            if slot.zone != "seat":
                if zone == slot.zone:
                    return kind, prompt.seat
            elif prompt.seat is None:
                if zone in self.setup.seat_zones:
                    return kind, self._seat_of(zone)
            elif zone == self.setup.seat_zones[prompt.seat]:
                return kind, prompt.seat
        return None, None

    def _seat_of(self, zone: str) -> int | None:
        zones = self.setup.seat_zones
        return zones.index(zone) if zone in zones else None

    def _misplaced(self, zone: str, prompt) -> str:
        seat = self._seat_of(zone)
        if seat is not None and prompt.seat is not None and seat != prompt.seat:
            return compose("it is not your turn: ", prompt.text)
        return compose(f"no card is wanted in {zone} now: ", prompt.text)

    def _on_button(self, name: str) -> None:
        if name == UNDO:
            self.undo()
            return
        if self.score_log.press(name, choices_pending=bool(self.game.prompt(self.state).choices)):
            self.render()                                 # a button the game does not need pages the log
            return
        if self.finished:
            if name == OK:
                self.new_game()
            return
        prompt = self.game.prompt(self.state)
        choices = prompt.choices
        if name in (LEFT, RIGHT) and choices:
            step = 1 if name == RIGHT else -1
            self.choice_index = ((self.choice_index if self.choice_index is not None else -step) + step) % len(choices)
            self.render()
            return
        if name in choices:
            self.submit(self.game.action_for_choice(self.state, name))
            return
        if name == OK:
            if choices and self.choice_index is not None:
                self.submit(self.game.action_for_choice(self.state, choices[self.choice_index]))
                return
            if len(prompt.kinds) == 1:                     # e.g. "discard" face down: the engine decides
                self.submit(Action(prompt.kinds[0], prompt.seat))
                return
        self.warning = compose(f"The {name} button does nothing now: ", prompt.text)
        self.render()

    # -- outputs --------------------------------------------------------------------------------
    def _refuse(self, reason: str, seat: int | None, cards: tuple[PhysicalCard, ...] = ()) -> None:
        for card in cards:
            self.refused[card.id] = card
        if cards and any(c.id in self.secret for c in cards):
            log.info("refused a face-down card: %s", reason)   # the reason may name it: not shown
            reason = f"{self._named(cards).capitalize()} cannot be taken now: {self.game.prompt(self.state).text}"
        if cards:
            reason = compose(reason, f". Take back {self._named(cards)} to go on")
        self.warning = capitalized(reason)
        self.outputs.refuse(seat)
        self.render()

    def _named(self, cards) -> str:
        """The cards as the table may hear them: their faces, or, for one dealt face down, where it lies."""
        cards = list(cards)
        if any(c.id in self.secret for c in cards):
            return "the card just laid" if len(cards) == 1 else f"the {len(cards)} cards just laid"
        return "the " + " ".join(str(c.face) for c in cards)

    def _kept_text(self, problem: str) -> str:
        return f"{problem}; the game is kept up to action {self.kept}"

    def view(self) -> TableView:
        collecting = ""
        for kind, cards in self.pending.items():
            if cards:
                collecting = f"{len(cards)} of {self.game.cards_needed(self.state, kind)} cards seen"
        return build_view(self.game, self.state, list(self.setup.names), score_log=tuple(self.score_log.entries),
                          log_page=self.score_log.page(), log_fresh=self.score_log.fresh,
                          warning=self.warning, choice_index=self.choice_index, collecting=collecting)

    def render(self) -> None:
        prompt = self.game.prompt(self.state)
        self.outputs.turn(None if self.finished else prompt.seat)
        self.outputs.show(self.view())
