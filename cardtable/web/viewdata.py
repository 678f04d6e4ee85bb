"""The JSON the web page, the overlay and the club receive: the :class:`~hardware.view.TableView`
field by field, and nothing else.

The view is already public (built by :mod:`cardtable.view` from the engine's public view), so the
page can never hold more than the table's displays show.
"""

from __future__ import annotations

from hardware.view import TableView


def view_data(view: TableView) -> dict:
    """``view`` as plain data; ``last_score`` is what the last accepted action scored."""
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
        "last_score": " ".join(view.score_log[len(view.score_log) - view.log_fresh:]) if view.log_fresh else "",
        "score_log": list(view.score_log),
        "warning": view.warning,
        "finished": view.finished,
    }
