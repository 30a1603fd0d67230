#!/bin/sh
# Install the Debian packages x86smc needs, when missing (as root), or print
# the exact command (as another user).
pkgs="build-essential pkg-config clang libcapstone-dev libzydis-dev libelf-dev libdwarf-dev libcunit1-dev zlib1g-dev libiberty-dev g++ rustc gdb graphviz man-db libopenmpi-dev openmpi-bin"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || {
		echo "apt-get install failed for:$missing" >&2; exit 1; }
else
	echo "missing packages; run as root:" >&2
	echo "  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
