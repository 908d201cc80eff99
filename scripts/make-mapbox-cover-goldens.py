#!/usr/bin/env python3
"""Record Mapbox GL JS 3.0.1's tile cover into Tests/MapSimTests/Geometry/Fixtures/MapboxCover/flat.json (or globe.json).

nginx (one worker, from Debian's nginx-light) serves a style with two tiled sources and no bounds — a
vector source (512 px tiles, maxzoom 14) and a raster one (256 px tiles, maxzoom 15) — answering every
tile URL with the same tile, so no request fails and no parent is asked for in place of a tile: what
Mapbox GL JS requests is its cover. ../shared/tools/mapboxgl-requests (Mapbox GL JS v3.0.1 in headless
Chromium; its set-up) shows the style at each camera below, 512x512, and the canonical tiles it asked
for of each source, in order and each once, are written with the camera in the format of the GL JS
cover goldens (scripts/make-cover-goldens.py). MapboxCoverTests holds mapsim's `mapboxGLJS` walk to
them; nothing in the tests needs a browser. With --projection globe the style has
`"projection": {"name": "globe"}` and the cameras are GLOBE_CAMERAS (low zooms, where 3.0.1 covers the
globe), written to globe.json.

    python3 scripts/make-mapbox-cover-goldens.py [--projection mercator|globe] [--tool PATH]
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIXTURES = os.path.join(ROOT, "Tests", "MapSimTests", "Geometry", "Fixtures", "MapboxCover")

# name, centre, zoom, bearing, pitch: flat and pitched views, rotated ones (the separating axes), steep
# ones past 60 degrees (Mapbox's split by distance and its far plane), low zooms (world copies).
CAMERAS = [
    ("z11-flat", [-122.42, 37.78], 11, 0, 0),
    ("z12-b20-p50", [-122.43, 37.77], 12, 20, 50),
    ("z12.6-b-120-p45", [-122.41, 37.79], 12.6, -120, 45),
    ("z9.3-b45-p0", [-122.45, 37.71], 9.3, 45, 0),
    ("z14.45-b125-p0", [-122.3945, 37.7564], 14.45, 125, 0),
    ("z10.18-b100-p45", [-122.4664, 37.7188], 10.18, 100, 45),
    ("z9.8-b100-p55", [-122.5243, 37.8155], 9.8, 100, 55),
    ("z11.2-b-67-p30", [-122.3707, 37.8108], 11.2, -67, 30),
    ("z8.75-b51-p63", [-122.4595, 37.8111], 8.75, 51, 63),
    ("z12-b20-p70", [-122.43, 37.77], 12, 20, 70),
    ("z10.51-b-34-p68", [-122.5293, 37.7202], 10.51, -34, 68),
    ("z14.01-b-12-p68", [-122.4576, 37.7772], 14.01, -12, 68),
    ("z12.45-b-9-p72", [-122.3932, 37.7328], 12.45, -9, 72),
    ("z10.5-b-35-p80", [-122.42, 37.78], 10.5, -35, 80),
    ("z9.7-b75-p85", [-122.44, 37.76], 9.7, 75, 85),
    ("z7.15-b-17-p85", [-122.4285, 37.7815], 7.15, -17, 85),
    ("z2.2-b10-p0", [-122.4315, 37.7289], 2.2, 10, 0),
    ("z2.68-b-45-p85", [-122.4958, 37.8212], 2.68, -45, 85),
    ("z0.5-b0-p0", [10.0, 20.0], 0.5, 0, 0),
]
# The globe: whole-Earth views, rotated and pitched ones, a pole, the antimeridian, and zooms about the
# globe's hand-over to Mercator (5 to 6).
GLOBE_CAMERAS = [
    ("g-z0-b0-p0", [0.0, 0.0], 0, 0, 0),
    ("g-z1.5-b0-p0", [-122.4, 37.8], 1.5, 0, 0),
    ("g-z2.2-b10-p0", [-122.4315, 37.7289], 2.2, 10, 0),
    ("g-z3-b0-p0", [-122.4, 37.8], 3, 0, 0),
    ("g-z3.4-b-60-p40", [139.7, 35.7], 3.4, -60, 40),
    ("g-z4.3-b30-p20", [-122.4, 37.8], 4.3, 30, 20),
    ("g-z2.5-b0-p30", [20.0, 78.0], 2.5, 0, 30),
    ("g-z3.7-b150-p55", [179.0, -17.0], 3.7, 150, 55),
    ("g-z5.2-b-20-p45", [-122.42, 37.78], 5.2, -20, 45),
    ("g-z5.7-b80-p60", [2.35, 48.85], 5.7, 80, 60),
    ("g-z6.5-b20-p50", [-122.43, 37.77], 6.5, 20, 50),
    ("g-z1-b0-p0", [-40.0, -60.0], 1, 0, 0),
]
SOURCES = [
    {"id": "v", "type": "vector", "tileSize": 512, "minzoom": 0, "maxzoom": 14},
    {"id": "r", "type": "raster", "tileSize": 256, "minzoom": 0, "maxzoom": 15},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(work: str, port: int, projection: str) -> subprocess.Popen:
    site = os.path.join(work, "site")
    os.makedirs(site)
    shutil.copyfile(os.path.join(ROOT, "styles/sample/tiles/10/163/395.pbf"), os.path.join(site, "one.pbf"))
    shutil.copyfile(os.path.join(ROOT, "styles/sample/sprite.png"), os.path.join(site, "one.png"))
    base = f"http://127.0.0.1:{port}"
    style = {"version": 8, "sources": {
        "v": {"type": "vector", "tiles": [base + "/tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14},
        "r": {"type": "raster", "tiles": [base + "/raster/{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 15}},
        "layers": [{"id": "r", "type": "raster", "source": "r"},
                   {"id": "water", "type": "fill", "source": "v", "source-layer": "water"}]}
    if projection != "mercator":
        style["projection"] = {"name": projection}
    with open(os.path.join(site, "style.json"), "w") as f:
        json.dump(style, f)
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as f:
        f.write(f"""worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 256; }}
