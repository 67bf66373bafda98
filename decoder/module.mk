# The decoder library: no collectd, no FUSE.  Every decoder/*.c is part of it.
DEC_SRCS := $(sort $(wildcard decoder/*.c))
DEC_OBJS := $(patsubst decoder/%.c,$(BUILD)/decoder/%.o,$(DEC_SRCS))
DEC_LIB  := $(BUILD)/libzvmdec.a

$(BUILD)/decoder/%.o: decoder/%.c $(wildcard decoder/*.h decoder/*.def)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(YAJL_CFLAGS) -fPIC -c -o $@ $<

$(DEC_LIB): $(DEC_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

ALL_TARGETS += $(DEC_LIB)
