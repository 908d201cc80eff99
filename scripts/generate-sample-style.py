#!/usr/bin/env python3
"""Generate mapsim's sample style and its assets under styles/.

Everything here is authored by the mapsim project: a small imaginary city on the shore of a bay
(placed at 37.8 N, 122.45 W), drawn as real Mapbox Vector Tiles (spec 2.1), with its own sprite
(PNG + JSON, 1x and 2x), glyph range PBFs and a TileJSON. The failing styles in styles/failing/
reuse these assets and break one thing each.

Only the Python standard library is used. Output is deterministic: running it twice writes the
same bytes. Run from the repository root:

    python3 scripts/generate-sample-style.py
"""
import json
import math
import os
import shutil
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "styles")
SAMPLE = os.path.join(ROOT, "sample")
FAILING = os.path.join(ROOT, "failing")
BOUNDS = (-122.62, 37.70, -122.28, 37.90)  # west, south, east, north
MIN_ZOOM, MAX_ZOOM = 0, 11
EXTENT = 4096
FONT = "Mapsim Sans Regular"

# --- protobuf encoding -------------------------------------------------------------------------

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

# --- geography -----------------------------------------------------------------------------------

def world_xy(lon, lat):
    x = (lon + 180) / 360
    s = math.sin(math.radians(lat))
    y = 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)
    return x, y

def tile_bounds(z, x, y):
    n = 2 ** z
    return x / n, y / n, (x + 1) / n, (y + 1) / n

def ring(points):
    return points + [points[0]]

WATER = [ring([(-122.62, 37.70), (-122.62, 37.90), (-122.50, 37.90), (-122.47, 37.84),
               (-122.49, 37.78), (-122.52, 37.72), (-122.53, 37.70)])]
PARKS = [
    ("Shoreline Park", ring([(-122.47, 37.76), (-122.45, 37.76), (-122.45, 37.775), (-122.47, 37.775)])),
    ("Hill Gardens", ring([(-122.41, 37.80), (-122.39, 37.80), (-122.39, 37.815), (-122.41, 37.815)])),
    ("Bay Commons", ring([(-122.36, 37.73), (-122.33, 37.73), (-122.33, 37.75), (-122.36, 37.75)])),
]
ROADS = []
for i, lat in enumerate([37.72, 37.75, 37.78, 37.81, 37.84, 37.87]):
    ROADS.append(({"class": "major" if i % 2 == 0 else "minor", "name": f"{['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth'][i]} Avenue"},
                  [(-122.50, lat), (-122.28, lat)]))
for i, lon in enumerate([-122.46, -122.42, -122.38, -122.34, -122.30]):
    ROADS.append(({"class": "major" if i == 2 else "minor", "name": f"{['Alder', 'Birch', 'Cedar', 'Dogwood', 'Elm'][i]} Street"},
                  [(lon, 37.70), (lon, 37.90)]))
PLACES = [
    ({"name": "Mapsim City", "rank": 1}, (-122.40, 37.79)),
    ({"name": "Northshore", "rank": 2}, (-122.36, 37.86)),
    ({"name": "Harbour Point", "rank": 2}, (-122.46, 37.73)),
    ({"name": "Eastfield", "rank": 3}, (-122.31, 37.77)),
]
POIS = [
    ({"name": "Café Lumière", "kind": "cafe"}, (-122.405, 37.795)),
    ({"name": "Łódź Deli", "kind": "food"}, (-122.39, 37.785)),
    ({"name": "Tide Museum", "kind": "museum"}, (-122.455, 37.765)),
    ({"name": "Pier 9", "kind": "pier"}, (-122.47, 37.81)),
]

def geometry_in_tile(coords, z, x, y):
    """Tile-space integer coordinates (unclipped), or None when the shape misses the tile."""
    minx, miny, maxx, maxy = tile_bounds(z, x, y)
    pts = [world_xy(lon, lat) for lon, lat in coords]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    pad = (maxx - minx) * 64 / EXTENT
    if max(xs) < minx - pad or min(xs) > maxx + pad or max(ys) < miny - pad or min(ys) > maxy + pad:
        return None
    scale = EXTENT / (maxx - minx)
    return [(round((px - minx) * scale), round((py - miny) * scale)) for px, py in pts]

