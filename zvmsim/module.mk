# zvmsim: the simulated z/VM (FUSE monreader/monwriter, MONWRITE output, truth).
SIM_SRCS := $(sort $(wildcard zvmsim/*.c))
SIM_OBJS := $(patsubst zvmsim/%.c,$(BUILD)/obj/zvmsim/%.o,$(SIM_SRCS))
SIM_BIN  := $(BUILD)/zvmsim
# The pure logic, for unit tests (no FUSE, no main).
SIM_LIB_SRCS := $(filter-out zvmsim/main.c zvmsim/sim_fuse.c,$(SIM_SRCS))

$(BUILD)/obj/zvmsim/%.o: zvmsim/%.c $(wildcard zvmsim/*.h decoder/*.h decoder/*.def)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(FUSE_CFLAGS) -Izvmsim -c -o $@ $<

$(SIM_BIN): $(SIM_OBJS) $(DEC_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(SIM_OBJS) $(DEC_LIB) $(FUSE_LIBS) -lm

ALL_TARGETS += $(SIM_BIN)

TEST_EXTRA_test_sim_monwriter := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_monreader := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_frames := $(SIM_LIB_SRCS) -Izvmsim

# End-to-end: the decoder against zvmsim (tests/e2e/sim).
SIM_LIB_OBJS := $(patsubst zvmsim/%.c,$(BUILD)/obj/zvmsim/%.o,$(SIM_LIB_SRCS))
SIM_E2E := $(BUILD)/tests/e2e/sim_walk $(BUILD)/tests/e2e/monreader_client $(BUILD)/tests/e2e/monwriter_client

$(BUILD)/tests/e2e/%: tests/e2e/sim/%.c $(SIM_LIB_OBJS) $(DEC_LIB) $(wildcard zvmsim/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Izvmsim -o $@ $< $(SIM_LIB_OBJS) $(DEC_LIB) $(LDFLAGS_ALL) -lm
