# make check-zvmmon-top: zvmmon top (built with ASan and UBSan) against
# zvmsim's ground truth: batch mode on MONWRITE files, the full screen under
# tmux (keys sent, the screen read back), the live device on zvmsim's FUSE
# monreader (tests/e2e/top/run.sh, about 10 s after the build).
# Included from zvmmon/module.mk; zvmsim's path spelt out (its module.mk comes later).
.PHONY: check-zvmmon-top
check-zvmmon-top:
	@command -v tmux >/dev/null || { echo "check-zvmmon-top: tmux missing (make deps)"; exit 1; }
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/top-asan SAN=1 build/top-asan/zvmmon/zvmmon
	@$(MAKE) --no-print-directory $(BUILD)/zvmsim
	tests/e2e/top/run.sh build/top-asan/zvmmon/zvmmon $(BUILD)/zvmsim build/top-asan/e2e/top
CHECK_TARGETS += check-zvmmon-top
