#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make deb [ARCH=s390x]: collectd-zvm's Debian packages, then lintian on them.
# dpkg-buildpackage writes its results beside the source tree, so it runs in
# a copy of the tree (the files git tracks or would track, as they are now)
# below OUTDIR, and the results are moved up into OUTDIR.
# usage: mkdeb.sh OUTDIR [ARCH]
set -euo pipefail
OUT=$1
ARCH=${2:-}
fail() { echo "mkdeb: $*" >&2; exit 1; }
for t in dpkg-buildpackage dh lintian git; do
	command -v "$t" >/dev/null || fail "$t missing (make deps installs dpkg-dev, debhelper, lintian)"
done

NATIVE=$(dpkg --print-architecture)
HOST=${ARCH:-$NATIVE}
VERSION=$(dpkg-parsechangelog -l debian/changelog -S Version)
WORK="$OUT/src-$HOST"
SRC="$WORK/collectd-zvm-$VERSION"
rm -rf "$WORK"
mkdir -p "$SRC"
git ls-files -z -co --exclude-standard | while IFS= read -r -d '' f; do
	[ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -xf - -C "$SRC"

opts=(-b -us -uc)
profiles=()
if [ "$HOST" != "$NATIVE" ]; then
	opts+=(-a "$HOST")
	# A cross build cannot run the target's test programs.
	profiles+=(cross nocheck)
	export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} nocheck"
	command -v "$(dpkg-architecture -a "$HOST" -q DEB_HOST_GNU_TYPE 2>/dev/null)-gcc" >/dev/null ||
		fail "no cross compiler for $HOST"
	installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true) == "install ok installed" ]]; }
	if ! installed "libfuse3-dev:$HOST"; then
		echo "mkdeb: libfuse3-dev:$HOST is not installed: building without collectd-zvm-sim" \
			"(profile pkg.collectd-zvm.nosim; see debian/README.Debian)"
		profiles+=(pkg.collectd-zvm.nosim)
	fi
	if ! installed "libncurses-dev:$HOST"; then
		echo "mkdeb: libncurses-dev:$HOST is not installed: zvmmon top without its full screen" \
			"(profile pkg.collectd-zvm.nocurses; see debian/README.Debian)"
		profiles+=(pkg.collectd-zvm.nocurses)
	fi
fi
[ ${#profiles[@]} -eq 0 ] || opts+=(-P"$(IFS=,; echo "${profiles[*]}")")
case " ${DEB_BUILD_OPTIONS:-} " in *" parallel="*) ;; *) export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=$(nproc)" ;; esac
# dpkg warns about the empty word a leading space makes.
DEB_BUILD_OPTIONS=$(echo $DEB_BUILD_OPTIONS)

echo "mkdeb: dpkg-buildpackage ${opts[*]} (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)"
(cd "$SRC" && nice dpkg-buildpackage "${opts[@]}") >"$OUT/build-$HOST.log" 2>&1 ||
	{ tail -40 "$OUT/build-$HOST.log"; rm -rf "$WORK"; fail "dpkg-buildpackage failed (log: $OUT/build-$HOST.log)"; }
CHANGES="collectd-zvm_${VERSION}_$HOST.changes"
for f in $(awk '/^Files:/ { on = 1; next } /^[^ ]/ { on = 0 } on { print $5 }' "$WORK/$CHANGES") "$CHANGES"; do
	mv -f "$WORK/$f" "$OUT/"
done
rm -rf "$WORK"

# Errors fail the build; warnings and infos are printed (each one is fixed
# or carries an override with its reason in debian/*.lintian-overrides).
lintian --fail-on error --info --display-info "$OUT/$CHANGES" >"$OUT/lintian-$HOST.log" 2>&1 || {
	cat "$OUT/lintian-$HOST.log"
	fail "lintian reports errors"
}
sed 's/^/lintian: /' "$OUT/lintian-$HOST.log"
echo "lintian: $(grep -c '^E:' "$OUT/lintian-$HOST.log" || true) errors," \
	"$(grep -c '^W:' "$OUT/lintian-$HOST.log" || true) warnings," \
	"$(grep -c '^I:' "$OUT/lintian-$HOST.log" || true) infos," \
	"$(grep -c '^N:' "$OUT/lintian-$HOST.log" || true) notes"
for d in "$OUT"/*_"$VERSION"_"$HOST".deb; do
	echo "mkdeb: $(basename "$d"): $(stat -c %s "$d") bytes," \
		"installed $(dpkg-deb -f "$d" Installed-Size) KiB"
done

# Every path collectd-zvm(5) names under FILES is in the package collectd-zvm,
# unless its item says it comes from "make install" only: the page is
# installed by the package, so it must describe the package's files.
dpkg-deb -c "$OUT/collectd-zvm_${VERSION}_$HOST.deb" | awk '{ sub(/^\./, "", $6); print $6 }' >"$OUT/contents-$HOST.txt"
python3 - man/collectd-zvm.5.pod "$OUT/contents-$HOST.txt" <<'PY' || fail "collectd-zvm(5) FILES names what the package does not hold"
import re, sys
pod = open(sys.argv[1]).read()
files = pod.split("=head1 FILES", 1)[1].split("\n=head1 ", 1)[0]
have = set(l.strip() for l in open(sys.argv[2]))
bad = 0
for item in files.split("=item ")[1:]:
    head, _, text = item.partition("\n")
    if "C<make install> only" in " ".join(text.split()):
        continue
    for path in re.findall(r"F<(/[^>]+)>", head):
        if not (path in have or (path.endswith("/") and any(h.startswith(path) for h in have))):
            print("mkdeb: collectd-zvm(5) FILES names %s, which the package does not hold" % path)
            bad += 1
sys.exit(1 if bad else 0)
PY
echo "mkdeb: every file collectd-zvm(5) names is in collectd-zvm"
