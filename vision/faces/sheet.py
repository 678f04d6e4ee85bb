"""The contact sheet of an enrolment: every card of the deck as enrolled, in the deck's rows
(a suit a row), each upright view labelled with its card, so a user sees at a glance what the
table will compare against. The cards are shown as the table compares them, one way round: a
card photographed upside down among its rank is shown turned, and its label says so
(:func:`vision.faces.way_round.kept_turned`). A card enrolled in an earlier session (its view is
not kept) or not enrolled is a grey tile saying so.
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

import cv2
import numpy as np

from vision.faces.features import UPRIGHT, turned
from vision.faces.store import Enrolment
from vision.faces.way_round import kept_turned

#: Pixels between tiles, and the height of a tile's label.
GAP, LABEL = 6, 22


def _tile(view: np.ndarray | None, label: str, note: str) -> np.ndarray:
    w, h = UPRIGHT
    tile = np.full((h + LABEL, w, 3), 255, np.uint8)
    if view is None:
        tile[LABEL:] = 200
        cv2.putText(tile, note, (6, LABEL + h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (60, 60, 60), 1, cv2.LINE_AA)
    else:
        view = view if view.ndim == 3 else cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
        tile[LABEL:] = cv2.resize(view, (w, h), interpolation=cv2.INTER_AREA)
    cv2.putText(tile, label, (4, LABEL - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    return tile


def contact_sheet(enrolment: Enrolment) -> np.ndarray:
    """The contact sheet (BGR) of ``enrolment``: a row per suit, in deck order."""
    rows = [[card.id for card in run] for _, run in
            groupby(enrolment.deck.cards, key=lambda card: getattr(card.face, "suit", None))]
    w, h = UPRIGHT
    columns = max(map(len, rows))
    ranks = [getattr(enrolment.deck.card(card_id).face, "rank", None) for card_id in enrolment.cards]
    turned_round = {card_id for card_id, turn in zip(enrolment.cards, kept_turned(list(enrolment.cards.values()), ranks)) if turn}
    sheet = np.full((GAP + len(rows) * (h + LABEL + GAP), GAP + columns * (w + GAP), 3), 235, np.uint8)
    for r, row in enumerate(rows):
        for c, card_id in enumerate(row):
            note = "earlier session" if card_id in enrolment.cards else "not enrolled"
            view, turn = enrolment.views.get(card_id), card_id in turned_round
            tile = _tile(turned(view) if turn and view is not None else view, f"{card_id} turned" if turn else card_id, note)
            y, x = GAP + r * (h + LABEL + GAP), GAP + c * (w + GAP)
            sheet[y:y + h + LABEL, x:x + w] = tile
    return sheet


def write_sheet(enrolment: Enrolment, path: str | Path) -> Path:
    """Write the contact sheet of ``enrolment`` as a PNG at ``path``.

    :raises OSError: when it cannot be written.
    """
    path = Path(path)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), contact_sheet(enrolment)):
        raise OSError(f"cannot write the contact sheet {path}: name a .png file in a folder you can write")
    return path
