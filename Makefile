# collectd-zvm top-level Makefile.
#
#   make            build the decoder library, zvmmon, zvmsim and the plugins
#   make check      install missing packages (all of deps), then run every test
#   make demo       install what the demo needs (deps-demo), then run the demo
#   make deps       install every missing Debian package the checks use
#   make deps-demo  only the demo's: compiler, collectd, libyajl, FUSE, ncurses
#   make bench      benchmarks (figures, never pass/fail on speed); bench-plugin
#                   and bench-live measure the plugin in the daemon (minutes)
#   make install    PREFIX=/usr DESTDIR=...
#   make deb        Debian packages in build/deb/ (ARCH=s390x cross-builds)
#
# Each component has a module.mk next to its sources; this file holds the
# shared flags and the aggregate targets.  Components add to ALL_TARGETS,
# CHECK_TARGETS, INSTALL_TARGETS and FUZZ_TARGETS.

CC       ?= gcc
CLANG    ?= clang
BUILD    ?= build
PREFIX   ?= /usr
DESTDIR  ?=
# Set by check-s390x: how to run a test binary (e.g. "qemu-s390x -L /").
RUN      ?=
SAN      ?=
FUZZ_SECONDS ?= 30
# Jobs for the builds the check groups make in their own directories (sanitizer,
# clang, s390x): CI's machine has two cores.  The groups themselves run in turn.
BUILD_JOBS ?= 2

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-missing-field-initializers
CSTD     := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
OPT      ?= -O2 -g
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
# Link-time optimisation for gcc's builds without sanitizers: the decoder is many
# small files (a layer per directory), and a record's path crosses a dozen of
# them; across files gcc inlines only at link time.  Fat objects keep the archive
# usable by a link without LTO.  LTO= turns it off; clang's builds go without
# (its LTO needs its own ar and linker plugin).
ifeq ($(SAN),)
LTO ?= $(if $(shell $(CC) -v 2>&1 | grep '^gcc version'),-flto=auto -ffat-lto-objects)
endif
# -MMD -MP: every object and binary gets a .d file of the headers it really
# included, read back below, so a header change rebuilds just its users.
CFLAGS_ALL := $(CSTD) $(WARN) $(OPT) $(LTO) $(SANFLAGS) -Idecoder -MMD -MP $(EXTRA_CFLAGS)
LDFLAGS_ALL := $(SANFLAGS) $(LTO) $(EXTRA_LDFLAGS)

# The flags a build directory was last built with, in a file that changes only
# when they do.  Every rule that compiles depends on it (what links depends on
# what was compiled), so a build with other flags (LTO=, OPT=, SAN=, another CC)
# in the same directory remakes its objects instead of linking in the old ones.
FLAGS_STAMP := $(BUILD)/flags
FLAGS_NOW   := $(strip $(CC) | $(CFLAGS_ALL) | $(LDFLAGS_ALL))
ifneq ($(FLAGS_NOW),$(strip $(file <$(FLAGS_STAMP))))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif

YAJL_CFLAGS := -I/usr/include/yajl
YAJL_LIBS   := -lyajl
CMOCKA_LIBS := -lcmocka
FUSE_CFLAGS := -I/usr/include/fuse3
FUSE_LIBS   := -lfuse3 -lpthread

ALL_TARGETS     :=
CHECK_TARGETS   :=
INSTALL_TARGETS :=
FUZZ_TARGETS    :=
BENCH_TARGETS   :=

.PHONY: all check deps deps-demo demo bench install clean format fuzz-smoke check-s390x check-clang
all:

include $(sort $(wildcard */module.mk */*/module.mk))
# Only files: a directory named *.d (modprobe.d, a package build's tree below
# build/deb) is no dependency list.
-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)

all: $(ALL_TARGETS)

# Files split by direction: within a folder of decoder/, plugin/, zvmmon/ or
# zvmsim/, no two files call each other (scripts/check-calls.py, from nm of the
# objects).  Here, after every module.mk has named its objects.
CALL_OBJS := $(DEC_OBJS) $(ZVMMON_OBJS) $(ZVM_OBJS) $(WZVM_OBJS) $(if $(filter 1,$(WITH_SIM)),$(SIM_OBJS))
.PHONY: check-calls
check-calls: $(CALL_OBJS)
	@python3 scripts/check-calls.py $(BUILD) $(CALL_OBJS)
CHECK_TARGETS += check-calls

deps:
	@scripts/deps.sh all

deps-demo:
	@scripts/deps.sh demo

# Everything a fresh Debian 12 clone needs, in an order that fails early.
check: deps
	@$(MAKE) --no-print-directory check-run

# Each group runs in turn; the last line counts them for CI.
check-run:
	@pass=0; fail=0; failed=""; \
	for t in $(CHECK_TARGETS); do \
		echo "=== make $$t"; start=$$(date +%s); \
		if $(MAKE) --no-print-directory $$t; then pass=$$((pass+1)); \
			echo "=== passed: $$t ($$(( $$(date +%s) - start )) s)"; \
		else fail=$$((fail+1)); failed="$$failed $$t"; \
			echo "=== FAILED: $$t ($$(( $$(date +%s) - start )) s)"; fi; \
	done; \
	[ -z "$$failed" ] || echo "failed groups:$$failed"; \
	echo "check: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

bench: $(BENCH_TARGETS)

fuzz-smoke: $(FUZZ_TARGETS)

install: $(INSTALL_TARGETS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')
	python3 scripts/fmt-tables.py $$(git ls-files 'decoder/layout/*.c' 'decoder/payload/*/lay_*.c' 'decoder/metric/cp/met_cp_metrics.c')

clean:
	rm -rf $(BUILD)