def encode_geometry(kind, parts):
    """MVT command stream for points (1), lines (2) or polygons (3)."""
    cmds = []
    cx = cy = 0
    for part in parts:
        pts = part[:-1] if kind == 3 else part
        for i, (px, py) in enumerate(pts):
            if i == 0:
                cmds.append(1 | 1 << 3)  # MoveTo, 1
            elif i == 1:
                cmds.append(2 | (len(pts) - 1) << 3)  # LineTo, n-1
            cmds += [zigzag(px - cx), zigzag(py - cy)]
            cx, cy = px, py
        if kind == 3:
            cmds.append(7 | 1 << 3)  # ClosePath
    return cmds

class LayerBuilder:
    def __init__(self, name):
        self.name = name
        self.keys, self.values, self.features = [], [], []

    def value_index(self, value):
        if isinstance(value, str):
            encoded = field_bytes(1, value)
        elif isinstance(value, bool):
            encoded = field_varint(7, int(value))
        else:
            encoded = field_varint(4, int(value))
        if encoded not in self.values:
            self.values.append(encoded)
        return self.values.index(encoded)

    def add(self, kind, parts, properties):
        tags = []
        for k, v in properties.items():
            if k not in self.keys:
                self.keys.append(k)
            tags += [self.keys.index(k), self.value_index(v)]
        feature = field_varint(1, len(self.features) + 1) + field_packed(2, tags) + field_varint(3, kind) + field_packed(4, encode_geometry(kind, parts))
        self.features.append(feature)

    def encode(self):
        out = field_varint(15, 2) + field_bytes(1, self.name)
        out += b"".join(field_bytes(2, f) for f in self.features)
        out += b"".join(field_bytes(3, k) for k in self.keys)
        out += b"".join(field_bytes(4, v) for v in self.values)
        out += field_varint(5, EXTENT)
        return out

def build_tile(z, x, y):
    layers = []
    water = LayerBuilder("water")
    for polygon in WATER:
        g = geometry_in_tile(polygon, z, x, y)
        if g:
            water.add(3, [g], {"kind": "bay"})
    layers.append(water)
    parks = LayerBuilder("parks")
    for name, polygon in PARKS:
        g = geometry_in_tile(polygon, z, x, y)
        if g:
            parks.add(3, [g], {"name": name})
    layers.append(parks)
    roads = LayerBuilder("roads")
    for props, line in ROADS:
        if props["class"] == "minor" and z < 9:
            continue
        g = geometry_in_tile(line, z, x, y)
        if g:
            roads.add(2, [g], props)
    layers.append(roads)
    places = LayerBuilder("places")
    for props, point in PLACES:
        if props["rank"] > z // 3 + 1:
            continue
        g = geometry_in_tile([point], z, x, y)
        if g and all(0 <= c < EXTENT for c in g[0]):
            places.add(1, [g], props)
    layers.append(places)
    pois = LayerBuilder("pois")
    if z >= 10:
        for props, point in POIS:
            g = geometry_in_tile([point], z, x, y)
            if g and all(0 <= c < EXTENT for c in g[0]):
                pois.add(1, [g], props)
    layers.append(pois)
    return b"".join(field_bytes(3, layer.encode()) for layer in layers if layer.features)

def tiles_in_bounds(z):
    west, south, east, north = BOUNDS
    n = 2 ** z
    x0, y0 = world_xy(west, north)
    x1, y1 = world_xy(east, south)
    for x in range(int(x0 * n), min(int(x1 * n), n - 1) + 1):
        for y in range(int(y0 * n), min(int(y1 * n), n - 1) + 1):
            yield x, y

# --- images --------------------------------------------------------------------------------------

