#!/usr/bin/env bash
# Builds the Debian package with CPack into a temporary folder (the build folder is left as it
# is) and checks it: its file name, exactly the four files install() puts in place under /usr,
# the control fields, and a Depends found by dpkg-shlibdeps that names the real packages of the
# Qt libraries the executable links, every one of them known to dpkg here.
#   bash tests/package_check.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
for tool in cpack dpkg-deb dpkg-shlibdeps file; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is needed (Debian packages cmake, dpkg-dev, file; tools/setup.sh test installs them)"; exit 1; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; fail "cpack -G DEB"; }

version=$("$build/bin/napkin" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
deb="$out/napkin_${version}_${arch}.deb"
[ -f "$deb" ] || fail "no $(basename "$deb") among: $(ls "$out")"
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

# Exactly the installed files, nothing else (no tests, no static libraries), the executable executable.
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $1, $NF}')
expected="-rwxr-xr-x ./usr/bin/napkin
-rw-r--r-- ./usr/share/applications/napkin.desktop
-rw-r--r-- ./usr/share/icons/hicolor/scalable/apps/napkin.svg
-rw-r--r-- ./usr/share/metainfo/io.github.napkin.Napkin.metainfo.xml"
[ "$(sort <<<"$files")" = "$(sort <<<"$expected")" ] || fail "contents differ:
$files
expected:
$expected"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = napkin ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', napkin --version says $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)'"
[ "$(field Section)" = science ] || fail "Section is '$(field Section)'"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
# Read the whole field before taking its first line: with pipefail, `dpkg-deb | head -1` fails
# whenever head exits before dpkg-deb has written the rest (SIGPIPE), which depends on timing.
description=$(field Description)
summary=${description%%$'\n'*}
[[ $summary == *roofline* ]] || fail "Description's first line: $summary"

depends=$(field Depends)
echo "Depends: $depends"
# The Qt libraries the executable links, by their Debian package names, each with a minimum version.
for p in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6 libc6 libstdc++6; do
    name=$(sed 's/[+.]/\\&/g' <<<"$p")
    grep -Eq "(^|, )$name \(>= [^)]+\)" <<<"$depends" || fail "Depends does not name $p with a version: $depends"
done
# Every name in Depends and Recommends is a real package: dpkg knows it (the build needed them all).
for p in $( (field Depends; echo ,; field Recommends) | tr ',|' '\n\n' | sed 's/(.*//; s/ //g' | grep -v '^$'); do
    dpkg-query -W "$p" >/dev/null 2>&1 || fail "dpkg knows no package '$p'"
done
echo "package checked: $(basename "$deb")"
