#!/bin/sh
# Builds a fresh Debian root with debootstrap, copies this checkout into it (committed files only,
# as a clone would have them) and runs the two quick-start commands there, `make demo` and then
# `make test`, timing each: what a newcomer meets on a new machine. Not part of CI: a root takes
# minutes to build, and an arm64 root under qemu takes an hour or more to test.
#
#   sudo deploy/fresh_root.sh                       # bookworm for this machine's architecture
#   sudo deploy/fresh_root.sh --suite trixie
#   sudo deploy/fresh_root.sh --arch arm64          # a Raspberry Pi's userland, under qemu
#   sudo deploy/fresh_root.sh --only demo           # make demo only (e.g. under qemu)
#   sudo deploy/fresh_root.sh --arch arm64 --only test-fast   # the tests not marked slow
#
# Options: --suite bookworm|trixie, --arch amd64|arm64|..., --dir DIR (default
# /var/tmp/cardtable-roots/SUITE-ARCH), --keep (keep the root afterwards), --mirror URL,
# --only demo|test|test-fast. Needs root, debootstrap, and for a foreign --arch qemu-user-static with
# binfmt support (apt-get install debootstrap qemu-user-static binfmt-support).
# The figures go to DIR.log and are printed at the end.
set -eu

suite=bookworm
arch=$(dpkg --print-architecture)
dir=""
keep=no
only=""
mirror=http://deb.debian.org/debian
while [ $# -gt 0 ]; do
    case $1 in
        --suite) suite=$2; shift 2;;
        --arch) arch=$2; shift 2;;
        --dir) dir=$2; shift 2;;
        --keep) keep=yes; shift;;
        --only) only=$2; shift 2;;
        --mirror) mirror=$2; shift 2;;
        *) sed -n '2,19p' "$0"; exit 2;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "fresh_root.sh: run it as root (sudo): debootstrap and chroot need it"; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh_root.sh: install debootstrap: sudo apt-get install debootstrap"; exit 2; }
checkout=$(cd "$(dirname "$0")/.." && pwd)
root=${dir:-/var/tmp/cardtable-roots/$suite-$arch}
log=$root.log
mkdir -p "$(dirname "$root")"
: > "$log"
say() { echo "$*" | tee -a "$log"; }

cleanup() {
    for m in dev/pts dev proc sys; do umount -l "$root/$m" 2>/dev/null || :; done
    [ "$keep" = yes ] || rm -rf "$root"
}
trap cleanup EXIT INT TERM

# A newcomer's machine: Python, make and certificates, nothing of cardtable's needs.
base="python3,make,ca-certificates"
start=$(date +%s)
if [ "$arch" = "$(dpkg --print-architecture)" ]; then
    debootstrap --variant=minbase --include=$base "$suite" "$root" "$mirror" >>"$log" 2>&1
else
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || [ "$arch" != arm64 ] ||
        { echo "fresh_root.sh: no binfmt entry for arm64: apt-get install qemu-user-static binfmt-support"; exit 2; }
    debootstrap --variant=minbase --arch "$arch" --include=$base "$suite" "$root" "$mirror" >>"$log" 2>&1
fi
say "root: debootstrap $suite $arch in $(( $(date +%s) - start )) s"

mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's way to PyPI (a pip.conf, a certificate bundle), if it has one, holds in the root too.
[ ! -e /etc/pip.conf ] || cp /etc/pip.conf "$root/etc/pip.conf"
[ -z "${PIP_CERT:-}" ] || { mkdir -p "$root$(dirname "$PIP_CERT")"; cp "$PIP_CERT" "$root$PIP_CERT"; }
mkdir -p "$root/home/table/cardtable"
git -C "$checkout" archive HEAD | tar -x -C "$root/home/table/cardtable"

# Under qemu everything runs 10 to 30 times slower: the tests' time limits stretch to match
# (tests/waiting.py); a native root keeps them as they are.
slowdown=1
[ "$arch" = "$(dpkg --print-architecture)" ] || slowdown=${CARDTABLE_TEST_SLOWDOWN:-25}

run() {  # $1: the make target; prints and logs its time and last lines
    start=$(date +%s)
    if chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            CARDTABLE_TEST_SLOWDOWN=$slowdown ${PIP_CERT:+PIP_CERT=$PIP_CERT} sh -c "cd /home/table/cardtable && make $1" >>"$log" 2>&1; then
        result=passed
    else
        result=FAILED
    fi
    say "make $1: $result in $(( $(date +%s) - start )) s ($suite, $arch, $(chroot "$root" python3 --version))"
    case $1 in test*) say "  $(grep -Eo '[0-9]+ (passed|failed).* in [0-9.]+s' "$log" | tail -n 1)";; esac
    [ $result = passed ]
}

status=0
for target in ${only:-demo test}; do
    run "$target" || status=1
done
say "log: $log"
exit $status
