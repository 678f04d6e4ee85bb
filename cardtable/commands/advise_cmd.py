"""``cardtable advise GAME``: advice about one player's own hand, printed where only they see it.

``advise cribbage`` ranks the discards, ``advise pegging`` the cards to play in the count,
``advise tricks`` gives the legal cards, why, and a suggested card (All Fives, Fifteen),
``advise quinze`` every capture, ``advise its15`` the chance of being closest to 15. ``--json``
prints the same as JSON. See docs/advice.md.
"""

from __future__ import annotations

import json

from engine.advice.discards import discard_advice
from engine.advice.its15 import its15_advice
from engine.advice.pegging import pegging_advice
from engine.advice.quinze import capture_advice
from engine.advice.tricks import GAMES, trick_advice
from engine.errors import InvalidInput


def register(subparsers) -> None:
    parser = subparsers.add_parser("advise", help="advice about your own hand: discards, plays, captures, chances")
    games = parser.add_subparsers(dest="advice_game", metavar="GAME", required=True)

    crib = _game(games, "cribbage", "rank every discard of a 5- or 6-card Cribbage hand", run_cribbage)
    crib.add_argument("--hand", required=True, help='your cards, e.g. "5H 5D 5S JC 6H 4C"')
    crib.add_argument("--dealer", action="store_true", help="you (or your partner) deal: the crib is yours")
    crib.add_argument("--players", type=int, help="2, 3 or 4 (default 2 for six cards)")
    crib.add_argument("--seen", default="", help="other cards you have seen (they cannot be the starter)")

    peg = _game(games, "pegging", "rank the cards you can play in the Cribbage count", run_pegging)
    peg.add_argument("--hand", required=True, help='the cards you still hold, e.g. "5H 9C"')
    peg.add_argument("--count", default="", help='the cards of this count in the order laid, e.g. "10S 4D"')
    peg.add_argument("--seen", default="", help="other cards you have seen this hand (the starter, earlier counts)")
    peg.add_argument("--their-cards", type=int, help="how many cards the next player holds (default: as many as you)")

    tricks = _game(games, "tricks", "the legal cards and a suggestion in All Fives or Fifteen", run_tricks)
    tricks.add_argument("--game", required=True, choices=GAMES)
    tricks.add_argument("--hand", required=True, help="your cards")
    tricks.add_argument("--trick", default="", help="the cards on the table in this trick, in the order played")
    tricks.add_argument("--trump", help="the trump suit: S, H, D or C (Fifteen: the up-card's suit by default)")
    tricks.add_argument("--upcard", help="Fifteen: the up-card")
    tricks.add_argument("--players", type=int, default=2, help="players at the table (default 2)")
    tricks.add_argument("--seen", default="", help="cards already played this hand, and the turn-ups")

    quinze = _game(games, "quinze", "every capture your cards allow in Le Quinze", run_quinze)
    quinze.add_argument("--table", required=True, help='the cards face up in the centre, e.g. "6S 2H JD 4C"')
    quinze.add_argument("--hand", required=True, help="your card(s)")

    its15 = _game(games, "its15", "the chance that your cards end closest to 15", run_its15)
    its15.add_argument("--mine", required=True, help='your brown cards, e.g. "9" or "3 9"')
    its15.add_argument("--centre", required=True, help="the green card in the centre")
    its15.add_argument("--others", required=True,
                       help='brown cards held by each other player still in, e.g. "1 2 1"')
    its15.add_argument("--seen", default="", help="brown cards known not to be in their hands")


def _game(games, name: str, help_text: str, func):
    parser = games.add_parser(name, help=help_text, description=help_text)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=func)
    return parser


def _emit(args, data, lines: list[str]) -> int:
    print(json.dumps(data, indent=2) if args.json else "\n".join(lines))
    return 0


def run_cribbage(args) -> int:
    ranked = discard_advice(args.hand, dealer=args.dealer, players=args.players, seen=args.seen)
    players = 2 if args.players is None else args.players
    whose = {(True, 4): "your side's", (False, 4): "the other side's", (False, 3): "the dealer's"}.get(
        (args.dealer, players), "yours" if args.dealer else "your opponent's")
    lines = [f"The crib is {whose}. Expected points (hand over every starter, crib from the crib table):",
             f"{'discard':<9} {'keep':<13} {'hand':>6} {'crib':>6} {'net':>6}"]
    sign = 1 if args.dealer else -1
    for d in ranked:
        lines.append(f"{_cards(d.discard):<9} {_cards(d.keep):<13} {d.hand_ev:6.2f} {sign * d.crib_ev:+6.2f} "
                     f"{d.net_ev:6.2f}")
    return _emit(args, [d.to_dict() for d in ranked], lines)


def run_pegging(args) -> int:
    ranked = pegging_advice(args.hand, args.count, seen=args.seen, their_cards=args.their_cards)
    if not ranked:
        return _emit(args, [], ["No card fits under 31: say go."])
    lines = [f"{a.card} makes {a.count}: {a.say()}" for a in ranked]
    return _emit(args, [a.to_dict() for a in ranked], lines)


def run_tricks(args) -> int:
    advice = trick_advice(args.game, args.hand, args.trick, trump=args.trump, upcard=args.upcard,
                          players=args.players, seen=args.seen)
    lines = [f"Legal: {_cards(advice.legal)} ({advice.reason})", f"Suggested: {advice.suggestion} ({advice.why})"]
    return _emit(args, advice.to_dict(), lines)


def run_quinze(args) -> int:
    ranked = capture_advice(args.table, args.hand)
    return _emit(args, [c.to_dict() for c in ranked], [f"{c.say()} (worth {c.worth:.2f})" for c in ranked])


def run_its15(args) -> int:
    advice = its15_advice(_numbers(args.mine, "--mine"), _numbers(args.centre, "--centre")[0],
                          _numbers(args.others, "--others"), _numbers(args.seen, "--seen"))
    return _emit(args, advice.to_dict(), [advice.say()[0].upper() + advice.say()[1:] + "."])


def _numbers(text: str, option: str) -> list[int]:
    values = []
    for word in text.replace(",", " ").split():
        if not word.isdigit():
            raise InvalidInput(f"{option}: {word!r} is not a number")
        values.append(int(word))
    if option == "--centre" and len(values) != 1:
        raise InvalidInput("--centre is one green card, 1 to 9")
    return values


def _cards(cards) -> str:
    return " ".join(map(str, cards))
