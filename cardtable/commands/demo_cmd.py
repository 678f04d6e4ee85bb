"""``cardtable demo``: a whole game between bots at a simulated table, through the real pipeline."""

from __future__ import annotations

import sys
import time

from cardtable.demo import INPUTS, run_demo


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="play a whole game between bots on simulated devices")
    parser.add_argument("--game", default="cribbage", help="which game (see 'cardtable games')")
    parser.add_argument("--players", type=int, default=None, help="how many seats (default: the game's smallest)")
    parser.add_argument("--input", choices=INPUTS, default="camera", help="simulated camera or RFID readers")
    parser.add_argument("--recognition", choices=("markers", "faces"), default="markers",
                        help="camera input: marked cards, or an unmarked deck read by its faces")
    parser.add_argument("--design", default="dondorf",
                        help="with --recognition faces: the deck design drawn (from /usr/share/carddecks)")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed, to replay a game")
    parser.add_argument("--out", default="out/demo", help="folder for the journal and display snapshots")
    parser.add_argument("--pace", type=float, default=None, metavar="S",
                        help="seconds to pause after each move, to watch it (default 0.05 on a terminal, else 0)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from rich.console import Console

    from hardware.display.terminal import TerminalDisplay

    console = Console()
    display = TerminalDisplay(console) if console.is_terminal else None
    last_text = []

    pace = args.pace if args.pace is not None else (0.05 if display else 0.0)

    def narrate(move, controller):
        time.sleep(pace)
        if display is None:
            view = controller.view()
            line = view.last_score or view.warning
            if line and line != (last_text[-1] if last_text else None):
                print(f"  {line}")
                last_text.append(line)

    faces = f" (faces of the {args.design} deck)" if args.recognition == "faces" else ""
    print(f"cardtable demo: {args.game}, {args.input} input{faces}, seed {args.seed}", flush=True)
    result = run_demo(args.game, players=args.players, seed=args.seed, input_kind=args.input,
                      out_dir=args.out, displays=[display] if display else [], on_move=narrate,
                      device_options={"design": args.design} if args.recognition == "faces" else None)
    print(f"\n{result.game}: {result.outcome}")
    print(f"Scores: {', '.join(map(str, result.scores))} "
          f"({'the same as the dealt game' if result.agrees else 'DIFFERENT from the dealt game'})")
    print(f"Journal: {result.journal} (game {result.game_id}; 'cardtable replay {result.game_id} "
          f"--journal {result.journal}')")
    if result.snapshots:
        print(f"Display snapshots: {result.snapshots[0].parent}/ ({len(result.snapshots)} PNGs)")
    print(f"Took {result.seconds:.1f} s")
    sys.stdout.flush()
    return 0 if result.agrees else 1
