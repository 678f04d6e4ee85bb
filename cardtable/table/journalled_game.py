"""One game at the table and its journal: started or resumed, played action by action, undone, ended.

:class:`JournalledGame` owns the engine state, the journal's record of the game and the scoring log.
An action is committed to the journal before the state moves on, so what the table shows as
accepted is always in the file; a game is written with its first accepted action, so a table that
never got going leaves nothing behind. Undo drops the last journalled action and rebuilds the
state by replaying the rest. A game ended before its end (the owner's "end" or "start") is
marked so in the journal here, and the next game starts, of the same setup or of a new one.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field, replace

from engine.game import Action, Event, Game, Prompt
from engine.games import get_game
from engine.wording import default_names
from cardtable.journal import GameSetup, Journal
from cardtable.table.recent import Recent, side_scores
from cardtable.table.score_log import ScoreLog
from vision.table_layout import seat_zones

log = logging.getLogger(__name__)


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
    #: a teaching table: the hint button also gives the acting seat advice about its own hand
    teaching: bool = False

    def __post_init__(self) -> None:
        self.seat_zones = tuple(self.seat_zones) or seat_zones(self.players)
        self.names = tuple(self.names) or default_names(self.players)


class JournalledGame:
    """The current game of ``setup``, resumed from the journal's unfinished game of the same setup
    when ``resume``; :attr:`problem` says what the resume could not replay. :attr:`rules` is the
    engine's game being played."""

    def __init__(self, setup: TableSetup, journal: Journal, *, resume: bool = True) -> None:
        self.setup = setup
        self.rules: Game = get_game(setup.game)
        self.journal = journal
        self.score_log = ScoreLog()
        self.recent = Recent()
        self.resumed = False
        self.problem = ""
        self._start(resume)

    def _start(self, resume: bool) -> None:
        s = self.setup
        record = self.journal.latest_unfinished(self.rules.name) if resume else None
        self.problem = ""
        if record and record.players == s.players and record.mode == s.mode:
            replay = self.journal.replay(record.id)
            self.game_id, self.kept = record.id, record.actions
            self.state = replay.state
            self.resumed = True
            if replay.problems:                           # bad journal rows: said, never fatal
                self.problem = (f"{len(replay.problems)} journalled action(s) could not be replayed and were "
                                f"skipped: see 'cardtable replay {record.id}'")
            self._restart_logs(replay)
            log.info("resumed game %s after %d actions", record.id, len(replay.steps))
        else:
            self.game_id: int | None = None               # until the game's first action is journalled
            self.kept = 0                                 # the game's live actions in the journal
            self.state = self.rules.new_game(s.players, options=s.options, mode=s.mode, seed=s.seed)
            self.score_log.restart()
            self.recent.restart(side_scores(self.rules, self.state))
            self._played = Counter()

    @property
    def prompt(self) -> Prompt:
        """The engine's prompt for the current state (worked out once per state, by the engine)."""
        return self.rules.prompt(self.state)

    @property
    def finished(self) -> bool:
        return self.rules.is_terminal(self.state)

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action``, journal it, then move on; returns its events.

        :raises IllegalAction: the rules refuse it (nothing changes).
        :raises JournalError: the journal cannot write it (nothing changes).
        """
        state, events = self.rules.apply(self.state, action)
        s = self.setup
        self.game_id, _ = self.journal.append(
            self.game_id if self.game_id is not None
            else GameSetup(self.rules.name, s.players, s.options, s.mode, s.seed), action,
            result=self.rules.outcome(state).text if self.rules.is_terminal(state) else None)
        self.kept += 1
        self.state = state
        self.score_log.add(events)
        self.recent.add(events)
        self._played += _faces([action])
        return events

    def undo(self) -> bool:
        """Take back the last accepted action (rebuilding the state from the journal); False when
        there is none.

        :raises JournalError: the journal cannot mark it undone (nothing changes).
        """
        if not self.journal.undo_last(self.game_id):
            return False
        replay = self.journal.replay(self.game_id)
        self.state = replay.state
        self.kept = replay.record.actions
        self._restart_logs(replay)
        return True

    def claim(self, face) -> bool:
        """Match a card showing ``face``, found lying on the table, to the accepted actions of
        this game: True when one of them played that face and no card found before was matched
        to it (two cards of one face, It's 15's value cards, match two plays)."""
        if self._played[str(face)] <= 0:
            return False
        self._played[str(face)] -= 1
        return True

    def _restart_logs(self, replay) -> None:
        """The scoring log, what the table has just seen and the faces played, from the replayed game."""
        self.score_log.restart(e for _, evs in replay.steps for e in evs)
        self._played = _faces(a for a, _ in replay.steps)
        r = replay.record
        start = side_scores(self.rules, self.rules.new_game(r.players, options=r.options, mode=r.mode, seed=r.seed))
        self.recent.restart(start, (evs for _, evs in replay.steps))

    def next_game(self, setup: TableSetup | None = None) -> None:
        """Start the next game: of ``setup`` when given, else of the same setup with the next seed
        (the game before stays in the journal)."""
        if setup is not None:
            self.setup, self.rules = setup, get_game(setup.game)
        else:
            self.setup = replace(self.setup, seed=self.setup.seed + 1)     # the given setup stays as it was
        self._start(resume=False)

    def end(self, result: str, setup: TableSetup | None = None) -> None:
        """Mark the game over in the journal with ``result`` if it is not over already (a game
        with no action yet was never written), then start the next one: of ``setup`` when given.

        :raises JournalError: the journal cannot mark it (nothing changes).
        """
        if not self.finished:
            self.journal.finish(self.game_id, result)
        self.next_game(setup)

    def kept_text(self, problem: str) -> str:
        """``problem`` with how far the journal keeps the game."""
        return f"{problem}; the game is kept up to action {self.kept}"


def _faces(actions) -> Counter:
    """How many cards of each face (as text) the actions played."""
    return Counter(str(card) for action in actions for card in action.cards)
