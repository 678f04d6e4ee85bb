"""States, actions and events to JSON-ready data and back.

The encoding describes itself, so any engine value round-trips without a schema: cards become
``{"$card": "10H"}``, It's 15 faces ``{"$its": "V2R"}``, engine dataclasses
``{"$type": "engine.games.cribbage.CribbageState", ...fields}``, enums ``{"$enum": ..., "value": ...}``,
tuples become lists and come back as tuples. Only classes defined inside ``engine`` are rebuilt,
so a journal row cannot make the loader build arbitrary objects.

>>> from engine.game import Action
>>> from engine.cards import parse_card
>>> action = Action("play", 0, (parse_card("5H"),))
>>> from_data(None, to_data(action)) == action
True
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from enum import Enum

from engine.cards import Card, parse_card
from engine.decks import ItsFace, parse_its_face
from engine.errors import InvalidInput


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


def _engine_class(path: str):
    module_name, _, name = path.rpartition(".")
    if not (module_name == "engine" or module_name.startswith("engine.")):
        raise InvalidInput(f"stored data names {path!r}, which is not an engine type")
    try:
        return getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        raise InvalidInput(f"stored data names {path!r}, which this version does not have") from None


def from_data(_expected_type, data):
    """Rebuild a value from :func:`to_data` output (the first argument is documentation only)."""
    if isinstance(data, list):
        return tuple(from_data(None, item) for item in data)
    if not isinstance(data, dict):
        return data
    if "$card" in data:
        return parse_card(data["$card"])
    if "$its" in data:
        return parse_its_face(data["$its"])
    if "$enum" in data:
        return _engine_class(data["$enum"])(data["value"])
    if "$dict" in data:
        return {from_data(None, k): from_data(None, v) for k, v in data["$dict"]}
    if "$type" in data:
        cls = _engine_class(data["$type"])
        if not dataclasses.is_dataclass(cls):
            raise InvalidInput(f"stored data names {data['$type']!r}, which is not a value type")
        kwargs = {key: from_data(None, item) for key, item in data.items() if key != "$type"}
        return cls(**kwargs)
    return {key: from_data(None, item) for key, item in data.items()}


def dumps(value) -> str:
    """Compact, key-sorted JSON text of an engine value."""
    return json.dumps(to_data(value), sort_keys=True, separators=(",", ":"))


def loads(text: str):
    return from_data(None, json.loads(text))
