#!/bin/sh
# Prints the Debian packages this machine still lacks for cardtable, one line, space separated:
#   sh deploy/system_packages.sh runtime   # make demo and the table itself
#   sh deploy/system_packages.sh test      # make test as well
# Each need is checked by what it provides (a library, a command, a file), never by a package
# name: names change between releases (libzbar0 is libzbar0t64 on Debian trixie), and a user
# without sudo must not be told to install what is already there.
set -u
PYTHON=${PYTHON:-python3}
need=""
want() { need="$need $1"; }
has_lib() {  # $1: library name as the linker knows it (zbar for libzbar.so.0)
    { /sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null; } | grep -q "lib$1\.so" ||
        "$PYTHON" -c "import ctypes.util, sys; sys.exit(not ctypes.util.find_library('$1'))" 2>/dev/null
}
has_command() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
on_a_pi() { grep -qs "Raspberry Pi" /proc/device-tree/model; }

"$PYTHON" -c 'import ensurepip' 2>/dev/null || want python3-venv
has_lib zbar || want libzbar0
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || want fonts-dejavu-core
# The table's voice ([speech], optional: a table without it plays on silent, and doctor says so):
# espeak-ng speaks, aplay (ALSA, which Raspberry Pi OS routes to PipeWire or PulseAudio) plays it.
has_command espeak-ng || want espeak-ng
has_command aplay || has_command paplay || has_command pw-play || want alsa-utils
if on_a_pi; then
    # picamera2 and lgpio come only from apt (no PyPI wheel fits); the venv sees them.
    [ -e /usr/lib/python3/dist-packages/picamera2 ] || want python3-picamera2
    ls /usr/lib/python3/dist-packages/lgpio* >/dev/null 2>&1 || want python3-lgpio
fi
if [ "${1:-runtime}" = test ]; then
    has_command mosquitto || want mosquitto
    if ! has_command chromium && ! has_command chromium-browser; then
        # Debian calls it chromium; Raspberry Pi OS bookworm chromium-browser
        if apt-cache show chromium >/dev/null 2>&1; then want chromium; else want chromium-browser; fi
    fi
    [ -d /usr/share/carddecks ] || want kdegames-card-data-kf5
    has_command rsvg-convert || want librsvg2-bin
fi
echo $need
