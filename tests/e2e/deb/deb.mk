# make check-deb: build the Debian packages (as make deb does), install them on
# this machine, run the installed collectd with the installed plugins against
# the installed zvmsim, then purge them and check that nothing is left
# (tests/e2e/deb/run.sh; needs root; about 90 s, most of it the package
# build).  The build skips dh_auto_test (nocheck): those are check-unit's
# tests, and make deb runs them.  Included from tests/e2e/module.mk.
.PHONY: check-deb
check-deb:
	@DEB_BUILD_OPTIONS="nocheck $(DEB_BUILD_OPTIONS)" scripts/mkdeb.sh $(DEB_DIR)
	tests/e2e/deb/run.sh . $(DEB_DIR)
CHECK_TARGETS += check-deb
