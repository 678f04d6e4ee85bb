"""The protocol every game follows (actions, prompts, events, outcomes, options) and the small
common layer the games are written on (:class:`GameState`, :class:`Step`, :func:`handles`).

A game is a :class:`Game` subclass registered under a name (:mod:`engine.games` holds the registry:
its :func:`~engine.games.get_game` and :func:`~engine.games.all_games`). State is a frozen dataclass (a value:
comparable, serializable with :mod:`engine.serialize`, never mutated). The controller asks
:meth:`Game.prompt` who must act and how, applies an :class:`Action` with :meth:`Game.apply` and
gets back the new state plus :class:`Event` values, or an :class:`~engine.errors.IllegalAction`
whose reason is written for the display. An illegal action never changes anything: states are
values, so the old one is still there.

Two knowledge modes (RULES.md, "Table mode"): in ``DEALER`` mode the engine shuffles with a seed
and deals, so it knows every hand; in ``TABLE`` mode cards are dealt by hand and the engine learns a
card only when it is seen (an action carrying it), records claims it cannot check yet ("go", showing
out of a suit) and checks them when evidence arrives.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import Any, ClassVar

from engine.cards import Card, parse_card
from engine.decks import ItsFace, PhysicalCard
from engine.errors import IllegalAction, InvalidInput
from engine.wording import compose, who, words

DEALER = "dealer"
TABLE = "table"
MODES = (DEALER, TABLE)


@dataclass(frozen=True)
class Action:
    """Something a seat does (or the table shows): ``kind`` plus what it needs.

    ``seat`` is who acts (``None`` for a card the table shows, like a turn-up), ``cards`` the
    cards involved (played, discarded, shown), ``choice`` a button decision's detail (a bid).
    Kinds are the game's own words: "play", "discard", "go", "beg", "starter", "show" ...
    """

    kind: str
    seat: int | None = None
    #: cards as read: a :class:`~engine.cards.Card`, an It's 15 face, a physical card, or text a game parses
    cards: tuple[Card | ItsFace | PhysicalCard | str, ...] = ()
    choice: str | int | None = None

    @property
    def card(self):
        """The single card of a one-card action."""
        return self.cards[0] if len(self.cards) == 1 else None

    def __str__(self) -> str:
        who = "table" if self.seat is None else f"seat {self.seat + 1}"
        parts = [who, self.kind, *map(str, self.cards)]
        if self.choice is not None:
            parts.append(str(self.choice))
        return " ".join(parts)


@dataclass(frozen=True)
class Prompt:
    """Who must act, what kind of action, a sentence for the display, and button choices.

    ``kinds`` lists the action kinds accepted now (a card play, or the buttons in ``choices``).
    ``seat`` is ``None`` when the table itself must show something (turn up the starter).
    """

    seat: int | None
    kinds: tuple[str, ...]
    text: str
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _keep_seats(self, "text")


@dataclass(frozen=True)
class ScoreItem:
    """One line of a scoring breakdown: a category, its points, the cards that made it."""

    category: str
    points: int
    cards: tuple = ()
    label: str = ""


@dataclass(frozen=True)
class Event:
    """Something that happened, for the display and the journal.

    ``kind`` is one of the game's event words ("score", "trick", "revoke", "false_go",
    "starter", "hand_over", "game_over" ...). Score events carry ``points`` and a ``breakdown``;
    ``text`` is the sentence a person reads.
    """

    kind: str
    seat: int | None = None
    points: int = 0
    cards: tuple = ()
    text: str = ""
    breakdown: tuple[ScoreItem, ...] = ()
    #: named facts beside the text, as ``(name, value)`` pairs: ``(("reason", "play"),)``
    detail: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        _keep_seats(self, "text")

    def fact(self, name: str, default: Any = None) -> Any:
        """The value of one ``detail`` entry (``default`` when the event has none)."""
        return dict(self.detail).get(name, default)


@dataclass(frozen=True)
class CardSlot:
    """How a card action is made at a physical table: ``count`` cards laid face up in ``zone``
    (or, with ``taken``, the cards that leave the table, which must match one of the prompt's choices).

    ``zone`` is ``"seat"`` for the acting seat's own play area, or the name of a shared zone
    ("starter", "crib", "centre", "pot"). The controller collects cards seen there into the action.
    """

    count: int
    zone: str = "seat"
    #: the action is made by cards *leaving* the table (a capture), not by cards laid down
    taken: bool = False


@dataclass(frozen=True)
class PublicView:
    """What anyone at the table can see of a state: nothing from a hand, no face-down card.

    ``centre_*``: the card(s) that set the hand (a starter, a trump turn-up, table cards);
    ``play_*``: the trick or count in progress; ``notes``: a short word per seat ("passed").
    """

    status: str = ""
    centre_label: str = ""
    centre_cards: tuple = ()
    play_label: str = ""
    play_cards: tuple = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _keep_seats(self, "status", "centre_label", "play_label")
        object.__setattr__(self, "notes", tuple(map(words, self.notes)))


class Termination(Enum):
    TARGET_REACHED = "target reached"
    ROUNDS_PLAYED = "all rounds played"


class Margin(StrEnum):
    """How far the winners won, as the game's rules name it (a club scores a skunk higher)."""

    WIN = "win"
    SKUNK = "skunk"
    DOUBLE_SKUNK = "double skunk"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winners`` (seats; several on a shared win), final ``scores``, and the
    ``margin`` the game's rules give the win."""

    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    text: str = ""
    margin: Margin = Margin.WIN

    def __post_init__(self) -> None:
        _keep_seats(self, "text")


def _keep_seats(value, *fields: str) -> None:
    """Sentences written with :func:`engine.wording.who` become :class:`~engine.wording.Words`."""
    for name in fields:
        object.__setattr__(value, name, words(getattr(value, name)))


@dataclass(frozen=True)
class Option:
    """A rule option: name, default, a line of help and (optionally) the allowed values."""

    name: str
    default: Any
    help: str
    choices: tuple = ()

    def check(self, value: Any) -> Any:
        """``value``, when it suits the option.

        :raises InvalidInput: saying what is wrong (:meth:`problem`), after the option's name.
        """
        problem = self.problem(value)
        if problem:
            raise InvalidInput(f"option {self.name}: {problem}")
        return value

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this option, in words (the config file's check says
        them after the key), or ``None``: the value has the default's type (true or false is not a
        number), is one of the choices, and a whole number is from 0 to :data:`MOST`."""
        kind = type(self.default)
        if isinstance(self.default, bool):
            good = isinstance(value, bool)
        elif isinstance(self.default, (int, float)):
            good = isinstance(value, kind) and not isinstance(value, bool)
        else:
            good = self.default is None or isinstance(value, kind)
        if not good:
            what = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}.get(kind, kind.__name__)
            quotes = " (write it without quotes)" if isinstance(value, str) else ""
            return f"expected {what}, got {_shown(value)}{quotes}"
        if self.choices and value not in self.choices:
            return f"choose one of {', '.join(map(str, self.choices))}, not {value!r}"
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= MOST:
            return f"expected a whole number from 0 to {MOST}, got {value!r}"
        return None


#: the largest whole number an option takes (points, rounds, cards: none comes near it)
MOST = 10_000


def _shown(value: Any) -> str:
    """A value as a person reads it in a problem: text is called text, long values are cut."""
    text = f"the text {value!r}" if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class GameState:
    """The fields every game's state starts with; each game's state adds its own after them.

    ``outcome`` is set once the game is over (keyword-only, so that a game's own fields may
    follow without defaults).
    """

    players: int
    options: dict
    mode: str
    seed: int
    outcome: Outcome | None = field(default=None, kw_only=True)


@dataclass
class Step:
    """The work of one action: the state as it moves on and the events it makes, in order.

    A handler changes :attr:`state` with :meth:`update`, reports with :meth:`say`, and ends the
    game with :meth:`finish`; once :attr:`over`, it stops. Events flow one way: into the step.
    """

    state: Any
    events: list[Event] = field(default_factory=list)

    def update(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def say(self, kind: str, seat: int | None = None, text: str = "", **facts: Any) -> None:
        """Add an event (``facts`` are :class:`Event` fields: ``points``, ``cards``, ``breakdown``, ``detail``)."""
        self.events.append(Event(kind, seat, text=text, **facts))

    def draw(self) -> Card:
        """Take the top card of ``state.stock`` (dealer mode: the engine's own pack)."""
        card = self.state.stock[0]
        self.update(stock=self.state.stock[1:])
        return card

    def add_points(self, index: int, points: int) -> None:
        """Add ``points`` to ``state.scores[index]`` (a seat's, or a side's where partners share)."""
        self.update(scores=add_at(self.state.scores, index, points))

    def finish(self, outcome: Outcome, seat: int | None) -> None:
        """The game is over: record ``outcome`` and say so (``seat``: the first winner)."""
        self.update(outcome=outcome)
        self.say("game_over", seat, outcome.text)

    @property
    def over(self) -> bool:
        return self.state.outcome is not None


#: a rule's answer to one action kind: it changes the step, or raises IllegalAction
Handler = Callable[[Any, Step, "Action"], None]


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    """Mark a game method as the handler of action ``kinds`` (see :attr:`Game.handlers`)."""

    def mark(method: Handler) -> Handler:
        method.handles = kinds
        return method

    return mark


def set_at(values: tuple, index: int, item: Any) -> tuple:
    """``values`` with ``values[index]`` replaced by ``item``."""
    return values[:index] + (item,) + values[index + 1:]


def add_at(values: tuple, index: int, amount: int) -> tuple:
    """``values`` with ``amount`` added to ``values[index]``."""
    return set_at(values, index, values[index] + amount)


def one_card(action: Action) -> Card:
    """The one card an action shows.

    :raises IllegalAction: for no card or several, or text that is not a card.
    """
    if len(action.cards) != 1:
        raise IllegalAction("show exactly one card", seat=action.seat)
    return parse_card(action.cards[0])


def twin_at(table_state, dealer_states, counter: str):
    """The dealer-mode twin state for the same hand (deal, round) as ``table_state``: the latest of
    ``dealer_states`` whose ``counter`` field matches, else the latest of them."""
    wanted = getattr(table_state, counter)
    return next((s for s in reversed(dealer_states) if getattr(s, counter) == wanted), dealer_states[-1])


class Game:
    """Base of the games. Subclasses set the class attributes, implement the hooks, and mark one
    handler per action kind with :func:`handles` (docs/adding_a_game.md).

    Public API (the controller and bots use only these):
    ``new_game``, ``prompt``, ``legal_actions``, ``apply``, ``is_terminal``, ``outcome``,
    ``scores``, ``to_dict``/``from_dict`` (via :mod:`engine.serialize`).
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    deck: ClassVar[str] = "standard"
    players: ClassVar[tuple[int, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    state_type: ClassVar[type] = object
    #: action kinds made by laying cards on the table, and how (see :class:`CardSlot`)
    card_actions: ClassVar[dict[str, CardSlot]] = {}
    #: the dispatch table: each action kind and the method (marked with :func:`handles`) applying it
    handlers: ClassVar[dict[str, Handler]] = {}
    #: the last state asked about and its prompt (a state is a value: its prompt never changes)
    _last_prompt: tuple[Any, Prompt] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: dict[str, str] = {}
        for base in reversed(cls.__mro__):
            for name, method in vars(base).items():
                for kind in getattr(method, "handles", ()):
                    if names.setdefault(kind, name) != name:
                        raise TypeError(f"{cls.__name__}: {kind!r} is handled by {names[kind]} and {name}")
        # an override of a marked method keeps its kinds
        cls.handlers = {kind: getattr(cls, name) for kind, name in names.items()}

    # -- construction -----------------------------------------------------------------------
    def new_game(
        self, players: int, *, options: dict | None = None, mode: str = DEALER, seed: int = 0
    ):
        """A new game's state.

        :raises InvalidInput: for a player count the game does not support, an unknown option
            or mode, naming what is allowed.
        """
        if players not in self.players:
            counts = ", ".join(map(str, self.players))
            raise InvalidInput(f"{self.title} is for {counts} players, not {players}")
        if mode not in MODES:
            raise InvalidInput(f"mode must be {DEALER!r} or {TABLE!r}, not {mode!r}")
        return self._new_game(players, self.resolve_options(options), mode, seed)

    def resolve_options(self, options: dict | None) -> dict:
        known = {opt.name: opt for opt in self.options}
        resolved = {name: opt.default for name, opt in known.items()}
        for name, value in (options or {}).items():
            if name not in known:
                raise InvalidInput(
                    f"{self.title} has no option {name!r}; its options are: {', '.join(known) or 'none'}"
                )
            resolved[name] = known[name].check(value)
        return resolved

    # -- the protocol -------------------------------------------------------------------------
    def prompt(self, state) -> Prompt:
        """Who must act now, which kinds of action, a sentence for the display, the buttons;
        once the game is over, nobody, and the result.

        Worked out once per state: asked again about the same state (the check in :meth:`apply`,
        a table's turn light, its view, its buttons), the game answers from memory.
        """
        last = self._last_prompt
        if last is not None and last[0] is state:
            return last[1]
        prompt = Prompt(None, (), self.outcome(state).text) if self.is_terminal(state) else self._prompt(state)
        self._last_prompt = (state, prompt)
        return prompt

    def legal_actions(self, state) -> list[Action]:
        """Every legal action, where the engine knows enough to list them (sorted, stable).

        In table mode, card plays from unseen hands cannot be listed; the list then holds only
        the button decisions.
        """
        raise NotImplementedError

    def apply(self, state, action: Action):
        """Check and apply ``action``; returns ``(new_state, events)``.

        :raises IllegalAction: with a reason for the display; ``state`` is unchanged.
        """
        if self.is_terminal(state):
            raise IllegalAction("the game is over", seat=action.seat)
        expected = self.prompt(state)
        if action.kind not in expected.kinds:
            wanted = " or ".join(expected.kinds)
            raise IllegalAction(f"now is the time to {wanted}, not {action.kind}", seat=action.seat)
        if expected.seat is not None and action.seat != expected.seat:
            raise IllegalAction(
                compose(f"it is {who(expected.seat, 'seat')}'s turn (", expected.text, ")"), seat=action.seat,
                card=action.card, verb=verb_for(action.kind),
            )
        try:
            return self._apply(state, action)
        except IllegalAction as err:
            if err.card is None or err.verb != "play" or verb_for(action.kind) == "play":
                raise
            raise err.doing(verb_for(action.kind)) from None

    def is_terminal(self, state) -> bool:
        return state.outcome is not None

    def outcome(self, state) -> Outcome | None:
        return state.outcome

    def scores(self, state) -> tuple[int, ...]:
        """Each seat's score (partners share theirs)."""
        raise NotImplementedError

    def target(self, state) -> int | None:
        """The score that wins the game (``None``: it is played for a number of rounds)."""
        return state.options.get("target")

    def cards_needed(self, state, kind: str) -> int:
        """How many cards the card action ``kind`` takes now (usually its slot's count)."""
        return self.card_actions[kind].count

    def public_view(self, state) -> PublicView:
        """The public part of ``state`` for displays (never a hand or a face-down card)."""
        return PublicView()

    def public_hint(self, state) -> str | None:
        """The rule that decides which cards may be played now, in words, from public knowledge
        only (the count, the suit led, the cards face up): never a card from a hand. ``None`` when
        the game has nothing to point out (the default); called only while the game is on."""
        return None

    def strong_choice(self, state, seat: int) -> Action | None:
        """The strong bot's action for ``seat`` in dealer mode, from that seat's view (its own hand
        and the cards face up or played), or ``None`` to leave the choice to the greedy bot (the
        default: cutting, claiming ...). Games plug their advice in here (:mod:`engine.advice`)."""
        return None

    def advice_words(self, state, action: Action) -> str:
        """The strong choice ``action`` as a sentence for the acting seat ("seat 2: play 5H")."""
        seat = who(action.seat)
        if action.kind == "discard":
            return words(f"{seat}: lay away {' '.join(map(str, action.cards))}")
        if action.kind == "play":
            return words(f"{seat}: play {action.cards[0]}")
        return words(f"{seat}: {action.kind}")

    def action_for_choice(self, state, choice: str) -> Action:
        """The action a button choice from ``prompt(state).choices`` stands for.

        By default a choice names an action kind taken by the prompted seat ("go", "beg").
        """
        return Action(choice, self.prompt(state).seat)

    def heuristic(self, state, action: Action, seat: int) -> float:
        """How good ``action`` looks for ``seat``: the greedy bot's measure.

        The default is the immediate score gain; games refine it where points come later.
        """
        after, _ = self.apply(state, action)
        return self.scores(after)[seat] - self.scores(state)[seat]

    def conceal(self, action: Action, state=None) -> Action:
        """The action as a table-mode engine receives it: hidden cards removed.

        Only actions whose cards stay face down (a discard to the crib) lose them. ``state``
        (the dealer-mode twin's, before the action) tells games whose options change what the
        table sees.
        """
        return replace(action, cards=()) if action.kind in self.hidden_kinds else action

    hidden_kinds: ClassVar[frozenset[str]] = frozenset()
    #: card actions whose cards go face down into a hand even though the engine sees them
    #: (a deal scanned through a reader): like ``hidden_kinds``, never named on a shared output
    dealt_kinds: ClassVar[frozenset[str]] = frozenset()

    def is_secret(self, kind: str) -> bool:
        """Whether the cards of a ``kind`` action are hidden from the table."""
        return kind in self.hidden_kinds or kind in self.dealt_kinds

    def observe(self, table_state, dealer_states) -> Action | None:
        """What the table shows when a table-mode engine asks for it (a turn-up, a hand laid
        out for the show), read from a dealer-mode twin that knows the cards.

        ``dealer_states`` are the twin's recent states, oldest first (the twin may have moved on
        to the next hand). Used by simulation to run table mode on the same deal; ``None`` when
        nothing is asked.
        """
        return None

    # -- hooks for subclasses -------------------------------------------------------------------
    def _new_game(self, players: int, options: dict, mode: str, seed: int):
        raise NotImplementedError

    def _prompt(self, state) -> Prompt:
        """The prompt of a game that is not over."""
        raise NotImplementedError

    def _apply(self, state, action: Action):
        """Run the handler of ``action.kind`` on a :class:`Step` from ``state``."""
        step = Step(state)
        self.handlers[action.kind](self, step, action)
        return step.state, step.events

    # -- serialization ---------------------------------------------------------------------------
    def to_dict(self, state) -> dict:
        from engine.serialize import to_data

        return {"game": self.name, "state": to_data(state)}

    def from_dict(self, data: dict):
        from engine.serialize import from_data

        if data.get("game") != self.name:
            raise InvalidInput(f"this state belongs to {data.get('game')!r}, not {self.name!r}")
        return from_data(self.state_type, data["state"])


#: how a refusal names an action kind that is not its own verb ("seat 2 cannot lay away 5H: ...")
_VERBS = {"discard": "lay away", "turn_up": "turn up", "starter": "turn up", "deal": "be dealt",
          "crib": "lay out", "centre": "lay", "reveal": "show", "capture": "take with"}


def verb_for(kind: str) -> str:
    """The verb for an action kind in a refusal: "cut", "give", "lay away" ..."""
    return _VERBS.get(kind, kind.replace("_", " "))


def shuffled(cards, seed: int, salt: str) -> tuple:
    """The cards in the order a seeded shuffle gives: deterministic per (seed, salt)."""
    order = list(cards)
    random.Random(f"{seed}:{salt}").shuffle(order)
    return tuple(order)

