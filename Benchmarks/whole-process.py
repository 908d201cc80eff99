#!/usr/bin/env python3
"""Whole-process figures of `mapsim validate` and `mapsim load`: wall time and peak memory of the process.

The in-process benchmarks (`swift package benchmark`) measure the validator; this measures what a
user of the command sees, start-up and exit included, the way gl-style-validate is measured: each
style is validated --runs times for the wall time and --runs times under GNU time for the peak
resident memory (after one warm-up run), and the medians are printed.

    python3 Benchmarks/whole-process.py [--binary PATH] [--runs N] [--json] [STYLE ...]
    python3 Benchmarks/whole-process.py --load [STYLE] [--center LON,LAT] [--zoom Z] [--bearing B] [--pitch P]
                                        [--binary PATH ...] [--pymgl PYTHON] [--runs N] [--json]

Without --binary it builds the release binary with scripts/build-release first. Without styles it
measures Benchmarks/Fixtures/large-style.json and styles/sample/style.json.

Given the reference validator (--validator, the bundle gl-style-validate.cjs of MapLibre's style
spec; by default ../shared/oracle/gl-style-validate/gl-style-validate.cjs beside the project when it
is there and node is on PATH), each round also runs `node gl-style-validate.cjs STYLE` after mapsim,
so the two are paired run by run, and the ratio of the medians is printed — issue 49's goal is 0.03.
--validator none leaves it out.

--load measures a whole `mapsim load file:///.../style.json --no-cache --mode still --quiet` of
STYLE (the sample style unless given) instead — a copy of its folder whose style and TileJSON files
name every resource by an absolute `file://` URL, as MapLibre Native needs — and, given a Python with
pymgl (--pymgl, else ./.venv-mln/bin/python when it imports pymgl), MapLibre Native rendering the
same view (512x512 at the style's centre, zoom, bearing and pitch, each overridden by --center,
--zoom, --bearing and --pitch) in a Python process of its own, paired run by run in one measurement: each round runs every binary and pymgl once, in
turn, and the medians and each binary's ratio to pymgl are printed. --binary may be given more than
once (the plain release build and scripts/build-release's static one, say).

Peak memory is read by GNU time (/usr/bin/time; Debian: apt-get install time), not from this
script's own wait4(): a child's maximum RSS includes the memory of the process it was forked from
until it calls exec, and a child of Python starts from Python's 10 MB or more.

Before it measures, the script writes the binary back and drops it from the page cache, so the first
run reads it from disk the way an installed binary is read. A file that was just written (by the
linker, by cp) sits in the page cache in large folios, and a process maps code a whole folio at a
time: here the same binary peaks 0.6 MB higher straight after linking and 2.9 MB higher straight
after a cp.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GNU_TIME = "/usr/bin/time"
DEFAULT_STYLES = [ROOT / "Benchmarks/Fixtures/large-style.json", ROOT / "styles/sample/style.json"]


def release_binary() -> str:
    """Builds the release binary with scripts/build-release and returns its path."""
    result = subprocess.run([str(ROOT / "scripts/build-release")], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("whole-process: scripts/build-release failed")
    return result.stdout.strip().splitlines()[-1]


def read_from_disk_next_time(binary: str) -> None:
    """Writes the binary's pages back and drops them from the page cache (Linux; elsewhere a no-op)."""
    if not hasattr(os, "posix_fadvise"):
        return
    descriptor = os.open(binary, os.O_RDONLY)
    try:
        os.fsync(descriptor)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def check_exit(style: Path, code: int) -> None:
    """mapsim validate exits 0 (valid) or 1 (invalid); anything else means the run failed."""
    if code not in (0, 1):
        sys.exit(f"whole-process: mapsim validate {style} exited with {code}")


