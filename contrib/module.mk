# contrib/: examples, dashboards, system integration files and man pages,
# installed to the usual Debian paths; and the forwarding/install tests.
#
# Paths (all below $(DESTDIR)):
#   $(DOCDIR)/                      the user documentation (doc/*.md)
#   $(DOCDIR)/examples/             collectd.conf examples, Grafana dashboards,
#                                   Prometheus configuration and rules
#                                   (examples/prometheus/), and a copy of every
#                                   system file below (examples/system/<dir>/<file>)
#   $(MANDIR)/man5                  collectd-zvm(5), and any man page written
#                                   as POD (man/NAME.N.pod)
# System integration (INSTALL_SYSCONF=1, the default; 0 leaves it out, e.g.
# on a machine that is not a z/VM guest):
#   $(UDEVRULESDIR)/90-collectd-zvm.rules      default /lib/udev/rules.d
#   $(MODPROBEDIR)/collectd-zvm.conf           default /etc/modprobe.d
#   $(SYSTEMDDROPINDIR)/zvm.conf               default /etc/systemd/system/
#                                              collectd.service.d
#   $(MODULESLOADDIR)/collectd-zvm.conf        default empty: not installed
# Each directory set empty leaves its file out.  The modules-load.d file is
# an example only, as in the Debian package (debian/README.Debian): both
# drivers refuse to load outside z/VM, so systemd-modules-load.service would
# fail at every boot of any other machine, and on a z/VM guest the drop-in
# loads them when collectd starts.  Opt in with
# MODULESLOADDIR=/etc/modules-load.d (README.md).
# Installed by other modules (one owner per file, so that make -j install
# never writes a file twice at once): the plugins and $(PREFIX)/share/
# collectd-zvm/types.db (plugin/), zvmmon and zvmmon(1) (zvmmon/), zvmsim(1)
# (zvmsim/).  check-install checks that every one of them is installed.
DOCDIR          ?= $(PREFIX)/share/doc/collectd-zvm
MANDIR          ?= $(PREFIX)/share/man
SYSCONFDIR      ?= /etc
UDEVRULESDIR    ?= /lib/udev/rules.d
MODULESLOADDIR  ?=
MODPROBEDIR     ?= $(SYSCONFDIR)/modprobe.d
SYSTEMDDROPINDIR ?= $(SYSCONFDIR)/systemd/system/collectd.service.d
INSTALL_SYSCONF ?= 1
INSTALL         ?= install

