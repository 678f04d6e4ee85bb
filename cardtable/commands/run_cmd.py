"""``cardtable run --config FILE``: the table with its real devices, until stopped."""

from __future__ import annotations

import queue
import signal
import threading

from cardtable.config import TableConfig
from cardtable.config.app_sections import JOURNAL
from hardware.config import DISPLAYS, GPIO


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run the table with the devices in a configuration file")
    parser.add_argument("--config", required=True, help="the table configuration (see 'cardtable config example')")
    parser.add_argument("--new", action="store_true", help="start a new game instead of resuming the last one")
    parser.set_defaults(func=run)


def run(args) -> int:
    from cardtable.config import load_config
    from cardtable.journal import open_for_play
    from cardtable.readers.kinds import Wiring
    from cardtable.table.loop import Supervisor, run_loop
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
        for name, start in config.reader.start(Wiring(config, items.put, stop, tap=network.tap)):
            supervisor.watch(name, start)                   # the inputs of the reader kind [input] names
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

