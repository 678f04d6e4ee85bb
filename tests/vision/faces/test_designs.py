"""Every card design Debian's KDE card data installs renders card by card (vision.faces.designs)."""

from __future__ import annotations

import pytest

from vision.faces.designs import installed_designs, render_card

pytestmark = pytest.mark.skipif(not installed_designs(), reason="kdegames-card-data is not installed")


@pytest.mark.parametrize("design", [pytest.param("konqi-modern", marks=pytest.mark.slow), "xskat-french"])
def test_designs_that_embed_pictures_render_each_card(design, tmp_path, monkeypatch):
    """konqi-modern and xskat-french draw each card as an embedded picture (an SVG <image>),
    whose bounds rsvg-convert cannot export by id ("has no dimensions")."""
    if design not in installed_designs():
        pytest.skip(f"{design} is not installed")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    ace, king = render_card(design, "1_club", width=120), render_card(design, "king_heart", width=120)
    for card in (ace, king):
        assert card.shape[1] == 120 and 1.25 < card.shape[0] / card.shape[1] < 1.65
        assert card.std() > 20                              # a picture, not a blank page
    assert abs(ace.astype(int) - king.astype(int)).mean() > 10   # two different cards


@pytest.mark.slow
def test_every_installed_design_renders_its_ace_and_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for design in installed_designs():
        for element in ("1_spade", "back"):
            card = render_card(design, element, width=60)
            assert abs(card.shape[1] - 60) <= 1 and card.shape[0] > 30 and card.std() > 5, (design, element)
