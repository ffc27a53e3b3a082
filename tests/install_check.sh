#!/usr/bin/env bash
# Installs Napkin into a temporary prefix and validates what a desktop needs: the executable,
# the .desktop entry (desktop-file-validate), the icon and the AppStream metainfo (appstreamcli).
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/napkin"
"$prefix/bin/napkin" --version
test -s "$prefix/share/icons/hicolor/scalable/apps/napkin.svg"
desktop-file-validate "$prefix/share/applications/napkin.desktop"
appstreamcli validate --no-net "$prefix/share/metainfo/io.github.napkin.Napkin.metainfo.xml"
echo "installed and validated under $prefix"
