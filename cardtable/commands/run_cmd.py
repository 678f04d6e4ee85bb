"""``cardtable run --config FILE``: the table with its real devices, until stopped."""

from __future__ import annotations

import queue
import signal
import threading


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run the table with the devices in a configuration file")
    parser.add_argument("--config", required=True, help="the table configuration (see 'cardtable config example')")
    parser.add_argument("--new", action="store_true", help="start a new game instead of resuming the last one")
    parser.set_defaults(func=run)


def run(args) -> int:
    from cardtable.config import load_config
    from cardtable.controller import Controller, TableSetup
    from cardtable.journal import open_for_play
    from cardtable.outputs import TableOutputs
    from cardtable.table_loop import CameraThread, run_loop
    from hardware.display.config import open_displays

    config = load_config(args.config)
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    closers = []
    try:
        displays = open_displays(config.displays or [{"kind": "terminal"}])
        closers.append(displays)
        panel = None
        if config.gpio:
            from hardware.gpio import TablePanel

            panel = TablePanel(config.gpio, events=items)
            closers.append(panel)
        opened = open_for_play(config.journal)           # damaged, full or read-only: said, never fatal
        closers.append(opened.journal)
        setup = TableSetup(config.game, config.players, config.options, config.mode, config.seed,
                           config.seat_zones, config.names, swipe=config.input == "rfid")
        controller = Controller(setup, opened.journal, TableOutputs([displays], panel), resume=not args.new,
                                notices=tuple(opened.notices), cannot_write=opened.cannot_write)
        if config.input == "camera":
            from vision.config import load_vision_config
            from vision.pipeline import Pipeline
            from vision.sources import open_source

            vision = load_vision_config(config.vision, config.path.parent)
            source = open_source(vision.camera, resolution=vision.resolution, fps=vision.fps)
            closers.append(source)
            CameraThread(source, Pipeline(vision), items.put, stop).start()
        else:
            closers.append(_open_bridge(config, items))
        try:
            run_loop(controller, items, stop)
        except KeyboardInterrupt:
            pass
    finally:
        stop.set()
        for thing in reversed(closers):
            thing.close()
    return 0


def _open_bridge(config, items: queue.Queue):
    """The reader board's bridge; in compatibility mode, one bridge per stock single-reader
    board (``ports``), each reporting for its own zone."""
    from contextlib import ExitStack

    from engine.decks import get_deck
    from engine.game import get_game
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.compat import CompatSession
    from firmware_bridge.detect import find_board
    from firmware_bridge.registry import TagRegistry

    rfid = config.rfid
    deck = get_deck(get_game(config.game).deck)
    registry = TagRegistry.load(config.relative(rfid.get("registry", "tags.json")), deck=deck.name)
    zones = rfid.get("readers") or list(config.seat_zones)
    bridges = ExitStack()
    if rfid.get("compat"):
        ports = rfid.get("ports") or [rfid["port"]]
        for port, zone in zip(ports, zones):
            session = CompatSession(removal_after=float(rfid.get("remove_after", 1.5)))
            bridges.callback(Bridge(port, registry, zones=[zone], on_event=items.put, session=session).start().close)
        return bridges
    port = rfid.get("port", "auto")
    if port == "auto":
        port, _hello = find_board()
    bridges.callback(Bridge(port, registry, zones=zones, on_event=items.put).start().close)
    return bridges
