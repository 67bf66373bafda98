# make check-deb: build the Debian packages (make deb), install them on this
# machine, run the installed collectd with the installed plugins against the
# installed zvmsim, then purge them and check that nothing is left
# (tests/e2e/deb/run.sh; needs root; about a minute and a half, most of it the
# package build).  Included from tests/e2e/module.mk.
.PHONY: check-deb
check-deb: deb
	tests/e2e/deb/run.sh . $(DEB_DIR)
CHECK_TARGETS += check-deb
