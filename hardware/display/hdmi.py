"""Full screen on HDMI through pygame (an optional dependency: ``pip install 'cardtable[hdmi]'``).

pygame is imported only when the display opens. SDL chooses the video driver from
``SDL_VIDEODRIVER``: leave it unset under a desktop (Wayland/X11), use ``kmsdrm`` on Raspberry Pi
OS Lite (the user must be in the ``video`` and ``render`` groups), and ``dummy`` in tests.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from hardware.display.base import ClosingDisplay
from hardware.display.kinds import DisplaySpec, DisplayTable, Injected
from hardware.display.layout import render
from hardware.errors import DeviceUnavailable
from hardware.view import TableView


@dataclass(frozen=True)
class HdmiSpec(DisplaySpec):
    """``kind = "hdmi"``: a screen through pygame, at its own size unless ``width``/``height`` are given."""

    kind = "hdmi"
    width: int | None
    height: int | None
    fullscreen: bool

    @classmethod
    def read(cls, table: DisplayTable) -> HdmiSpec:
        return cls(width=table.number("width", None, 64, 8192, optional=True),
                   height=table.number("height", None, 32, 8192, optional=True),
                   fullscreen=table.flag("fullscreen", True))

    def open(self, inject: Injected) -> HdmiDisplay:
        return HdmiDisplay(self.width, self.height, fullscreen=self.fullscreen)


class HdmiDisplay(ClosingDisplay):
    """A pygame window, full screen by default, at the screen's own size unless one is given.

    :raises DeviceUnavailable: pygame is not installed or SDL cannot open a screen.
    """

    name = "HDMI display"

    def __init__(self, width: int | None = None, height: int | None = None, *,
                 fullscreen: bool = True) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
        except ImportError as exc:
            raise DeviceUnavailable("the HDMI display needs pygame: pip install 'cardtable[hdmi]' "
                                    "(or pip install pygame)") from exc
        self._pygame = pygame
        try:
            pygame.display.init()
            size = (width or 0, height or 0)
            self.screen = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
        except pygame.error as exc:
            pygame.display.quit()
            driver = os.environ.get("SDL_VIDEODRIVER", "(not set)")
            raise DeviceUnavailable(
                f"the HDMI display cannot open a screen with SDL_VIDEODRIVER={driver}: {exc}; on "
                "Raspberry Pi OS Lite set SDL_VIDEODRIVER=kmsdrm and add the user to the video and "
                "render groups") from exc
        pygame.mouse.set_visible(False)
        pygame.display.set_caption("cardtable")

    @property
    def size(self) -> tuple[int, int]:
        """The screen's size in pixels."""
        return self.screen.get_size()

    def show(self, view: TableView) -> None:
        """Render ``view`` at the screen's size and flip it onto the screen.

        :raises DeviceUnavailable: after :meth:`close`.
        """
        self._check_open()
        self.show_image(render(view, *self.size, "RGB"))

    def show_image(self, image) -> None:
        """Put a Pillow image on the screen, scaled to fit (``cardtable vision watch`` shows the
        camera's annotated frames this way).

        :raises DeviceUnavailable: after :meth:`close`.
        """
        self._check_open()
        if image.size != self.size:
            image = image.convert("RGB").resize(self.size)
        surface = self._pygame.image.frombytes(image.convert("RGB").tobytes(), image.size, "RGB")
        self.screen.blit(surface, (0, 0))
        self._pygame.display.flip()
        self._pygame.event.pump()          # keep the window responsive to the window manager

    def _release(self) -> None:
        self._pygame.display.quit()
