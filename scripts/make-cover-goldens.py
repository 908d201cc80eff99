#!/usr/bin/env python3
"""Make the GL JS cover goldens under Tests/MapSimTests/Geometry/Fixtures/GLJSCover/ from recordings of
MapLibre GL JS 5.24.0 (gljs-requests in headless Chromium against the oracle server of the GL JS notes).

Each family file holds, per camera: the camera (centre, zoom, bearing, pitch), the view's size, the
projection, the sources as the style declares them (type, tileSize, minzoom, maxzoom), the terrain
(source, exaggeration, DEM encoding) when there is one, and the canonical tiles GL JS requested of each
source, in the order it requested them (each once). The port of the server is stripped: only paths are
kept. For terrain, the DEM PNGs the server served for the terrain source are written under DEM/FIELD/Z/X/Y.png,
made by the same function that served them (dem_field.dem_png), so the Swift test decodes the real images.

    python3 scripts/make-cover-goldens.py [NOTES]        # NOTES: the notes folder (default /work/notes)

Families (NOTES/fixtures/*_spec.json):
  globe.json    globe_spec.json, globe_spec2.json: "globe" and "vertical-perspective"; the camera GL JS
                reports at the end (`camera_end`: GL JS constrains the initial camera by Mercator rules);
                the antimeridian camera that never settles goes to globe-antimeridian.json
  terrain.json  terrain_spec.json, terrain_spec2.json: 3D terrain, the requests of every frame together
  flat.json     dem_spec.json: hillshade and color-relief without terrain (Mercator)
"""
import json
import os
import sys

NOTES = sys.argv[1] if len(sys.argv) > 1 else "/work/notes"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MapSimTests", "Geometry", "Fixtures", "GLJSCover")
sys.path.insert(0, os.path.join(NOTES, "tools"))
import dem_field  # noqa: E402  (the notes' synthetic elevation field: what the oracle server served)

FIXTURES = os.path.join(NOTES, "fixtures")
PATHOLOGICAL = {"globe-z6.4-antimeridian"}


def load(path):
    with open(path) as f:
        return json.load(f)


def requested_tiles(recording):
    """Each source's canonical tiles in first-request order, each once (the path's z/x/y; no port, no host)."""
    tiles = {}
    for r in recording["requests"]:
        if r.get("kind") == "tile":
            listed = tiles.setdefault(r["source"], [])
            if r["tile"] not in listed:
                listed.append(r["tile"])
    return tiles


def sources_of(style):
    out = []
    for sid, s in style["sources"].items():
        if s["type"] not in ("vector", "raster", "raster-dem"):
            continue
        out.append({"id": sid, "type": s["type"], "tileSize": s.get("tileSize", 512),
                    "minzoom": s.get("minzoom", 0), "maxzoom": s.get("maxzoom", 22)})
    return out


def dem_field_of(source):
    """The field a DEM source's URL names: .../dem/FIELD/{z}/{x}/{y}.png."""
    return source["tiles"][0].split("/dem/")[1].split("/")[0]


def camera(center, zoom, bearing, pitch):
    return {"center": center, "zoom": zoom, "bearing": bearing, "pitch": pitch}


def entry(name, run, spec_style, cam, projection):
    style_name = run.get("style", spec_style)
    style = load(os.path.join(FIXTURES, style_name))
    recording = load(os.path.join(FIXTURES, "recordings", name + ".json"))
    width, height = recording["size"]
    sources = sources_of(style)
    tiles = requested_tiles(recording)
    e = {"name": name, "style": style_name, "camera": cam(recording, run), "size": [width, height], "projection": projection(style),
         "sources": sources, "tiles": {s["id"]: tiles.get(s["id"], []) for s in sources}}
    if style.get("terrain"):
        t = style["terrain"]
        dem = style["sources"][t["source"]]
        e["terrain"] = {"source": t["source"], "exaggeration": t.get("exaggeration", 1), "encoding": dem.get("encoding", "mapbox"),
                        "dem": dem_field_of(dem)}
    return e


def style_projection(style):
    return (style.get("projection") or {}).get("type", "mercator")


def family(specs, cam, projection=style_projection):
    cameras, pathological = [], []
    for spec_name in specs:
        spec = load(os.path.join(FIXTURES, spec_name))
        for run in spec["runs"]:
            e = entry(run["name"], run, spec.get("style"), cam, projection)
            (pathological if run["name"] in PATHOLOGICAL else cameras).append(e)
    return cameras, pathological


def camera_asked(recording, run):
    """The camera the spec asked for (what the terrain and flat models are run with)."""
    return camera(run["center"], run["zoom"], run.get("bearing", 0), run.get("pitch", 0))


def camera_end(recording, run):
    """The camera GL JS reports at the end (what the globe model is run with)."""
    c = recording["camera_end"]
    return camera(c["center"], c["zoom"], c["bearing"], c["pitch"])


def write(name, cameras, note):
    # One camera a line: compact, and a diff shows which camera changed.
    lines = ",\n".join("  " + json.dumps(c, separators=(",", ":")) for c in cameras)
    with open(os.path.join(OUT, name), "w") as f:
        f.write("{\"about\": " + json.dumps(note) + ",\n \"cameras\": [\n" + lines + "\n]}\n")
    print(f"{name}: {len(cameras)} cameras")


def main():
    os.makedirs(OUT, exist_ok=True)
    about = "Tiles MapLibre GL JS 5.24.0 requested (gljs-requests, headless Chromium), per source in request order; made by scripts/make-cover-goldens.py"
    globe, pathological = family(["globe_spec.json", "globe_spec2.json"], camera_end)
    write("globe.json", globe, about)
    write("globe-antimeridian.json", pathological, about + "; GL JS never settled on this camera (notes, section 1.9)")
    terrain, _ = family(["terrain_spec.json", "terrain_spec2.json"], camera_asked)
    write("terrain.json", terrain, about + "; the union of every frame's requests")
    flat, _ = family(["dem_spec.json"], camera_asked)
    write("flat.json", flat, about)
    # The DEM images the oracle server served for the terrain sources' requests.
    written = 0
    for e in terrain:
        t = e["terrain"]
        for tile in e["tiles"][t["source"]]:
            z, x, y = map(int, tile.split("/"))
            path = os.path.join(OUT, "DEM", t["dem"], str(z), str(x), f"{y}.png")
            if os.path.exists(path):
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(dem_field.dem_png(t["dem"], z, x, y))
            written += 1
    print(f"DEM: {written} images")


main()
