# x86smc — one plain Makefile.  Targets: all (default), check, demo, debug,
# bench, deps, samples, format, clean, install, uninstall, fuzz-explore,
# fuzz-peers, sctbench.
CC      ?= cc
CFLAGS  ?= -O2 -g
# Flags every build needs (kept apart from CFLAGS, which `make debug` and
# users override on the command line).
XFLAGS  := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc
LDLIBS  := -lZydis -lcapstone -lelf -ldwarf -lz -liberty
BUILD   ?= build
# make install PREFIX=/usr/local (DESTDIR for staging): bin/x86smc and
# share/man/man1/x86smc.1
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
SANFLAGS :=

# src/dist/mpi.c only in x86smc-mpi (below); x86smc links src/dist/none.c
SRCS    := $(shell find src -name '*.c' -not -path src/dist/mpi.c | sort)
LIBSRCS := $(filter-out src/main.c,$(SRCS))
OBJS    := $(SRCS:%.c=$(BUILD)/%.o)
LIBOBJS := $(LIBSRCS:%.c=$(BUILD)/%.o)
UNITSRC := $(sort $(wildcard tests/unit/*.c))
UNITOBJ := $(UNITSRC:%.c=$(BUILD)/%.o)

# Samples: every samples/*.c and samples/*/*.c, built at -O0 and -O2.
SAMPLESRC := $(sort $(wildcard samples/*.c samples/*/*.c))
SAMPLEBIN := $(foreach s,$(SAMPLESRC),$(BUILD)/$(s:%.c=%)-O0 $(BUILD)/$(s:%.c=%)-O2)
SAMPLECFLAGS := -g -pthread -Wall -Wno-unused-result -fno-inline-functions-called-once

.PHONY: all check demo debug bench bench-peers sctbench deps samples format clean unit e2e bad fuzz \
	install uninstall fuzz-explore fuzz-peers mpi
all: deps x86smc x86smc-mpi

x86smc: $(OBJS)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# x86smc-mpi: the same objects with src/dist/mpi.c for src/dist/none.c,
# compiled and linked by Open MPI's mpicc (docs/DISTRIBUTED.md): plain
# x86smc needs no MPI library at run time.
MPICC   ?= mpicc
MPIOBJS := $(filter-out $(BUILD)/src/dist/none.o,$(OBJS)) $(BUILD)/src/dist/mpi.o
mpi: deps x86smc-mpi
x86smc-mpi: $(MPIOBJS)
	$(MPICC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/src/dist/mpi.o: src/dist/mpi.c | deps
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -MMD -MP -c -o $@ $<

# (deps first: with -j the packages must be there before any compile)
$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -MMD -MP -c -o $@ $<

-include $(OBJS:.o=.d) $(UNITOBJ:.o=.d) $(BUILD)/src/dist/mpi.d

$(BUILD)/unit-tests: $(UNITOBJ) $(LIBOBJS)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS) -lcunit

# C++ and Rust samples (samples/*/*.cc, *.rs; docs/LANGUAGES.md): one
# optimized build each, NAME-O: g++ -O -g (-O1), Debian's rustc -O -g with
# -C panic=abort (a panic ends the process at once, as x86smc reports it).
CXXSAMPLESRC := $(sort $(wildcard samples/*/*.cc))
RUSTSAMPLESRC := $(sort $(wildcard samples/*/*.rs))
SAMPLEBIN += $(CXXSAMPLESRC:%.cc=$(BUILD)/%-O) $(RUSTSAMPLESRC:%.rs=$(BUILD)/%-O)
CXX     ?= g++
RUSTC   ?= /usr/bin/rustc

samples: $(SAMPLEBIN)
$(BUILD)/samples/%-O: samples/%.cc samples/common.h
	@mkdir -p $(dir $@)
	$(CXX) -std=gnu++20 -O -g -pthread -Wall -o $@ $<
$(BUILD)/samples/%-O: samples/%.rs
	@mkdir -p $(dir $@)
	$(RUSTC) -O -g -C panic=abort -o $@ $<
# OpenMP samples (samples/omp/): built with -fopenmp
$(BUILD)/samples/omp/%: SAMPLECFLAGS += -fopenmp
$(BUILD)/samples/%-O0: samples/%.c samples/common.h
	@mkdir -p $(dir $@)
	$(CC) $(SAMPLECFLAGS) -O0 -o $@ $<
$(BUILD)/samples/%-O2: samples/%.c samples/common.h
	@mkdir -p $(dir $@)
	$(CC) $(SAMPLECFLAGS) -O2 -o $@ $<

# Bad input for tests/e2e/bad.txt (not samples: they state no verdict):
# tests/e2e/bad/*.c plus the same program as non-PIE, static, stripped,
# and files that are not programs x86smc can run.
BADSRC := $(sort $(wildcard tests/e2e/bad/*.c))
BADBIN := $(BADSRC:tests/e2e/bad/%.c=$(BUILD)/bad/%) \
	$(addprefix $(BUILD)/bad/,hello-nopie hello-static hello-stripped \
		hello-static-stripped elf32 script.sh notelf noexec)
bad: $(BADBIN)
$(BUILD)/bad/%: tests/e2e/bad/%.c
	@mkdir -p $(dir $@)
	$(CC) -g -O0 -pthread -Wall -Wno-unused-result -o $@ $<
$(BUILD)/bad/hello-nopie: tests/e2e/bad/hello.c
	@mkdir -p $(dir $@)
	$(CC) -g -O0 -pthread -fno-pie -no-pie -o $@ $<
$(BUILD)/bad/hello-static: tests/e2e/bad/hello.c
	@mkdir -p $(dir $@)
	$(CC) -g -O0 -pthread -static -o $@ $<
$(BUILD)/bad/hello-stripped: $(BUILD)/bad/hello
	strip -o $@ $<
$(BUILD)/bad/hello-static-stripped: $(BUILD)/bad/hello-static
	strip -o $@ $<
$(BUILD)/bad/elf32: tests/e2e/bad/elf32.s
	@mkdir -p $(dir $@)
	as --32 -o $@.o $< && ld -m elf_i386 -o $@ $@.o && rm -f $@.o
$(BUILD)/bad/script.sh: tests/e2e/bad/script.sh
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@
$(BUILD)/bad/notelf: tests/e2e/bad/hello.c
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@
$(BUILD)/bad/noexec: $(BUILD)/bad/hello
	cp $< $@ && chmod -x $@

# Fuzzing (tests/fuzz): libFuzzer harnesses for the option parser, the
# schedule (replay-file) parser and the decoder, built with clang and
# ASan/UBSan; `make fuzz` builds and runs them (20 s in all).
FUZZCC    ?= clang
FUZZFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined
FUZZBIN   := $(addprefix $(BUILD)/fuzz/fuzz_,opts sched decode)
$(BUILD)/fuzz/fuzz_opts: tests/fuzz/fuzz_opts.c src/opts.c src/options.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) $(XFLAGS) -o $@ $(filter %.c,$^)
$(BUILD)/fuzz/fuzz_sched: tests/fuzz/fuzz_sched.c src/dpor/schedule.c src/dpor/schedule.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) $(XFLAGS) -o $@ $(filter %.c,$^)
$(BUILD)/fuzz/fuzz_decode: tests/fuzz/fuzz_decode.c $(wildcard src/decode/*.c src/decode/*.h)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) $(XFLAGS) -o $@ $(filter %.c,$^) $(LDLIBS)
fuzz: $(FUZZBIN)
	sh tests/fuzz/run.sh 20

# Differential fuzzing of the exploration (tests/fuzz_explore/README.md,
# docs/TESTING.md): N random programs, seeds START..START+N-1.
# fuzz-explore: dpor vs exhaustive vs random vs --jobs 2 vs native runs
# under sc, tso and pso (make check runs a fixed --quick set);
# fuzz-peers: execution counts, outcomes and verdicts against GenMC and
# Nidhugg (built outside the tree: tests/peers/README.md).
N     ?= 100
START ?= 0
fuzz-explore: deps x86smc
	python3 tests/fuzz_explore/run.py --start $(START) --count $(N)
fuzz-peers: deps x86smc
	python3 tests/fuzz_explore/peers.py --start $(START) --count $(N)

deps:
	@sh tests/deps.sh

unit: deps $(BUILD)/unit-tests
	$(BUILD)/unit-tests

e2e: deps x86smc samples bad
	sh tests/e2e/run.sh

check: deps x86smc x86smc-mpi samples bad $(BUILD)/unit-tests $(BUILD)/decode-diff \
	$(FUZZBIN)
	sh tests/check.sh

demo: deps x86smc $(BUILD)/samples/dekker-O2 $(BUILD)/samples/dekker_fenced-O2
	sh tests/demo.sh

debug:
	$(MAKE) BUILD=build-debug CFLAGS="-O1 -g -fno-omit-frame-pointer" \
		SANFLAGS="-fsanitize=address,undefined" x86smc-debug

x86smc-debug: $(OBJS)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bench: deps x86smc samples $(BUILD)/decode-diff
	sh tests/bench/run.sh

# x86smc beside GenMC and Nidhugg on Nidhugg's benchmarks (docs/PERFORMANCE.md,
# "Against GenMC and Nidhugg"); not part of make check.  The peers are built
# outside the tree (tests/peers/README.md, ~10 minutes): only with
# BUILD_PEERS=1, otherwise a missing peer is reported and x86smc's column
# printed alone.  BENCH_PEERS_ARGS: options of tests/bench/peers.py
# (--quick, --programs a,b, --models sc,tso, --timeout S).
PEERS_CACHE ?= $(or $(X86SMC_PEERS_CACHE),/work/.cache/x86smc-peers)
bench-peers: deps x86smc
	@if [ "$(BUILD_PEERS)" = 1 ]; then \
		[ -x $(PEERS_CACHE)/genmc-v0.11.0/genmc ] || X86SMC_PEERS_CACHE=$(PEERS_CACHE) bash tests/peers/build-genmc.sh || exit 1; \
		[ -x $(PEERS_CACHE)/nidhugg-0.4/src/nidhuggc ] || X86SMC_PEERS_CACHE=$(PEERS_CACHE) bash tests/peers/build-nidhugg.sh || exit 1; \
	fi
	X86SMC_PEERS_CACHE=$(PEERS_CACHE) python3 tests/bench/peers.py $(BENCH_PEERS_ARGS)

# SCTBench's 49 buggy programs (docs/SUITES.md), built from the public
# repository outside the tree (SCTBENCH_DIR, default /work/.cache/sctbench):
# extract, build, run (about an hour on 2 cores), table.  Not part of
# make check.
sctbench: deps x86smc
	cp x86smc $(BUILD)/x86smc-sctbench
	X86SMC=$(BUILD)/x86smc-sctbench python3 tests/suites/sctbench.py all

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h) $(UNITSRC)

clean:
	rm -rf build build-debug x86smc x86smc-mpi x86smc-debug

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 x86smc $(DESTDIR)$(BINDIR)/x86smc
	install -m 755 x86smc-mpi $(DESTDIR)$(BINDIR)/x86smc-mpi
	install -m 644 docs/x86smc.1 $(DESTDIR)$(MANDIR)/man1/x86smc.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/x86smc $(DESTDIR)$(BINDIR)/x86smc-mpi $(DESTDIR)$(MANDIR)/man1/x86smc.1

# Differential decoder test (Zydis vs Capstone) over system libraries.
$(BUILD)/decode-diff: tests/decode/diff.c $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XFLAGS) -o $@ $^ $(LDLIBS)
