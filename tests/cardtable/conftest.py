"""Fixtures for the application tests: a journal in a temporary folder, recording outputs."""

import pytest

from cardtable.controller import NoOutputs
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
