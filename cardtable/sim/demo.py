"""The demo: a whole game between bots at a simulated table, through the real pipeline.

Bots play (:func:`cardtable.sim.simulation.table_moves`); each card they lay is shown to a simulated
device (the synthetic camera, or the microcontroller twin on a pseudo-terminal), which the real
vision pipeline or bridge turns into table events; each decision is a press of a gpiozero mock pin
on the real button panel. The table (:class:`cardtable.table.table.Table`), running the engine in
table mode, journals every action and drives the displays. At the end the table's score is
checked against the dealt game.

With ``owner`` (the queue the table's page puts the owner's requests on), each request is handed
to the table between two moves, as any input; one that changes the game (an undo, an end, a new
game) stops the bots, since their moves no longer fit it: the owner has the table, and
:attr:`DemoResult.setup` says which game it now plays.
"""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass, field
from pathlib import Path

from config_kit.reads import spoken
from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.journal import Journal
from cardtable.out_paths import cannot_write
from cardtable.readers.kinds import reader_kind, reader_kinds
from cardtable.table.outputs import TableOutputs
from cardtable.sim.simulation import table_moves
from engine.errors import InvalidInput
from engine.wording import named
from engine.game import Game
from engine.games import get_game
from vision import table_layout



def demo_inputs() -> list[str]:
    """The reader kinds a demo can play on: those with a simulated twin."""
    return [name for name, kind in reader_kinds().items() if kind.twin is not None]


@dataclass
class DemoResult:
    game: str
    outcome: str
    scores: tuple
    agrees: bool
    journal: Path
    game_id: int
    snapshots: list[Path] = field(default_factory=list)
    seconds: float = 0.0
    notices: list = field(default_factory=list)
    laid_again: list = field(default_factory=list)   # camera: for each card laid again, how many times
    wrong: list = field(default_factory=list)        # camera: cards it placed that were not on the table
    owner: str = ""                                  # the owner's request that stopped the bots (its answer)
    setup: TableSetup | None = None                  # the game the table plays at the end


def check_players(game: Game, players: int | None) -> int:
    """The number of seats to play (the game's smallest when ``None``).

    :raises InvalidInput: for a count the game is not played by, naming the counts it is.
    """
    if players is None:
        return game.players[0]
    if players not in game.players:
        counts = [str(n) for n in game.players]
        allowed = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
        raise InvalidInput(f"{game.title} is played by {allowed} players, not {players}")
    return players


def check_names(text: str, players: int) -> tuple[str, ...]:
    """The players' names from ``--names`` ("Ann, Bob"): one a seat, in seat order.

    :raises InvalidInput: a count that is not the seats', an empty or unprintable name, a name twice.
    """
    names = tuple(name.strip() for name in text.split(","))
    again = "give one name per seat, separated by commas"
    if len(names) != players:
        said = f"{len(names)} name{'s' * (len(names) != 1)}"
        raise InvalidInput(f"--names gives {said} for {players} players: {again}")
    for number, name in enumerate(names, 1):
        if not name:
            raise InvalidInput(f"--names has an empty name (name {number}): {again}")
        if not name.isprintable():
            raise InvalidInput(f"--names has a name with a control character (name {number}): {again}")
    seen: set[str] = set()
    for name in names:
        if spoken(name) in seen:
            raise InvalidInput(f"--names gives the name {name!r} twice: each seat needs a name of its own")
        seen.add(spoken(name))
    return names
def owner_turn(table: Table, requests: queue.Queue | None) -> str:
    """Hands the owner's waiting requests to the table; the answer of the first that changed the
    game (the bots must stop), else ""."""
    changed = ""
    while requests is not None:
        try:
            request = requests.get_nowait()
        except queue.Empty:
            break
        before = table.game.state
        table.handle(request)
        if not changed and table.game.state is not before:   # a new state: undone, ended, started
            changed = request.answer.result()
    return changed


def run_demo(game_name: str = "cribbage", *, players: int | None = None, seed: int = 1,
             input_kind: str = "camera", out_dir: str | Path = "out/demo", displays=(),
             on_move=None, device_options: dict | None = None, speaker=None,
             names: tuple[str, ...] = (), owner: queue.Queue | None = None) -> DemoResult:
    """Play a whole game; returns the result and where the journal and snapshots are. A
    ``speaker`` (:class:`cardtable.speech.speaker.Speaker`) says the game, each move's sentences
    before the next move. ``names`` are the players' (one a seat; default "Seat 1", "Seat 2", ...);
    ``owner`` brings the requests of the owner's page (a demo with ``--web`` and ``--pin``).

    :raises InvalidInput: a player count the game is not played by.
    :raises CannotWrite: ``out_dir`` cannot be made or written in.
    """
    from cardtable.sim.devices import DEMO_BUTTONS, SimButtons
    from hardware.display.snapshots import SnapshotDisplay

    started = time.perf_counter()
    game = get_game(game_name)
    players = check_players(game, players)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "snapshots").mkdir(exist_ok=True)
    except OSError as err:
        raise cannot_write(out, err, folder=True) from err
    seat_zones = list(table_layout.seat_zones(players))
    reader = reader_kind(input_kind)
    devices = reader.twin(game.deck, seat_zones + list(table_layout.shared_zones(game)), **(device_options or {}))
    moves, dealt = table_moves(game, players, seed=seed, buttons=frozenset(DEMO_BUTTONS), swipe=reader.swipe)
    buttons = SimButtons(players)
    snapshots = SnapshotDisplay(out / "snapshots", 320, 240, "RGB", prefix="lcd")
    outputs = TableOutputs(displays, panel=buttons.panel, speaker=speaker)
    journal = Journal(out / "journal.sqlite")
    result = None
    try:
        setup = TableSetup(game.name, players, seed=seed, seat_zones=seat_zones, swipe=reader.swipe, names=names)
        table = Table(setup, journal, outputs, resume=False)
        unread = getattr(devices, "unread", [])          # cards the camera never read, however laid
        taken_over = ""
        for move in moves:
            taken_over = owner_turn(table, owner)
            if taken_over:
                break
            if move.kind == "place":
                inputs = devices.place(move.card, move.zone)
            elif move.kind == "take":
                inputs = devices.take(move.card)
            elif move.kind == "press":
                inputs = buttons.press(move.button)
            else:
                snapshots.save(table.view(), f"lcd_{len(snapshots.written) + 1:03d}")
                inputs = devices.gather(move.cards)
            for item in inputs:
                table.handle(item)
            if speaker is not None:
                speaker.drain()
            if on_move:
                on_move(move, table)
            if table.game.finished or unread:             # play cannot go on without that card
                break
        snapshots.save(table.view(), "lcd_final")
        played = table.game
        table_scores = game.scores(played.state)
        outcome = named(game.outcome(played.state).text, setup.names) if played.finished else "unfinished"
        if taken_over:
            outcome = "the owner took the table over"
        if unread:
            outcome += f": the camera never read the {unread[0]}, laid again {devices.lay_again} times"
        result = DemoResult(
            game=game.title, outcome=outcome,
            scores=table_scores, agrees=played.finished and table_scores == game.scores(dealt),
            journal=journal.path, game_id=played.game_id, snapshots=list(snapshots.written),
            notices=list(getattr(devices, "notices", [])), laid_again=list(getattr(devices, "laid_again", [])),
            wrong=list(getattr(devices, "wrong", [])), owner=taken_over, setup=played.setup,
        )
    finally:
        journal.close()
        devices.close()
        outputs.close()
        snapshots.close()
    result.seconds = time.perf_counter() - started
    return result
