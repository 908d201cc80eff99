#!/usr/bin/env python3
"""mapsim's tile archive readers beside the official PMTiles Python reader, on the same archive.

Usage (from Benchmarks/, with the official package in a venv: python3 -m venv .venv-pmtiles &&
.venv-pmtiles/bin/pip install pmtiles):
  .venv-pmtiles/bin/python archive-readers.py

Writes a 100,489-tile PMTiles archive (zoom 17, every tile distinct) with the official writer and an
MBTiles file with the same tiles, times 1,000 random reads with the official reader (MmapSource; it decodes
the directories on every read), then
runs `swift package benchmark --target Archives` with MAPSIM_PMTILES / MAPSIM_MBTILES pointing at the
same files and prints reads a second for each and the ratio.
"""
import gzip, json, os, random, re, sqlite3, subprocess, sys, tempfile, time
from pmtiles.reader import Reader, MmapSource
from pmtiles.writer import Writer
from pmtiles.tile import zxy_to_tileid, TileType, Compression

SIDE, X0, Y0, READS = 317, 20_960, 50_660, 100_000
here = os.path.dirname(os.path.abspath(__file__))
sample = open(os.path.join(here, "..", "styles", "sample", "tiles", "10", "163", "395.pbf"), "rb").read()
compressed = gzip.compress(sample, mtime=0)
folder = tempfile.mkdtemp(prefix="mapsim-archives-")
pm_path, mb_path = os.path.join(folder, "official.pmtiles"), os.path.join(folder, "same.mbtiles")
tiles = [(17, X0 + dx, Y0 + dy, compressed + (dx * SIDE + dy).to_bytes(4, "little")) for dx in range(SIDE) for dy in range(SIDE)]

with open(pm_path, "wb") as f:
    writer = Writer(f)
    for z, x, y, data in sorted(tiles, key=lambda t: zxy_to_tileid(t[0], t[1], t[2])):
        writer.write_tile(zxy_to_tileid(z, x, y), data)
    writer.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, "min_zoom": 17, "max_zoom": 17,
                     "min_lon_e7": -1226200000, "min_lat_e7": 377000000, "max_lon_e7": -1222800000, "max_lat_e7": 379000000,
                     "center_zoom": 17, "center_lon_e7": -1224000000, "center_lat_e7": 378000000}, {"name": "bench"})
db = sqlite3.connect(mb_path)
db.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, "
                 "tile_row INTEGER, tile_data BLOB); CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);")
db.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "bench"), ("format", "pbf")])
db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", [(z, x, (1 << z) - 1 - y, d) for z, x, y, d in tiles])
db.commit()
db.close()

rng = random.Random(42)
keys = [(X0 + rng.randrange(SIDE), Y0 + rng.randrange(SIDE)) for _ in range(READS)]
# The official reader inflates and decodes the directories on every read: 1,000 reads are plenty.
OFFICIAL_READS = 1_000
with open(pm_path, "rb") as f:
    reader = Reader(MmapSource(f))
    start = time.perf_counter()
    for x, y in keys[:OFFICIAL_READS]:
        reader.get(17, x, y)
official = OFFICIAL_READS / (time.perf_counter() - start)
print(f"official PMTiles Python reader: {official:,.0f} reads/s", flush=True)

env = dict(os.environ, MAPSIM_PMTILES=pm_path, MAPSIM_MBTILES=mb_path)
out = subprocess.run(["swift", "package", "benchmark", "--target", "Archives", "--no-progress"], cwd=here, env=env,
                     capture_output=True, text=True).stdout
for name in ["PMTiles", "MBTiles"]:
    block = out[out.find(name + " random"):]
    match = re.search(r"Time \(wall clock\) \((ms|μs)\) \*\s*│\s*(\d+)\s*│\s*(\d+)\s*│\s*(\d+)", block)
    if not match:
        sys.exit(f"no {name} figure in the benchmark output:\n{out}")
    seconds = int(match.group(4)) / (1000 if match.group(1) == "ms" else 1_000_000)
    rate = READS / seconds
    print(f"mapsim {name} reader (median): {rate:,.0f} reads/s = {rate / official:.1f}× the official PMTiles reader")
