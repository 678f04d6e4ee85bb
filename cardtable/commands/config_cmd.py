"""``cardtable config check FILE`` and ``cardtable config example --game NAME``."""

from __future__ import annotations

from pathlib import Path

from cardtable.config import ConfigError, load_config
from cardtable.config.app_sections import INPUT
from cardtable.config.example import example_config
from hardware.config import DISPLAYS
from engine.games import all_games, get_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("config", help="check a table configuration, or write an example")
    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="name every mistake in a configuration file, and what is still to do")
    check.add_argument("file")
    check.set_defaults(func=run_check)
    example = sub.add_parser("example", help="write a commented starting configuration")
    names = [game.name for game in all_games()]
    example.add_argument("--game", default="cribbage", help=f"{', '.join(names)} (default cribbage)")
    example.add_argument("--players", type=int, help="how many players (default: the game's smallest table)")
    example.add_argument("--out", help="file to write (default: print it)")
    example.set_defaults(func=run_example)


def run_check(args) -> int:
    try:
        config = load_config(args.file)
    except ConfigError as err:
        print(err)
        return 1
    setup = config.setup
    print(f"{args.file}: looks right: {setup.game}, {setup.players} players, {setup.mode} mode, "
          f"input {config[INPUT].kind}, {len(config[DISPLAYS])} display(s)")
    return 0


def run_example(args) -> int:
    text = example_config(get_game(args.game), args.players)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}; edit it, then: cardtable config check {args.out}")
    else:
        print(text, end="")
    return 0
