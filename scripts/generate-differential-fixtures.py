#!/usr/bin/env python3
"""Generate the differential fixtures under styles/differential/: small styles with their own vector
tiles, raster tiles, GeoJSON, sprite and glyph ranges, each made to exercise one part of what decides
a map's requests -- labels with filters, zoom ranges, `format` sections with their own fonts, data-driven
fonts and icons, non-Latin names, text-transform; raster tiles that 404; world copies; legacy `ref`
layers; GeoJSON sources.

MapLibre Native's requests for each fixture and camera (listed in CAMERAS, in each fixture's
cameras.json) are recorded by scripts/record-mln-requests, and `swift test` compares mapsim's
requests with those recordings.

Everything here is authored by the mapsim project; only the Python standard library is used and
the output is deterministic. Run from the repository root:

    python3 scripts/generate-differential-fixtures.py
"""
import json
import math
import os
import shutil
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "styles", "differential")
EXTENT = 4096

# --- protobuf ------------------------------------------------------------------------------------

def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)

def zigzag(n):
    return (n << 1) ^ (n >> 63)

def key(field, wire):
    return varint(field << 3 | wire)

def field_varint(field, n):
    return key(field, 0) + varint(n)

def field_bytes(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return key(field, 2) + varint(len(data)) + data

def field_packed(field, values):
    return field_bytes(field, b"".join(varint(v) for v in values))

# --- vector tiles --------------------------------------------------------------------------------

def world_xy(lon, lat):
    s = math.sin(math.radians(lat))
    return (lon + 180) / 360, 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)

def in_tile(coords, z, x, y, pad_units=64):
    """Tile-space integer coordinates, or None when the shape misses the tile (plus a small pad)."""
    n = 2 ** z
    pts = [world_xy(lon, lat) for lon, lat in coords]
    tx = [(px * n - x) * EXTENT for px, _ in pts]
    ty = [(py * n - y) * EXTENT for _, py in pts]
    if max(tx) < -pad_units or min(tx) > EXTENT + pad_units or max(ty) < -pad_units or min(ty) > EXTENT + pad_units:
        return None
    return [(round(a), round(b)) for a, b in zip(tx, ty)]

def encode_geometry(kind, parts):
    cmds, cx, cy = [], 0, 0
    for part in parts:
        pts = part[:-1] if kind == 3 else part
        for i, (px, py) in enumerate(pts):
            if i == 0:
                cmds.append(1 | 1 << 3)
            elif i == 1:
                cmds.append(2 | (len(pts) - 1) << 3)
            cmds += [zigzag(px - cx), zigzag(py - cy)]
            cx, cy = px, py
        if kind == 3:
            cmds.append(7 | 1 << 3)
    return cmds

class Layer:
    def __init__(self, name):
        self.name, self.keys, self.values, self.features = name, [], [], []

    def value(self, v):
        if isinstance(v, str):
            encoded = field_bytes(1, v)
        elif isinstance(v, bool):
            encoded = field_varint(7, int(v))
        elif isinstance(v, float):
            encoded = key(3, 1) + struct.pack("<d", v)
        else:
            encoded = field_varint(4, v)
        if encoded not in self.values:
            self.values.append(encoded)
        return self.values.index(encoded)

    def add(self, kind, parts, properties, fid=None):
        tags = []
        for k, v in properties.items():
            if k not in self.keys:
                self.keys.append(k)
            tags += [self.keys.index(k), self.value(v)]
        feature = b""
        if fid is not None:
            feature += field_varint(1, fid)
        feature += field_packed(2, tags) + field_varint(3, kind) + field_packed(4, encode_geometry(kind, parts))
        self.features.append(feature)

    def encode(self):
        out = field_varint(15, 2) + field_bytes(1, self.name)
        out += b"".join(field_bytes(2, f) for f in self.features)
        out += b"".join(field_bytes(3, k) for k in self.keys)
        out += b"".join(field_bytes(4, v) for v in self.values)
        return out + field_varint(5, EXTENT)

def tile_bytes(layers):
    return b"".join(field_bytes(3, layer.encode()) for layer in layers if layer.features)

def tiles_around(lon, lat, zooms, radius=2):
    for z in zooms:
        n = 2 ** z
        wx, wy = world_xy(lon, lat)
        cx, cy = int(wx * n), int(wy * n)
        for x in range(max(0, cx - radius), min(n - 1, cx + radius) + 1):
            for y in range(max(0, cy - radius), min(n - 1, cy + radius) + 1):
                yield z, x, y

