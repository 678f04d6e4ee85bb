"""Every section of the table config, in the order they are read (a section may read the specs of
those before it: ``[table]`` the players of ``[game]``, ``[gpio]`` the pins the displays took).
Each package exports its section; adding one is its module and one line here. A reader kind's
section comes with the kind (:mod:`cardtable.readers.kinds`): registering the kind adds it.
"""

from __future__ import annotations

from cardtable.club.spec import CLUB
from cardtable.config.app_sections import GAME, INPUT, JOURNAL, TABLE
from cardtable.readers.kinds import reader_kinds
from cardtable.speech.spec import SPEECH
from cardtable.web.spec import WEB
from config_kit.section import Section
from firmware_bridge.config import RFID
from hardware.config import DISPLAYS, GPIO
from vision.config import VISION

SECTIONS: tuple[Section, ...] = (
    GAME,
    TABLE,
    INPUT,
    VISION,
    RFID,
    DISPLAYS,
    GPIO,
    JOURNAL,
    WEB,
    CLUB,
    SPEECH,
)


def read_order() -> tuple[Section, ...]:
    """The sections checking reads, in order: :data:`SECTIONS`, then the section of each reader
    kind registered that is not among them."""
    listed = {section.name for section in SECTIONS}
    readers = [kind.section for kind in reader_kinds().values() if kind.section and kind.section.name not in listed]
    return SECTIONS + tuple(readers)
