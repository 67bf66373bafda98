# make check-readme: every relative link in every tracked Markdown file
# (README.md, doc/, ...) leads to a tracked file, and every #anchor into a
# Markdown file to one of its headings; and no tracked file cites a source
# that is not in the repository (the research notes doc/facts/ replaces);
# and no command a document gives loads less than it says (modprobe with
# several modules and no -a: scripts/check-doc-commands.py).
# The self-tests first prove each checker fails on what it must refuse, so a
# pass means something.
.PHONY: check-readme
check-readme:
	@command -v python3 >/dev/null || { echo "check-readme: python3 missing (make deps)"; exit 1; }
	@tests/links/selftest.sh scripts/check-links.py
	@python3 scripts/check-links.py
	@tests/citations/selftest.sh scripts/check-citations.py
	@python3 scripts/check-citations.py
	@python3 scripts/check-doc-commands.py --selftest

CHECK_TARGETS += check-readme

# make check-commits: commit subjects of at most 72 characters and a body
# saying why, for every commit since the rule was made (scripts/check-commits.sh).
.PHONY: check-commits
check-commits:
	@command -v git >/dev/null || { echo "check-commits: git missing"; exit 1; }
	@scripts/check-commits.sh --selftest
	@scripts/check-commits.sh

CHECK_TARGETS += check-commits

# make check-report-table: doc/metrics-cp.md's table of Performance Toolkit's
# reports (issue 53) names only metrics the decoder emits and records the
# registry has, a row served names a metric, and the share under the table is
# the rows' (scripts/check-report-table.py, which proves itself first on
# planted bad tables).  zvmmon's path is spelled out: its module.mk is read
# after this one, too late for a prerequisite.
.PHONY: check-report-table
check-report-table: $(BUILD)/zvmmon/zvmmon
	@command -v python3 >/dev/null || { echo "check-report-table: python3 missing (make deps)"; exit 1; }
	@python3 scripts/check-report-table.py --selftest $(BUILD)/zvmmon/zvmmon doc/metrics-cp.md

CHECK_TARGETS += check-report-table
