#!/usr/bin/env python3
"""Generate the feature fixtures under styles/features/: small styles that use what MapLibre GL JS 5
draws and MapLibre Native does not -- a globe, 3D terrain over a raster-dem source, global state,
a video source -- MLT (MapLibre Tile) tiles beside the same tiles as MVT, and sources whose TileJSON or
GeoJSON is not there (GL JS goes idle without them; MapLibre Native waits).

What MapLibre GL JS 5.24.0 requests for each fixture and camera (cameras.json) is recorded through
`mapsim serve` by scripts/record-gljs-through-serve --root styles/features --conditions plain, into
FIXTURE/gljs/; `swift test` (GLJSFeatureParityTests) serves each fixture in-process, loads it with
mapsim --engine maplibre-gl-js at the same camera and compares what serve recorded.

Everything here is authored by the mapsim project (the vector tiles, PNGs and glyph ranges come from
scripts/generate-differential-fixtures.py's writers), except the MLT fixture's tiles: three
OpenMapTiles tiles of the MapLibre Tile spec's test fixtures, as MLT and MVT (copied from
Tests/MapSimTests/Formats/Fixtures/MLT/omt, where their origin and licence are), and the video
fixture's clip.webm, a 2-second VP8 clip Chromium's MediaRecorder made for this project. Only the
Python standard library is used and the output is deterministic. Run from the repository root:

    python3 scripts/generate-feature-fixtures.py
"""
import importlib.util
import json
import math
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "styles", "features")
MLT_FIXTURES = os.path.join(HERE, "..", "Tests", "MapSimTests", "Formats", "Fixtures", "MLT", "omt")

spec = importlib.util.spec_from_file_location("differential", os.path.join(HERE, "generate-differential-fixtures.py"))
differential = importlib.util.module_from_spec(spec)
spec.loader.exec_module(differential)
write, write_json, tiles_around, world_xy = differential.write, differential.write_json, differential.tiles_around, differential.world_xy

ZURICH = differential.CENTER
FONTS = ["Fixture Regular", "Fixture Bold", "Fixture Italic,Fixture Regular", "Fixture CJK"]

# --- PNG with one value per pixel ----------------------------------------------------------------

