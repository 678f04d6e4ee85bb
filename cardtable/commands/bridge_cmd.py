"""``cardtable bridge monitor`` and ``cardtable enroll rfid`` (its parser is in
:mod:`cardtable.commands.enroll_cmd`): the RFID reader board from the shell.

``bridge monitor`` prints what the readers report, one line (or JSON object) per tag event and per
link change. ``enroll rfid`` waits for the reader board, then walks through a deck card by card and
records each card's tag in the tag registry; it can be stopped at any time and resumes where it
stopped. A port that cannot be opened is said at once (exit 2); a board that never answers ends
both commands with exit 1.
"""

from __future__ import annotations

import json
import queue
import sys
import time
from pathlib import Path

from firmware_bridge.config import REMOVE_AFTER
from engine.table_events import TableEvent
from firmware_bridge.bridge import Zones, to_table_event
from firmware_bridge.compat import CompatHost
from firmware_bridge.detect import find_board
from firmware_bridge.enrol import DONE, ENROLLED, Enrolment
from firmware_bridge.link import Link, check_port
from firmware_bridge.protocol import McuError, ReaderHealth
from firmware_bridge.readers import MOVED, PLACED, ReaderChange
from firmware_bridge.registry import TagRegistry, default_path
from firmware_bridge.host import RESYNCED, UP, Ct1Host, LinkChange


def add_link_options(parser) -> None:
    parser.add_argument("--port", help="serial port or pyserial URL (default: find the board by USB id)")
    parser.add_argument("--compat", action="store_true",
                        help="the reader runs a stock example sketch (MFRC522, PN532, ESPHome, Tasmota, RDM6300)")
    parser.add_argument("--removal-after", type=float, default=REMOVE_AFTER[0], metavar="S",
                        help=f"compat mode: a tag not reported for S seconds counts as removed (default {REMOVE_AFTER[0]:g})")


def register(subparsers) -> None:
    bridge = subparsers.add_parser("bridge", help="the RFID reader board")
    bridge_commands = bridge.add_subparsers(dest="bridge_command", metavar="COMMAND", required=True)
    monitor = bridge_commands.add_parser("monitor", help="print tag events and link changes as they happen")
    add_link_options(monitor)
    monitor.add_argument("--json", action="store_true", help="one JSON object per line")
    monitor.add_argument("--registry", type=Path, help="tag registry, to name enrolled cards")
    monitor.add_argument("--zones", help="zone names of readers 0, 1, ... separated by commas")
    monitor.add_argument("--seconds", type=float, help="stop after this many seconds (default: run until Ctrl-C)")
    monitor.set_defaults(func=monitor_command)


def _open_link(args, outputs: queue.Queue, registry: TagRegistry | None = None) -> Link:
    """The link to the board named by ``--port`` (checked at once) or found by its USB id.

    :raises PortUnavailable: when the port cannot be opened.
    :raises BoardNotFound: when no board is found.
    """
    port = args.port
    if port is None:
        port, hello = find_board()
        print(f"found {hello.board} (firmware {hello.fw}, {hello.readers} readers) on {port}", file=sys.stderr)
    else:
        check_port(port)
    known = registry.knows if registry is not None else None
    host = CompatHost(removal_after=args.removal_after, known=known) if args.compat else Ct1Host()
    return Link(port, host=host, on_output=outputs.put)


def _never_answered(port: str, seconds: float) -> int:
    print(f"cardtable: error: no reader board answered on {port} within {seconds:g} s: check that it runs "
          "the cardtable firmware (a stock example sketch needs --compat)", file=sys.stderr)
    return 1


