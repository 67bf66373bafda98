# Unit tests (cmocka), run four ways by `make check`:
#   check-unit      ASan + UBSan build on the host
#   check-clang     the same built by clang (with the whole tree, -Werror), and gcc -O3
#   check-valgrind  plain build under valgrind
#   check-s390x     cross-built for s390x, run big-endian under qemu-user
# A test tests/unit/test_NAME.c may need extra sources: TEST_EXTRA_test_NAME.
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

$(BUILD)/tests/%: tests/unit/%.c $(DEC_LIB) $(wildcard tests/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(YAJL_CFLAGS) -Itests/unit -o $@ $< $(TEST_EXTRA_$*) $(DEC_LIB) \
		$(LDFLAGS_ALL) $(CMOCKA_LIBS) $(YAJL_LIBS) -lm -lpthread

# test_monwrite sees every heap request the MONWRITE source makes.
TEST_EXTRA_test_monwrite := -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc
# test_wzvm_forget sees the largest one the metric engine makes.
TEST_EXTRA_test_wzvm_forget := -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc

.PHONY: unit-tests run-unit check-unit check-valgrind
unit-tests: $(UNIT_BINS)

# Tests find their data through ZVM_TESTDATA; the working directory is the tree top.
# Run UNIT_JOBS at a time (scripts/run-tests.sh), built BUILD_JOBS at a time: CI's
# machine has two cores, and one at a time left one idle through four builds and four
# runs of every test.
UNIT_JOBS ?= 2
run-unit: unit-tests
	@RUN="$(RUN)" scripts/run-tests.sh $(UNIT_JOBS) $(UNIT_BINS)

check-unit:
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/asan SAN=1 run-unit

check-valgrind:
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/plain unit-tests
	@RUN="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,possible" \
		scripts/run-tests.sh $(UNIT_JOBS) $(patsubst $(BUILD)/%,build/plain/%,$(UNIT_BINS))

check-s390x:
	@command -v s390x-linux-gnu-gcc >/dev/null || { echo "check-s390x: s390x-linux-gnu-gcc missing (make deps)"; exit 1; }
	@command -v qemu-s390x >/dev/null || { echo "check-s390x: qemu-s390x missing (make deps)"; exit 1; }
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/s390x CC=s390x-linux-gnu-gcc \
		AR=s390x-linux-gnu-ar RUN="qemu-s390x -L /" run-unit

# Both compilers must accept the whole tree with -Werror.  The unit tests also run
# under clang's ASan + UBSan, which check what gcc's do not (NULL + 0, for one).
check-clang:
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/clang CC=$(CLANG) all unit-tests
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/clang-san CC=$(CLANG) SAN=1 run-unit
	@# -O3 (as a distribution's CFLAGS may ask) inlines deeper and warns of more
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/gcc-o3 OPT="-O3 -g" all

CHECK_TARGETS += check-unit check-valgrind check-s390x check-clang

# The tree follows .clang-format (make format fixes it), and no function
# grows past 60 lines but those in scripts/long-functions.txt.
.PHONY: check-format
check-format:
	@command -v clang-format >/dev/null || { echo "check-format: clang-format missing (make deps)"; exit 1; }
	@clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build/*') \
		&& python3 scripts/fmt-tables.py --check $$(git ls-files 'decoder/layout/*.c' 'decoder/payload/*/lay_*.c' 'decoder/metric/cp/met_cp_metrics.c') \
		&& echo "check-format: every C file follows .clang-format, every layout table is laid out as a table"
	@python3 scripts/check-function-length.py
CHECK_TARGETS += check-format

# A build directory remembers its flags: other flags remake its objects.
.PHONY: check-build
check-build:
	@tests/build/flags.sh
CHECK_TARGETS += check-build
