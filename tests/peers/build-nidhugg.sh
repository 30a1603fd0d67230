#!/usr/bin/env bash
# build-nidhugg.sh — build the peer model checker Nidhugg 0.4 OUTSIDE the
# x86smc repository, for comparisons (see tests/peers/README.md).
#
# Source: the public repository https://github.com/nidhugg/nidhugg (GPL-3.0).
# Nidhugg 0.4 has no release tag (the last tag is v0.3.1); the pin is master
# at commit 0aea4d237eefe492f09df8e23a54cbeba69c42de (2026-04-01), whose
# configure.ac says version 0.4 and whose CI tests LLVM 8..19.  Nothing of
# Nidhugg is kept in x86smc: this script clones it into the cache directory
# and builds it there.
#
# Built with Debian 12's g++ 12 (Nidhugg needs C++17) against llvm-14; its
# driver nidhuggc compiles the C input with clang-14 (same LLVM version).
#
# Environment (all optional):
#   X86SMC_PEERS_CACHE  cache directory      (default /work/.cache/x86smc-peers)
#   NIDHUGG_GIT         where to clone from  (default the GitHub repository;
#                       any git URL or local path, e.g. a bare mirror)
#   NIDHUGG_REF         commit/branch/tag    (default the pinned commit)
#   NIDHUGG_LLVM        LLVM/clang major version (default 14)
#   JOBS                make -j (default 2; the machines have 2 cores)
#
# Idempotent: packages already installed are not reinstalled, an existing
# checkout is reused, a finished build (stamp file) is not rebuilt.
# Prints the path of the nidhuggc driver on its last line: "nidhuggc: PATH".
set -euo pipefail

CACHE=${X86SMC_PEERS_CACHE:-/work/.cache/x86smc-peers}
NIDHUGG_GIT=${NIDHUGG_GIT:-https://github.com/nidhugg/nidhugg.git}
NIDHUGG_REF=${NIDHUGG_REF:-0aea4d237eefe492f09df8e23a54cbeba69c42de}
NIDHUGG_LLVM=${NIDHUGG_LLVM:-14}
JOBS=${JOBS:-2}
DIR=$CACHE/nidhugg-0.4
LLVM_PREFIX=/usr/lib/llvm-$NIDHUGG_LLVM

say() { printf 'build-nidhugg: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# --- 1. Debian packages (Nidhugg's README, "For Users of Debian-like
#        Systems", with the LLVM version pinned) -------------------------
PKGS="git ca-certificates make autoconf automake g++ libc6-dev python3
      llvm-$NIDHUGG_LLVM-dev clang-$NIDHUGG_LLVM libffi-dev pkg-config
      libboost-dev libboost-system-dev libboost-test-dev zlib1g-dev util-linux"
missing=()
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		die "missing packages; as root run: apt-get install ${missing[*]}"
	fi
	say "installing: ${missing[*]}"
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null
fi
[ -x "$LLVM_PREFIX/bin/llvm-config" ] || die "$LLVM_PREFIX/bin/llvm-config not found"
[ -x "$LLVM_PREFIX/bin/clang" ] || die "$LLVM_PREFIX/bin/clang not found"

# --- 2. Sources ---------------------------------------------------------
mkdir -p "$CACHE"
if [ ! -d "$DIR/.git" ]; then
	say "cloning $NIDHUGG_GIT into $DIR"
	rm -rf "$DIR.tmp"
	git clone -q --no-checkout "$NIDHUGG_GIT" "$DIR.tmp"
	mv "$DIR.tmp" "$DIR"
fi
want=$(git -C "$DIR" rev-parse -q --verify "$NIDHUGG_REF^{commit}" 2>/dev/null) || {
	git -C "$DIR" fetch -q "$NIDHUGG_GIT" "$NIDHUGG_REF" 2>/dev/null ||
		git -C "$DIR" fetch -q --tags "$NIDHUGG_GIT"
	want=$(git -C "$DIR" rev-parse --verify "$NIDHUGG_REF^{commit}" 2>/dev/null ||
		git -C "$DIR" rev-parse --verify FETCH_HEAD)
}
stamp="$want llvm-$NIDHUGG_LLVM"
if [ -x "$DIR/src/nidhugg" ] && [ -x "$DIR/src/nidhuggc" ] &&
	[ "$(cat "$DIR/.x86smc-build-stamp" 2>/dev/null)" = "$stamp" ]; then
	say "already built ($stamp)"
	echo "nidhuggc: $DIR/src/nidhuggc"
	exit 0
fi
if [ "$(git -C "$DIR" rev-parse -q --verify HEAD 2>/dev/null)" != "$want" ] ||
	[ ! -f "$DIR/configure.ac" ]; then
	[ -f "$DIR/Makefile" ] && make -C "$DIR" -s distclean >/dev/null 2>&1 || true
	git -C "$DIR" -c advice.detachedHead=false checkout -q -f --detach "$want"
fi

# --- 3. Build in the checkout (src/nidhuggc finds src/nidhugg beside it) --
start=$SECONDS
cd "$DIR"
rm -f .x86smc-build-stamp
if [ ! -x configure ]; then
	say "autoreconf"
	autoreconf --install >autoreconf.log 2>&1 || { tail -20 autoreconf.log; die autoreconf; }
fi
if [ ! -f Makefile ] || ! grep -q "llvm-$NIDHUGG_LLVM" config.log 2>/dev/null; then
	say "configure (LLVM $NIDHUGG_LLVM, g++, python3)"
	# PYTHON: the #! line of nidhuggc; the system python3, not a shim.
	./configure --with-llvm="$LLVM_PREFIX" --prefix="$DIR/install" \
		CXX=g++ PYTHON=/usr/bin/python3 >configure.out 2>&1 ||
		{ tail -30 configure.out; die configure; }
fi
say "make -j$JOBS (takes about 4 minutes on 2 cores)"
make -j"$JOBS" -C src nidhugg nidhuggc >make.log 2>&1 ||
	{ grep -E 'error|Error' make.log | head -30; die make; }
echo "$stamp" >.x86smc-build-stamp
say "built in $((SECONDS - start)) s: $("$DIR/src/nidhuggc" --version 2>&1 | head -1)"
echo "nidhuggc: $DIR/src/nidhuggc"