def describe(output: object, registry: TagRegistry | None, zones: Zones) -> dict:
    """The JSON object the monitor prints for one link output."""
    if isinstance(output, ReaderChange):
        data = output.to_json()
        event = to_table_event(output, registry, zones)
        data["zone"] = zones(output.reader)
        data["card"] = event.card.id if isinstance(event, TableEvent) else None
        if isinstance(event, TableEvent):
            data["face"] = str(event.card.face)
        return data
    if isinstance(output, LinkChange):
        return output.to_json()
    if isinstance(output, ReaderHealth):
        return {"type": "reader_health", "reader": output.reader, "ok": output.ok, "version": output.version}
    if isinstance(output, McuError):
        return {"type": "board_error", "code": output.code, "text": output.text}
    return {"type": "other", "text": repr(output)}


def _sentence(data: dict) -> str:
    if data["type"] == "link":
        return f"link {data['state']}: {data['reason']}"
    if data["type"] in ("placed", "removed", "moved"):
        what = f"{data['card']} (tag {data['uid']})" if data["card"] else f"unknown tag {data['uid']}"
        origin = f" from reader{data['from_reader']}" if "from_reader" in data else ""
        return f"{data['zone']}: {data['type']} {what}{origin}"
    if data["type"] == "reader_health":
        return f"reader{data['reader']}: {'answers' if data['ok'] else 'does not answer (check its wiring)'}"
    return f"board error {data.get('code')}: {data.get('text')}"


def monitor_command(args) -> int:
    registry = TagRegistry.load(args.registry) if args.registry else None
    zones = Zones(args.zones.split(",") if args.zones else None)
    outputs: queue.Queue = queue.Queue()
    started = time.monotonic()
    deadline = None if args.seconds is None else started + args.seconds
    answered = False
    with _open_link(args, outputs, registry) as link:
        try:
            while deadline is None or time.monotonic() < deadline:
                try:
                    output = outputs.get(timeout=0.1)
                except queue.Empty:
                    continue
                answered = answered or getattr(output, "state", None) in (UP, RESYNCED)
                data = describe(output, registry, zones)
                print(json.dumps(data) if args.json else _sentence(data), flush=True)
        except KeyboardInterrupt:
            pass
    return 0 if answered else _never_answered(link.port, time.monotonic() - started)


def _wait_up(outputs: queue.Queue, seconds: float) -> bool:
    """Print link changes until the link is up (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            output = outputs.get(timeout=min(0.1, seconds))
        except queue.Empty:
            continue
        if isinstance(output, LinkChange):
            _say_link(output)
            if output.state == UP:
                return True
    return False


def _say_link(change: LinkChange) -> None:
    print(f"link {change.state}: {change.reason}", flush=True)


def enroll_command(args) -> int:
    path = args.registry or default_path(args.deck)
    registry = TagRegistry.load(path, deck=args.deck, create=True)
    walk = Enrolment(registry)
    if walk.current is None:
        print(walk.prompt())
        return 0
    print(f"enrolling into {path}; stop with Ctrl-C and run the same command to carry on", flush=True)
    outputs: queue.Queue = queue.Queue()
    enrolled = 0
    with _open_link(args, outputs) as link:
        print(f"waiting for the reader board on {link.port}", flush=True)
        if not _wait_up(outputs, args.wait):
            return _never_answered(link.port, args.wait)
        print(walk.prompt(), flush=True)
        try:
            while walk.current is not None and (args.count is None or enrolled < args.count):
                output = outputs.get()
                if isinstance(output, LinkChange):
                    _say_link(output)
                if not isinstance(output, ReaderChange) or output.kind not in (PLACED, MOVED):
                    continue
                outcome = walk.offer(output.uid)
                print(outcome.message, flush=True)
                if outcome.status == ENROLLED:
                    registry.save(path)
                    enrolled += 1
                if outcome.status != DONE and walk.current is not None:
                    print(walk.prompt(), flush=True)
        except KeyboardInterrupt:
            pass
    done, total = walk.progress
    print(f"{done}/{total} cards enrolled, saved in {path}"
          + ("" if done == total else "; run the same command to carry on"), flush=True)
    return 0
