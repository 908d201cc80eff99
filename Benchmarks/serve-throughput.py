#!/usr/bin/env python3
"""`mapsim serve` against nginx serving the same tile: requests per second and p99 latency, paired.

Both servers serve styles/sample on 127.0.0.1 (nginx: one worker, keep-alive, `Cache-Control: max-age=60`
and ETags on, as `mapsim serve` answers); wrk (Debian: apt-get install wrk) asks one vector tile over
and over with -t2 and each connection count (32 and 256 unless given), for --seconds each. Each
round runs mapsim then nginx, --rounds times; the medians and mapsim's ratio to nginx are printed
(the goal of issue 49: at least 0.7). mapsim records every request as it always does (--events to a
file, so the recorder's cost is in the figure).

    python3 Benchmarks/serve-throughput.py [--binary PATH] [--connections 32,256] [--seconds 10] [--rounds 3] [--json]

Without --binary it builds the release binary with scripts/build-release first.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TILE = "/tiles/10/163/395.pbf"


def release_binary() -> str:
    result = subprocess.run([str(ROOT / "scripts/build-release")], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("serve-throughput: scripts/build-release failed")
    return result.stdout.strip().splitlines()[-1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int) -> None:
    for _ in range(400):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.025)
    sys.exit(f"serve-throughput: nothing listens on {port}")


def start_mapsim(binary: str, work: str):
    port = free_port()
    process = subprocess.Popen([binary, "serve", str(ROOT / "styles/sample/style.json"), "--port", str(port), "--quiet",
                                "--events", os.path.join(work, "serve.jsonl"), "--max-connections", "1024"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port)
    return process, port


def start_nginx(work: str):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        sys.exit("serve-throughput: nginx is not installed (Debian: apt-get install nginx-light)")
    port = free_port()
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as f:
        f.write(f"""worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 2048; }}
http {{ access_log off; keepalive_requests 100000; etag on;
  server {{ listen 127.0.0.1:{port}; root {ROOT / 'styles/sample'};
    location / {{ add_header Cache-Control "max-age=60"; add_header Access-Control-Allow-Origin "*"; }} }} }}
""")
    process = subprocess.Popen([nginx, "-c", config, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port)
    return process, port


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
    parser.add_argument("--connections", default="32,256")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("serve-throughput: wrk is not installed (Debian: apt-get install wrk)")
    binary = args.binary or release_binary()
    results = []
    with tempfile.TemporaryDirectory() as work:
        for connections in [int(c) for c in args.connections.split(",")]:
            figures = {"mapsim": [], "nginx": []}
            for _ in range(args.rounds):
                for name, start in [("mapsim", lambda: start_mapsim(binary, work)), ("nginx", lambda: start_nginx(work))]:
                    process, port = start()
                    try:
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
