"""``cardtable run --config FILE``: the table with its real devices, until stopped."""

from __future__ import annotations

import queue
import signal
import threading

from cardtable.config import TableConfig
from cardtable.config.app_sections import INPUT, JOURNAL
from firmware_bridge.config import RFID
from hardware.config import DISPLAYS, GPIO
from vision.config import VISION


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run the table with the devices in a configuration file")
    parser.add_argument("--config", required=True, help="the table configuration (see 'cardtable config example')")
    parser.add_argument("--new", action="store_true", help="start a new game instead of resuming the last one")
    parser.set_defaults(func=run)


def run(args) -> int:
    from cardtable.config import load_config
    from cardtable.journal import open_for_play
    from cardtable.table.loop import CameraThread, Supervisor, run_loop
    from cardtable.table.outputs import TableOutputs
    from cardtable.table.table import Table
    from cardtable.network.table import TableNetwork
    from hardware.display.config import open_displays

    config = load_config(args.config)
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    closers = []
    try:
        displays = open_displays(config[DISPLAYS] or [{"kind": "terminal"}])
        closers.append(displays)
        panel = None
        if config[GPIO]:
            from hardware.gpio import TablePanel

            panel = TablePanel(config[GPIO], events=items)
            closers.append(panel)
        opened = open_for_play(config[JOURNAL].path)     # damaged, full or read-only: said, never fatal
        closers.append(opened.journal)
        network = TableNetwork(config, items.put)
        closers.append(network)
        speaker, silent = _speaker(config)
        closers += [speaker] if speaker is not None else []
        table = Table(config.setup, opened.journal,
                      TableOutputs([displays, *network.displays], panel, speaker), resume=not args.new,
                      notices=tuple(opened.notices) + ((silent,) if silent else ()),
                      cannot_write=opened.cannot_write)
        supervisor = Supervisor(items.put)   # an input that ends is started again, or run exits non-zero
        closers.append(supervisor)
        if config[INPUT].kind == "camera":
            from vision.pipeline import Pipeline
            from vision.sources import open_configured

            vision = config[VISION]

            def camera():   # a fresh source and pipeline each time the supervisor starts the camera,
                pipeline = Pipeline(vision, calibration=config.calibration)   # with the checked calibration
                source = network.tap(open_configured(vision), pipeline)
                return CameraThread(source, pipeline, items.put, stop).started()

            supervisor.watch("camera", camera)
        else:
            _open_bridge(config, items, supervisor)
        try:
            run_loop(table, items, stop, supervisor=supervisor)
        except KeyboardInterrupt:
            pass
    finally:
        stop.set()
        for thing in reversed(closers):
            thing.close()
    return 0


def _speaker(config: TableConfig):
    """The speaker when ``[speech]`` is on, and the sentence saying why the table is silent when it cannot speak."""
    from cardtable.speech.spec import SPEECH

    speech = config[SPEECH]
    if not speech.enabled:
        return None, ""
    from cardtable.speech.speaker import open_speaker

    return open_speaker(speech)


def _open_bridge(config: TableConfig, items: queue.Queue, supervisor) -> None:
    """The reader board's bridge, watched by ``supervisor``; in compatibility mode, one bridge per
    stock single-reader board (``ports``), each reporting for its own zone."""
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.compat import CompatHost
    from firmware_bridge.detect import find_board

    rfid, registry = config[RFID], config.registry          # the registry checking loaded
    zones = list(config.reader_zones)
    if rfid.compat:
        for port, zone in zip(rfid.ports or (rfid.port,), zones):
            supervisor.watch("card readers", lambda port=port, zone=zone: Bridge(
                port, registry, zones=[zone], on_input=items.put,
                host=CompatHost(removal_after=rfid.remove_after, known=registry.knows),
            ).start())
        return
    port = rfid.port
    if port == "auto":
        port, _hello = find_board()
    supervisor.watch("card readers", lambda: Bridge(port, registry, zones=zones, on_input=items.put).start())
