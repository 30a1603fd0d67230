# x86smc — one plain Makefile.  Targets: all (default), check, demo, debug,
# bench, deps, samples, format, clean.
CC      ?= cc
CFLAGS  ?= -O2 -g
# Flags every build needs (kept apart from CFLAGS, which `make debug` and
# users override on the command line).
XFLAGS  := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc
LDLIBS  := -lZydis -lcapstone -lelf -ldwarf -lz
BUILD   ?= build
SANFLAGS :=

SRCS    := $(shell find src -name '*.c' | sort)
LIBSRCS := $(filter-out src/main.c,$(SRCS))
OBJS    := $(SRCS:%.c=$(BUILD)/%.o)
LIBOBJS := $(LIBSRCS:%.c=$(BUILD)/%.o)
UNITSRC := $(sort $(wildcard tests/unit/*.c))
UNITOBJ := $(UNITSRC:%.c=$(BUILD)/%.o)

# Samples: every samples/*.c and samples/*/*.c, built at -O0 and -O2.
SAMPLESRC := $(sort $(wildcard samples/*.c samples/*/*.c))
SAMPLEBIN := $(foreach s,$(SAMPLESRC),$(BUILD)/$(s:%.c=%)-O0 $(BUILD)/$(s:%.c=%)-O2)
SAMPLECFLAGS := -g -pthread -Wall -Wno-unused-result -fno-inline-functions-called-once

.PHONY: all check demo debug bench deps samples format clean unit e2e
all: deps x86smc

x86smc: $(OBJS)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -MMD -MP -c -o $@ $<

-include $(OBJS:.o=.d) $(UNITOBJ:.o=.d)

$(BUILD)/unit-tests: $(UNITOBJ) $(LIBOBJS)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS) -lcunit

samples: $(SAMPLEBIN)
$(BUILD)/samples/%-O0: samples/%.c samples/common.h
	@mkdir -p $(dir $@)
	$(CC) $(SAMPLECFLAGS) -O0 -o $@ $<
$(BUILD)/samples/%-O2: samples/%.c samples/common.h
	@mkdir -p $(dir $@)
	$(CC) $(SAMPLECFLAGS) -O2 -o $@ $<

deps:
	@sh tests/deps.sh

unit: deps $(BUILD)/unit-tests
	$(BUILD)/unit-tests

e2e: deps x86smc samples
	sh tests/e2e/run.sh

check: deps x86smc samples $(BUILD)/unit-tests $(BUILD)/decode-diff
	sh tests/check.sh

demo: deps x86smc samples
	sh tests/demo.sh

debug:
	$(MAKE) BUILD=build-debug CFLAGS="-O1 -g -fno-omit-frame-pointer" \
		SANFLAGS="-fsanitize=address,undefined" x86smc-debug

x86smc-debug: $(OBJS)
	$(CC) $(CFLAGS) $(XFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bench: deps x86smc samples $(BUILD)/decode-diff
	sh tests/bench/run.sh

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h) $(UNITSRC)

clean:
	rm -rf build build-debug x86smc x86smc-debug

# Differential decoder test (Zydis vs Capstone) over system libraries.
$(BUILD)/decode-diff: tests/decode/diff.c $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XFLAGS) -o $@ $^ $(LDLIBS)
