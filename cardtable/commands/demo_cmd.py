"""``cardtable demo``: a whole game between bots, shown as it is played."""

from __future__ import annotations

import random

from engine.bots import GreedyBot, RandomBot, play_game
from engine.game import get_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="play a whole game between bots")
    parser.add_argument("--game", default="cribbage", help="which game (see 'cardtable games')")
    parser.add_argument("--players", type=int, default=None, help="how many seats (default: the game's smallest)")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed, to replay a game")
    parser.set_defaults(func=run)


def run(args) -> int:
    game = get_game(args.game)
    players = args.players or game.players[0]
    state = game.new_game(players, seed=args.seed)
    bots = [(GreedyBot if seat % 2 else RandomBot)(random.Random(args.seed + seat)) for seat in range(players)]
    print(f"{game.title}, {players} players, dealer mode, seed {args.seed}")
    print("  ".join(f"Seat {seat + 1}: {bot.name} bot" for seat, bot in enumerate(bots)))

    def show(action, events, new_state):
        for event in events:
            if event.text and event.kind not in ("discard",):
                print(("    " if event.kind == "score" else "") + event.text)

    result = play_game(game, state, bots, on_step=show)
    scores = "  ".join(f"Seat {seat + 1}: {score}" for seat, score in enumerate(game.scores(result.state)))
    print(f"Final: {scores}")
    return 0
