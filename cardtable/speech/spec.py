"""``[speech]``: whether the table speaks, with which espeak-ng voice, how fast and how loud, and
what it says.

::

    [speech]
    enabled = true
    voice = "en-gb"        # an espeak-ng voice (espeak-ng --voices lists them); default "en"
    rate = 160             # words a minute, 80 to 450; default 160
    volume = 100           # espeak-ng's amplitude, 0 to 200; default 100
    plays = true           # what is said, one switch per kind (see KINDS); each true by default
    scores = true
    prompts = true
    warnings = true
    ends = true

:func:`parse_speech` checks the section and names every mistake as "speech.key: what is wrong".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from config_kit.reads import flag, shown, unknown_keys, whole
from config_kit.section import Section

#: What the table may say, each switched on or off by its own key.
KINDS = {
    "plays": "each move: cards played, cuts, turn-ups, tricks won, bids",
    "scores": "each score, with its breakdown",
    "prompts": "whose turn it is and what they must do",
    "warnings": "refusals (a card that cannot be played), revokes and the table's warnings",
    "ends": "the end of a hand, a round and the game",
}
DEFAULT_VOICE = "en"
DEFAULT_RATE = 160
DEFAULT_VOLUME = 100
_KEYS = ("enabled", "voice", "rate", "volume", *KINDS)
_VOICE = re.compile(r"[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)?")


@dataclass(frozen=True)
class SpeechSpec:
    enabled: bool = False
    voice: str = DEFAULT_VOICE
    rate: int = DEFAULT_RATE
    volume: int = DEFAULT_VOLUME
    say: frozenset[str] = frozenset(KINDS)


def parse_speech(section: dict, problems: list[str]) -> SpeechSpec:
    """The ``[speech]`` section (an empty one: the table is silent). Mistakes are added to ``problems``."""
    unknown_keys(section, _KEYS, "speech", problems)
    enabled = flag(section.get("enabled", False), "speech.enabled", problems) or False
    voice = section.get("voice", DEFAULT_VOICE)
    if not isinstance(voice, str) or not _VOICE.fullmatch(voice):
        problems.append(f"speech.voice: expected an espeak-ng voice such as \"en\" or \"en-gb\" "
                        f"(espeak-ng --voices lists them), got {shown(voice)}")
        voice = DEFAULT_VOICE
    rate = whole(section.get("rate", DEFAULT_RATE), "speech.rate", problems, 80, 450) or DEFAULT_RATE
    volume = whole(section.get("volume", DEFAULT_VOLUME), "speech.volume", problems, 0, 200)
    said = frozenset(kind for kind in KINDS if flag(section.get(kind, True), f"speech.{kind}", problems) is not False)
    return SpeechSpec(enabled=enabled, voice=voice, rate=rate,
                      volume=DEFAULT_VOLUME if volume is None else volume, say=said)


SPEECH = Section("speech", SpeechSpec, lambda section, problems, context: parse_speech(section, problems))
