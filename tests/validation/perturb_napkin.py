#!/usr/bin/python3
"""A stand-in for the napkin binary that breaks numbers on purpose.

It runs the real binary ($NAPKIN_REAL, default build/bin/napkin under the repository root)
and, for `report --json`, changes the JSON values named in $NAPKIN_PERTURB before printing:

    NAPKIN_PERTURB="params.total+1,flops.forward_per_sequence.mlp*1.05"

Each item is a dotted JSON path, then "+" or "*", then a number.  Use it as NAPKIN to check
that run_validation.py notices a broken formula:

    NAPKIN=tests/validation/perturb_napkin.py NAPKIN_REAL=/path/to/napkin \\
    NAPKIN_PERTURB="memory.per_gpu.grads+2" /usr/bin/python3 tests/validation/run_validation.py
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ITEM = re.compile(r"^([A-Za-z0-9_.]+)([+*])(-?[0-9.eE+-]+)$")


def perturb(report, spec):
    for item in filter(None, (s.strip() for s in spec.split(","))):
        m = ITEM.match(item)
        if not m:
            sys.exit(f"perturb_napkin: bad NAPKIN_PERTURB item {item!r}")
        path, op, num = m.group(1).split("."), m.group(2), float(m.group(3))
        node = report
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = node[path[-1]] + num if op == "+" else node[path[-1]] * num
    return report


def main():
    real = os.environ.get("NAPKIN_REAL") or str(Path(__file__).resolve().parents[2] / "build" / "bin" / "napkin")
    args = sys.argv[1:]
    p = subprocess.run([real, *args], capture_output=True, text=True)
    if p.returncode != 0 or args[:2] != ["report", "--json"]:
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        return p.returncode
    report = perturb(json.loads(p.stdout), os.environ.get("NAPKIN_PERTURB", ""))
    json.dump(report, sys.stdout, indent=4)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