CONTRIB_DOCS     := $(sort $(wildcard doc/*.md))
# The demo configuration is a template for `make demo` (placeholders), not an example.
CONTRIB_EXAMPLES := $(sort $(filter-out contrib/collectd-zvm-demo.conf,$(wildcard contrib/*.conf)) \
                    contrib/many-systems.passwd)
CONTRIB_GRAFANA  := $(sort $(wildcard contrib/grafana/*.json))
# Prometheus: the scrape job with its relabelling, the recording rules and the
# alerts (their promtool tests in contrib/prometheus/tests/ stay here).
CONTRIB_PROM     := $(sort $(wildcard contrib/prometheus/*.yml))
CONTRIB_SYSFILES := contrib/udev/90-collectd-zvm.rules \
                    contrib/modules-load.d/collectd-zvm.conf \
                    contrib/modprobe.d/collectd-zvm.conf \
                    contrib/systemd/collectd.service.d/zvm.conf
# Man pages written as POD (man/NAME.N.pod) become $(BUILD)/man/NAME.N with
# pod2man (perl, which build-essential brings); roff pages in man/ belong to
# the module of their program (zvmmon/, zvmsim/), except section 5.
MAN_PODS := $(sort $(wildcard man/*.pod))
MAN_GEN  := $(patsubst man/%.pod,$(BUILD)/man/%,$(MAN_PODS))
CONTRIB_MAN1 := $(sort $(filter %.1,$(MAN_GEN)))
CONTRIB_MAN5 := $(sort $(wildcard man/*.5) $(filter %.5,$(MAN_GEN)))

$(BUILD)/man/%: man/%.pod
	@mkdir -p $(@D)
	pod2man --utf8 --section=$(subst .,,$(suffix $*)) --name=$(basename $(notdir $*)) \
		--center="collectd-zvm" --release="collectd-zvm" --date="$(MAN_DATE)" $< $@

# A fixed date keeps the pages reproducible; override to stamp a release.
MAN_DATE ?= 2026-11-22

ALL_TARGETS += $(MAN_GEN)

.PHONY: install-contrib
install-contrib: $(MAN_GEN)
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/examples/grafana $(DESTDIR)$(DOCDIR)/examples/system \
		$(DESTDIR)$(DOCDIR)/examples/prometheus
	$(INSTALL) -m 644 $(CONTRIB_DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 $(CONTRIB_EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/
	$(INSTALL) -m 644 $(CONTRIB_GRAFANA) $(DESTDIR)$(DOCDIR)/examples/grafana/
	$(INSTALL) -m 644 $(CONTRIB_PROM) $(DESTDIR)$(DOCDIR)/examples/prometheus/
	for f in $(patsubst contrib/%,%,$(CONTRIB_SYSFILES)); do \
		$(INSTALL) -D -m 644 contrib/$$f $(DESTDIR)$(DOCDIR)/examples/system/$$f || exit 1; done
ifneq ($(CONTRIB_MAN1),)
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(CONTRIB_MAN1) $(DESTDIR)$(MANDIR)/man1/
endif
ifneq ($(CONTRIB_MAN5),)
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man5
	$(INSTALL) -m 644 $(CONTRIB_MAN5) $(DESTDIR)$(MANDIR)/man5/
endif
ifeq ($(INSTALL_SYSCONF),1)
	$(call contrib_sysfile,udev/90-collectd-zvm.rules,$(UDEVRULESDIR),90-collectd-zvm.rules)
	$(call contrib_sysfile,modules-load.d/collectd-zvm.conf,$(MODULESLOADDIR),collectd-zvm.conf)
	$(call contrib_sysfile,modprobe.d/collectd-zvm.conf,$(MODPROBEDIR),collectd-zvm.conf)
	$(call contrib_sysfile,systemd/collectd.service.d/zvm.conf,$(SYSTEMDDROPINDIR),zvm.conf)
endif

# contrib_sysfile,SOURCE,DIR,NAME: contrib/SOURCE as DIR/NAME, nothing when DIR is empty.
contrib_sysfile = $(if $(strip $(2)),$(INSTALL) -D -m 644 contrib/$(1) $(DESTDIR)$(strip $(2))/$(3))

INSTALL_TARGETS += install-contrib

# make check-prometheus-rules: the shipped Prometheus files pass promtool's
# checks (the configuration with its rule files, the rules), and the
# recording rules and alerts give what contrib/prometheus/tests/ expects of
# written series (promtool test rules).  The live side, on zvmsim's data in
# a real Prometheus, is check-prometheus (tests/e2e/fwd/).
.PHONY: check-prometheus-rules
check-prometheus-rules:
	@command -v promtool >/dev/null || { echo "check-prometheus-rules: promtool missing: install the Debian package prometheus (make deps)"; exit 1; }
	@promtool check config contrib/prometheus/prometheus.yml
	@promtool check rules $(filter-out contrib/prometheus/prometheus.yml,$(CONTRIB_PROM))
	@promtool test rules contrib/prometheus/tests/*.test.yml
CHECK_TARGETS += check-prometheus-rules

# make check-man: zvmsim(1) and doc/zvmsim.md list every control command
# zvmsim takes, each man page's SEE ALSO names the others, and
# collectd-zvm(5) says what types.db holds (scripts/check-man.py).
.PHONY: check-man
check-man:
	@python3 scripts/check-man.py
CHECK_TARGETS += check-man

# make deb [ARCH=s390x]: the Debian packages collectd-zvm and collectd-zvm-sim
# (debian/, built by the install target above), checked by lintian, in
# $(DEB_DIR).  make check-deb (tests/e2e/deb/) installs and tries them.
DEB_DIR ?= $(BUILD)/deb
ARCH    ?=
.PHONY: deb
deb:
	@scripts/mkdeb.sh $(DEB_DIR) $(ARCH)

include tests/e2e/fwd/fwd.mk
