"""States, actions and events to JSON-ready data and back.

The encoding describes itself, so any engine value round-trips without a schema: cards become
``{"$card": "10H"}``, It's 15 faces ``{"$its": "V2R"}``, engine dataclasses
``{"$type": "engine.games.cribbage.CribbageState", ...fields}``, enums ``{"$enum": ..., "value": ...}``,
tuples become lists and come back as tuples. Only engine dataclasses and enums already loaded are
rebuilt (nothing is imported or called because stored data names it), nesting deeper than
:data:`MAX_DEPTH` is refused, and every failure is an :class:`~engine.errors.InvalidInput`.

The journal stores actions only and reads them with :func:`action_from_text`, which accepts
exactly what :func:`dumps` writes for an :class:`~engine.game.Action` and nothing else.

>>> from engine.game import Action
>>> from engine.cards import parse_card
>>> action = Action("play", 0, (parse_card("5H"),))
>>> from_data(None, to_data(action)) == action
True
"""

from __future__ import annotations

import dataclasses
import json
import sys
from enum import Enum

from engine.cards import Card, parse_card
from engine.decks import ItsFace, parse_its_face
from engine.errors import InvalidInput

#: the deepest nesting a stored value may have (engine states nest a few levels)
MAX_DEPTH = 32


def to_data(value):
    """Encode an engine value as JSON-ready data (dicts, lists, strings, numbers)."""
    if isinstance(value, Card):
        return {"$card": str(value)}
    if isinstance(value, ItsFace):
        return {"$its": str(value)}
    if isinstance(value, Enum):
        cls = type(value)
        return {"$enum": f"{cls.__module__}.{cls.__qualname__}", "value": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        data = {"$type": f"{cls.__module__}.{cls.__qualname__}"}
        for f in dataclasses.fields(value):
            if f.init:
                data[f.name] = to_data(getattr(value, f.name))
        return data
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [to_data(item) for item in items]
    if isinstance(value, dict):
        if all(isinstance(key, str) and not key.startswith("$") for key in value):
            return {key: to_data(item) for key, item in value.items()}
        return {"$dict": [[to_data(k), to_data(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise InvalidInput(f"cannot store a {type(value).__name__} in a game state")


def _engine_class(path, kind: type | None):
    """The engine class ``path`` names, if it is loaded and is a dataclass (``kind`` None) or an
    Enum (``kind`` Enum); never imports or calls anything else."""
    module_name, _, name = str(path).rpartition(".")
    if not (module_name == "engine" or module_name.startswith("engine.")):
        raise InvalidInput(f"stored data names {path!r}, which is not an engine type")
    cls = getattr(sys.modules.get(module_name), name, None)
    fits = isinstance(cls, type) and (issubclass(cls, kind) if kind else dataclasses.is_dataclass(cls))
    if not fits:
        raise InvalidInput(f"stored data names {path!r}, which is not a stored engine type")
    return cls


def from_data(_expected_type, data, _depth: int = 0):
    """Rebuild a value from :func:`to_data` output (the first argument is documentation only).

    :raises InvalidInput: for data :func:`to_data` does not write.
    """
    if _depth > MAX_DEPTH:
        raise InvalidInput(f"stored data is nested deeper than {MAX_DEPTH} levels")
    depth = _depth + 1
    if isinstance(data, list):
        return tuple(from_data(None, item, depth) for item in data)
    if not isinstance(data, dict):
        return data
    if "$card" in data:
        return parse_card(data["$card"])
    if "$its" in data:
        return parse_its_face(data["$its"])
    try:
        if "$enum" in data:
            return _engine_class(data["$enum"], Enum)(data.get("value"))
        if "$dict" in data:
            return {from_data(None, k, depth): from_data(None, v, depth) for k, v in data["$dict"]}
        if "$type" in data:
            cls = _engine_class(data["$type"], None)
            kwargs = {key: from_data(None, item, depth) for key, item in data.items() if key != "$type"}
            return cls(**kwargs)
    except (TypeError, ValueError) as err:
        if isinstance(err, InvalidInput):
            raise
        raise InvalidInput(f"stored data does not make an engine value: {err}") from None
    return {key: from_data(None, item, depth) for key, item in data.items()}


def dumps(value) -> str:
    """Compact, key-sorted JSON text of an engine value."""
    return json.dumps(to_data(value), sort_keys=True, separators=(",", ":"))


def _json(text: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:
        raise InvalidInput(f"stored text is not JSON: {str(err)[:80]}") from None


def loads(text: str):
    """:raises InvalidInput: for text :func:`dumps` does not write."""
    return from_data(None, _json(text))


_ACTION_KEYS = {"$type", "kind", "seat", "cards", "choice"}


def action_from_text(text: str):
    """The :class:`~engine.game.Action` a journal row holds, accepting only what :func:`dumps`
    writes for one: a kind, a seat (or none), card faces, a plain choice.

    :raises InvalidInput: saying what is wrong, for anything else.
    """
    from engine.game import Action

    data = _json(text)
    if not isinstance(data, dict) or data.get("$type") != "engine.game.Action" or not set(data) <= _ACTION_KEYS:
        raise InvalidInput("the row is not an action")
    kind, seat, cards, choice = data.get("kind"), data.get("seat"), data.get("cards", []), data.get("choice")
    if not isinstance(kind, str) or not kind:
        raise InvalidInput("the action has no kind")
    if seat is not None and (type(seat) is not int or not 0 <= seat < 16):
        raise InvalidInput(f"the action's seat {seat!r} is not a seat")
    if not isinstance(cards, list) or not all(isinstance(c, dict) and len(c) == 1 and
                                              isinstance(next(iter(c.values())), str) and
                                              ("$card" in c or "$its" in c) for c in cards):
        raise InvalidInput("the action's cards are not card faces")
    if choice is not None and type(choice) not in (str, int):
        raise InvalidInput(f"the action's choice {choice!r} is not a button's choice")
    return Action(kind, seat, tuple(from_data(None, c) for c in cards), choice)
