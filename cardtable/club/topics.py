"""The club's topic tree and the checks on every message read from it.

One tree per table, as home-automation devices do it::

    cardtable/<club>/<table>/status        "online" or "offline" (retained; the last will says offline)
    cardtable/<club>/<table>/view          the public view, JSON (retained)
    cardtable/<club>/<table>/game/<key>    one game's public record, JSON (retained)

Nothing read from the broker is trusted: anyone may publish on these topics. :func:`read_message`
keeps only the fields it knows, of the types it expects, with bounded lengths and counts, and
gives ``None`` for anything else; the pages draw text with ``textContent``, never as HTML. Views
and game records may be signed (:mod:`cardtable.club.signing`): each message says how far it can
be trusted, and which running table (``instance``) sent it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from cardtable.club.signing import UNSIGNED, unseal
from cardtable.club.spec import NAME

ROOT = "cardtable"
MAX_PAYLOAD = 256 * 1024
MAX_TEXT = 300
MAX_SEATS = 8
MAX_CARDS = 60
MAX_EVENTS = 2000
KEY = re.compile(r"^[0-9]{1,12}-[0-9]{1,12}$")


def table_topic(club: str, table: str, kind: str, key: str = "") -> str:
    return f"{ROOT}/{club}/{table}/{kind}" + (f"/{key}" if key else "")


def subscriptions(club: str) -> list[str]:
    return [f"{ROOT}/{club}/+/status", f"{ROOT}/{club}/+/view", f"{ROOT}/{club}/+/game/+"]


@dataclass(frozen=True)
class ClubMessage:
    table: str
    kind: str            # "status", "view" or "game"
    data: dict | str
    key: str = ""
    trust: str = UNSIGNED


def _text(value, limit: int = MAX_TEXT) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _int(value, low: int = -10**6, high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    return min(max(value, low), high)


def _time(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.0
    return float(min(max(value, 0.0), 1e11))


def _texts(value, count: int, limit: int = MAX_TEXT) -> list[str]:
    return [_text(v, limit) for v in value[:count]] if isinstance(value, list) else []


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def clean_view(data: dict) -> dict:
    seats = []
    for seat in (data.get("seats") if isinstance(data.get("seats"), list) else [])[:MAX_SEATS]:
        seat = _dict(seat)
        seats.append({"name": _text(seat.get("name"), 40), "score": _int(seat.get("score")),
                      "dealer": seat.get("dealer") is True, "turn": seat.get("turn") is True,
                      "note": _text(seat.get("note"), 80)})
    centre, play = _dict(data.get("centre")), _dict(data.get("play"))
    return {
        "game": _text(data.get("game"), 40), "status": _text(data.get("status"), 80),
        "prompt": _text(data.get("prompt")), "seats": seats,
        "centre": {"label": _text(centre.get("label"), 40), "cards": _texts(centre.get("cards"), MAX_CARDS, 8)},
        "play": {"label": _text(play.get("label"), 40), "cards": _texts(play.get("cards"), MAX_CARDS, 8)},
        "last_score": _text(data.get("last_score")), "warning": _text(data.get("warning")),
        "finished": data.get("finished") is True, "key": _text(data.get("key"), 30),
        "at": _time(data.get("at")), "instance": _text(data.get("instance"), 32),
    }


def clean_game(data: dict, key: str) -> dict:
    events = []
    for event in (data.get("events") if isinstance(data.get("events"), list) else [])[:MAX_EVENTS]:
        event = _dict(event)
        seat = event.get("seat")
        events.append({"seat": _int(seat, 0, MAX_SEATS - 1) if isinstance(seat, int) else None,
                       "points": _int(event.get("points"), -1000, 1000), "text": _text(event.get("text")),
                       "breakdown": _texts(event.get("breakdown"), 20, 120)})
    players = _int(data.get("players"), 0, MAX_SEATS)
    return {
        "key": key, "game": _text(data.get("game"), 20), "title": _text(data.get("title"), 40),
        "players": players, "names": _texts(data.get("names"), MAX_SEATS, 40),
        "scores": [_int(s) for s in (data.get("scores") if isinstance(data.get("scores"), list) else [])[:MAX_SEATS]],
        "winners": [w for w in (data.get("winners") if isinstance(data.get("winners"), list) else [])[:MAX_SEATS]
                    if isinstance(w, int) and not isinstance(w, bool) and 0 <= w < MAX_SEATS],
        "finished": _time(data.get("finished")) or None, "started": _time(data.get("started")),
        "result": _text(data.get("result")), "margin": _text(data.get("margin"), 20), "events": events,
        "at": _time(data.get("at")), "instance": _text(data.get("instance"), 32),
    }


def read_message(topic: str, payload: bytes, club: str, keys: dict[str, bytes] | None = None) -> ClubMessage | None:
    """The message, checked and cut down to what the club uses, with how far it can be trusted
    (``keys``: the tables' keys the club holds); ``None`` when it is not one."""
    parts = topic.split("/")
    if len(parts) not in (4, 5) or parts[0] != ROOT or parts[1] != club or not NAME.match(parts[2]):
        return None
    table, kind = parts[2], parts[3]
    if len(payload) > MAX_PAYLOAD:
        return None
    if kind == "status" and len(parts) == 4:
        text = payload.decode("utf-8", "replace").strip()
        return ClubMessage(table, "status", text) if text in ("online", "offline") else None
    if kind not in ("view", "game") or (kind == "game") != (len(parts) == 5):
        return None
    if kind == "game" and not KEY.match(parts[4]):
        return None
    if not payload:
        return None                                   # a retained message being cleared
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    data, trust = unseal(data, topic, (keys or {}).get(table))
    if not isinstance(data, dict):
        return None
    if kind == "view":
        return ClubMessage(table, "view", clean_view(data), trust=trust)
    return ClubMessage(table, "game", clean_game(data, parts[4]), parts[4], trust=trust)