def png_rgb(width, height, pixel):
    """An RGB PNG whose pixel (u, v) is pixel(u, v)."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(u, v)) for u in range(width)) for v in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")

# --- terrain: a peak on a plateau, as Mapbox Terrain-RGB -----------------------------------------

PEAK = (ZURICH[0], ZURICH[1] + 0.054)  # 6 km north of the centre
DEM_SIZE = 32                          # pixels a side: small files, heights enough for min/max and the centre

def height(lon, lat):
    dx = (lon - PEAK[0]) * 111_320 * math.cos(math.radians(lat))
    dy = (lat - PEAK[1]) * 110_540
    return 500 + 3000 * math.exp(-(dx * dx + dy * dy) / (2 * 8000 ** 2))

def terrain_rgb(metres):
    value = max(0, round((metres + 10000) * 10))
    return (value >> 16) & 255, (value >> 8) & 255, value & 255

def dem_tile(z, x, y):
    n = 2 ** z
    def pixel(u, v):
        wx, wy = (x + u / DEM_SIZE) / n, (y + v / DEM_SIZE) / n
        lon = wx * 360 - 180
        lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * wy))))
        return terrain_rgb(height(lon, lat))
    return png_rgb(DEM_SIZE, DEM_SIZE, pixel)

# --- styles --------------------------------------------------------------------------------------

def labels_layers(source):
    return [
        {"id": "water", "type": "fill", "source": source, "source-layer": "water", "paint": {"fill-color": "#9cf"}},
        {"id": "roads", "type": "line", "source": source, "source-layer": "road", "paint": {"line-color": "#fff"}},
        {"id": "places", "type": "symbol", "source": source, "source-layer": "place",
         "layout": {"text-field": "{name}", "text-font": ["Fixture Regular"]}},
    ]

def globe_style():
    return {"version": 8, "name": "globe", "projection": {"type": "globe"}, "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "sources": {"world": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 7},
                        "relief": {"type": "raster", "tiles": ["raster/{z}/{x}/{y}.png"], "tileSize": 512, "maxzoom": 7}},
            "layers": [{"id": "relief", "type": "raster", "source": "relief"},
                       {"id": "land", "type": "fill", "source": "world", "source-layer": "land", "paint": {"fill-color": "#dde"}},
                       {"id": "capitals", "type": "symbol", "source": "world", "source-layer": "capital",
                        "layout": {"text-field": "{name}", "text-font": ["Fixture Regular"]}}]}

def terrain_style(exaggeration):
    style = {"version": 8, "name": "terrain", "glyphs": "glyphs/{fontstack}/{range}.pbf",
             "sources": {"dem": {"type": "raster-dem", "tiles": ["dem/{z}/{x}/{y}.png"], "tileSize": 512, "maxzoom": 12},
                         "places": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14},
                         "relief": {"type": "raster", "tiles": ["raster/{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 13}},
             "terrain": {"source": "dem", "exaggeration": exaggeration},
             "layers": [{"id": "relief", "type": "raster", "source": "relief"}] + labels_layers("places")}
    return style

def global_state_style(label, show_roads):
    return {"version": 8, "name": "global-state", "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "state": {"label": {"default": label}, "showRoads": {"default": show_roads}, "rank": {"default": 2}},
            "sources": {"places": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14}},
            "layers": [
                {"id": "roads", "type": "line", "source": "places", "source-layer": "road",
                 "layout": {"visibility": ["case", ["global-state", "showRoads"], "visible", "none"]}},
                {"id": "road-names", "type": "symbol", "source": "places", "source-layer": "road",
                 "filter": ["global-state", "showRoads"],
                 "layout": {"text-field": ["get", "name"], "text-font": ["Fixture Bold"], "symbol-placement": "line"}},
                {"id": "places", "type": "symbol", "source": "places", "source-layer": "place",
                 "filter": ["<=", ["get", "rank"], ["global-state", "rank"]],
                 "layout": {"text-field": ["global-state", "label"], "text-font": ["Fixture Regular"]}}]}

def video_style():
    corners = [[8.50, 47.40], [8.58, 47.40], [8.58, 47.34], [8.50, 47.34]]
    return {"version": 8, "name": "video", "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "sources": {"places": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14},
                        "clip": {"type": "video", "urls": ["media/missing.mp4", "media/clip.webm", "media/other.webm"], "coordinates": corners}},
            "layers": [{"id": "clip", "type": "raster", "source": "clip"}] + labels_layers("places")}

def failed_sources_style():
    # A vector and a raster source whose TileJSON is not there, and a GeoJSON source whose data is not.
    return {"version": 8, "name": "failed-sources", "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "sources": {"places": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14},
                        "gone": {"type": "vector", "url": "missing-tiles.json"},
                        "lost": {"type": "raster", "url": "missing-raster.json", "tileSize": 256},
                        "nowhere": {"type": "geojson", "data": "missing.geojson"}},
            "layers": [{"id": "lost", "type": "raster", "source": "lost"},
                       {"id": "gone", "type": "line", "source": "gone", "source-layer": "road"},
                       {"id": "nowhere", "type": "circle", "source": "nowhere"}] + labels_layers("places")}

def missing_raster_style():
    # A raster basemap whose tile URL is wrong: every tile, and every parent, is not found (404).
    return {"version": 8, "name": "missing-raster",
            "sources": {"satellite": {"type": "raster", "tiles": ["satellite/{z}/{x}/{y}.jpg"], "tileSize": 256, "maxzoom": 18}},
            "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#dde"}},
                       {"id": "satellite", "type": "raster", "source": "satellite"}]}

def omt_style(encoding, extension):
    source = {"type": "vector", "tiles": [f"tiles/{{z}}/{{x}}/{{y}}.{extension}"], "maxzoom": 14}
    if encoding:
        source["encoding"] = encoding
    return {"version": 8, "name": f"omt-{extension}", "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "sources": {"openmaptiles": source},
            "layers": [
                {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water", "paint": {"fill-color": "#9cf"}},
                {"id": "roads", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "paint": {"line-color": "#fff"}},
                {"id": "road-names", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name",
                 "layout": {"text-field": ["get", "name"], "text-font": ["Noto Sans Regular"], "symbol-placement": "line"}},
                {"id": "places", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
                 "layout": {"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]], "text-font": ["Noto Sans Regular"]}},
                {"id": "places-local", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
                 "layout": {"text-field": ["format", ["get", "name:ru"], {}, "\n", {}, ["get", "name:ar"], {}, "\n", {}, ["get", "name:ja"], {}],
                            "text-font": ["Noto Sans Regular"]}},
                {"id": "pois", "type": "symbol", "source": "openmaptiles", "source-layer": "poi",
                 "filter": ["<=", ["get", "rank"], 20], "layout": {"text-field": ["get", "name"], "text-font": ["Noto Sans Bold"]}}]}

# --- cameras -------------------------------------------------------------------------------------

# The MLT fixture's tiles are 0/0/0, 11/1062/1368 and 13/4265/5468 in the spec's (TMS) rows: near
# Bonn, served at their XYZ rows (2^z - 1 - y); the views are of their middles.
def xyz_row(z, y):
    return 2 ** z - 1 - y

def tile_center(z, x, y):
    n = 2 ** z
    lon = (x + 0.5) / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (y + 0.5) / n))))
    return [round(lon, 6), round(lat, 6)]

CAMERAS = {
    "globe": [{"name": "z3-b45-p45", "center": [10, 46.5], "zoom": 3, "bearing": 45, "pitch": 45},
              {"name": "z5-p60", "center": [10, 46.5], "zoom": 5, "pitch": 60},
              {"name": "z1.5", "center": [-40, 20], "zoom": 1.5},
              {"name": "z2-p30-north", "center": [20, 62], "zoom": 2.2, "bearing": -20, "pitch": 30, "size": "800x600"},
              {"name": "z4-antimeridian", "center": [179.5, 10], "zoom": 4.2}],
    "terrain": [{"name": "z12-p60", "center": ZURICH, "zoom": 12, "pitch": 60},
                {"name": "z11-p75-b-40", "center": ZURICH, "zoom": 11, "pitch": 75, "bearing": -40},
                {"name": "z13.4-p45-b160", "center": [8.55, 47.39], "zoom": 13.4, "pitch": 45, "bearing": 160},
                {"name": "z11.5-p80", "center": ZURICH, "zoom": 11.5, "pitch": 80, "bearing": 20},
                {"name": "z9-p0", "center": ZURICH, "zoom": 9}],
    "global-state": [{"name": "z10", "center": ZURICH, "zoom": 10}, {"name": "z12.5", "center": [8.545, 47.37], "zoom": 12.5}],
    "global-state-set": [{"name": "z10", "center": ZURICH, "zoom": 10}, {"name": "z12.5", "center": [8.545, 47.37], "zoom": 12.5}],
    "video": [{"name": "z11", "center": ZURICH, "zoom": 11}],
    "failed-sources": [{"name": "z11", "center": ZURICH, "zoom": 11}, {"name": "z12.5-p40", "center": [8.545, 47.37], "zoom": 12.5, "pitch": 40}],
    "missing-raster": [{"name": "z11", "center": ZURICH, "zoom": 11}, {"name": "z14.5-p45-b30", "center": [8.545, 47.37], "zoom": 14.5, "pitch": 45, "bearing": 30}],
    "mlt": [{"name": "z13.5", "center": tile_center(13, 4265, xyz_row(13, 5468)), "zoom": 13.5, "size": "400x400"},
            {"name": "z11.5", "center": tile_center(11, 1062, xyz_row(11, 1368)), "zoom": 11.5, "size": "400x400"}],
    "mlt-as-mvt": [{"name": "z13.5", "center": tile_center(13, 4265, xyz_row(13, 5468)), "zoom": 13.5, "size": "400x400"},
                   {"name": "z11.5", "center": tile_center(11, 1062, xyz_row(11, 1368)), "zoom": 11.5, "size": "400x400"}],
}

# --- writing -------------------------------------------------------------------------------------

def write_labels_tiles(folder, zooms, radius, centre=ZURICH):
    """The labels fixture's tiles around `centre`; a tile with no feature is written empty (a 200
    with no data, as a tile server answers for an empty tile), so no engine looks for its parents."""
    for z, x, y in tiles_around(*centre, zooms, radius=radius):
        write(os.path.join(folder, "tiles", str(z), str(x), f"{y}.pbf"), differential.labels_tile(z, x, y) or b"")

def write_rasters(folder, tiles):
    for z, x, y in tiles:
        write(os.path.join(folder, "raster", str(z), str(x), f"{y}.png"), differential.png(4, 4, ((40 + 20 * z) % 256, 120, 80, 255)))

def main():
    # Everything is written again but the engines' recordings (gljs/ and mapboxgl/, which
    # scripts/record-gljs-through-serve makes, mapli/, scripts/record-mapli-requests', and
    # mapboxgl-fog/, scripts/record-mapbox-fog-terrain's).
    for name in CAMERAS:
        folder = os.path.join(ROOT, name)
        for entry in os.listdir(folder) if os.path.isdir(folder) else []:
            if entry not in ("gljs", "mapboxgl", "mapboxgl-fog", "mapli"):
                path = os.path.join(folder, entry)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)

    folder = os.path.join(ROOT, "globe")
    write_json(os.path.join(folder, "style.json"), globe_style())
    world = {(z, x, y) for z in range(0, 4) for x in range(2 ** z) for y in range(2 ** z)}
    near = {t for camera in CAMERAS["globe"] for t in tiles_around(*camera["center"], range(4, 8), radius=2)}
    for z, x, y in sorted(world | near):
        write(os.path.join(folder, "tiles", str(z), str(x), f"{y}.pbf"), differential.world_tile(z, x, y))
    write_rasters(folder, sorted(world | {t for t in near if t[0] <= 5}))
    differential.write_glyphs(folder, ["Fixture Regular"], [p["name"] for p, _ in differential.CAPITALS])

    folder = os.path.join(ROOT, "terrain")
    write_json(os.path.join(folder, "style.json"), terrain_style(1.5))
    for z, x, y in tiles_around(*ZURICH, range(5, 13), radius=3):
        write(os.path.join(folder, "dem", str(z), str(x), f"{y}.png"), dem_tile(z, x, y))
    write_labels_tiles(folder, range(8, 15), 3)
    write_rasters(folder, tiles_around(*ZURICH, range(8, 14), radius=3))
    differential.write_glyphs(folder, FONTS, differential.LABEL_TEXTS)

    for name, label, show_roads in [("global-state", "abc", True), ("global-state-set", "Привет 你好", False)]:
        folder = os.path.join(ROOT, name)
        write_json(os.path.join(folder, "style.json"), global_state_style(label, show_roads))
        write_labels_tiles(folder, range(7, 15), 3)
        differential.write_glyphs(folder, FONTS, differential.LABEL_TEXTS + [label])

    folder = os.path.join(ROOT, "video")
    write_json(os.path.join(folder, "style.json"), video_style())
    write_labels_tiles(folder, range(9, 13), 2)
    differential.write_glyphs(folder, FONTS, differential.LABEL_TEXTS)
    with open(os.path.join(HERE, "feature-fixtures", "clip.webm"), "rb") as f:
        write(os.path.join(folder, "media", "clip.webm"), f.read())

    folder = os.path.join(ROOT, "failed-sources")
    write_json(os.path.join(folder, "style.json"), failed_sources_style())
    write_labels_tiles(folder, range(9, 14), 2)
    differential.write_glyphs(folder, FONTS, differential.LABEL_TEXTS)

    write_json(os.path.join(ROOT, "missing-raster", "style.json"), missing_raster_style())

    for name, encoding, extension in [("mlt", "mlt", "mlt"), ("mlt-as-mvt", None, "pbf")]:
        folder = os.path.join(ROOT, name)
        write_json(os.path.join(folder, "style.json"), omt_style(encoding, extension))
        for tile in ["0_0_0", "11_1062_1368", "13_4265_5468"]:
            z, x, y = tile.split("_")
            source = os.path.join(MLT_FIXTURES, f"{tile}.{'mlt' if encoding else 'mvt'}")
            with open(source, "rb") as f:
                write(os.path.join(folder, "tiles", z, x, f"{xyz_row(int(z), int(y))}.{extension}"), f.read())
        shutil.copyfile(os.path.join(MLT_FIXTURES, "NOTICE"), os.path.join(folder, "NOTICE"))

    for name, cameras in CAMERAS.items():
        write_json(os.path.join(ROOT, name, "cameras.json"), cameras)
    print(f"{len(CAMERAS)} fixtures written to {os.path.relpath(ROOT)}")


if __name__ == "__main__":
    main()
