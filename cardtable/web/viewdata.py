"""The JSON the web page, the overlay and the club receive: the :class:`~hardware.view.TableView`
field by field, and nothing else.

The view is already public (built by :mod:`cardtable.view` from the engine's public view), so the
page can never hold more than the table's displays show.
"""

from __future__ import annotations

from hardware.view import TableView


def view_data(view: TableView) -> dict:
    """``view`` as plain data (``score_log`` is included when the view has one)."""
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
        "last_score": view.last_score,
        "score_log": list(getattr(view, "score_log", ()) or ()),
        "warning": view.warning,
        "finished": view.finished,
    }
