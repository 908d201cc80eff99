#!/usr/bin/env python3
"""Is a load's cost linear in its work? Whole-process time and peak memory per request of `mapsim load`
at about 1k, 5k and 20k requests.

    python3 Benchmarks/load-scaling.py [--binary PATH] [--runs N] [--json]

Each view is a generated style of raster sources over the simulated LAN (`--network lan --mirror`),
a viewport large enough for the size asked, in two shapes:
  - found:   every tile is served (a 1 x 1 PNG), so each request is one tile drawn;
  - missing: every tile is a 404, so the map walks to each tile's parents, as MapLibre does for a
             raster tile without an image (the case whose cost once grew with the square of the work);
each run once without and once with `--events` (every event written as a JSON line). The sizes are
reached by the viewport (up to 16384 x 16384 pixels of 256-pixel tiles) and by the number of
sources (four for the largest); the script prints the requests each run made.

For each row it prints the median wall time, time per request and peak memory per request, and then,
per shape, how time per request at the largest size compares with the smallest: a load whose cost
is linear keeps it flat (the goal: within 15 %). Peak memory is read by GNU time (/usr/bin/time;
Debian: apt-get install time). Without --binary it builds the release binary with scripts/build-release.
"""

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GNU_TIME = "/usr/bin/time"

# (name, sources, viewport side): about 1k, 5k and 20k requests for each shape.
SIZES = [("1k", 1, 8192), ("5k", 1, 16384), ("20k", 4, 16384)]


def release_binary() -> str:
    result = subprocess.run([str(ROOT / "scripts/build-release")], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("load-scaling: scripts/build-release failed")
    return result.stdout.strip().splitlines()[-1]


def png_1x1() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00")) + chunk(b"IEND", b"")


def make_site(folder: Path, shape: str, sources: int) -> str:
    """A style of `sources` raster sources; for `found`, a tile at every place the views need."""
    style = {"version": 8, "center": [-122.4, 37.8], "zoom": 14, "sources": {}, "layers": []}
    for index in range(sources):
        name = f"r{index}"
        style["sources"][name] = {"type": "raster", "tileSize": 256, "maxzoom": 18,
                                  "tiles": [f"https://maps.test/{shape}{index}/{{z}}/{{x}}/{{y}}.png"]}
        style["layers"].append({"id": name, "type": "raster", "source": name})
    (folder / f"{shape}-{sources}.json").write_text(json.dumps(style))
    return f"https://maps.test/{shape}-{sources}.json"


class FoundTiles:
    """Serves a PNG for every tile URL: the simulated network reads files, so the tiles the largest
    view needs are written once (they are links to one PNG)."""

    def __init__(self, folder: Path, binary: str, sources: int, side: int) -> None:
        png = folder / "tile.png"
        png.write_bytes(png_1x1())
        # Which tiles: the ones a load over the missing shape asks for (every tile and its parents).
        site = make_site(folder, "probe", sources)
        events = folder / "probe.jsonl"
        subprocess.run([binary, "load", site, "--network", "lan", "--mirror", f"https://maps.test/={folder}", "--no-cache",
                        "--size", f"{side}x{side}", "--quiet", "--events", str(events)], stdout=subprocess.DEVNULL, check=False)
        for line in events.read_text().splitlines():
            event = json.loads(line)
            url = event.get("data", {}).get("request", {}).get("url", "")
            if event["type"] != "resource-request" or "/probe" not in url:
                continue
            path = folder / url.replace("https://maps.test/probe", "found", 1)
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                os.link(png, path)


def measure(binary: str, site: str, folder: Path, side: int, events: bool, runs: int) -> dict:
    command = [binary, "load", site, "--network", "lan", "--mirror", f"https://maps.test/={folder}", "--no-cache",
               "--size", f"{side}x{side}", "--quiet", "--summary", str(folder / "summary.json")]
    if events:
        command += ["--events", str(folder / "events.jsonl")]
    seconds, peaks = [], []
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run([GNU_TIME, "-f", "%M"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seconds.append(time.perf_counter() - started)
        peaks.append(int(result.stderr.strip().splitlines()[-1]))
    summary = json.loads((folder / "summary.json").read_text())
    requests = int(summary["requests"]["requests"])
    return {"requests": requests, "seconds": statistics.median(seconds), "peak_kb": statistics.median(peaks)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    if not Path(GNU_TIME).exists():
        sys.exit("load-scaling: needs GNU time at /usr/bin/time (Debian: apt-get install time)")
    binary = options.binary or release_binary()
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        largest = max(SIZES, key=lambda size: (size[1], size[2]))
        FoundTiles(folder, binary, largest[1], largest[2])
        for shape in ["found", "missing"]:
            for name, sources, side in SIZES:
                site = make_site(folder, shape, sources)
                for events in [False, True]:
                    row = measure(binary, site, folder, side, events, options.runs)
                    row.update(shape=shape, size=name, events=events)
                    row["us_per_request"] = row["seconds"] * 1e6 / max(1, row["requests"])
                    row["kb_per_request"] = row["peak_kb"] / max(1, row["requests"])
                    rows.append(row)
    if options.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'shape':8} {'size':4} {'events':6} {'requests':>8} {'time':>8} {'per request':>12} {'peak':>9} {'per request':>12}")
    for row in rows:
        print(f"{row['shape']:8} {row['size']:4} {'yes' if row['events'] else 'no':6} {row['requests']:8d} {row['seconds']:7.2f}s"
              f" {row['us_per_request']:10.1f}µs {row['peak_kb'] / 1024:7.1f}MB {row['kb_per_request']:10.2f}KB")
    for shape in ["found", "missing"]:
        for events in [False, True]:
            series = [row for row in rows if row["shape"] == shape and row["events"] == events]
            first, last = series[0], series[-1]
            change = (last["us_per_request"] / first["us_per_request"] - 1) * 100
            print(f"{shape}, events {'on' if events else 'off'}: time per request at {last['requests']} requests is "
                  f"{change:+.0f}% of that at {first['requests']}")


if __name__ == "__main__":
    main()
