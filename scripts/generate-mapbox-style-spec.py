#!/usr/bin/env python3
"""Generate the Mapbox tables of the validator: what Mapbox's style specification has that differs
from MapLibre's v8.json, as a patch.

- Sources/MapSimStyle/Validation/MapboxStyleSpecPatch.swift: the specification Mapbox GL JS 3.0.1
  embeds (`--engine mapbox-gl-js`), read from its bundle.
- Sources/MapSimStyle/Validation/MapboxCurrentStyleSpecPatch.swift (`--current`): Mapbox's current
  specification (`--engine mapbox`, the Mapbox Maps SDK v11), read from mapbox-gl-js's own
  `src/style-spec/reference/v8.json`.

Mapbox's style-spec files (v2 and later) are licensed under the Mapbox Terms of Service, not an
open licence, so neither their v8.json nor a copy of it is kept here. The validator's Mapbox table
is MapLibre's BSD-3-Clause reference (StyleSpecReference.swift) with this patch applied; the patch
holds only the facts a validator must know to accept or refuse a style as Mapbox does — which keys,
layer and source types exist, each property's type, enum values, range, length, default,
property-type, expression inputs and transition — and none of the specification's documentation,
examples or SDK tables. Read sources/mapsim notes for the reasoning (docs/notes in the report).

Input: the specification a Mapbox GL JS build embeds (`JSON.parse('{"$version":8,...}')` in
mapbox-gl.js; its runtime build already drops the documentation), or with `--current` a plain
v8.json, whose documentation (and what else the 3.0.1 runtime build dropped: `experimental`, the
`expression_name` and `$doc` sections) is dropped here the same way. Run from the repository root:

    python3 scripts/generate-mapbox-style-spec.py path/to/mapbox-gl.js [path/to/maplibre/v8.json]
    python3 scripts/generate-mapbox-style-spec.py --current path/to/mapbox/v8.json --version VERSION \
        [path/to/maplibre/v8.json]

VERSION names the specification in the generated file (a release, or `main@COMMIT` for a commit of
mapbox-gl-js's main branch).

The patch is a JSON merge patch over MapLibre's reference without its documentation (a null
removes a key; an object `{"$replace": VALUE}` replaces a value whole, used where the order of keys
must be Mapbox's). Applying it gives Mapbox's table exactly, in Mapbox's order: this script checks so.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATION = os.path.join(HERE, "..", "Sources", "MapSimStyle", "Validation")
DEFAULT_MAPLIBRE = os.path.join(HERE, "..", "..", "shared", "style-spec", "v8.json")
# What the validator never reads: documentation, and the runtime's own bookkeeping.
DROP = {"doc", "sdk-support", "example", "units", "requires", "private", "overridable", "period"}
# What a plain v8.json has besides, that a runtime build drops or the validator never reads:
# flags for documentation and code generation, and two sections of documentation only.
DROP_PLAIN = DROP | {"experimental", "group", "optional", "supported-layer-types", "use-theme"}
DROP_SECTIONS = {"expression_name", "$doc"}


def strip(value, drop=DROP):
    if isinstance(value, dict):
        # `appearance: true` flags a property that appearances may set; the `appearance` section stays.
        return {k: strip(v, drop) for k, v in value.items()
                if k not in drop and not (k == "appearance" and isinstance(v, bool))}
    if isinstance(value, list):
        return [strip(v, drop) for v in value]
    return value


def plain_spec(path):
    """A plain v8.json, stripped as a runtime build strips it."""
    spec = json.load(open(path, encoding="utf-8"))
    return strip({k: v for k, v in spec.items() if k not in DROP_SECTIONS}, DROP_PLAIN)


def embedded_spec(path):
    """The specification a GL JS build parses at start-up, from its JSON.parse('...') literal."""
    text = open(path, encoding="utf-8").read()
    start = text.index("JSON.parse('{\"$version\":8") + len("JSON.parse('")
    chars = []
    i = start
    while text[i] != "'":
        if text[i] == "\\":
            i += 1
            chars.append({"n": "\n", "t": "\t"}.get(text[i], text[i]))
        else:
            chars.append(text[i])
        i += 1
    found = re.search(r'"undefined"!=typeof self\?self:\{\},\w+="([0-9][^"]*)"', text)
    version = found.group(1) if found else "unknown"
    return json.loads("".join(chars)), version


def same(a, b):
    return json.dumps(a) == json.dumps(b)


def apply(base, patch):
    if isinstance(patch, dict) and "$replace" in patch:
        return patch["$replace"]
    if not isinstance(patch, dict) or not isinstance(base, dict):
        return patch
    out = dict(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = apply(base[key], value) if key in base else value
    return out


def diff(base, target, ordered=True):
    """The patch from base to target; whole (`$replace`) where keys would come out in another order."""
    if not (isinstance(base, dict) and isinstance(target, dict)):
        return target
    patch = {key: None for key in base if key not in target}
    for key, value in target.items():
        if key not in base:
            patch[key] = value
        elif not same(base[key], value):
            patch[key] = diff(base[key], value)
    result = apply(base, patch)
    if same(result, target) or (not ordered and result == target):
        return patch
    return {"$replace": target}


def make_patch(mapbox, maplibre):
    """The patch from MapLibre's table to Mapbox's. The order of a section's members never matters to
    the validator, and the order of a layout or paint section's properties neither; everywhere else
    (enum values, required members, source types) it does."""
    patch = {key: None for key in maplibre if key not in mapbox}
    for key, value in mapbox.items():
        if key not in maplibre:
            patch[key] = value
        elif not same(maplibre[key], value):
            patch[key] = diff(maplibre[key], value, ordered=not key.startswith(("layout_", "paint_")))
    merged = apply(maplibre, patch)
    assert set(merged) == set(mapbox) and all(
        merged[k] == mapbox[k] if k.startswith(("layout_", "paint_")) else same(merged[k], mapbox[k]) for k in mapbox
    ), "the patch does not give Mapbox's table"
    return patch


def write(out, name, script_note, source_line, version_doc, version, patch):
    text = json.dumps(patch, separators=(",", ":"), ensure_ascii=False)
    with open(out, "w") as f:
        f.write(f"// GENERATED by scripts/generate-mapbox-style-spec.py from {source_line[0]}\n")
        for line in source_line[1:]:
            f.write(f"// {line}\n")
        f.write("// Only the facts validation needs (keys, types, enum values, ranges, defaults, expression inputs),\n")
        f.write("// none of the specification's documentation: see the script for why.\n\n")
        f.write(f"/// {script_note[0]}\n")
        for line in script_note[1:]:
            f.write(f"/// {line}\n")
        f.write(f"enum {name} {{\n")
        f.write(f"    /// {version_doc}\n")
        f.write(f'    static let version = "{version}"\n\n')
        f.write("    /// The patch as compact JSON.\n")
        f.write('    static let json = #"""\n' + text + '\n"""#\n')
        f.write("}\n")
    print(f"wrote {os.path.normpath(out)} ({len(text)} bytes of patch, {version})")


def main():
    args = sys.argv[1:]
    if args[:1] == ["--current"]:
        if len(args) < 4 or args[2] != "--version":
            sys.exit("usage: generate-mapbox-style-spec.py --current v8.json --version VERSION [maplibre-v8.json]")
        mapbox, version = plain_spec(args[1]), args[3]
        maplibre = strip(json.load(open(args[4] if len(args) > 4 else DEFAULT_MAPLIBRE)))
        write(os.path.join(VALIDATION, "MapboxCurrentStyleSpecPatch.swift"), "MapboxCurrentStyleSpecPatch",
              ["What Mapbox's current style specification (the Mapbox Maps SDK v11's, `--engine mapbox`) has",
               "that MapLibre's differs from, as a JSON merge patch over `StyleSpecReference` (a null removes",
               "a key, `{\"$replace\": value}` replaces one whole)."],
              [f"Mapbox's current style specification (mapbox-gl-js", f"src/style-spec/reference/v8.json, {version}), as a patch over MapLibre's v8.json",
               "(StyleSpecReference.swift). Do not edit; regenerate."],
              "The version of Mapbox's specification this is: mapbox-gl-js's main branch at a commit.", version,
              make_patch(mapbox, maplibre))
        return
    bundle = args[0] if args else os.path.join(HERE, "..", ".mapboxgl", "mapbox-gl.js")
    mapbox, version = embedded_spec(bundle)
    mapbox = strip(mapbox)
    maplibre = strip(json.load(open(args[1] if len(args) > 1 else DEFAULT_MAPLIBRE)))
    write(os.path.join(VALIDATION, "MapboxStyleSpecPatch.swift"), "MapboxStyleSpecPatch",
          ["What Mapbox's style specification has that MapLibre's differs from, as a JSON merge patch over",
           "`StyleSpecReference` (a null removes a key, `{\"$replace\": value}` replaces one whole)."],
          ["the style specification that Mapbox GL JS", f"{version} embeds, as a patch over MapLibre's v8.json (StyleSpecReference.swift). Do not edit; regenerate."],
          "The version of Mapbox GL JS whose specification this is.", version,
          make_patch(mapbox, maplibre))


if __name__ == "__main__":
    main()
