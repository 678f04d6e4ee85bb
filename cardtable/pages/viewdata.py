"""The JSON the web page, the overlay and the club receive: the :class:`~hardware.view.TableView`
field by field, the board to draw (:mod:`hardware.display.board`), and nothing else.

The view is already public (built by :mod:`cardtable.table.view` from the engine's public view), so the
page can never hold more than the table's displays show.
"""

from __future__ import annotations

from dataclasses import asdict

from hardware.display.board import board_of
from hardware.view import TableView


def board_data(view: TableView) -> dict | None:
    """The board of ``view`` in board units (``None``: nothing to peg); numbers rounded for the wire."""
    board = board_of(view)
    if board is None:
        return None
    return {
        "kind": board.kind, "width": board.width, "height": board.height, "target": board.target,
        "names": list(board.names),
        "holes": [[round(x, 2), round(y, 2), lane] for x, y, lane in board.holes],
        "marks": [asdict(mark) for mark in board.marks],
        "pegs": [asdict(peg) for peg in board.pegs],
    }


def view_data(view: TableView) -> dict:
    """``view`` as plain data; ``fresh_scores`` are the sentences the last accepted action scored
    (``last_score`` the same as one line, for the club)."""
    fresh = list(view.score_log[len(view.score_log) - view.log_fresh:]) if view.log_fresh else []
    return {
        "game": view.game,
        "status": view.status,
        "prompt": view.prompt,
        "choices": list(view.choices),
        "selected": view.selected,
        "seats": [{"name": s.name, "score": s.score, "dealer": s.is_dealer, "turn": s.is_turn, "note": s.note}
                  for s in view.seats],
        "centre": {"label": view.centre_label, "cards": list(view.centre_cards)},
        "play": {"label": view.play_label, "cards": list(view.play_cards)},
        "last_score": " ".join(fresh),
        "fresh_scores": fresh,
        "score_log": list(view.score_log),
        "warning": view.warning,
        "finished": view.finished,
        "target": view.target,
        "sides": [asdict(side) for side in view.sides],
        "board": board_data(view),
        "shown": [asdict(hand) | {"label": hand.label} for hand in view.shown],
        "last_move": view.last_move,
    }
