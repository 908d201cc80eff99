#!/usr/bin/env python3
"""Generate Tests/MapSimStyleTests/Validation/Fixtures/expression-cases.json from the style spec's
expression test cases.

The cases are MapLibre's (maplibre-style-spec v24.8.0, test/integration/expression/tests),
BSD-3-Clause: the notice is copied beside the generated file. Only what a validator is judged on is
kept: the expression, its property spec, and the compiled result (success with type and
feature/zoom constancy, or the errors with their keys). Evaluation outputs are dropped, and so are
the legacy-function cases, which test function-to-expression conversion, not validation. The
generated file is committed; tests never read ../shared. Run from the repository root:

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
OUT = os.path.join(HERE, "..", "Tests", "MapSimStyleTests", "Validation", "Fixtures")


def main():
    cases = []
    for path in sorted(glob.glob(os.path.join(CASES, "**", "test.json"), recursive=True)):
        name = os.path.relpath(os.path.dirname(path), CASES)
        if name.split(os.sep)[0] == "legacy":
            continue
        test = json.load(open(path))
        case = {"name": name.replace(os.sep, "/"), "expression": test["expression"]}
        if "propertySpec" in test:
            case["propertySpec"] = test["propertySpec"]
        case["compiled"] = test["expected"]["compiled"]
        cases.append(case)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "expression-cases.json"), "w") as out:
        out.write("[\n" + ",\n".join(json.dumps(c, sort_keys=True, separators=(",", ":")) for c in cases) + "\n]\n")
    shutil.copyfile(LICENSE, os.path.join(OUT, "LICENSE-maplibre-style-spec.txt"))
    print(f"{len(cases)} cases written to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
