#!/usr/bin/env python3
"""`mapsim region download` from a loopback nginx: tiles per second and peak memory, against the server's rate.

nginx (one worker, keep-alive, `Cache-Control: max-age=60`) serves a copy of styles/sample whose every
tile URL answers with the same vector tile (--tile; by default the sample's, 1 KB), so a region of
any size is served from one file. Every tile is deflated as it is stored, as MapLibre stores it, so
a tile of real size (tens of kilobytes) measures that work too. With --gzip the tile is sent as tile
servers send theirs, gzipped (`gzip_static`, `Content-Encoding: gzip`; made at gzip's default level),
and is stored in the server's deflate stream, inflated and checked but not deflated again. The
region (--bounds, zooms --min-zoom..--max-zoom; by default about 4,500 tiles) is downloaded into a
fresh database --rounds times under GNU time (peak memory; Debian: apt-get install time); the
medians are printed with the tiles per second, and the server's own rate for the same tile (wrk -t2
-c32, as the anchor the issue compares with) and the ratio (the goal of issue 49: 15k tiles/s).
The last database downloaded is then written as MBTiles and as PMTiles (`region export`), timed the
same way: an export reads the tiles many rows to a read and keeps each row's deflate stream, so its
memory grows by about a hundred bytes a tile, not by the tiles' data.

    python3 Benchmarks/region-download.py [--binary PATH] [--tile FILE] [--gzip] [--bounds W,S,E,N] [--min-zoom 8] [--max-zoom 16] [--rounds 3] [--json]

Without --binary it builds the release binary with scripts/build-release first.
"""

import argparse
import gzip
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from benchmark_support import ROOT, release_binary, start_nginx
GNU_TIME = "/usr/bin/time"





def site(work: str, tile: str, gzipped: bool) -> str:
    """A copy of the sample whose TileJSON has no bounds and a max zoom of 16, and `tile` for all
    (beside it gzipped, when `gzipped`)."""
    folder = os.path.join(work, "site")
    shutil.copytree(ROOT / "styles/sample", folder)
    tilejson = json.load(open(os.path.join(folder, "tiles.json")))
    tilejson.pop("bounds", None)
    tilejson["maxzoom"] = 16
    json.dump(tilejson, open(os.path.join(folder, "tiles.json"), "w"))
    shutil.copyfile(tile, os.path.join(folder, "one.pbf"))
    if gzipped:
        with open(os.path.join(folder, "one.pbf.gz"), "wb") as f:
            f.write(gzip.compress(open(tile, "rb").read(), compresslevel=6, mtime=0))
    return folder



def download(binary: str, url: str, database: str, bounds: str, min_zoom: int, max_zoom: int) -> tuple[float, float, int]:
    """Seconds, peak memory in MB and tiles downloaded."""
    if os.path.exists(database):
        os.remove(database)
    command = [binary, "region", "download", url, "--bounds", bounds, "--min-zoom", str(min_zoom), "--max-zoom", str(max_zoom),
               "--cache", database]
    start = time.perf_counter()
    result = subprocess.run([GNU_TIME, "-f", "%M"] + command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"region-download: {' '.join(command)} failed ({result.returncode}): {result.stdout[-500:]} {result.stderr[-1000:]}")
    peak = int(result.stderr.strip().splitlines()[-1]) / 1024
    # "region 1 complete: 157 of 157 resources (21 tiles), …"
    tiles = int(re.search(r"\(([\d,]+) tiles\)", result.stdout).group(1).replace(",", ""))
    return seconds, peak, tiles


def export(binary: str, database: str, archive: str) -> tuple[float, float]:
    """Seconds and peak memory in MB of `region export` of region 1 to `archive` (its suffix the format)."""
    if os.path.exists(archive):
        os.remove(archive)
    command = [binary, "region", "export", "1", "--cache", database, "--" + archive.rsplit(".", 1)[1], archive]
    start = time.perf_counter()
    result = subprocess.run([GNU_TIME, "-f", "%M"] + command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"region-download: {' '.join(command)} failed ({result.returncode}): {result.stderr[-1000:]}")
    return seconds, int(result.stderr.strip().splitlines()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--tile", default=str(ROOT / "styles/sample/tiles/10/163/395.pbf"), help="the tile served for every tile URL")
    parser.add_argument("--gzip", action="store_true", help="send the tile gzipped, as tile servers do")
    parser.add_argument("--bounds", default="-122.62,37.7,-122.28,37.9")
    parser.add_argument("--min-zoom", type=int, default=8)
    parser.add_argument("--max-zoom", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(GNU_TIME):
        sys.exit("region-download: GNU time is not installed (Debian: apt-get install time)")
    binary = args.binary or release_binary("region-download")
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)  # nginx's workers run as another user
        gzip_static = " gzip_static on;" if args.gzip else ""
        process, port = start_nginx(work, site(work, args.tile, args.gzip), "region-download",
                                    'location /tiles/ { add_header Cache-Control "max-age=60"; try_files /one.pbf =404;' + gzip_static + ' }')
        try:
            url = f"http://127.0.0.1:{port}/style.json"
            runs = [download(binary, url, os.path.join(work, "region.db"), args.bounds, args.min_zoom, args.max_zoom) for _ in range(args.rounds)]
            exports = {kind: [export(binary, os.path.join(work, "region.db"), os.path.join(work, "region." + kind)) for _ in range(args.rounds)]
                       for kind in ("mbtiles", "pmtiles")}
            server = None
            if shutil.which("wrk"):
                accept = ["-H", "Accept-Encoding: gzip"] if args.gzip else []
                output = subprocess.run(["wrk", "-t2", "-c32", "-d5s"] + accept + [f"http://127.0.0.1:{port}/tiles/1/2/3.pbf"], capture_output=True, text=True).stdout
                server = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    seconds = statistics.median(r[0] for r in runs)
    tiles = runs[0][2]
    result = {"tiles": tiles, "tile-bytes": os.path.getsize(args.tile), "gzip": args.gzip, "seconds": seconds, "tiles-per-second": tiles / seconds, "peak-mb": statistics.median(r[1] for r in runs),
              "server-requests-per-second": server, "ratio-to-server": (tiles / seconds / server) if server else None,
              "export": {kind: {"seconds": statistics.median(r[0] for r in runs), "peak-mb": statistics.median(r[1] for r in runs)} for kind, runs in exports.items()}}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"region download: {tiles:,} tiles of {os.path.getsize(args.tile):,} bytes{' sent gzipped' if args.gzip else ''} in {seconds:.2f} s = {tiles / seconds:,.0f} tiles/s, peak {result['peak-mb']:.1f} MB"
          + (f"; nginx alone {server:,.0f} req/s: {result['ratio-to-server']:.2f}x" if server else ""))
    print("region export: " + "; ".join(f"{kind} {figures['seconds']:.2f} s ({tiles / figures['seconds']:,.0f} tiles/s), peak {figures['peak-mb']:.1f} MB"
                                        for kind, figures in result["export"].items()))


if __name__ == "__main__":
    main()