def wall_time(binary: str, style: Path) -> float:
    """Runs `mapsim validate STYLE` once and returns its wall time in seconds."""
    start = time.perf_counter()
    code = subprocess.call([binary, "validate", str(style)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    check_exit(style, code)
    return wall


def peak_memory(binary: str, style: Path) -> int:
    """Runs `mapsim validate STYLE` once under GNU time and returns its peak RSS in KiB."""
    with tempfile.NamedTemporaryFile("r") as report:
        code = subprocess.call([GNU_TIME, "-f", "%M", "-o", report.name, binary, "validate", str(style)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        check_exit(style, code)
        # For exit status 1, GNU time writes "Command exited with non-zero status 1" first.
        return int(report.read().split()[-1])


def node_wall_time(validator: str, style: Path) -> float:
    """Runs the reference validator on STYLE once with node and returns its wall time in seconds."""
    start = time.perf_counter()
    code = subprocess.call(["node", validator, str(style)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if code not in (0, 1):
        sys.exit(f"whole-process: node {validator} {style} exited with {code}")
    return wall


def reference_validator(given: str | None) -> str | None:
    """The gl-style-validate bundle to pair with: the one given, else the oracle's beside the project."""
    if given == "none":
        return None
    path = Path(given) if given else ROOT.parent / "shared/oracle/gl-style-validate/gl-style-validate.cjs"
    if path.is_dir():
        path = path / "gl-style-validate.cjs"
    if not path.is_file() or not shutil.which("node"):
        if given:
            sys.exit(f"whole-process: cannot run {path} (it must exist, and node be on PATH)")
        return None
    return str(path)


def measure(binary: str, style: Path, runs: int, validator: str | None = None) -> dict:
    """Median (and range) of wall time and peak memory over `runs` runs each, after one warm-up; with
    `validator`, the reference validator's wall time too, each of its runs right after one of mapsim's."""
    wall_time(binary, style)
    walls = []
    references = []
    for _ in range(runs):
        walls.append(wall_time(binary, style))
        if validator:
            references.append(node_wall_time(validator, style))
    peaks = [peak_memory(binary, style) for _ in range(runs)]
    paired = {}
    if references:
        paired = {"reference_wall_seconds_median": statistics.median(references),
                  "ratio_to_reference": statistics.median(walls) / statistics.median(references)}
    return paired | {
        "style": str(style),
        "bytes": style.stat().st_size,
        "runs": runs,
        "wall_seconds_median": statistics.median(walls),
        "wall_seconds_min": min(walls),
        "wall_seconds_max": max(walls),
        "peak_rss_kib_median": statistics.median(peaks),
        "peak_rss_kib_min": min(peaks),
        "peak_rss_kib_max": max(peaks),
    }


PYMGL_RENDER = """
import sys, pymgl
with pymgl.Map(open(sys.argv[1]).read(), 512, 512, 1, float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])) as m:
    m.setBearing(float(sys.argv[5]))
    m.setPitch(float(sys.argv[6]))
    m.renderPNG()
"""


def absolute_copy(style: Path, folder: Path) -> Path:
    """A copy of `style`'s folder in `folder` whose style and local TileJSON files name every resource
    by an absolute file:// URL, as MapLibre Native needs."""
    copy = folder / "style"
    shutil.copytree(style.parent, copy)
    def absolute(url: str, against: Path) -> str:
        if "://" in url or url.startswith("mapbox:"):
            return url
        return (against.parent / url).resolve().as_uri().replace("%7B", "{").replace("%7D", "}")
    path = copy / style.name
    document = json.loads(path.read_text())
    if isinstance(document.get("sprite"), str):
        document["sprite"] = absolute(document["sprite"], path)
    elif isinstance(document.get("sprite"), list):
        for sprite in document["sprite"]:
            sprite["url"] = absolute(sprite["url"], path)
    if "glyphs" in document:
        document["glyphs"] = absolute(document["glyphs"], path)
    for source in document.get("sources", {}).values():
        for key in ("tiles", "urls"):
            if key in source:
                source[key] = [absolute(url, path) for url in source[key]]
        if isinstance(source.get("data"), str):
            source["data"] = absolute(source["data"], path)
        if "url" in source:
            tilejson = None if "://" in source["url"] else (path.parent / source["url"]).resolve()
            source["url"] = absolute(source["url"], path)
            if tilejson and tilejson.is_file():
                tiles = json.loads(tilejson.read_text())
                tiles["tiles"] = [absolute(url, tilejson) for url in tiles.get("tiles", [])]
                tilejson.write_text(json.dumps(tiles))
    path.write_text(json.dumps(document))
    return path


def pymgl_python(given: str | None) -> str | None:
    """The Python to run MapLibre Native with: the one given, or ./.venv-mln/bin/python if it imports pymgl."""
    candidates = [given] if given else [str(ROOT / ".venv-mln/bin/python")]
    for python in candidates:
        if python and os.access(python, os.X_OK) and subprocess.run([python, "-c", "import pymgl"], capture_output=True).returncode == 0:
            return python
    if given:
        sys.exit(f"whole-process: {given} cannot import pymgl")
    return None


def timed(command: list[str], env: dict | None = None) -> float:
    """Runs `command` once and returns its wall time in seconds; it must exit 0."""
    start = time.perf_counter()
    code = subprocess.call(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    if code != 0:
        sys.exit(f"whole-process: {' '.join(command)} exited with {code}")
    return wall


def peak(command: list[str], env: dict | None = None) -> int:
    """Runs `command` once under GNU time and returns its peak RSS in KiB."""
    with tempfile.NamedTemporaryFile("r") as report:
        subprocess.call([GNU_TIME, "-f", "%M", "-o", report.name] + command, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, env=env)
        return int(report.read().split()[-1])


def camera(style: Path, given: argparse.Namespace) -> dict:
    """The view to load: each of --center, --zoom, --bearing and --pitch given, else the style's own."""
    document = json.loads(style.read_text())
    center = [float(value) for value in given.center.split(",")] if given.center else document.get("center", [0, 0])
    return {"center": center, "zoom": given.zoom if given.zoom is not None else document.get("zoom", 0),
            "bearing": given.bearing if given.bearing is not None else document.get("bearing", 0),
            "pitch": given.pitch if given.pitch is not None else document.get("pitch", 0)}


def measure_load(binaries: list[str], python: str | None, runs: int, style: Path, given: argparse.Namespace) -> dict:
    """Paired rounds of `mapsim load` (each binary) and pymgl on the same view of `style`."""
    with tempfile.TemporaryDirectory() as folder:
        copy = absolute_copy(style, Path(folder))
        view = camera(style, given)
        flags = ["--center", f"{view['center'][0]},{view['center'][1]}", "--zoom", str(view["zoom"]),
                 f"--bearing={view['bearing']}", "--pitch", str(view["pitch"]), "--size", "512x512"]
        commands = {binary: [binary, "load", copy.as_uri(), "--no-cache", "--mode", "still", "--quiet"] + flags for binary in binaries}
        env = None
        if python:
            script = Path(folder) / "render.py"
            script.write_text(PYMGL_RENDER)
            commands["pymgl"] = [python, str(script), str(copy), str(view["center"][0]), str(view["center"][1]), str(view["zoom"]),
                                 str(view["bearing"]), str(view["pitch"])]
            env = dict(os.environ, EGL_PLATFORM="surfaceless")
        for command in commands.values():
            timed(command, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                walls[name].append(timed(command, env))
        results = {name: {"wall_seconds_median": statistics.median(values), "wall_seconds_min": min(values),
                          "wall_seconds_max": max(values),
                          "peak_rss_kib_median": statistics.median(peak(commands[name], env) for _ in range(3))}
                   for name, values in walls.items()}
    if "pymgl" in results:
        for binary in binaries:
            results[binary]["ratio_to_pymgl"] = results[binary]["wall_seconds_median"] / results["pymgl"]["wall_seconds_median"]
    return {"style": str(style), "runs": runs, "view": dict(view, size="512x512"), "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("styles", nargs="*", type=Path, help="styles to validate (default: the large "
                        "benchmark style and the sample style); with --load, the one style to load (default: the sample)")
    parser.add_argument("--binary", action="append", help="the mapsim to measure (default: build it with scripts/build-release); "
                        "with --load, may be given more than once")
    parser.add_argument("--runs", type=int, default=15, help="runs per style, after one warm-up (default 15)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--load", action="store_true", help="measure `mapsim load` of a style (the sample unless given), paired with pymgl")
    parser.add_argument("--center", help="with --load: the view's centre, LON,LAT (default: the style's; a negative longitude as --center=-122.4,37.8)")
    parser.add_argument("--zoom", type=float, help="with --load: the view's zoom (default: the style's)")
    parser.add_argument("--bearing", type=float, help="with --load: the view's bearing (default: the style's)")
    parser.add_argument("--pitch", type=float, help="with --load: the view's pitch (default: the style's)")
    parser.add_argument("--pymgl", help="with --load: the Python that imports pymgl (default: ./.venv-mln/bin/python if it does)")
    parser.add_argument("--validator", help="gl-style-validate.cjs to pair validate with, or none (default: "
                        "../shared/oracle/gl-style-validate/gl-style-validate.cjs when it is there and node is on PATH)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit(f"whole-process: peak memory is read by GNU time, and {GNU_TIME} is missing "
                 "(Debian: apt-get install time)")
    if not args.load and any(value is not None for value in (args.center, args.zoom, args.bearing, args.pitch)):
        parser.error("--center, --zoom, --bearing and --pitch go with --load")
    if args.load:
        if len(args.styles) > 1:
            parser.error("--load loads one style")
        style = args.styles[0] if args.styles else ROOT / "styles/sample/style.json"
        if not style.is_file():
            parser.error(f"no such style: {style}")
        binaries = args.binary or [release_binary()]
        for binary in binaries:
            read_from_disk_next_time(binary)
        figures = measure_load(binaries, pymgl_python(args.pymgl), args.runs, style, args)
        if args.json:
            print(json.dumps(figures, indent=2))
            return
        view = figures["view"]
        print(f"mapsim load of {style} (still, no cache) at {view['center'][0]},{view['center'][1]} z{view['zoom']} "
              f"b{view['bearing']} p{view['pitch']}, 512x512, beside MapLibre Native (pymgl), median of {args.runs} paired rounds")
        print(f"{'run':<64} {'wall time':>10} {'peak memory':>12} {'ratio':>6}")
        for name, result in figures["results"].items():
            ratio = f"{result['ratio_to_pymgl']:.3f}" if "ratio_to_pymgl" in result else ""
            print(f"{name:<64} {result['wall_seconds_median'] * 1000:>7.1f} ms {result['peak_rss_kib_median'] / 1024:>8.1f} MiB {ratio:>6}")
        return
    if args.binary and len(args.binary) > 1:
        parser.error("--binary is given once without --load")
    styles = args.styles or DEFAULT_STYLES
    for style in styles:
        if not style.is_file():
            parser.error(f"no such style: {style}")

    binary = args.binary[0] if args.binary else release_binary()
    read_from_disk_next_time(binary)
    validator = reference_validator(args.validator)
    results = [measure(binary, style, args.runs, validator) for style in styles]

    if args.json:
        print(json.dumps({"binary": binary, "results": results}, indent=2))
        return
    print(f"{binary}, median of {args.runs} runs each" + (f", paired with node {validator}" if validator else ""))
    print(f"{'style':<36} {'size':>9} {'wall time':>10} {'peak memory':>12}" + (f" {'node':>10} {'ratio':>7}" if validator else ""))
    for result in results:
        name = Path(result["style"]).name
        size = f"{result['bytes'] / 1000:.0f} KB"
        wall = f"{result['wall_seconds_median'] * 1000:.1f} ms"
        peak = f"{result['peak_rss_kib_median'] / 1024:.1f} MiB"
        paired = ""
        if "ratio_to_reference" in result:
            paired = f" {result['reference_wall_seconds_median'] * 1000:>7.0f} ms {result['ratio_to_reference']:>7.4f}"
        print(f"{name:<36} {size:>9} {wall:>10} {peak:>12}{paired}")


if __name__ == "__main__":
    main()
