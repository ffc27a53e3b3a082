#!/usr/bin/env bash
# Fault tests of the real `napkin` binary that need no root: a full disk (ulimit -f), a FIFO,
# endless devices, a read-only folder, a 100 MB file and user text with newlines. Each case
# must end with status 2, exactly one line on stderr, nothing hung, and every previous file
# byte-for-byte intact with no temporary left beside it.
#   faults.sh NAPKIN_BINARY
set -uo pipefail
napkin=${1:?usage: faults.sh NAPKIN_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
failures=0
passes=0

# run NAME EXPECTED_SUBSTRING COMMAND...: status 2, one stderr line containing the substring.
run() {
    local name=$1 expected=$2
    shift 2
    local err status
    err=$(timeout 20 "$@" 2>&1 >/dev/null)
    status=$?
    local lines
    lines=$(printf '%s' "$err" | grep -c '')
    if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && [[ "$err" == *"$expected"* ]]; then
        passes=$((passes + 1))
        echo "PASS: $name"
    else
        failures=$((failures + 1))
        echo "FAIL: $name: status $status (want 2), $lines stderr line(s) (want 1), want '$expected' in:"
        printf '%s\n' "$err" | sed 's/^/    /'
    fi
}

check() {  # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then
        passes=$((passes + 1))
        echo "PASS: $name"
    else
        failures=$((failures + 1))
        echo "FAIL: $name"
    fi
}

# A previous export that every failed one must leave untouched.
out="$work/charts"
"$napkin" export --out "$out" --size 640x400 >/dev/null 2>&1 || { echo "FAIL: first export"; exit 1; }
sums_before=$(cd "$out" && sha256sum memory.png time.png roofline.png dashboard.png)
no_partials() { [ -z "$(find "$1" -name '*.napkin-partial')" ]; }

# Full disk: a 28 KiB file-size limit lets some PNGs through and not others.
run "export under ulimit -f 28" "File too large" bash -c "ulimit -f 28; exec \"$napkin\" export --out \"$out\" --preset llama2-7b"
run "export under ulimit -f 0" "File too large" bash -c "ulimit -f 0; exec \"$napkin\" export --out \"$out\""
check "previous PNGs intact after failed exports" test "$(cd "$out" && sha256sum memory.png time.png roofline.png dashboard.png)" = "$sums_before"
check "no temporaries left by failed exports" no_partials "$out"

# A failed export into a fresh folder leaves no file under a final name.
fresh="$work/fresh"
run "export into a fresh folder under ulimit -f 28" "File too large" bash -c "ulimit -f 28; exec \"$napkin\" export --out \"$fresh\""
check "no PNG under a final name after a failed export" test -z "$(find "$fresh" -type f 2>/dev/null)"

# Reading: FIFOs and devices are refused by type, without blocking; big files by size.
mkfifo "$work/pipe.json"
run "scenario is a FIFO with no writer" "it is a FIFO, not a regular file" "$napkin" report --scenario "$work/pipe.json"
run "scenario is /dev/zero" "it is a device, not a regular file" "$napkin" report --scenario /dev/zero
run "scenario is /dev/urandom" "it is a device, not a regular file" "$napkin" report --scenario /dev/urandom
truncate -s 100M "$work/big.json"
run "scenario is a 100 MB file" "larger than the 1048576-byte limit" "$napkin" report --scenario "$work/big.json"
run "scenario is a folder" "it is a folder, not a regular file" "$napkin" report --scenario "$work"
run "empty scenario option" "--scenario: needs a value" "$napkin" report --scenario ""
run "option taken as a folder" "--out: needs a value, not the option '--json'" "$napkin" export --out --json

# User text with newlines comes back on one line.
printf '{"layers\\n": 1}' > "$work/newline-key.json"
run "scenario key with a newline" 'layers\n' "$napkin" report --scenario "$work/newline-key.json"
printf '{"recompute": "all\\nof it"}' > "$work/newline-value.json"
run "scenario value with a newline" 'all\nof it' "$napkin" report --scenario "$work/newline-value.json"
run "option value with a newline" "--gpu:" "$napkin" report --gpu $'h100\nsxm'

# A read-only folder. Root ignores permission bits, so as root the case runs as nobody.
readonly_dir="$work/readonly"
mkdir -p "$readonly_dir"
cp "$out/memory.png" "$readonly_dir/"
chmod 555 "$readonly_dir"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
run "export into a read-only folder" "Permission denied" "${as_user[@]}" "$napkin" export --out "$readonly_dir"
check "file in the read-only folder intact" cmp -s "$out/memory.png" "$readonly_dir/memory.png"

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
