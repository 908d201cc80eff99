#!/usr/bin/env python3
"""Generate Sources/MapSimStyle/Validation/MapboxStyleSpecPatch.swift: what Mapbox's style
specification (as Mapbox GL JS 3.0.1 validates styles) has that differs from MapLibre's v8.json.

Mapbox's style-spec files (v2 and later) are licensed under the Mapbox Terms of Service, not an
open licence, so neither their v8.json nor a copy of it is kept here. The validator's Mapbox table
is MapLibre's BSD-3-Clause reference (StyleSpecReference.swift) with this patch applied; the patch
holds only the facts a validator must know to accept or refuse a style as Mapbox does — which keys,
layer and source types exist, each property's type, enum values, range, length, default,
property-type, expression inputs and transition — and none of the specification's documentation,
examples or SDK tables. Read sources/mapsim notes for the reasoning (docs/notes in the report).

Input: the specification a Mapbox GL JS build embeds (`JSON.parse('{"$version":8,...}')` in
mapbox-gl.js; its runtime build already drops the documentation). Run from the repository root:

    python3 scripts/generate-mapbox-style-spec.py path/to/mapbox-gl.js [path/to/maplibre/v8.json]

The patch is a JSON merge patch over MapLibre's reference without its documentation (a null
removes a key; an object `{"$replace": VALUE}` replaces a value whole, used where the order of keys
must be Mapbox's). Applying it gives Mapbox's table exactly, in Mapbox's order: this script checks so.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", ".mapboxgl", "mapbox-gl.js")
MAPLIBRE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "shared", "style-spec", "v8.json")
OUT = os.path.join(HERE, "..", "Sources", "MapSimStyle", "Validation", "MapboxStyleSpecPatch.swift")
# What the validator never reads: documentation, and the runtime's own bookkeeping.
DROP = {"doc", "sdk-support", "example", "units", "requires", "private", "overridable", "period"}


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in DROP}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


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


def main():
    mapbox, version = embedded_spec(BUNDLE)
    mapbox = strip(mapbox)
    maplibre = strip(json.load(open(MAPLIBRE)))
    # The order of a section's members never matters to the validator, and the order of a
    # layout or paint section's properties neither; everywhere else (enum values, required
    # members, source types) it does.
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
    text = json.dumps(patch, separators=(",", ":"), ensure_ascii=False)
    with open(OUT, "w") as out:
        out.write("// GENERATED by scripts/generate-mapbox-style-spec.py from the style specification that Mapbox GL JS\n")
        out.write(f"// {version} embeds, as a patch over MapLibre's v8.json (StyleSpecReference.swift). Do not edit; regenerate.\n")
        out.write("// Only the facts validation needs (keys, types, enum values, ranges, defaults, expression inputs),\n")
        out.write("// none of the specification's documentation: see the script for why.\n\n")
        out.write("/// What Mapbox's style specification has that MapLibre's differs from, as a JSON merge patch over\n")
        out.write("/// `StyleSpecReference` (a null removes a key, `{\"$replace\": value}` replaces one whole).\n")
        out.write("enum MapboxStyleSpecPatch {\n")
        out.write("    /// The version of Mapbox GL JS whose specification this is.\n")
        out.write(f'    static let version = "{version}"\n\n')
        out.write("    /// The patch as compact JSON.\n")
        out.write('    static let json = #"""\n' + text + '\n"""#\n')
        out.write("}\n")
    print(f"wrote {os.path.normpath(OUT)} ({len(text)} bytes of patch, Mapbox GL JS {version})")


if __name__ == "__main__":
    main()
