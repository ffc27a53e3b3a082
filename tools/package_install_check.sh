#!/usr/bin/env bash
# The Debian package as a user gets it: builds napkin_<version>_<arch>.deb from the build folder
# with CPack, installs it with apt-get (which brings in its Depends), runs the installed
# /usr/bin/napkin (--version, then headless exports whose seven PNGs and seven SVGs must appear),
# and removes the package again, also when a step fails. Needs root or sudo. `bash tools/setup.sh
# test` runs it after the tests; alone: bash tools/package_install_check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
export DEBIAN_FRONTEND=noninteractive

work=$(mktemp -d)
# apt-get reads a local package as its download user (_apt), who must be able to reach it.
chmod 755 "$work"
installed=0
cleanup() {
    if [ "$installed" = 1 ]; then
        $sudo apt-get remove -y -qq napkin >/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "napkin package: FAIL: $*" >&2; exit 1; }

if dpkg-query -W -f='${Status}' napkin 2>/dev/null | grep -q "install ok installed"; then
    echo "napkin package: a napkin package is installed already; this check replaces it and removes it"
fi

(cd "$build" && cpack -G DEB -B "$work/package" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
debs=("$work"/package/napkin_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one napkin_*.deb, found: ${debs[*]}"
deb=${debs[0]}
chmod 644 "$deb"
echo "napkin package: installing $(basename "$deb")"
installed=1
$sudo apt-get install -y -qq "$deb" >/dev/null
dpkg-query -W -f='${Status}' napkin | grep -q "install ok installed" || fail "apt-get did not install napkin"

[ -x /usr/bin/napkin ] || fail "no /usr/bin/napkin"
version=$(/usr/bin/napkin --version)
echo "napkin package: /usr/bin/napkin --version: $version"
[ "$version" = "napkin $(dpkg-query -W -f='${Version}' napkin)" ] || fail "--version says '$version'"

# The installed copy, headless, as a script would run it.
QT_QPA_PLATFORM=offscreen /usr/bin/napkin export --size 800x500 --out "$work/png" >/dev/null
QT_QPA_PLATFORM=offscreen /usr/bin/napkin export --size 800x500 --format svg --out "$work/svg" >/dev/null
for chart in dashboard memory time roofline steptime layout budget; do
    [ "$(head -c 4 "$work/png/$chart.png" | tail -c 3)" = PNG ] || fail "$chart.png is missing or not a PNG"
    grep -q "<text" "$work/svg/$chart.svg" || fail "$chart.svg is missing or has no text"
done
echo "napkin package: the installed napkin exported seven PNGs and seven SVGs"

$sudo apt-get remove -y -qq napkin >/dev/null
installed=0
[ ! -e /usr/bin/napkin ] || fail "/usr/bin/napkin is still there after apt-get remove"
echo "napkin package: removed; checked $(basename "$deb")"
