# Benchmarks: figures measured in one run, reported as ratios; never pass/fail on speed.
build/bench/bench_walk: tests/bench/bench_walk.c $(DEC_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -O2 -o $@ $< $(DEC_LIB) $(LDFLAGS_ALL)

.PHONY: bench-walk
bench-walk: build/bench/bench_walk
	build/bench/bench_walk 256

BENCH_TARGETS += bench-walk
