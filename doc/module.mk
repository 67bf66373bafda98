# make check-readme: every relative link in every tracked Markdown file
# (README.md, doc/, ...) leads to a tracked file, and every #anchor into a
# Markdown file to one of its headings.  The self-test first proves the
# checker fails on broken links, so a pass means something.
.PHONY: check-readme
check-readme:
	@command -v python3 >/dev/null || { echo "check-readme: python3 missing (make deps)"; exit 1; }
	@tests/links/selftest.sh scripts/check-links.py
	@python3 scripts/check-links.py

CHECK_TARGETS += check-readme
