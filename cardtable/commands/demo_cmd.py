"""``cardtable demo``: a whole game between bots at a simulated table, through the real pipeline.

Every score is said as it is made, in order, one line each, led by the change ("+6 Seat 1:
fifteen two, ..."): on a terminal above the live table, and alone when the output is piped.
"""

from __future__ import annotations

import sys
import time

from cardtable.readers.kinds import reader_kind, reader_kinds
from cardtable.sim.demo import check_names, check_players, demo_inputs, run_demo
from engine.errors import CardtableError, InvalidInput
from engine.games import all_games, get_game


def register(subparsers) -> None:
    games = ", ".join(sorted(game.name for game in all_games()))
    parser = subparsers.add_parser("demo", help="play a whole game between bots on simulated devices")
    parser.add_argument("--game", default="cribbage", metavar="GAME",
                        help=f"which game: {games} (default: %(default)s; see 'cardtable games')")
    parser.add_argument("--players", type=int, default=None,
                        help="how many seats (default: the game's smallest; 'cardtable games' lists each game's)")
    inputs = demo_inputs()
    parser.add_argument("--input", choices=inputs, default="camera",
                        help=f"the simulated reader: {' or '.join(reader_kinds()[name].described for name in inputs)}"
                             " (default: %(default)s)")
    parser.add_argument("--recognition", choices=("markers", "faces"), default="markers",
                        help="camera input: marked cards, or an unmarked deck read by its faces (default: %(default)s)")
    parser.add_argument("--design", default="dondorf",
                        help="with --recognition faces: the deck design drawn, from /usr/share/carddecks "
                             "(default: %(default)s)")
    parser.add_argument("--names", default="", metavar="NAMES",
                        help='the players\' names, one a seat, separated by commas: --names "Ann,Bob" '
                             '(default: Seat 1, Seat 2, ...)')
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed, to replay a game (default: %(default)s)")
    parser.add_argument("--out", default="out/demo", help="folder for the journal and display snapshots (default: %(default)s)")
    parser.add_argument("--pace", type=float, default=None, metavar="S",
                        help="seconds to pause after each move, to watch it (default 0.05 on a terminal, else 0)")
    parser.add_argument("--web", type=int, default=None, metavar="PORT",
                        help="serve the table's page on this port while the game is played (0: any free port)")
    parser.add_argument("--pin", default="", help="the owner's PIN for the page (default: owner's pages off)")
    parser.add_argument("--club", default=None, metavar="BROKER", help="publish the table to a club's broker, "
                        "e.g. mqtt://127.0.0.1:1883 (see 'cardtable club serve')")
    parser.add_argument("--table", default="T1", help="this table's name in the club (default T1)")
    parser.add_argument("--club-name", default="club", help="the club's name on the broker (default 'club')")
    parser.add_argument("--speech", default=None, metavar="DIR",
                        help="say the game with espeak-ng: each sentence as a WAV file in DIR, with transcript.tsv")
    parser.add_argument("--club-key", default=None, metavar="FILE",
                        help="sign what the table publishes with this key ('cardtable club key TABLE' makes one)")
    parser.add_argument("--stay", type=float, default=None, metavar="S",
                        help="with --web, seconds to keep the page up after the game (default: until Ctrl-C)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from rich.console import Console

    from hardware.display.terminal import TerminalDisplay

    console = Console()
    display = TerminalDisplay(console) if console.is_terminal else None
    pace = args.pace if args.pace is not None else (0.05 if display else 0.0)
    said = {"scores": 0, "warning": ""}

    def say(line: str) -> None:
        console.print(f"  {line}", markup=False, highlight=False, soft_wrap=True)

    def narrate(move, table):
        time.sleep(pace)
        view = table.view()
        new = table.game.score_log.count - said["scores"]
        said["scores"] = table.game.score_log.count
        for line in view.score_log[len(view.score_log) - new:] if new > 0 else ():
            say(line)
        if view.warning and view.warning != said["warning"]:
            say(f"! {view.warning}")
        said["warning"] = view.warning

    players = check_players(get_game(args.game), args.players)        # a wrong game or count: said first
    if args.recognition == "faces" and not reader_kind(args.input).recognises:
        cameras = " or ".join(name for name, kind in reader_kinds().items() if kind.recognises)
        raise InvalidInput(f"--recognition faces is how the camera reads an unmarked deck; with --input "
                           f"{args.input} the readers name each card: leave out --recognition, or use --input {cameras}")
    names = check_names(args.names, players) if args.names else ()
    faces = f" (faces of the {args.design} deck)" if args.recognition == "faces" else ""
    print(f"cardtable demo: {args.game}, {players} players, {args.input} input{faces}, seed {args.seed}", flush=True)
    from cardtable.network.demo import network_displays

    speaker = _speaker(args.speech) if args.speech else None
    with network_displays(args) as network:
        result = run_demo(args.game, players=players, seed=args.seed, input_kind=args.input,
                          out_dir=args.out, displays=([display] if display else []) + network.displays,
                          on_move=narrate, owner=network.requests,
                          device_options={"design": args.design} if args.recognition == "faces" else None,
                          speaker=speaker, names=names)
        print_result(args, result, speaker)
        network.stay(result)
    sys.stdout.flush()
    return 0 if result.agrees or result.owner else 1


def print_result(args, result, speaker) -> None:
    print(f"\n{result.game}: {result.outcome}")
    if result.owner:
        print(f"The owner took the table over from the page ({result.owner}): the bots stopped")
        print(f"Scores: {', '.join(map(str, result.scores))}")
    else:
        # The table kept its own score from the cards it read; the bots' game, dealt by the engine,
        # is the record it is checked against.
        checked = "the bots' own record of the game has the same" if result.agrees else \
            "DIFFERENT from the bots' own record of the game"
        print(f"Scores: {', '.join(map(str, result.scores))} ({checked})")
    print(f"Journal: {result.journal} (game {result.game_id}; 'cardtable replay {result.game_id} "
          f"--journal {result.journal}')")
    if reader_kind(args.input).recognises:
        again = f"{len(result.laid_again)} ({sum(result.laid_again)} times in all)" if result.laid_again else "none"
        print(f"Cards laid again because the camera could not read them: {again}")
        if result.wrong:
            print(f"WRONG cards: the camera placed {' '.join(result.wrong)}, which did not lie on the table")
    if result.snapshots:
        print(f"Display snapshots: {result.snapshots[0].parent}/ ({len(result.snapshots)} PNGs)")
    if speaker is not None:
        print(f"Speech: {args.speech}/ ({len(speaker.voice.written)} WAV files; what was said: "
              f"{speaker.voice.folder / speaker.voice.TRANSCRIPT})")
    print(f"Took {result.seconds:.1f} s", flush=True)


def _speaker(folder: str):
    """A speaker writing each sentence as a WAV file in ``folder``.

    :raises DeviceUnavailable: espeak-ng is not installed.
    :raises CannotWrite: ``folder`` cannot be made.
    """
    from cardtable.out_paths import cannot_write
    from cardtable.speech.speaker import Speaker
    from cardtable.speech.spec import SpeechSpec
    from cardtable.speech.voice import WavFiles

    try:
        return Speaker(WavFiles(SpeechSpec(enabled=True), folder))
    except CardtableError:                                # no espeak-ng: said as it is
        raise
    except OSError as err:
        raise cannot_write(folder, err, folder=True) from err
