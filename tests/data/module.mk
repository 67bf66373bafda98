# tests/data/: the bundled sample MONWRITE file (make sim-sample writes it).
# make check-sample: it still reads as the zvmsim system of make sim-sample's
# options, in zvmmon and in the demo's replay (tests/data/check-sample.sh).
.PHONY: check-sample
check-sample: $(BUILD)/zvmmon/zvmmon $(ZVM_SO) $(E2E_GEN) $(BUILD)/zvmsim
	@SIM_SAMPLE_OPTS='$(SIM_SAMPLE_OPTS)' tests/data/check-sample.sh $(BUILD)
CHECK_TARGETS += check-sample

# make check-demo: the live demo still prints the figures README.md shows
# (tests/data/check-demo.sh).
.PHONY: check-demo
check-demo: $(ZVM_SO) $(E2E_GEN) $(BUILD)/zvmsim
	@tests/data/check-demo.sh $(BUILD)
CHECK_TARGETS += check-demo
