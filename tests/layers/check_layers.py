#!/usr/bin/env python3
"""The house's arrows, checked on every #include (core/README.md and ui/README.md draw the map).

- Each folder sits in a layer; a file may include its own folder and the layers below it,
  never a layer above it or a sibling of its own layer.
- No two units include each other, directly or through others: a unit is a .h with its .cpp
  ("core/model/fields"), and a cycle of units is an arrow back up even inside one folder.

Prints every breach and exits 1; prints the map it checked and exits 0 when there are none.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Layers, lowest first. Folders in one tuple are siblings: neither includes the other.
LAYERS = [
    ("core/model",),
    ("core/workload",),
    ("core/run",),
    ("core/report",),
    ("core/io", "core/text"),
    ("ui/widgets",),
    ("ui/state",),
    ("ui/views", "ui/controls"),
    ("ui/shell",),
    ("app",),
]
RANK = {folder: i for i, group in enumerate(LAYERS) for folder in group}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    for top in ("core", "ui", "app"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith((".h", ".cpp")):
                    yield os.path.relpath(os.path.join(dirpath, name), ROOT)


def folder_of(path):
    return os.path.dirname(path)


def unit_of(path):
    return os.path.splitext(path)[0]


def main():
    problems = []
    edges = {}
    files = list(sources())
    for path in files:
        folder = folder_of(path)
        if folder not in RANK:
            problems.append(f"{path}: folder {folder} is in no layer (add it to LAYERS and the README)")
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            if inc.endswith(".moc"):
                continue
            if not os.path.exists(os.path.join(ROOT, inc)):
                problems.append(f"{path}: includes \"{inc}\", which is not a path from the project root")
                continue
            target = folder_of(inc)
            if target not in RANK:
                problems.append(f"{path}: includes {inc} from outside the layers")
                continue
            if target != folder and RANK[target] >= RANK[folder]:
                kind = "a sibling" if RANK[target] == RANK[folder] else "a layer above"
                problems.append(f"{path}: includes {inc}, {kind} ({target} over {folder})")
            if unit_of(inc) != unit_of(path):
                edges.setdefault(unit_of(path), set()).add(unit_of(inc))

    # Cycles among units (depth-first search, reporting each cycle once by its members).
    seen_cycles = set()
    state = {}

    def visit(unit, stack):
        state[unit] = 1
        stack.append(unit)
        for nxt in sorted(edges.get(unit, ())):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                key = frozenset(cycle)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    problems.append("units include each other: " + " -> ".join(cycle))
            elif state.get(nxt) is None:
                visit(nxt, stack)
        stack.pop()
        state[unit] = 2

    for unit in sorted(edges):
        if state.get(unit) is None:
            visit(unit, [])

    if problems:
        print("\n".join(problems))
        print(f"{len(problems)} breaches of the layers")
        return 1
    for i, group in enumerate(LAYERS):
        print(f"layer {i}: {', '.join(group)}")
    print(f"{len(files)} files, no include against the layers, no cycle among units")
    return 0


if __name__ == "__main__":
    sys.exit(main())