http {{ access_log off; default_type application/octet-stream;
  server {{ listen 127.0.0.1:{port}; root {site};
    location /tiles/ {{ try_files /one.pbf =404; }}
    location /raster/ {{ default_type image/png; try_files /one.png =404; }}
    location / {{ default_type application/json; }} }} }}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-c", config, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.025)
    sys.exit("make-mapbox-cover-goldens: nginx did not start (Debian: apt-get install nginx-light)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", default=os.path.join(ROOT, "..", "shared", "tools", "mapboxgl-requests"))
    parser.add_argument("--projection", choices=["mercator", "globe"], default="mercator")
    args = parser.parse_args()
    out_path = os.path.join(FIXTURES, "flat.json" if args.projection == "mercator" else "globe.json")
    cameras = []
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)  # nginx's workers run as another user
        port = free_port()
        nginx = start_nginx(work, port, args.projection)
        try:
            for name, center, zoom, bearing, pitch in (CAMERAS if args.projection == "mercator" else GLOBE_CAMERAS):
                out = os.path.join(work, name + ".json")
                command = [args.tool, f"http://127.0.0.1:{port}/style.json", "--center", f"{center[0]},{center[1]}", "--zoom", str(zoom),
                           "--bearing", str(bearing), "--pitch", str(pitch), "--size", "512x512", "--json", out]
                result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
                if result.returncode != 0 or not os.path.exists(out):
                    sys.exit(f"make-mapbox-cover-goldens: {' '.join(command)} failed: {result.stderr[-2000:]}")
                recording = json.load(open(out))
                tiles = {"v": [], "r": []}
                for request in recording["requests"]:
                    path = request["path"]
                    for prefix, source in (("/tiles/", "v"), ("/raster/", "r")):
                        if path.startswith(prefix):
                            tile = path[len(prefix):].rsplit(".", 1)[0]
                            if tile not in tiles[source]:
                                tiles[source].append(tile)
                if not recording.get("idle"):
                    sys.exit(f"make-mapbox-cover-goldens: {name}: Mapbox GL JS did not go idle")
                cameras.append({"name": name, "camera": {"center": center, "zoom": zoom, "bearing": bearing, "pitch": pitch},
                                "size": [512, 512], "projection": args.projection, "sources": SOURCES, "tiles": tiles})
                print(f"{name}: {len(tiles['v'])} vector tiles, {len(tiles['r'])} raster tiles")
        finally:
            nginx.send_signal(signal.SIGTERM)
            nginx.wait(timeout=30)
    os.makedirs(FIXTURES, exist_ok=True)
    with open(out_path, "w") as f:
        json.dump({"oracle": "Mapbox GL JS v3.0.1 (mapboxgl-requests, headless Chromium)", "cameras": cameras}, f, indent=1)
        f.write("\n")
    print(f"wrote {out_path}: {len(cameras)} cameras")


if __name__ == "__main__":
    main()
