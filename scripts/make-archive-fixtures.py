#!/usr/bin/env python3
"""Make styles/archives/city.pmtiles and city.mbtiles from the sample's tiles with independent writers.

city.pmtiles is written by the official PMTiles Python package (PyPI `pmtiles`, its Writer), city.mbtiles
by Python's sqlite3 following the MBTiles 1.3 specification (metadata and tiles tables, TMS rows, gzip
vector tiles, json with vector_layers). The tests read both and never need Python; run this again only to
remake them (python3 -m venv .venv-pmtiles && .venv-pmtiles/bin/pip install pmtiles).

    .venv-pmtiles/bin/python scripts/make-archive-fixtures.py
"""
import gzip, json, os, sqlite3
from pmtiles.tile import zxy_to_tileid, TileType, Compression
from pmtiles.writer import Writer

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "styles", "sample")
OUT = os.path.join(HERE, "..", "styles", "archives")

tilejson = json.load(open(os.path.join(SAMPLE, "tiles.json")))
tiles = []
for z in os.listdir(os.path.join(SAMPLE, "tiles")):
    for x in os.listdir(os.path.join(SAMPLE, "tiles", z)):
        for name in os.listdir(os.path.join(SAMPLE, "tiles", z, x)):
            data = open(os.path.join(SAMPLE, "tiles", z, x, name), "rb").read()
            tiles.append((int(z), int(x), int(name.split(".")[0]), gzip.compress(data, mtime=0)))
west, south, east, north = tilejson["bounds"]
metadata = {k: tilejson[k] for k in ("name", "attribution", "vector_layers")}

with open(os.path.join(OUT, "city.pmtiles"), "wb") as f:
    writer = Writer(f)
    for z, x, y, data in sorted(tiles, key=lambda t: zxy_to_tileid(t[0], t[1], t[2])):
        writer.write_tile(zxy_to_tileid(z, x, y), data)
    e7 = lambda v: int(round(v * 10_000_000))
    writer.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.GZIP,
                     "min_zoom": min(t[0] for t in tiles), "max_zoom": max(t[0] for t in tiles),
                     "min_lon_e7": e7(west), "min_lat_e7": e7(south), "max_lon_e7": e7(east), "max_lat_e7": e7(north),
                     "center_zoom": 10, "center_lon_e7": e7(-122.4), "center_lat_e7": e7(37.8)}, metadata)

path = os.path.join(OUT, "city.mbtiles")
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path)
db.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, "
                 "tile_row INTEGER, tile_data BLOB); CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);")
rows = {"name": tilejson["name"], "format": "pbf", "bounds": f"{west},{south},{east},{north}", "center": "-122.4,37.8,10",
        "minzoom": str(min(t[0] for t in tiles)), "maxzoom": str(max(t[0] for t in tiles)), "attribution": tilejson["attribution"],
        "type": "baselayer", "version": "1", "json": json.dumps({"vector_layers": tilejson["vector_layers"]})}
db.executemany("INSERT INTO metadata VALUES (?, ?)", sorted(rows.items()))
db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", sorted((z, x, (1 << z) - 1 - y, d) for z, x, y, d in tiles))
db.commit()
db.execute("VACUUM")
db.close()
print("wrote", os.path.join(OUT, "city.pmtiles"), "and", path)
