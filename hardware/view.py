"""What a display shows: the :class:`TableView`, a plain value every display backend renders.

The application builds it from the engine state (``cardtable/table/view.py``) and is responsible for
showing only public information: no hand, no crib before the show, no card that is not face up.
Displays never see the engine; they render exactly these fields. (DESIGN.md puts the view model in
the application; its *type* lives here because ``hardware`` may not import ``cardtable``.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatView:
    """One seat as the table sees it."""

    name: str                 # "Seat 1" or a configured player name
    score: int
    is_dealer: bool = False
    is_turn: bool = False
    note: str = ""            # short extra: "partner of Seat 3", "showed out of hearts", "passed"


@dataclass(frozen=True)
class SideView:
    """A player, or a partnership sharing a score, on the board: the front peg (the score) and
    the back peg (the score before its last change)."""

    name: str                 # "Ann", or "Ann & Cy" for partners
    score: int
    back: int = 0


@dataclass(frozen=True)
class ShownItem:
    """One line of a counted hand's breakdown: what it is called, its points, the cards that made it."""

    text: str                 # "fifteen", "a pair", "one for his nob"
    points: int
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class ShownHand:
    """A hand or crib laid face up in the show: whose, its cards, the starter counted with it, and
    what it scored (``points`` is ``None`` while it is being laid out or waits for its claim)."""

    owner: str                # "Ann"
    whose: str                # "hand" or "crib"
    cards: tuple[str, ...]
    starter: str = ""
    points: int | None = None
    items: tuple[ShownItem, ...] = ()

    @property
    def label(self) -> str:
        """"Ann's hand", "Bob's crib"."""
        return f"{self.owner}'s {self.whose}"


@dataclass(frozen=True)
class TableView:
    """Everything a display may show at one moment.

    ``centre_label``/``centre_cards``: the face-up card(s) that set the hand, e.g. "Starter" ["5H"],
    "Trump" ["QS"], "Up-card", or Le Quinze's table cards. ``play_label``/``play_cards``: the trick
    in progress or the cribbage count ("Count 23", ["7H", "9C", "7D"]). ``score_log`` is the short
    scoring log, newest last: one sentence per change of a score, led by the change and giving its
    breakdown ("+6 Ann: fifteen two, fifteen four, and a pair is six"); ``log_page`` is the entry
    the buttons have paged back to (``None``: following the newest), ``log_fresh`` how many of the
    newest entries the last move made (displays keep them in sight until the next move). ``warning`` is a refused play
    or a detected revoke, worded for people. Cards are given as text ("10H", "brown 7") so displays
    need no card types. ``selected`` is the choice that the ok button would take, moved by the
    left/right buttons (``None``: none).

    ``sides`` are the scores as pegged on the board (partners share one side), ``board`` what is
    drawn ("cribbage": 121 holes in streets of 30; "track": a score track) to ``target`` (``None``:
    no target, the game has a number of rounds). ``shown`` holds the hands of the show, counted
    or being laid out (kept in view until the next starter); ``last_move`` says what the last
    accepted action did: who played what, who took what, and its points.
    """

    game: str
    seats: tuple[SeatView, ...]
    prompt: str
    choices: tuple[str, ...] = ()
    status: str = ""          # "Hand 3", "Round 4 of 10", "Game to 121"
    centre_label: str = ""
    centre_cards: tuple[str, ...] = ()
    play_label: str = ""
    play_cards: tuple[str, ...] = ()
    score_log: tuple[str, ...] = ()
    log_page: int | None = None   # index in ``score_log`` paged to with the buttons
    log_fresh: int = 0            # how many of the newest entries the last accepted action made
    warning: str = ""
    finished: bool = False
    selected: int | None = None   # index in ``choices`` the left/right buttons have highlighted
    sides: tuple[SideView, ...] = ()
    board: str = ""               # "cribbage", "track" or "" (nothing to draw)
    target: int | None = None
    shown: tuple[ShownHand, ...] = ()
    last_move: str = ""
