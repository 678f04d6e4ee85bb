#!/bin/sh
# Installs the Debian packages deploy/system_packages.sh finds missing, for the Makefile:
#   sh deploy/install_system_packages.sh runtime|test
# Quietly with apt-get when this is root or sudo needs no password: apt's lists are fetched first
# and the names asked again (they depend on the release), then one package per apt-get call, so a
# package apt cannot install keeps none of the others out. Otherwise it says the one command to
# type. Exits 1 when a package could not be installed, naming it.
set -u
need=${1:-runtime}
check="$(dirname "$0")/system_packages.sh"
missing=$(sh "$check" "$need")
[ -n "$missing" ] || exit 0
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    sudo=none
fi
if [ "$sudo" = none ] || ! command -v apt-get >/dev/null; then
    echo "note: this machine lacks $missing and there is no root or sudo here: run 'sudo apt-get install $missing'"
    exit 0
fi
apt() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq -o Dpkg::Use-Pty=0 "$@" >/dev/null; }
apt update || echo "apt-get update failed: installing from apt's lists as they are"
missing=$(sh "$check" "$need")
echo "installing system packages: $missing"
failed=""
for package in $missing; do
    apt install -y --no-install-recommends "$package" || failed="$failed $package"
done
[ -z "$failed" ] || { echo "apt-get could not install$failed: run 'sudo apt-get install$failed' to see why"; exit 1; }
