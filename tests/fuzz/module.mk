# libFuzzer targets: tests/fuzz/fuzz_NAME.c with LLVMFuzzerTestOneInput, seed corpus in
# tests/fuzz/corpus/NAME/.  Built with clang, the decoder linked in (instrumented alike).
# `make fuzz-smoke` runs each for FUZZ_SECONDS (30) on a scratch copy of its corpus.
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRCS))
FUZZ_COMMON := -fno-sanitize-recover=all -g -O1 $(CSTD) $(WARN) -Idecoder $(YAJL_CFLAGS)
FUZZ_FLAGS  := -fsanitize=fuzzer,address,undefined $(FUZZ_COMMON)

# The plugin's targets compile its sources with collectd's headers and the
# daemon stand-ins of the unit tests (tests/unit/cd_stubs.h).
FUZZ_PLUGIN := $(ZVM_CFLAGS) -Itests/unit $(ZVM_DISPATCH_SRCS) $(ZVM_CONFIG_SRCS) \
	plugin/zvm/zvm_stats.c $(ZVM_READER_SRCS)
FUZZ_EXTRA_fuzz_names  := $(FUZZ_PLUGIN)
FUZZ_EXTRA_fuzz_config := $(FUZZ_PLUGIN)

# The decoder compiled once, instrumented as the targets are (libFuzzer's coverage without
# its main), into an archive every target links: each target compiling all of it was
# most of the minute fuzz-build took.
FUZZ_DEC_OBJS := $(patsubst decoder/%.c,build/fuzz/obj/%.o,$(DEC_SRCS))
FUZZ_DEC_LIB  := build/fuzz/libzvmdec-fuzz.a

build/fuzz/obj/%.o: decoder/%.c $(DEC_HDRS)
	@mkdir -p $(@D)
	$(CLANG) -fsanitize=fuzzer-no-link,address,undefined $(FUZZ_COMMON) -c -o $@ $<

$(FUZZ_DEC_LIB): $(FUZZ_DEC_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

build/fuzz/%: tests/fuzz/%.c $(wildcard tests/fuzz/*.h) $(FUZZ_DEC_LIB) $(DEC_HDRS) $(ZVM_SRCS) \
		tests/unit/cd_stubs.h | $(CD_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_EXTRA_$*) $(FUZZ_DEC_LIB) $(YAJL_LIBS) -lm -lpthread

.PHONY: fuzz-build fuzz-smoke-run
fuzz-build: $(FUZZ_BINS)

# Two at a time (scripts/fuzz-smoke.sh); findings land in build/fuzz/findings-NAME and fail the run.
fuzz-smoke-run:
	@$(MAKE) --no-print-directory -j2 fuzz-build
	@scripts/fuzz-smoke.sh $(FUZZ_SECONDS) $(FUZZ_BINS)

# A long round (scripts/fuzz-round.sh): every target for FUZZ_ROUND_SECONDS (1800) of
# CPU time, FUZZ_ROUND_JOBS (the cores) at a time at idle priority, then a table of
# executions and coverage per target (build/fuzz/round-summary.md; line coverage too
# with FUZZ_ROUND_COVERAGE=1) and each corpus minimised with -merge=1 into
# build/fuzz/round-merged/NAME; put those in place with tests/fuzz/corpus-install.sh
# once every finding is fixed.
FUZZ_ROUND_SECONDS ?= 1800
FUZZ_ROUND_JOBS ?= $(shell nproc)
.PHONY: fuzz-round
fuzz-round:
	@$(MAKE) --no-print-directory -j2 fuzz-build
	@$(FUZZ_COV_EXTRAS)
	@scripts/fuzz-round.sh $(FUZZ_ROUND_SECONDS) $(FUZZ_ROUND_JOBS) $(FUZZ_BINS)

FUZZ_TARGETS += fuzz-smoke-run
CHECK_TARGETS += fuzz-smoke-run

# Line coverage of the decoder and the plugin's mapping by the committed corpora (llvm-cov).
# Each target's extra flags and sources (FUZZ_EXTRA_fuzz_NAME, here and in the module.mk
# of what it links) go to the script in build/fuzzcov/extras.txt, a line a target.
FUZZ_COV_EXTRAS = mkdir -p build/fuzzcov && printf '%s\n' \
	$(foreach b,$(notdir $(FUZZ_BINS)),"$(b) $(FUZZ_EXTRA_$(b))") >build/fuzzcov/extras.txt
.PHONY: fuzz-coverage
fuzz-coverage:
	@$(FUZZ_COV_EXTRAS)
	@scripts/fuzz-coverage.sh build/fuzzcov
