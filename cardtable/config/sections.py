"""Every section of the table config, in the order they are read (a section may read the specs of
those before it: ``[table]`` the players of ``[game]``, ``[gpio]`` the pins the displays took).
Each package exports its section; adding one is its module and one line here.
"""

from __future__ import annotations

from cardtable.club.spec import CLUB
from cardtable.config.app_sections import GAME, INPUT, JOURNAL, TABLE
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
