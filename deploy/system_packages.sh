#!/bin/sh
# Prints the Debian packages this machine still lacks for cardtable, one line, space separated:
#   sh deploy/system_packages.sh runtime   # make demo and the table itself
#   sh deploy/system_packages.sh test      # make test as well
# Each need is checked by what it provides (a library, a command, a file), never by a package
# name, so a user without sudo is not told to install what is already there. A missing need is
# named as this machine's apt offers it: names change between releases (trixie's libzbar0t64 and
# kdegames-card-data were bookworm's libzbar0 and kdegames-card-data-kf5).
set -u
PYTHON=${PYTHON:-python3}
need=""
want() { need="$need $1"; }
has_lib() {  # $1: library name as the linker knows it (zbar for libzbar.so.0)
    { /sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null; } | grep -q "lib$1\.so" ||
        "$PYTHON" -c "import ctypes.util, sys; sys.exit(not ctypes.util.find_library('$1'))" 2>/dev/null
}
has_command() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
# The first of the names apt here has a candidate for; the first name when apt knows none of them
# (its lists not fetched yet): the newest release's, which the Makefile asks again after apt-get update.
want_one() {
    for name; do
        if LC_ALL=C apt-cache policy "$name" 2>/dev/null | grep -q '^ *Candidate: [^(]'; then want "$name"; return; fi
    done
    want "$1"
}
on_a_pi() { grep -qs "Raspberry Pi" /proc/device-tree/model; }

"$PYTHON" -c 'import ensurepip' 2>/dev/null || want python3-venv
has_lib zbar || want_one libzbar0t64 libzbar0
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
    # Debian calls it chromium; Raspberry Pi OS bookworm chromium-browser
    has_command chromium || has_command chromium-browser || want_one chromium chromium-browser
    [ -d /usr/share/carddecks ] || want_one kdegames-card-data kdegames-card-data-kf5
    has_command rsvg-convert || want librsvg2-bin
    # the node program that drives Playwright's browser tests links libatomic (Bookworm's
    # chromium does not bring it along)
    has_lib atomic || want libatomic1
    # the fonts the corner index model's training and benchmark draw cards in (tools/corner_data.py)
    [ -e /usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf ] || want fonts-dejavu-extra
    [ -d /usr/share/fonts/truetype/liberation ] || want fonts-liberation
    [ -d /usr/share/fonts/truetype/freefont ] || want fonts-freefont-ttf
    [ -e /usr/share/fonts/opentype/urw-base35/C059-Bold.otf ] || want fonts-urw-base35
fi
echo $need
