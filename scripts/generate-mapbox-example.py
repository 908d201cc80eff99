#!/usr/bin/env python3
"""Write styles/mapbox-standard/: a small Mapbox-Standard-shaped example, served by `mapsim serve` for
`--engine mapbox` and `--engine mapbox-gl-js` (the README's Mapbox example, MapboxParityTests).

What it holds (all data is mapsim's own generated sample, styles/sample):

  style.json                          the user's style: one import, `basemap` = mapbox://styles/mapsim/standard
                                      with config overrides; its own GeoJSON layers placed in the basemap's
                                      slots ("middle", "top"); no `glyphs` (so Mapbox's default fonts URL)
  styles/v1/mapsim/standard           the basemap (what the Styles API answers for mapbox://styles/mapsim/standard):
                                      a `schema` (lightPreset, showPlaceLabels, showPointOfInterestLabels,
                                      showRoadLabels), slots bottom/middle/top, config read by visibility and
                                      paint, a mapbox:// tileset, sprite and glyphs, and one import nested in
                                      it: `landmarks`
  styles/v1/mapsim/landmarks          the nested import: inline GeoJSON, a label layer, a model (`models`),
                                      its own schema (showLandmarks)
  styles/v1/mapsim/standard-sprite/   the basemap's sprite (mapbox://sprites/mapsim/standard-sprite)
  v4/mapsim.streets.json, v4/mapsim.streets/Z/X/Y.vector.pbf   the tileset (mapbox://mapsim.streets)
  fonts/v1/mapsim/..., fonts/v1/mapbox/...                     glyph ranges (mapbox://fonts/...)
  models/v1/mapsim/tower.glb          a one-triangle glTF model (mapbox://models/mapsim/tower.glb)
  imports.json, imports/              a second user's style (served as /style.json like the first; its cameras name it):
                                      the basemap with other config, a relative import (imports/extra.json) with
                                      a relative sprite, a schema whose maxValue its config exceeds, and the
                                      basemap's nested import a second time; an inline import ("url": "") with a
                                      schema and an inline import of its own whose source id collides; a layer
                                      in an unknown slot; a filter on another import's config
  cameras.json                        the views recorded with Mapbox GL JS v3.0.1 (mapboxgl/), some with --config,
                                      each of style.json unless its "style" names another

Every mapbox:// URL resolves on the server itself when the client is given --mapbox-api-url http://HOST:PORT
(mapsim load, mapboxgl-requests). Run from anywhere; it rewrites the folder (the recordings in mapboxgl/ stay).

    python3 scripts/generate-mapbox-example.py
"""
import json
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "styles", "sample")
OUT = os.path.join(HERE, "..", "styles", "mapbox-standard")
FONT = "Mapsim Sans Regular"
RANGES = ["0-255.pbf", "256-511.pbf"]


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def copy(source, target):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(source, target)


def glb():
    """A minimal glTF 2.0 binary: one indexed triangle."""
    positions = struct.pack("<9f", 0, 0, 0, 10, 0, 0, 0, 10, 0)
    indices = struct.pack("<3H", 0, 1, 2) + b"\x00\x00"
    data = positions + indices
    gltf = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
            "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.3, 1]}}],
            "buffers": [{"byteLength": len(data)}],
            "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(positions), "target": 34962},
                            {"buffer": 0, "byteOffset": len(positions), "byteLength": 6, "target": 34963}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [10, 10, 0]},
                          {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]}
    text = json.dumps(gltf).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(data), b"BIN\x00") + data
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def points(features):
    return {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": name}, "geometry": {"type": "Point", "coordinates": [lon, lat]}}
        for name, lon, lat in features]}


def visible_when(option):
    return ["case", ["config", option], "visible", "none"]


ROOT = {
    "version": 8,
    "name": "mapsim Standard example",
    "center": [-122.42, 37.78],
    "zoom": 11,
    "imports": [{"id": "basemap", "url": "mapbox://styles/mapsim/standard",
                 "config": {"lightPreset": "dusk", "showPointOfInterestLabels": False}}],
    "sources": {"stores": {"type": "geojson", "data": points([("Mission Store", -122.418, 37.76), ("Marina Store", -122.437, 37.803),
                                                             ("Sunset Store", -122.49, 37.752)])}},
    "layers": [
        {"id": "store-dots", "type": "circle", "source": "stores", "slot": "middle",
         "paint": {"circle-radius": 6, "circle-color": "#d6336c"}},
        {"id": "store-names", "type": "symbol", "source": "stores", "slot": "top",
         "layout": {"text-field": ["get", "name"], "text-font": [FONT], "text-offset": [0, 1.2], "text-anchor": "top"}},
    ],
}

