"""The terminal view: a rich panel with the scores, the table, the prompt and its choices, the
hands of the show with their breakdowns, what the last move did, and the board as a track per
side (the back peg ○ behind the front peg ●, the skunk lines ┊; :mod:`hardware.display.board`).

On an interactive terminal it is a ``rich.live.Live`` panel updated in place; when the output is
not a terminal (a log, a pipe, a test's recording console) each changed view is printed once.
The panel keeps one width (:data:`PANEL_WIDTH`, or the terminal's if narrower) whatever it shows,
so it does not jump about from move to move.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hardware.display.base import ClosingDisplay
from hardware.display.kinds import DisplaySpec, DisplayTable, Injected
from hardware.display.board import board_of
from hardware.display.text import card_label
from hardware.view import TableView

PANEL_WIDTH = 76      # characters
LOG_SHOWN = 4         # the newest scoring log entries shown under the prompt
TRACK = 40            # characters of a side's track on the board


def _cards(line: Text, cards, style: str = "") -> Text:
    for card in cards:
        text, red = card_label(card, symbols=True)
        line.append(f" {text} ", style=(style or "bold ") + ("red on white" if red else "black on white"))
        line.append(" ")
    return line


def _board_lines(view: TableView) -> list[Text]:
    """One track per side: its name, the holes to the target with the pegs, its score."""
    board = board_of(view)
    if board is None:
        return []

    def column(score: int) -> int:
        return round(max(0, min(score, board.target)) / board.target * (TRACK - 1))
    width = max(len(name) for name in board.names)
    lines = []
    for lane, name in enumerate(board.names):
        track = ["\u00b7"] * TRACK
        for mark in board.marks:
            track[column(mark.score)] = "\u250a"
        front = 0
        for peg in sorted((p for p in board.pegs if p.side == lane), key=lambda p: p.front):
            track[column(peg.score)] = "\u25cf" if peg.front else "\u25cb"
            front = peg.score if peg.front else front
        lines.append(Text(f"{name:<{width}} ", style="bold") + Text("".join(track), style="yellow")
                     + Text(f" {front}/{board.target}", style="bold"))
    return lines


def _show_lines(view: TableView) -> list[Text]:
    """Each hand of the show: whose, its points, its cards and the starter, then its breakdown."""
    lines = []
    for hand in view.shown:
        head = Text(f"{hand.label} {hand.points if hand.points is not None else '(not counted yet)'}:",
                    style="bold")
        _cards(head.append(" "), hand.cards)
        if hand.starter:
            _cards(head.append("+ "), (hand.starter,), "dim ")
        lines.append(head)
        if hand.items:
            lines.append(Text("  " + " \u00b7 ".join(
                f"+{item.points} {item.text}" + "".join(f" {card_label(c, symbols=True)[0]}" for c in item.cards)
                for item in hand.items), style="dim"))
    return lines


def table_panel(view: TableView, width: int = PANEL_WIDTH) -> Panel:
    """The rich renderable of ``view``, ``width`` characters wide."""
    scores = Table.grid(padding=(0, 2))
    for _ in range(4):
        scores.add_column()
    for seat in view.seats:
        marker = Text("▶", style="bold yellow") if seat.is_turn else Text(" ")
        name = Text(seat.name, style="bold yellow" if seat.is_turn else "bold")
        if seat.is_dealer:
            name.append(" (dealer)", style="cyan")
        scores.add_row(marker, name, Text(str(seat.score), style="bold", justify="right"),
                       Text(seat.note, style="dim"))
    parts: list = [scores, *_board_lines(view)]
    for label, cards in ((view.centre_label, view.centre_cards), (view.play_label, view.play_cards)):
        if cards:           # a label without cards ("Count 0") is the prompt's to say
            parts.append(_cards(Text(f"{label}: " if label else "", style="dim"), cards))
    parts += _show_lines(view)
    if view.warning:
        parts.append(Text(f"! {view.warning}", style="bold white on red"))
    if view.prompt:
        parts.append(Text(view.prompt, style="bold"))
    if view.last_move:
        parts.append(Text(view.last_move, style="bold yellow"))
    if view.choices:
        line = Text()
        for index, choice in enumerate(view.choices):
            line.append(f" {choice} ", style="reverse bold" if index == view.selected else "")
            line.append(" ")
        parts.append(line)
    page = view.log_page
    if page is not None and 0 <= page < len(view.score_log):
        parts.append(Text(f"{page + 1}/{len(view.score_log)} {view.score_log[page]}", style="reverse"))
    else:
        parts += [Text(entry, style="italic" if n == len(view.score_log) - 1 else "dim italic")
                  for n, entry in enumerate(view.score_log) if n >= len(view.score_log) - LOG_SHOWN]
    status = "game over" if view.finished else view.status
    return Panel(Group(*parts), title=f"[bold]{view.game}[/]",
                 subtitle=status or None, border_style="green", width=width)


@dataclass(frozen=True)
class TerminalSpec(DisplaySpec):
    """``kind = "terminal"``: the view drawn in the terminal (``live``: redrawn in place)."""

    kind = "terminal"
    live: bool | None = None

    @classmethod
    def read(cls, table: DisplayTable) -> TerminalSpec:
        return cls(live=table.flag("live", None))

    def open(self, inject: Injected) -> TerminalDisplay:
        return TerminalDisplay(inject.console, live=self.live)


class TerminalDisplay(ClosingDisplay):
    """Shows views on a rich console, live when it is a terminal.

    :param console: the console to draw on (default: standard output).
    :param live: force live updating on or off; ``None`` follows ``console.is_terminal``.
    """

    name = "terminal display"

    def __init__(self, console: Console | None = None, *, live: bool | None = None) -> None:
        self.console = console or Console()
        self._live_wanted = self.console.is_terminal if live is None else live
        self._live: Live | None = None
        self._last: TableView | None = None

    def show(self, view: TableView) -> None:
        """Show ``view``: update the live panel, or print it if it changed.

        :raises DeviceUnavailable: after :meth:`close`.
        """
        self._check_open()
        if view == self._last:
            return
        self._last = view
        panel = table_panel(view, min(PANEL_WIDTH, self.console.width))
        if not self._live_wanted:
            self.console.print(panel)
        elif self._live is None:
            self._live = Live(panel, console=self.console, auto_refresh=False)
            self._live.start(refresh=True)
        else:
            self._live.update(panel, refresh=True)

    def _release(self) -> None:
        if self._live is not None:
            self._live.stop()
