"""Fixtures for the application tests: a journal in a temporary folder, recording outputs, a
real small filesystem."""

import os
import subprocess

import pytest

from cardtable.table.table import NoOutputs
from cardtable.journal import Journal


class RecordingOutputs(NoOutputs):
    """Outputs that remember what the controller asked of them."""

    def __init__(self):
        self.views, self.turns, self.refusals = [], [], []

    def show(self, view):
        self.views.append(view)

    def turn(self, seat):
        self.turns.append(seat)

    def refuse(self, seat):
        self.refusals.append(seat)


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


@pytest.fixture
def outputs():
    return RecordingOutputs()


@pytest.fixture
def small_disk(tmp_path):
    """A real 1 MiB filesystem (tmpfs), or a skip where mounting is not allowed."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode:
        pytest.skip("mounting a small filesystem needs root")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=True)
