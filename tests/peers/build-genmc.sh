#!/usr/bin/env bash
# build-genmc.sh — build the peer model checker GenMC v0.11.0 OUTSIDE the
# x86smc repository, for comparisons (see tests/peers/README.md).
#
# Source: the public repository https://github.com/MPI-SWS/genmc (GPL-3.0),
# tag v0.11.0 = commit b03f01ed0f34a873f7b8b960313a5279a6c9ab45.  Nothing of
# GenMC is kept in x86smc: this script clones it into the cache directory
# and builds it there.
#
# GenMC v0.11.0 is C++23 (its configure makes -std=c++23 mandatory) and
# supports LLVM 13..20.  Debian 12's g++ 12 is too old, so it is built with
# Debian 12's clang++-19 (against libstdc++ 12; GenMC has a fallback for the
# one C++23 range adaptor libstdc++ 12 lacks) and linked with llvm-19.
#
# Environment (all optional):
#   X86SMC_PEERS_CACHE  cache directory      (default /work/.cache/x86smc-peers)
#   GENMC_GIT           where to clone from  (default the GitHub repository;
#                       any git URL or local path, e.g. a bare mirror)
#   GENMC_REF           tag/commit to build  (default v0.11.0)
#   GENMC_COMMIT        commit GENMC_REF must resolve to (default the pin
#                       above when GENMC_REF is v0.11.0; empty: no check)
#   GENMC_LLVM          LLVM/clang major version (default 19)
#   JOBS                make -j (default 2; the machines have 2 cores)
#
# Idempotent: packages already installed are not reinstalled, an existing
# checkout is reused, a finished build (stamp file) is not rebuilt.
# Prints the path of the genmc binary on its last line: "genmc: PATH".
set -euo pipefail

CACHE=${X86SMC_PEERS_CACHE:-/work/.cache/x86smc-peers}
GENMC_GIT=${GENMC_GIT:-https://github.com/MPI-SWS/genmc.git}
GENMC_REF=${GENMC_REF:-v0.11.0}
if [ "$GENMC_REF" = v0.11.0 ]; then
	GENMC_COMMIT=${GENMC_COMMIT-b03f01ed0f34a873f7b8b960313a5279a6c9ab45}
else
	GENMC_COMMIT=${GENMC_COMMIT-}
fi
GENMC_LLVM=${GENMC_LLVM:-19}
JOBS=${JOBS:-2}
DIR=$CACHE/genmc-$GENMC_REF
LLVM_PREFIX=/usr/lib/llvm-$GENMC_LLVM

say() { printf 'build-genmc: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# --- 1. Debian packages (GenMC's README: autoconf automake clang llvm
#        llvm-dev libffi-dev zlib1g-dev libedit-dev) --------------------
PKGS="git ca-certificates make autoconf automake libc6-dev libstdc++-12-dev
      llvm-$GENMC_LLVM-dev clang-$GENMC_LLVM libffi-dev zlib1g-dev libedit-dev
      util-linux"
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
command -v "clang-$GENMC_LLVM" >/dev/null || die "clang-$GENMC_LLVM not found"
command -v "clang++-$GENMC_LLVM" >/dev/null || die "clang++-$GENMC_LLVM not found"

# --- 2. Sources ---------------------------------------------------------
mkdir -p "$CACHE"
if [ ! -d "$DIR/.git" ]; then
	say "cloning $GENMC_GIT into $DIR"
	rm -rf "$DIR.tmp"
	git clone -q --no-checkout "$GENMC_GIT" "$DIR.tmp"
	mv "$DIR.tmp" "$DIR"
fi
want=$(git -C "$DIR" rev-parse -q --verify "$GENMC_REF^{commit}" 2>/dev/null) || {
	git -C "$DIR" fetch -q --tags "$GENMC_GIT"
	want=$(git -C "$DIR" rev-parse --verify "$GENMC_REF^{commit}")
}
if [ -n "$GENMC_COMMIT" ] && [ "$want" != "$GENMC_COMMIT" ]; then
	die "$GENMC_REF is $want in $GENMC_GIT, expected $GENMC_COMMIT"
fi
stamp="$want llvm-$GENMC_LLVM"
if [ -x "$DIR/genmc" ] && [ "$(cat "$DIR/.x86smc-build-stamp" 2>/dev/null)" = "$stamp" ]; then
	say "already built ($stamp)"
	echo "genmc: $DIR/genmc"
	exit 0
fi
if [ "$(git -C "$DIR" rev-parse -q --verify HEAD 2>/dev/null)" != "$want" ] ||
	[ ! -f "$DIR/configure.ac" ]; then
	[ -f "$DIR/Makefile" ] && make -C "$DIR" -s distclean >/dev/null 2>&1 || true
	git -C "$DIR" -c advice.detachedHead=false checkout -q -f --detach "$want"
fi

# --- 3. Build in the checkout (GenMC bakes the absolute path of its
#        include/ directory into the binary: do not move $DIR afterwards) --
start=$SECONDS
cd "$DIR"
rm -f .x86smc-build-stamp
if [ ! -x configure ]; then
	say "autoreconf"
	autoreconf --install >autoreconf.log 2>&1 || { tail -20 autoreconf.log; die autoreconf; }
fi
if [ ! -f Makefile ] || ! grep -q "llvm-$GENMC_LLVM" config.log 2>/dev/null; then
	say "configure (LLVM $GENMC_LLVM, clang++-$GENMC_LLVM, C++23)"
	# ac_cv_path_CPPLINT=no: no clang-tidy lint inside `make check`
	./configure --with-llvm="$LLVM_PREFIX" \
		--with-clang="$(command -v "clang-$GENMC_LLVM")" \
		--with-clangxx="$(command -v "clang++-$GENMC_LLVM")" \
		CC="clang-$GENMC_LLVM" CXX="clang++-$GENMC_LLVM" \
		ac_cv_path_CPPLINT=no >configure.out 2>&1 ||
		{ tail -30 configure.out; die configure; }
fi
say "make -j$JOBS (takes about 6 minutes on 2 cores)"
make -j"$JOBS" genmc >make.log 2>&1 || { grep -E 'error|Error' make.log | head -30; die make; }
echo "$stamp" >.x86smc-build-stamp
say "built in $((SECONDS - start)) s: $("$DIR/genmc" --version 2>&1 | sed -n 2p | sed 's/^ *//')"
echo "genmc: $DIR/genmc"
