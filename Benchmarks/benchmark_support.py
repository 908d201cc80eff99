"""What the paired whole-process benchmarks share: the release binary, loopback ports, and nginx as the anchor."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def release_binary(name: str) -> str:
    """Builds the release binary with scripts/build-release and returns its path (`name` says who failed)."""
    result = subprocess.run([str(ROOT / "scripts/build-release")], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"{name}: scripts/build-release failed")
    return result.stdout.strip().splitlines()[-1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, name: str) -> None:
    """Waits until something accepts connections on 127.0.0.1:`port` (ten seconds at most)."""
    for _ in range(400):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.025)
    sys.exit(f"{name}: nothing listens on {port}")


def start_nginx(work: str, root: str, name: str, locations: str = ""):
    """nginx with one worker serving `root` on a free port, keep-alive and ETags on, every answer with
    `Cache-Control: max-age=60`; `locations` adds nginx `location` blocks. Returns (process, port)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        sys.exit(f"{name}: nginx is not installed (Debian: apt-get install nginx-light)")
    port = free_port()
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as f:
        f.write(f"""worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 2048; }}
http {{ access_log off; keepalive_requests 100000; etag on; default_type application/octet-stream;
  server {{ listen 127.0.0.1:{port}; root {root};
    {locations}
    location / {{ add_header Cache-Control "max-age=60"; add_header Access-Control-Allow-Origin "*"; }} }} }}
""")
    process = subprocess.Popen([nginx, "-c", config, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port, name)
    return process, port