BASEMAP = {
    "version": 8,
    "name": "mapsim Standard-shaped basemap",
    "schema": {
        "lightPreset": {"default": "day", "type": "string", "values": ["dawn", "day", "dusk", "night"]},
        "showPlaceLabels": {"default": True, "type": "boolean"},
        "showPointOfInterestLabels": {"default": True, "type": "boolean"},
        "showRoadLabels": {"default": True, "type": "boolean"},
    },
    "imports": [{"id": "landmarks", "url": "mapbox://styles/mapsim/landmarks", "config": {"showLandmarks": True}}],
    "sources": {"streets": {"type": "vector", "url": "mapbox://mapsim.streets"}},
    "sprite": "mapbox://sprites/mapsim/standard-sprite",
    "glyphs": "mapbox://fonts/mapsim/{fontstack}/{range}.pbf",
    "layers": [
        {"id": "land", "type": "background",
         "paint": {"background-color": ["match", ["config", "lightPreset"], "night", "#1b1e2b", "dusk", "#4a4458", "dawn", "#e8d9cf", "#f4f1ea"]}},
        {"id": "water", "type": "fill", "source": "streets", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}},
        {"id": "bottom", "type": "slot"},
        {"id": "parks", "type": "fill", "source": "streets", "source-layer": "parks", "paint": {"fill-color": "#c8e6b4"}},
        {"id": "roads", "type": "line", "source": "streets", "source-layer": "roads",
         "paint": {"line-color": ["match", ["config", "lightPreset"], "night", "#55607a", "#ffffff"], "line-width": 2}},
        {"id": "middle", "type": "slot"},
        {"id": "poi-labels", "type": "symbol", "source": "streets", "source-layer": "pois",
         "layout": {"visibility": visible_when("showPointOfInterestLabels"), "icon-image": "marker",
                    "text-field": ["get", "name"], "text-font": [FONT], "text-size": 12, "text-offset": [0, 1.2], "text-anchor": "top"}},
        {"id": "place-labels", "type": "symbol", "source": "streets", "source-layer": "places",
         "layout": {"visibility": visible_when("showPlaceLabels"), "text-field": ["get", "name"], "text-font": [FONT], "text-size": 16}},
        {"id": "top", "type": "slot"},
    ],
}

LANDMARKS = {
    "version": 8,
    "name": "mapsim landmarks",
    "schema": {"showLandmarks": {"default": False, "type": "boolean"}},
    "models": {"tower": "mapbox://models/mapsim/tower.glb"},
    "glyphs": "mapbox://fonts/mapsim/{fontstack}/{range}.pbf",
    "sources": {"landmarks": {"type": "geojson", "data": points([("Coit Tower", -122.4058, 37.8024), ("Sutro Tower", -122.4528, 37.7552),
                                                                ("Ferry Building", -122.3937, 37.7955)])}},
    "layers": [
        {"id": "landmark-names", "type": "symbol", "source": "landmarks",
         "layout": {"visibility": visible_when("showLandmarks"), "text-field": ["get", "name"], "text-font": [FONT], "text-size": 13}},
    ],
}

STREETS = {"type": "vector", "url": "mapbox://mapsim.streets"}

IMPORTS_ROOT = {
    "version": 8,
    "name": "mapsim Standard example: imports of every kind",
    "center": [-122.42, 37.78],
    "zoom": 12,
    "imports": [
        {"id": "basemap", "url": "mapbox://styles/mapsim/standard",
         "config": {"lightPreset": "day", "showPointOfInterestLabels": True, "showRoadLabels": False}},
        {"id": "extra", "url": "imports/extra.json", "config": {"size": 3}},
        {"id": "overlay", "url": "", "config": {"width": 20},
         "data": {"version": 8, "schema": {"width": {"default": 2, "type": "number", "minValue": 1, "maxValue": 8}},
                  "glyphs": "mapbox://fonts/mapsim/{fontstack}/{range}.pbf",
                  "imports": [{"id": "deep", "url": "", "data": {
                      "version": 8, "sources": {"streets": STREETS},
                      "layers": [{"id": "roads", "type": "line", "source": "streets", "source-layer": "roads", "paint": {"line-color": "#0f0"}}]}}],
                  "sources": {"streets": STREETS},
                  "layers": [{"id": "roads", "type": "line", "source": "streets", "source-layer": "roads",
                              "paint": {"line-width": ["config", "width"]}},
                             {"id": "places", "type": "symbol", "source": "streets", "source-layer": "places",
                              "layout": {"text-field": ["get", "name"], "text-font": [FONT]}}]}},
    ],
    "sources": {"stores": ROOT["sources"]["stores"]},
    "layers": [
        {"id": "store-dots", "type": "circle", "source": "stores", "slot": "nowhere", "paint": {"circle-radius": 6}},
        {"id": "store-names", "type": "symbol", "source": "stores", "slot": "top",
         "filter": ["==", ["config", "showPointOfInterestLabels", "basemap"], True],
         "layout": {"text-field": ["get", "name"], "text-font": [FONT]}},
    ],
}

EXTRA = {
    "version": 8,
    "name": "mapsim extra: a relative import",
    "schema": {"size": {"default": 1, "type": "number", "minValue": 0, "maxValue": 2}},
    "sprite": "sprite",
    "glyphs": "mapbox://fonts/mapsim/{fontstack}/{range}.pbf",
    "imports": [{"id": "again", "url": "mapbox://styles/mapsim/landmarks"}],
    "sources": {"cafes": {"type": "geojson", "data": points([("Café Ä", -122.42, 37.78)])}},
    "layers": [
        {"id": "store-dots", "type": "symbol", "source": "cafes", "slot": "top",
         "layout": {"icon-image": "cafe", "text-field": ["get", "name"], "text-font": [FONT], "text-size": ["*", 10, ["config", "size"]]}},
    ],
}

