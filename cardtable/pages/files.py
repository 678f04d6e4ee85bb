"""The files every page shares (the cards' drawing script and the stylesheet, in ``static/``) and
the headers every page is served with: each app mounts :func:`common_files` at ``/common``."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

COMMON = Path(__file__).parent / "static"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",      # "no-referrer" would make our own forms say "Origin: null"
}


def common_files() -> Mount:
    """The shared files as a route: ``/common/cards.js``, ``/common/table.css``."""
    return Mount("/common", StaticFiles(directory=COMMON), name="common")
