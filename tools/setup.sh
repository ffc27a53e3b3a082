#!/usr/bin/env bash
# Napkin set-up on Debian bookworm: installs the Debian packages that are missing, builds,
# then either runs the app (`run`, the default) or every test (`test`).
#   bash tools/setup.sh run [napkin options]     bash tools/setup.sh test
# `test` runs every test twice: on the release build, then on the sanitizer build (tools/sanitize.sh),
# then builds the Debian package and tries it installed (tools/package_install_check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
[ $# -gt 0 ] && shift

packages=(cmake make g++ pkgconf qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev fonts-dejavu-core)
if [ "$mode" = test ]; then
    # The ground-truth harness (tests/validation) runs a real PyTorch model on the CPU;
    # desktop-file-utils and appstream validate the installed desktop entry and metainfo.
    # xvfb and xauth give the X11 GUI tests a real display; clang and its runtime build the
    # sanitizer and libFuzzer targets (tools/sanitize.sh). tesseract-ocr reads exported captions
    # back; poppler-utils (pdftotext, pdfinfo, pdfimages) reads the exported PDFs. dpkg-dev
    # (dpkg-shlibdeps) and file let `cpack -G DEB` find the package's Depends.
    packages+=(python3-torch desktop-file-utils appstream xvfb xauth clang libclang-rt-14-dev tesseract-ocr
               poppler-utils dpkg-dev file)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "napkin setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

case "$mode" in
run)
    exec build/bin/napkin "$@"
    ;;
test)
    (cd build && ctest --output-on-failure --timeout 600)
    # The same tests again on the sanitizer build (ASan + UBSan, clang, libFuzzer target).
    bash tools/sanitize.sh
    # The release build as a Debian package: installed with apt-get, run from /usr/bin
    # (--version and a headless export), removed.
    bash tools/package_install_check.sh build
    ;;
*)
    echo "usage: bash tools/setup.sh run|test" >&2
    exit 2
    ;;
esac
