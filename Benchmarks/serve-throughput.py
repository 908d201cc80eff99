#!/usr/bin/env python3
"""`mapsim serve` against nginx serving the same tile: requests per second and p99 latency, paired.

Both servers serve styles/sample on 127.0.0.1 (nginx: one worker, keep-alive, `Cache-Control: max-age=60`
and ETags on, as `mapsim serve` answers); wrk (Debian: apt-get install wrk) asks one vector tile over
and over with -t2 and each connection count (32 and 256 unless given), for --seconds each. Each
round runs mapsim then nginx, --rounds times; the medians and mapsim's ratio to nginx are printed
(the goal of issue 49: at least 0.7). mapsim records every request as it always does (--events to a
file, so the recorder's cost is in the figure).

    python3 Benchmarks/serve-throughput.py [--binary PATH] [--tile FILE] [--connections 32,256] [--seconds 10] [--rounds 3] [--json]

--tile serves FILE as the tile both servers are asked for (a copy of the sample with that tile in
place of its own 1 KB one), e.g. styles/features/mlt-as-mvt/tiles/13/4265/2723.pbf (125 KB).

Without --binary it builds the release binary with scripts/build-release first.
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from benchmark_support import ROOT, free_port, release_binary, start_nginx, wait_listening
TILE = "/tiles/10/163/395.pbf"





def site(work: str, tile: str | None) -> str:
    """The folder both servers serve: styles/sample, or a copy of it whose asked tile is `tile`."""
    if not tile:
        return str(ROOT / "styles/sample")
    os.chmod(work, 0o755)  # nginx's workers run as another user
    folder = os.path.join(work, "site")
    shutil.copytree(ROOT / "styles/sample", folder)
    shutil.copyfile(tile, folder + TILE)
    return folder


def start_mapsim(binary: str, work: str, folder: str):
    port = free_port()
    process = subprocess.Popen([binary, "serve", os.path.join(folder, "style.json"), "--port", str(port), "--quiet",
                                "--events", os.path.join(work, "serve.jsonl"), "--max-connections", "1024"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port, "serve-throughput")
    return process, port



def check_answer(name: str, port: int, folder: str) -> None:
    """Exits unless the server answers the tile with 200 and its bytes: a refusal (a 403 from a
    folder nginx's workers cannot read, say) is also fast, and would be measured as if served."""
    with open(folder + TILE, "rb") as tile:
        expected = tile.read()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{TILE}", timeout=10) as answer:
            if answer.status == 200 and answer.read() == expected:
                return
            sys.exit(f"serve-throughput: {name} answered the tile with {answer.status}, not the file's {len(expected)} bytes")
    except urllib.error.URLError as error:
        sys.exit(f"serve-throughput: {name} did not answer the tile: {error}")


def wrk(port: int, connections: int, seconds: int) -> tuple[float, float]:
    """Requests per second and p99 latency in milliseconds."""
    output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", f"http://127.0.0.1:{port}{TILE}"],
                            capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", output).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return rate, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--tile", help="the file served as the tile both servers are asked for (default: the sample's own)")
    parser.add_argument("--connections", default="32,256")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("serve-throughput: wrk is not installed (Debian: apt-get install wrk)")
    binary = args.binary or release_binary("serve-throughput")
    results = []
    if args.tile and not os.path.isfile(args.tile):
        parser.error(f"no such file: {args.tile}")
    with tempfile.TemporaryDirectory() as work:
        folder = site(work, args.tile)
        for connections in [int(c) for c in args.connections.split(",")]:
            figures = {"mapsim": [], "nginx": []}
            for _ in range(args.rounds):
                for name, start in [("mapsim", lambda: start_mapsim(binary, work, folder)), ("nginx", lambda: start_nginx(work, folder, "serve-throughput"))]:
                    process, port = start()
                    try:
                        check_answer(name, port, folder)
                        figures[name].append(wrk(port, connections, args.seconds))
                    finally:
                        process.send_signal(signal.SIGTERM)
                        process.wait(timeout=30)
            row = {"connections": connections}
            for name, runs in figures.items():
                row[name] = {"requests-per-second": statistics.median(r for r, _ in runs), "p99-ms": statistics.median(p for _, p in runs)}
            row["ratio"] = row["mapsim"]["requests-per-second"] / row["nginx"]["requests-per-second"]
            results.append(row)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for row in results:
        print(f"{row['connections']:>4} connections: mapsim {row['mapsim']['requests-per-second']:>9,.0f} req/s (p99 {row['mapsim']['p99-ms']:.2f} ms), "
              f"nginx {row['nginx']['requests-per-second']:>9,.0f} req/s (p99 {row['nginx']['p99-ms']:.2f} ms): {row['ratio']:.2f}x")


if __name__ == "__main__":
    main()