# --- images and glyphs ---------------------------------------------------------------------------

def png(width, height, rgba):
    rows = b"".join(b"\x00" + bytes(rgba) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")

ICONS = ["marker", "park", "cafe", "stripes"]

def write_sprite(folder):
    for ratio, suffix in [(1, ""), (2, "@2x")]:
        size = 16 * ratio
        index = {name: {"x": i * size, "y": 0, "width": size, "height": size, "pixelRatio": ratio} for i, name in enumerate(ICONS)}
        write(os.path.join(folder, f"sprite{suffix}.png"), png(size * len(ICONS), size, (200, 80, 60, 255)))
        write(os.path.join(folder, f"sprite{suffix}.json"), json.dumps(index, indent=2) + "\n")

def glyph_pbf(fontstack, start):
    """A glyph range with no glyphs: enough for a renderer to accept it."""
    return field_bytes(1, field_bytes(1, fontstack) + field_bytes(2, f"{start}-{start + 255}"))

def write_glyphs(folder, fontstacks, texts):
    """A glyph range file for every range any of `texts` could need (with case changes, Arabic
    presentation forms and vertical punctuation), for every font stack."""
    ranges = {0}
    for text in texts:
        for variant in (text, text.upper(), text.lower()):
            for unit in struct.unpack(f"<{len(variant.encode('utf-16-le')) // 2}H", variant.encode("utf-16-le")):
                ranges.add(unit // 256 * 256)
    ranges |= {0xFB00, 0xFC00, 0xFD00, 0xFE00, 0xFF00}
    for stack in fontstacks:
        for start in sorted(ranges):
            write(os.path.join(folder, "glyphs", stack, f"{start}-{start + 255}.pbf"), glyph_pbf(stack, start))

def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w", encoding=None if isinstance(data, bytes) else "utf-8") as f:
        f.write(data)

def write_json(path, value):
    write(path, json.dumps(value, indent=2, ensure_ascii=False) + "\n")

# --- fixture: labels -----------------------------------------------------------------------------

CENTER = (8.54, 47.37)
PLACES = [
    ({"name": "Zürich", "class": "city", "rank": 1, "name:ru": "Цюрих", "name:zh": "苏黎世"}, (8.54, 47.37)),
    ({"name": "Winterthur", "class": "town", "rank": 2, "name:ru": "Винтертур", "name:el": "Βίντερτουρ"}, (8.72, 47.50)),
    ({"name": "Uster", "class": "town", "rank": 3, "name:ru": "Устер"}, (8.72, 47.35)),
    ({"name": "Dübendorf", "class": "village", "rank": 3, "name:el": "Ντίμπεντορφ"}, (8.62, 47.40)),
    ({"name": "Kloten", "class": "village", "rank": 2, "name:el": "Κλότεν"}, (8.58, 47.45)),
    ({"name": "Adliswil", "class": "village", "rank": 4}, (8.52, 47.31)),
    ({"name": "Lugano ⛰", "class": "city", "rank": 1, "name:ru": "Лугано"}, (8.95, 46.00)),
]
POIS = [
    ({"name": "Café Odéon", "kind": "cafe", "icon": "cafe", "rank": 7}, (8.545, 47.365)),
    ({"name": "Kunsthaus", "kind": "museum", "icon": "museum", "rank": 12}, (8.548, 47.370)),
    ({"name": "Lindenhof", "kind": "park", "icon": "park", "rank": 3}, (8.541, 47.373)),
    ({"name": "Hauptbahnhof", "kind": "station", "rank": 1}, (8.540, 47.378)),
    ({"name": "東京庵", "kind": "restaurant", "icon": "noodles", "rank": 20}, (8.536, 47.372)),
]
ROADS = [
    ({"name": "Bahnhofstrasse", "ref": "A1"}, [(8.50, 47.36), (8.58, 47.38)]),
    ({"name": "Limmatquai"}, [(8.53, 47.33), (8.55, 47.41)]),
    ({"name": "Seestrasse", "ref": "E60"}, [(8.52, 47.34), (8.60, 47.30)]),
]
WATER = [({"name": "Zürichsee", "name:ar": "بحيرة زيورخ"}, [(8.53, 47.36), (8.56, 47.36), (8.62, 47.28), (8.58, 47.27), (8.53, 47.36)])]
PARKS = [({"pattern": "stripes"}, [(8.54, 47.38), (8.56, 47.38), (8.56, 47.39), (8.54, 47.39), (8.54, 47.38)]),
         ({"pattern": "dots"}, [(8.50, 47.35), (8.51, 47.35), (8.51, 47.36), (8.50, 47.36), (8.50, 47.35)])]

def labels_tile(z, x, y):
    place, poi, road, water, park, empty = Layer("place"), Layer("poi"), Layer("road"), Layer("water"), Layer("park"), Layer("nothing")
    for i, (props, point) in enumerate(PLACES):
        g = in_tile([point], z, x, y, 0)
        if g and all(0 <= c < EXTENT for c in g[0]):
            place.add(1, [g], props, i + 1)
    if z >= 11:
        for i, (props, point) in enumerate(POIS):
            g = in_tile([point], z, x, y, 0)
            if g and all(0 <= c < EXTENT for c in g[0]):
                poi.add(1, [g], props, 100 + i)
    for props, line in ROADS:
        g = in_tile(line, z, x, y)
        if g:
            road.add(2, [g], props)
    for props, ring in WATER + PARKS:
        g = in_tile(ring, z, x, y)
        if g:
            (water if "name" in props else park).add(3, [g], props)
    return tile_bytes([place, poi, road, water, park, empty])

def labels_style():
    regular, bold, italic = ["Fixture Regular"], ["Fixture Bold"], ["Fixture Italic", "Fixture Regular"]
    return {
        "version": 8, "name": "labels", "sprite": "sprite", "glyphs": "glyphs/{fontstack}/{range}.pbf",
        "sources": {"places": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14}},
        "layers": [
            {"id": "background", "type": "background", "paint": {"background-color": "#f8f4f0"}},
            {"id": "water", "type": "fill", "source": "places", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}},
            {"id": "park-pattern", "type": "fill", "source": "places", "source-layer": "park", "paint": {"fill-pattern": ["get", "pattern"]}},
            {"id": "road-label", "type": "symbol", "source": "places", "source-layer": "road", "filter": ["has", "ref"],
             "layout": {"symbol-placement": "line", "text-field": ["get", "ref"], "text-font": regular}},
            {"id": "water-name", "type": "symbol", "source": "places", "source-layer": "water", "minzoom": 9,
             "layout": {"text-field": "{name:ar}", "text-font": regular}},
            {"id": "place-city", "type": "symbol", "source": "places", "source-layer": "place", "filter": ["==", "class", "city"],
             "layout": {"text-field": "{name}", "text-font": regular, "text-transform": "uppercase"}},
            {"id": "place-town", "type": "symbol", "source": "places", "source-layer": "place", "minzoom": 11.5,
             "filter": ["==", ["get", "class"], "town"],
             "layout": {"text-field": ["format", ["get", "name"], {}, "\n", {}, ["get", "name:ru"], {"text-font": ["literal", bold]}],
                        "text-font": regular}},
            {"id": "place-village", "type": "symbol", "source": "places", "source-layer": "place", "maxzoom": 11.2,
             "filter": ["all", ["==", "class", "village"], ["<=", "rank", 3]],
             "layout": {"text-field": ["coalesce", ["get", "name:el"], ["get", "name"]], "text-font": italic,
                        "text-transform": ["case", [">", ["get", "rank"], 2], "lowercase", "none"]}},
            {"id": "poi", "type": "symbol", "source": "places", "source-layer": "poi",
             "layout": {"icon-image": ["coalesce", ["image", ["get", "icon"]], ["image", "marker"]],
                        "text-field": ["to-string", ["get", "rank"]],
                        "text-font": ["match", ["get", "kind"], "cafe", ["literal", bold], ["literal", regular]]}},
            {"id": "poi-missing-icons", "type": "symbol", "source": "places", "source-layer": "poi", "filter": ["!=", "kind", "park"],
             "layout": {"icon-image": "{icon}"}},
            {"id": "poi-hidden", "type": "symbol", "source": "places", "source-layer": "poi", "layout": {"visibility": "none", "text-field": "{name}", "text-font": ["Fixture CJK"]}},
            {"id": "nothing", "type": "symbol", "source": "places", "source-layer": "nothing", "layout": {"text-field": "x", "text-font": ["Fixture CJK"]}},
        ],
    }

