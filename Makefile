# rocc -- build for librocc (CC algorithms), roccsim (simulator) and tests.
#
#   make              build build/roccsim and build/librocc.a (warnings are errors)
#   make test         build and run every test (unit + scenario), normal build
#   make test-asan    the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make test-ubsan   the same built by clang with its UndefinedBehaviorSanitizer
#   make fuzz         build the libFuzzer harnesses (clang) into build-fuzz/fuzz/
#                     and run each for FUZZ_TIME seconds (default 20;
#                     tests/fuzz/run.sh, docs/testing.md)
#   make bench        simulator speed benchmark (not a test)
#   make clean
#
# Layers (each may use only the ones to its left):
#   src/cc (librocc, pure) <- src/core (event list, rng, units) <- src/net
#   (fabric model) <- src/engine + src/transport (scenario, run, metrics; one
#   file per congestion-control algorithm) <- src/cli;
#   src/openqueue (the OpenQueue compiler and runtime, pure) uses src/core
#   only and is built into libroccsim.a beside it.
# src/cc is compiled with only its own directory on the include path, so a
# simulator header included there is a build error.

BUILD   ?= build
CC      ?= cc
# make test runs this many tests at once (tests/run.sh; scripts/test.sh: nproc).
TEST_JOBS ?= 1
# -O3 measured 6% faster than -O2 on bench/, link-time optimization another
# 4% fewer instructions (the per-frame path crosses port.c, switch.c, host.c);
# outputs byte-identical (docs/performance.md).  Fat LTO objects keep
# librocc.a linkable without LTO (the data plane's build).
OPT     ?= -O3 -flto=auto -ffat-lto-objects
SAN     ?=
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS  ?= $(OPT) -g
ifeq ($(SAN),1)
  # ROCC_AUDIT: the sanitizer build also checks the model's shortcuts
  # against the long way round (e.g. host.c's idle_plan_holds).
  SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DROCC_AUDIT
endif
ifeq ($(SAN),ubsan)
  # UndefinedBehaviorSanitizer alone, meant for clang (CC=clang): its checks
  # differ from gcc's (clang flags pointer arithmetic on NULL, gcc does not).
  SANFLAGS = -fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DROCC_AUDIT
endif
ifeq ($(SAN),fuzz)
  # libFuzzer (clang): everything instrumented for coverage and checked by
  # ASan + UBSan; only the harnesses link the fuzzer's main (make fuzz).
  SANFLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DROCC_AUDIT
endif
ALLCFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(SANFLAGS) -MMD -MP
LDLIBS   = -lm

# Open MPI (Debian: libopenmpi-dev) for one run over several ranks
# (src/engine/parallel.c, docs/parallel.md): used when mpicc finds mpi.h,
# MPI=0 builds without it (a run under mpirun with more than one rank is
# then refused).  Sanitizer builds leave it out.  Only parallel.c sees
# mpi.h; only roccsim links the library, and a plain run never calls it.
ifneq ($(SAN),)
  MPI ?= 0