CAMERAS = [
    {"name": "z11", "center": [-122.42, 37.78], "zoom": 11},
    {"name": "z10-b30-p40", "center": [-122.43, 37.77], "zoom": 10, "bearing": 30, "pitch": 40},
    {"name": "z11-no-labels", "center": [-122.42, 37.78], "zoom": 11,
     "config": ["basemap.showPlaceLabels=false", "basemap.showRoadLabels=false"]},
    {"name": "z11-pois", "center": [-122.42, 37.78], "zoom": 11, "config": ["basemap.showPointOfInterestLabels=true"]},
    # Rotated and pitched views where Mapbox GL JS's walk of the pyramid takes other tiles than MapLibre's.
    {"name": "z12-b20-p50", "center": [-122.43, 37.77], "zoom": 12, "bearing": 20, "pitch": 50},
    {"name": "z11.5-b-40-p72", "center": [-122.42, 37.79], "zoom": 11.5, "bearing": -40, "pitch": 72},
    {"name": "imports-z12", "style": "imports.json", "center": [-122.42, 37.78], "zoom": 12},
    {"name": "imports-z11-b30-p45-night", "style": "imports.json", "center": [-122.43, 37.77], "zoom": 11, "bearing": 30, "pitch": 45,
     "config": ["basemap.lightPreset=\"night\"", "extra.size=1"]},
]


def main():
    recordings = os.path.join(OUT, "mapboxgl")
    for entry in os.listdir(OUT) if os.path.isdir(OUT) else []:
        if entry != "mapboxgl":
            path = os.path.join(OUT, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    os.makedirs(recordings, exist_ok=True)
    write_json(os.path.join(OUT, "style.json"), ROOT)
    write_json(os.path.join(OUT, "styles", "v1", "mapsim", "standard"), BASEMAP)
    write_json(os.path.join(OUT, "styles", "v1", "mapsim", "landmarks"), LANDMARKS)
    write_json(os.path.join(OUT, "imports.json"), IMPORTS_ROOT)
    write_json(os.path.join(OUT, "imports", "extra.json"), EXTRA)
    write_json(os.path.join(OUT, "cameras.json"), CAMERAS)
    for name in ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"]:
        copy(os.path.join(SAMPLE, name), os.path.join(OUT, "imports", name))
    for name in ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"]:
        copy(os.path.join(SAMPLE, name), os.path.join(OUT, "styles", "v1", "mapsim", "standard-sprite", name))
    tilejson = json.load(open(os.path.join(SAMPLE, "tiles.json"), encoding="utf-8"))
    tilejson["tiles"] = ["mapbox://tiles/mapsim.streets/{z}/{x}/{y}.vector.pbf"]
    write_json(os.path.join(OUT, "v4", "mapsim.streets.json"), tilejson)
    tiles = os.path.join(SAMPLE, "tiles")
    for folder, _, files in os.walk(tiles):
        for name in files:
            relative = os.path.relpath(os.path.join(folder, name), tiles)
            copy(os.path.join(tiles, relative), os.path.join(OUT, "v4", "mapsim.streets", relative[: -len(".pbf")] + ".vector.pbf"))
    for owner in ["mapsim", "mapbox"]:
        for name in RANGES:
            copy(os.path.join(SAMPLE, "glyphs", FONT, name), os.path.join(OUT, "fonts", "v1", owner, FONT, name))
    os.makedirs(os.path.join(OUT, "models", "v1", "mapsim"), exist_ok=True)
    with open(os.path.join(OUT, "models", "v1", "mapsim", "tower.glb"), "wb") as f:
        f.write(glb())
    with open(os.path.join(OUT, "README.md"), "w", encoding="utf-8") as f:
        f.write("A Mapbox-Standard-shaped example (imports, schema and config, slots, a nested import, a model), made by\n"
                "scripts/generate-mapbox-example.py from mapsim's generated sample data. Serve it and point mapbox:// URLs at\n"
                "the server:\n\n"
                "    mapsim serve styles/mapbox-standard/style.json --port 8080 &\n"
                "    mapsim load http://127.0.0.1:8080/style.json --engine mapbox --mapbox-api-url http://127.0.0.1:8080 \\\n"
                "        --access-token pk.test --config basemap.showPlaceLabels=false\n\n"
                "imports.json is a second style on the same server (served as /style.json in its place): imports of every\n"
                "kind — a relative one with its own sprite, an inline one (\"url\": \"\"), one nested twice — an unknown\n"
                "slot and a filter on another import's config.\n\n"
                "mapboxgl/ holds what Mapbox GL JS v3.0.1 requested of them through `mapsim serve`\n"
                "(scripts/record-gljs-through-serve --oracle mapboxgl --root styles --conditions plain mapbox-standard).\n")


if __name__ == "__main__":
    main()
