"""The terminal view: a rich panel with the scores, the table, the prompt and its choices.

On an interactive terminal it is a ``rich.live.Live`` panel updated in place; when the output is
not a terminal (a log, a pipe, a test's recording console) each changed view is printed once.
The panel keeps one width (:data:`PANEL_WIDTH`, or the terminal's if narrower) whatever it shows,
so it does not jump about from move to move.
"""

from __future__ import annotations

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hardware.display.base import ClosingDisplay
from hardware.display.text import card_label
from hardware.view import TableView

PANEL_WIDTH = 76      # characters
LOG_SHOWN = 4         # the newest scoring log entries shown under the prompt


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
    parts: list = [scores]
    for label, cards in ((view.centre_label, view.centre_cards), (view.play_label, view.play_cards)):
        if label or cards:
            line = Text(f"{label}: " if label else "", style="dim")
            for card in cards:
                text, red = card_label(card, symbols=True)
                line.append(f" {text} ", style="bold red on white" if red else "bold black on white")
                line.append(" ")
            parts.append(line)
    if view.warning:
        parts.append(Text(f"! {view.warning}", style="bold white on red"))
    if view.prompt:
        parts.append(Text(view.prompt, style="bold"))
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
