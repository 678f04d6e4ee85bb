"""The ``cardtable`` command: parses arguments and hands each subcommand to its module.

Subcommands live in :mod:`cardtable.commands`, one module each, found automatically: a module
defines ``register(subparsers)``, which adds its parser and sets ``func`` to a function taking the
parsed arguments and returning an exit code. Errors print as "cardtable: error: ..." and exit 2;
``--debug`` shows the traceback instead. A reader that stops early (``cardtable replay 1 | head``)
ends any command quietly.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys

import cardtable
import cardtable.commands
from cardtable.os_errors import in_words
from engine.errors import CardtableError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="A card-table controller: reads the cards played, runs the rules, keeps the score.",
    )
    parser.add_argument("--version", action="version", version=f"cardtable {cardtable.__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logging")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(cardtable.commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"cardtable.commands.{info.name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s: %(message)s",
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()          # a reader that left early (| head) is met here, not at exit
        return code
    except BrokenPipeError:
        # Nobody reads the rest: stop quietly, and point stdout at /dev/null so that the
        # interpreter's own last flush does not fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CardtableError, OSError) as err:
        if args.debug:
            raise
        print(f"cardtable: error: {in_words(err) if isinstance(err, OSError) else err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
