# The decoder library: no collectd, no FUSE, no libyajl.  Every .c below decoder/
# is part of it; decoder/README.md says which folder may include which.
DEC_SRCS := $(sort $(shell find decoder -name '*.c'))
DEC_OBJS := $(patsubst decoder/%.c,$(BUILD)/decoder/%.o,$(DEC_SRCS))
DEC_LIB  := $(BUILD)/libzvmdec.a
# For rules that compile several sources in one command (no usable .d file).
DEC_HDRS := $(sort $(shell find decoder -name "*.h" -o -name "*.def"))

# -fPIC for zvm.so and write_zvm.so, which link the archive with its symbols
# hidden (--exclude-libs): nothing can interpose a decoder function, so the
# compiler may inline and call them directly as it would without -fPIC.
$(BUILD)/decoder/%.o: decoder/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fPIC -fno-semantic-interposition -c -o $@ $<

$(DEC_LIB): $(DEC_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

ALL_TARGETS += $(DEC_LIB)

# The folders are layers: each includes only its own and the ones below it, and
# its objects refer to no symbol of a layer above (nm); the programs include only
# decoder/zvmdec.h.
.PHONY: check-layers
check-layers: $(DEC_OBJS)
	@python3 scripts/check-layers.py $(BUILD)/decoder $(DEC_OBJS)
CHECK_TARGETS += check-layers