def png(width, height, pixel):
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(px, py)) for px in range(width)) for py in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")

ICONS = [  # name, colour, shape
    ("marker", (214, 69, 65), "circle"),
    ("park", (60, 140, 70), "triangle"),
    ("cafe", (140, 90, 50), "square"),
]

def sprite(ratio):
    size = 24 * ratio
    index = {}
    for i, (name, _, _) in enumerate(ICONS):
        index[name] = {"x": i * size, "y": 0, "width": size, "height": size, "pixelRatio": ratio}
    def pixel(px, py):
        icon = ICONS[px // size]
        colour, shape = icon[1], icon[2]
        u = (px % size + 0.5) / size - 0.5
        v = (py + 0.5) / size - 0.5
        inside = {"circle": u * u + v * v < 0.16,
                  "triangle": v > -0.4 and abs(u) < (v + 0.4) * 0.55 and v < 0.4,
                  "square": abs(u) < 0.38 and abs(v) < 0.38}[shape]
        return (*colour, 255) if inside else (0, 0, 0, 0)
    return png(size * len(ICONS), size, pixel), index

# --- glyphs --------------------------------------------------------------------------------------

def glyph_range(start):
    """A glyph PBF with a simple signed-distance box for every printable code point of the first two
    ranges; the others are served too, without glyphs, as a font server serves every range of a
    font stack (an offline region downloads all 256)."""
    glyphs = b""
    for cp in range(start, start + 256 if start < 512 else start):
        if cp < 32 or 127 <= cp < 160:
            continue
        width, height, buffer = 10, 14, 3
        w, h = width + 2 * buffer, height + 2 * buffer
        bitmap = bytes(int(max(0, min(255, 192 - 24 * max(abs(px - w / 2) - width / 2, abs(py - h / 2) - height / 2, 0))))
                       for py in range(h) for px in range(w)) if cp != 32 else b""
        # Width and height are required fields (GL JS throws "mismatched image size" on a glyph
        # without them): a space has no bitmap and a size of 0 by 0.
        glyph = field_varint(1, cp)
        if bitmap:
            glyph += field_bytes(2, bitmap)
        glyph += field_varint(3, width if bitmap else 0) + field_varint(4, height if bitmap else 0)
        glyph += field_varint(5, zigzag(1)) + field_varint(6, zigzag(-2)) + field_varint(7, 12)
        glyphs += field_bytes(3, glyph)
    stack = field_bytes(1, FONT) + field_bytes(2, f"{start}-{start + 255}") + glyphs
    return field_bytes(1, stack)

# --- style ---------------------------------------------------------------------------------------

def style(name, sprite_url="sprite", tilejson="tiles.json", icon="marker"):
    return {
        "version": 8,
        "name": name,
        "center": [-122.4, 37.8],
        "zoom": 10,
        "sprite": sprite_url,
        "glyphs": "glyphs/{fontstack}/{range}.pbf",
        "sources": {"city": {"type": "vector", "url": tilejson}},
        "layers": [
            {"id": "background", "type": "background", "paint": {"background-color": "#f4f1ea"}},
            {"id": "water", "type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}},
            {"id": "parks", "type": "fill", "source": "city", "source-layer": "parks", "paint": {"fill-color": "#c8e6b4"}},
            {"id": "roads-minor", "type": "line", "source": "city", "source-layer": "roads", "minzoom": 9,
             "filter": ["==", ["get", "class"], "minor"], "paint": {"line-color": "#ffffff", "line-width": 1.5}},
            {"id": "roads-major", "type": "line", "source": "city", "source-layer": "roads",
             "filter": ["==", ["get", "class"], "major"], "paint": {"line-color": "#f6c86e", "line-width": 3}},
            {"id": "park-icons", "type": "symbol", "source": "city", "source-layer": "parks", "minzoom": 11,
             "layout": {"icon-image": "park"}},
            {"id": "pois", "type": "symbol", "source": "city", "source-layer": "pois",
             "layout": {"icon-image": icon, "text-field": "{name}", "text-font": [FONT], "text-size": 12,
                        "text-offset": [0, 1.2], "text-anchor": "top"},
             "paint": {"text-color": "#4a3f35", "text-halo-color": "#ffffff", "text-halo-width": 1}},
            {"id": "places", "type": "symbol", "source": "city", "source-layer": "places",
             "layout": {"text-field": "{name}", "text-font": [FONT], "text-size": 16},
             "paint": {"text-color": "#222222", "text-halo-color": "#ffffff", "text-halo-width": 1.5}},
        ],
    }

def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)

def write_json(path, value):
    write(path, json.dumps(value, indent=2, ensure_ascii=False) + "\n")

def main():
    for folder in (SAMPLE, FAILING):
        if os.path.isdir(folder):
            shutil.rmtree(folder)
    count = 0
    for z in range(MIN_ZOOM, MAX_ZOOM + 1):
        for x, y in tiles_in_bounds(z):
            write(os.path.join(SAMPLE, "tiles", str(z), str(x), f"{y}.pbf"), build_tile(z, x, y))
            count += 1
    write_json(os.path.join(SAMPLE, "tiles.json"), {
        "tilejson": "3.0.0", "name": "Mapsim City", "attribution": "mapsim sample data (generated)",
        "tiles": ["tiles/{z}/{x}/{y}.pbf"], "minzoom": MIN_ZOOM, "maxzoom": MAX_ZOOM, "bounds": list(BOUNDS),
        "vector_layers": [{"id": name, "fields": {}} for name in ("water", "parks", "roads", "places", "pois")],
    })
    for ratio, suffix in ((1, ""), (2, "@2x")):
        image, index = sprite(ratio)
        write(os.path.join(SAMPLE, f"sprite{suffix}.png"), image)
        write_json(os.path.join(SAMPLE, f"sprite{suffix}.json"), index)
    for start in range(0, 65536, 256):
        write(os.path.join(SAMPLE, "glyphs", FONT, f"{start}-{start + 255}.pbf"), glyph_range(start))
    write_json(os.path.join(SAMPLE, "style.json"), style("Mapsim City"))

    assets = "../sample/"
    def failing(name, **changes):
        value = style(name, sprite_url=assets + "sprite", tilejson=assets + "tiles.json")
        value["glyphs"] = assets + value["glyphs"]
        value.update(changes.get("root", {}))
        if "icon" in changes:
            value["layers"][6]["layout"]["icon-image"] = changes["icon"]
        if "tilejson" in changes:
            value["sources"]["city"]["url"] = changes["tilejson"]
        return value
    write_json(os.path.join(FAILING, "missing-sprite.json"), failing("Missing sprite", root={"sprite": assets + "no-such-sprite"}))
    write_json(os.path.join(FAILING, "broken-tilejson.json"), failing("Broken TileJSON", tilejson="broken-tiles.json"))
    write(os.path.join(FAILING, "broken-tiles.json"), '{"tilejson": "3.0.0", "tiles": ["../sample/tiles/{z}/{x}/{y}.pbf"], "minzoom": 0,\n')
    write_json(os.path.join(FAILING, "missing-icon.json"), failing("Missing icon", icon="no-such-icon"))
    mismatch = failing("Data mismatch", icon=["get", "kind"])
    mismatch["layers"][3]["source-layer"] = "road"
    mismatch["layers"][4]["filter"] = ["==", ["get", "klass"], "major"]
    write_json(os.path.join(FAILING, "data-mismatch.json"), mismatch)
    write(os.path.join(FAILING, "malformed.json"), '{\n  "version": 8,\n  "sources": {},\n  "layers": [\n    {"id": "background", "type": "background"}\n  ]\n  "name": "missing comma"\n}\n')
    print(f"wrote {count} tiles, 2 sprites, 256 glyph ranges (2 with glyphs) and 6 styles under {os.path.normpath(ROOT)}")

if __name__ == "__main__":
    main()
