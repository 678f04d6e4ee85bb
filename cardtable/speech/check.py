"""``cardtable doctor``'s speech check: with ``[speech]`` on, is espeak-ng there with its voice,
a sound player, and a sound device to hear it on; and if not, what to type.

A sound device is an ALSA card (``/proc/asound/cards``: HDMI, the headphone jack, USB speakers),
which PipeWire and PulseAudio play through too; a sound server with no ALSA card (Bluetooth
speakers) is noted, not refused.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from cardtable.config.doctor import FIX, NOTE, OK, Finding
from cardtable.speech.spec import SPEECH
from cardtable.speech.voice import NO_ESPEAK, NO_PLAYER, find_player
from hardware.errors import DeviceUnavailable

NO_CARD_FIX = ("plug in USB speakers, or turn on the Pi's own audio (HDMI, headphone jack): add dtparam=audio=on "
               "to /boot/firmware/config.txt and reboot; aplay -l lists the sound cards found")
_CARD = re.compile(r"^\s*\d+\s+\[[^]]*\]:\s*(.+)$", re.MULTILINE)


def sound_cards(asound: Path = Path("/proc/asound")) -> list[str]:
    """The names of the machine's ALSA sound cards ("bcm2835 Headphones", "vc4-hdmi-0")."""
    try:
        text = (asound / "cards").read_text(errors="replace")
    except OSError:
        return []
    return [name.split(" - ")[-1].strip() for name in _CARD.findall(text)]


def _sound_server() -> str:
    """"PipeWire" or "PulseAudio" when this user's sound server runs, else ""."""
    runtime = Path(os.environ.get("XDG_RUNTIME_DIR", f"/run/user/{os.getuid()}"))
    if (runtime / "pipewire-0").exists():
        return "PipeWire"
    return "PulseAudio" if (runtime / "pulse" / "native").exists() else ""


def check_speech(config, *, asound: Path = Path("/proc/asound")) -> Finding:
    """espeak-ng, its voice, a player and a sound device, when the table is to speak."""
    spec = config[SPEECH] if config is not None else None
    if spec is None or not spec.enabled:
        return Finding("speech", OK, "the table does not speak ([speech] enabled = false)")
    from cardtable.speech.voice import espeak_command

    try:
        command = espeak_command(spec)
    except DeviceUnavailable:
        return Finding("speech", FIX, NO_ESPEAK.split(":")[0], "sudo apt install espeak-ng")
    tried = subprocess.run([command[0], "-v", spec.voice, "-q", "ok"], capture_output=True, timeout=10)
    if tried.returncode:
        return Finding("speech", FIX, f"espeak-ng has no voice {spec.voice!r}",
                       "set [speech] voice to one that espeak-ng --voices lists (en, en-gb, en-us ...)")
    player = find_player()
    if player is None:
        return Finding("speech", FIX, NO_PLAYER.split(":")[0], "sudo apt install alsa-utils")
    cards = sound_cards(asound)
    if not cards:
        server = _sound_server()
        if server:
            return Finding("speech", NOTE, f"no sound card, but {server} runs: the table is heard only if it has "
                           "a speaker (Bluetooth?)", NO_CARD_FIX)
        return Finding("speech", FIX, "no sound device: the table would speak to nobody", NO_CARD_FIX)
    return Finding("speech", OK, f"espeak-ng (voice {spec.voice}) through {Path(player[0]).name} "
                   f"on {', '.join(cards)}")