LABEL_TEXTS = [v for props, _ in PLACES + POIS + ROADS + WATER for v in props.values() if isinstance(v, str)] + [str(p["rank"]) for p, _ in POIS] + ["x", "\n"]

# --- fixture: raster 404s ------------------------------------------------------------------------

def raster_style():
    return {"version": 8, "name": "raster-404",
            "sources": {"satellite": {"type": "raster", "tiles": ["raster/{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 2, "maxzoom": 12}},
            "layers": [{"id": "satellite", "type": "raster", "source": "satellite"}]}

# --- fixture: world copies -----------------------------------------------------------------------

def world_style():
    return {"version": 8, "name": "world-copies", "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "sources": {"world": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 4}},
            "layers": [{"id": "land", "type": "fill", "source": "world", "source-layer": "land", "paint": {"fill-color": "#dde"}},
                       {"id": "capitals", "type": "symbol", "source": "world", "source-layer": "capital",
                        "layout": {"text-field": "{name}", "text-font": ["Fixture Regular"]}}]}

CAPITALS = [({"name": "Bern"}, (7.45, 46.95)), ({"name": "Tōkyō"}, (139.7, 35.7)), ({"name": "Lima"}, (-77.0, -12.0)),
            ({"name": "Ottawa"}, (-75.7, 45.4))]

def world_tile(z, x, y):
    land, capital = Layer("land"), Layer("capital")
    land.add(3, [[(0, 0), (EXTENT, 0), (EXTENT, EXTENT), (0, EXTENT), (0, 0)]], {"kind": "land"})
    for props, point in CAPITALS:
        g = in_tile([point], z, x, y, 0)
        if g and all(0 <= c < EXTENT for c in g[0]):
            capital.add(1, [g], props)
    return tile_bytes([land, capital])

# --- fixture: legacy ref layers ------------------------------------------------------------------

def legacy_style():
    return {"version": 8, "name": "legacy-ref", "glyphs": "glyphs/{fontstack}/{range}.pbf", "sprite": "sprite",
            "sources": {"places": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14}},
            "layers": [
                {"id": "road-casing", "type": "line", "source": "places", "source-layer": "road", "minzoom": 8,
                 "filter": ["has", "ref"], "layout": {"line-cap": "round"}, "paint": {"line-color": "#888", "line-width": 4}},
                {"id": "road", "ref": "road-casing", "paint": {"line-color": "#fff", "line-width": 2}},
                {"id": "place-label", "type": "symbol", "source": "places", "source-layer": "place",
                 "filter": ["in", "class", "city", "town"], "layout": {"text-field": "{name}", "text-font": ["Fixture Regular"]}},
                {"id": "place-label-again", "ref": "place-label", "paint": {"text-color": "#c00"}},
                {"id": "village-label", "type": "symbol", "source": "places", "source-layer": "place",
                 "filter": ["all", ["==", "$type", "Point"], ["!in", "class", "city", "town"]],
                 "layout": {"text-field": {"base": 1, "stops": [[0, "{name}"], [11, "{name:el}"]]}, "text-font": ["Fixture Bold"],
                            "icon-image": {"property": "class", "type": "categorical", "stops": [["village", "marker"]], "default": "nosuch"}}},
            ]}

# --- fixture: GeoJSON ----------------------------------------------------------------------------

def geojson_data():
    features = []
    for i, (props, point) in enumerate(PLACES):
        features.append({"type": "Feature", "properties": dict(props, code=f"P{i}"), "geometry": {"type": "Point", "coordinates": list(point)}})
    features.append({"type": "Feature", "properties": {"name": "Fern", "class": "city", "code": "far"},
                     "geometry": {"type": "Point", "coordinates": [-70.0, -30.0]}})
    return {"type": "FeatureCollection", "features": features}

def geojson_style():
    return {"version": 8, "name": "geojson", "glyphs": "glyphs/{fontstack}/{range}.pbf",
            "sources": {"inline": {"type": "geojson", "data": geojson_data(), "promoteId": "code"},
                        "remote": {"type": "geojson", "data": "places.geojson", "generateId": True}},
            "layers": [
                {"id": "inline-names", "type": "symbol", "source": "inline", "filter": ["!=", ["id"], "P1"],
                 "layout": {"text-field": ["get", "name"], "text-font": ["Fixture Regular"]}},
                {"id": "remote-names", "type": "symbol", "source": "remote", "filter": ["==", ["get", "class"], "town"],
                 "layout": {"text-field": ["concat", ["get", "name:ru"], " #", ["to-string", ["id"]]], "text-font": ["Fixture Bold"]}},
            ]}

# --- cameras -------------------------------------------------------------------------------------

CAMERAS = {
    "labels": [
        {"name": "z10", "center": [8.54, 47.37], "zoom": 10},
        {"name": "z12.5", "center": [8.545, 47.37], "zoom": 12.5},
        {"name": "z8.7", "center": [8.6, 47.3], "zoom": 8.7},
        {"name": "towns-z11.3", "center": [8.72, 47.42], "zoom": 11.3},
        {"name": "winterthur-z12.2", "center": [8.72, 47.50], "zoom": 12.2},
        {"name": "pois-z14.5-pitch", "center": [8.541, 47.371], "zoom": 14.5, "pitch": 50, "bearing": 30},
        {"name": "overzoom-z16", "center": [8.545, 47.366], "zoom": 16},
    ],
    "raster-404": [{"name": "z10", "center": [8.54, 47.37], "zoom": 10}],
    "world-copies": [{"name": "wide-z1", "center": [0, 20], "zoom": 1, "size": "2048x512"},
                     {"name": "antimeridian-z2", "center": [179, 10], "zoom": 2.3, "size": "1024x512"}],
    "legacy-ref": [{"name": "z10", "center": [8.54, 47.37], "zoom": 10}, {"name": "z11", "center": [8.6, 47.4], "zoom": 11.4}],
    "geojson": [{"name": "z9", "center": [8.6, 47.4], "zoom": 9}],
}

def main():
    # Everything is written again except the recordings of the engines: mln/, which
    # scripts/record-mln-requests makes, serve/, which scripts/record-mln-through-serve makes, and
    # gljs/ and mapboxgl/, which scripts/record-gljs-through-serve makes.
    for name in CAMERAS:
        folder = os.path.join(ROOT, name)
        for entry in os.listdir(folder) if os.path.isdir(folder) else []:
            if entry not in ("mln", "serve", "gljs", "mapboxgl"):
                path = os.path.join(folder, entry)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    fonts = ["Fixture Regular", "Fixture Bold", "Fixture Italic,Fixture Regular", "Fixture CJK"]

    folder = os.path.join(ROOT, "labels")
    write_json(os.path.join(folder, "style.json"), labels_style())
    for z, x, y in tiles_around(*CENTER, range(7, 15), radius=3):
        data = labels_tile(z, x, y)
        if data:
            write(os.path.join(folder, "tiles", str(z), str(x), f"{y}.pbf"), data)
    write_sprite(folder)
    write_glyphs(folder, fonts, LABEL_TEXTS)

    folder = os.path.join(ROOT, "raster-404")
    write_json(os.path.join(folder, "style.json"), raster_style())
    for z, x, y in tiles_around(*CENTER, range(2, 8), radius=2):
        write(os.path.join(folder, "raster", str(z), str(x), f"{y}.png"), png(4, 4, (40 + 20 * z, 120, 80, 255)))

    folder = os.path.join(ROOT, "world-copies")
    write_json(os.path.join(folder, "style.json"), world_style())
    for z in range(0, 5):
        for x in range(2 ** z):
            for y in range(2 ** z):
                write(os.path.join(folder, "tiles", str(z), str(x), f"{y}.pbf"), world_tile(z, x, y))
    write_glyphs(folder, ["Fixture Regular"], [p["name"] for p, _ in CAPITALS])

    folder = os.path.join(ROOT, "legacy-ref")
    write_json(os.path.join(folder, "style.json"), legacy_style())
    for z, x, y in tiles_around(*CENTER, range(8, 13), radius=3):
        data = labels_tile(z, x, y)
        if data:
            write(os.path.join(folder, "tiles", str(z), str(x), f"{y}.pbf"), data)
    write_sprite(folder)
    write_glyphs(folder, fonts, LABEL_TEXTS)

    folder = os.path.join(ROOT, "geojson")
    write_json(os.path.join(folder, "style.json"), geojson_style())
    write_json(os.path.join(folder, "places.geojson"), geojson_data())
    write_glyphs(folder, fonts, LABEL_TEXTS + ["Fern", " #", "0123456789"])

    for name, cameras in CAMERAS.items():
        write_json(os.path.join(ROOT, name, "cameras.json"), cameras)
    print(f"{len(CAMERAS)} fixtures written to {os.path.relpath(ROOT)}")


if __name__ == "__main__":
    main()
