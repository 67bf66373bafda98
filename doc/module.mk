# README.md is generated from doc/README.in.md and the doc/*.md it includes.
.PHONY: readme check-readme
readme:
	python3 scripts/mkreadme.py doc/README.in.md > README.md

check-readme:
	@python3 scripts/mkreadme.py doc/README.in.md | diff -u README.md - >/dev/null \
		|| { echo "README.md is out of date with doc/: run make readme"; exit 1; }
	@echo "README.md matches doc/"

CHECK_TARGETS += check-readme
