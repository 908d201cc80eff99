#!/usr/bin/env python3
"""Generate Tests/MapSimStyleTests/Expressions/Fixtures/expression-cases.jsonl from the style spec's
expression test cases.

The cases are MapLibre's (maplibre-style-spec v24.8.0, test/integration/expression/tests),
BSD-3-Clause: the notice is copied beside the generated file. Every case is kept, the legacy
function cases too: one JSON line per case with its name, its expression, property spec, inputs
and global state, and what the reference gave (`expected`: the compiled result and the outputs).
`mapsim eval --cases` reads the same lines (it ignores `name` and `expected`). The generated file
is committed; tests never read ../shared. Run from the repository root:

    python3 scripts/generate-expression-cases.py [path/to/expression-tests] [path/to/LICENSE.txt]
"""
import glob
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "style-spec", "expression-tests")
LICENSE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(CASES, "..", "LICENSE.txt")
OUT = os.path.join(HERE, "..", "Tests", "MapSimStyleTests", "Expressions", "Fixtures")
KEYS = ["expression", "propertySpec", "inputs", "globalState", "expected"]


def main():
    lines = []
    for path in sorted(glob.glob(os.path.join(CASES, "**", "test.json"), recursive=True)):
        test = json.load(open(path, encoding="utf-8"))
        case = {"name": os.path.relpath(os.path.dirname(path), CASES).replace(os.sep, "/")}
        for key in KEYS:
            if key in test:
                case[key] = test[key]
        lines.append(json.dumps(case, ensure_ascii=False, separators=(",", ":")))
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "expression-cases.jsonl"), "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    old = os.path.join(OUT, "expression-cases.json")
    if os.path.exists(old):
        os.remove(old)
    shutil.copyfile(LICENSE, os.path.join(OUT, "LICENSE-maplibre-style-spec.txt"))
    print(f"{len(lines)} cases written to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