endif
MPI ?= $(shell echo '\#include <mpi.h>' | $(CC) $$(mpicc --showme:compile 2>/dev/null) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
ifeq ($(MPI),1)
  MPI_CFLAGS := -DROCC_MPI $(patsubst -I%,-isystem %,$(shell mpicc --showme:compile))
  MPI_LIBS   := $(shell mpicc --showme:link)
endif

CC_SRC     := $(wildcard src/cc/*.c)
SIM_SRC    := $(wildcard src/core/*.c src/openqueue/*.c src/net/*.c src/engine/*.c src/transport/*.c)
CLI_SRC    := $(wildcard src/cli/*.c)
TEST_SRC   := $(wildcard tests/unit/test_*.c)
# Fuzz harnesses tests/fuzz/fuzz_NAME.c: each links with tests/fuzz/replay.c
# into the unit test $(BUILD)/tests/test_fuzz_NAME (replays its corpus), and
# with libFuzzer into $(BUILD)/fuzz/NAME (make fuzz).
FUZZ_SRC   := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_TEST  := $(FUZZ_NAMES:%=$(BUILD)/tests/test_fuzz_%)
FUZZ_INC   := -Isrc -Isrc/cc -Idataplane -Itests/unit -Itests/fuzz

CC_OBJ     := $(CC_SRC:%.c=$(BUILD)/%.o)
SIM_OBJ    := $(SIM_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN   := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

LIBROCC    := $(BUILD)/librocc.a
LIBSIM     := $(BUILD)/libroccsim.a
PKT_OBJ    := $(BUILD)/dataplane/pkt.o $(BUILD)/dataplane/sw_oqclass.o
ROCCSIM    := $(BUILD)/roccsim

.PHONY: all test test-asan test-ubsan unit bench clean fuzz fuzzers
all: $(ROCCSIM) $(LIBROCC) $(TEST_BIN) $(FUZZ_TEST)

# Objects depend on the compiler command: changing OPT, SAN or CC rebuilds
# them (the stamp is rewritten only when the command changes).
FLAGS_STAMP := $(BUILD)/.cflags
$(shell mkdir -p $(BUILD) && echo '$(CC) $(ALLCFLAGS) $(MPI_CFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(CC) $(ALLCFLAGS) $(MPI_CFLAGS)' > $(FLAGS_STAMP))

$(BUILD)/src/cc/%.o: src/cc/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -Isrc/cc -c $< -o $@

$(BUILD)/src/engine/parallel.o: src/engine/parallel.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) $(MPI_CFLAGS) -Isrc -Isrc/cc -c $< -o $@

$(BUILD)/src/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -Isrc -Isrc/cc -c $< -o $@

$(BUILD)/tests/%.o: tests/unit/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -Isrc -Isrc/cc -Itests/unit -c $< -o $@

$(LIBROCC): $(CC_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBSIM): $(SIM_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(ROCCSIM): $(CLI_OBJ) $(LIBSIM) $(LIBROCC) $(FLAGS_STAMP)
	$(CC) $(ALLCFLAGS) $(CLI_OBJ) $(LIBSIM) $(LIBROCC) $(LDLIBS) $(MPI_LIBS) -o $@

# Keep the test objects: as intermediates make would delete them after the
# first link and rebuild every test on the next run.
.SECONDARY: $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%.o)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIBSIM) $(LIBROCC) $(FLAGS_STAMP)
	$(CC) $(ALLCFLAGS) $< $(LIBSIM) $(LIBROCC) $(LDLIBS) -o $@

# The data plane's frame parser and OpenQueue classifier (no DPDK) for the
# pkt harness.
$(BUILD)/dataplane/%.o: dataplane/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -Isrc -Isrc/cc -Idataplane -c $< -o $@

$(BUILD)/tests/test_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(PKT_OBJ) $(LIBSIM) $(LIBROCC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) $(FUZZ_INC) -DFUZZ_NAME='"$*"' $< tests/fuzz/replay.c $(PKT_OBJ) $(LIBSIM) $(LIBROCC) $(LDLIBS) -o $@

$(BUILD)/fuzz/%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(PKT_OBJ) $(LIBSIM) $(LIBROCC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) $(FUZZ_INC) -fsanitize=fuzzer $< $(PKT_OBJ) $(LIBSIM) $(LIBROCC) $(LDLIBS) -o $@

fuzzers: $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

test: all
	BUILD=$(BUILD) TEST_JOBS=$(TEST_JOBS) tests/run.sh

test-asan:
	$(MAKE) BUILD=build-asan SAN=1 OPT=-O1 test

test-ubsan:
	$(MAKE) BUILD=build-ubsan CC=clang SAN=ubsan OPT=-O1 test

fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang SAN=fuzz OPT=-O1 fuzzers
	FUZZ_BUILD=build-fuzz tests/fuzz/run.sh

bench: all
	bench/run.sh $(ROCCSIM)

clean:
	rm -rf build build-asan build-ubsan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
