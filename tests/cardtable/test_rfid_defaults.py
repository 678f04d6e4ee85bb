"""The RFID defaults have one home (firmware_bridge/config.py): the config and the shell commands agree."""

from pathlib import Path

from cardtable.cli import build_parser
from firmware_bridge.config import REMOVE_AFTER, parse_rfid
from firmware_bridge.compat import CompatHost


def test_a_config_without_remove_after_and_the_bridge_commands_use_the_same_removal_time():
    problems = []
    spec = parse_rfid({"compat": True, "port": "/dev/ttyUSB0"}, problems, base_dir=Path("."), deck="standard")
    assert problems == [] and spec.remove_after == REMOVE_AFTER[0]
    for argv in (["bridge", "monitor"], ["enroll", "rfid"]):
        assert build_parser().parse_args(argv).removal_after == spec.remove_after
    assert CompatHost().removal_after == spec.remove_after        # the reader library's own default
