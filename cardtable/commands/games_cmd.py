"""``cardtable games``: the games there are, with their player counts and options."""

from __future__ import annotations

from engine.games import all_games


def register(subparsers) -> None:
    parser = subparsers.add_parser("games", help="list the games, their player counts and options")
    parser.set_defaults(func=run)


def run(args) -> int:
    for game in sorted(all_games(), key=lambda g: g.name):
        counts = ", ".join(map(str, game.players))
        aliases = f" (also: {', '.join(game.aliases)})" if game.aliases else ""
        print(f"{game.name}{aliases}: {game.title}, {counts} players, {game.deck} deck")
        for option in game.options:
            choices = f" [{' | '.join(map(str, option.choices))}]" if option.choices else ""
            print(f"    {option.name} = {option.default!r}{choices}: {option.help}")
    return 0
