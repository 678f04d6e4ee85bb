"""docs/adding_a_display.md, proven: a display kind (the scoreboard, tests/hardware/scoreboard_display.py)
joins with its module and one registration line; the table's configuration then accepts it, says
its mistakes, and opens it, and it shows a real game's views on luma's dummy panel (PNGs checked).
"""

from __future__ import annotations

import pytest
from PIL import ImageStat

import hardware.display.kinds as kinds
from cardtable.cli import main
from cardtable.config import load_config
from cardtable.sim.devices import demo_registry
from game_views import bot_game_views
from hardware.config import DISPLAYS
from hardware.display import open_displays
from hardware.display.kinds import register_display_kind
from scoreboard_display import ScoreboardDisplay, ScoreboardSpec
from table_configs import RFID_CRIBBAGE

CONFIG = RFID_CRIBBAGE.replace('kind = "terminal"', 'kind = "scoreboard"\ndriver = "dummy"\nwidth = 256\nheight = 64\n{extra}')


@pytest.fixture
def scoreboard(monkeypatch):
    """The registry with the scoreboard added (and the shipped kinds' registry untouched after)."""
    monkeypatch.setattr(kinds, "_KINDS", dict(kinds._KINDS))
    register_display_kind(ScoreboardSpec)                        # the registration line
    return ScoreboardSpec


@pytest.fixture
def table(tmp_path):
    demo_registry("standard").save(tmp_path / "tags.json")
    return tmp_path


def _check(table, capsys, extra: str = "") -> tuple[int, str]:
    (table / "table.toml").write_text(CONFIG.format(extra=extra))
    code = main(["config", "check", str(table / "table.toml")])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_without_its_line_the_kind_is_unknown_and_with_it_the_config_takes_it(table, capsys):
    code, out = _check(table, capsys)
    assert code == 1 and "display.kind: expected one of luma, hdmi, png, terminal, got the text 'scoreboard'" in out
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kinds, "_KINDS", dict(kinds._KINDS))
        register_display_kind(ScoreboardSpec)
        code, out = _check(table, capsys)
    assert code == 0, out


def test_its_mistakes_are_said_like_every_kind(scoreboard, table, capsys):
    code, out = _check(table, capsys, 'colour = "red"\nrotate = 9')
    assert code == 1
    assert "display.colour: not a setting of a scoreboard display; expected address, backlight" in out
    assert "display.rotate: expected a whole number from 0 to 3, got 9" in out
    with pytest.raises(TypeError, match="already registered"):
        register_display_kind(type("Other", (ScoreboardSpec,), {"kind": "scoreboard"}))


def test_the_table_opens_it_and_it_shows_a_real_game(scoreboard, table, capsys):
    assert _check(table, capsys)[0] == 0
    config = load_config(table / "table.toml")
    shots = []
    with open_displays(config[DISPLAYS]) as displays:
        (board,) = displays.displays
        assert isinstance(board, ScoreboardDisplay)
        for view in bot_game_views(config.setup.game, list(config.setup.names)):
            displays.show(view)
            shots.append((view, board.device.image.copy()))
    for n, (view, image) in enumerate(shots[-3:]):
        image.save(table / f"scoreboard-{n}.png")
    view, image = shots[-1]
    assert view.finished and image.size == (256, 64) and image.mode == "1"
    turns = [(view, image) for view, image in shots if any(s.is_turn for s in view.seats)]
    assert turns, "some view names a seat to act"
    for view, image in turns:
        for i, seat in enumerate(view.seats):
            column = image.crop((i * 128, 0, i * 128 + 128, 64)).convert("L")
            lit = ImageStat.Stat(column).mean[0] / 255
            assert (lit > 0.6) if seat.is_turn else (0.01 < lit < 0.4), (seat, lit)   # lit up, or ink on black
    drawn = {tuple((s.score, s.is_turn) for s in v.seats): image.tobytes() for v, image in shots}
    assert len(drawn) > 10 and len(set(drawn.values())) == len(drawn), "each score and turn is drawn differently"
