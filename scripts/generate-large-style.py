#!/usr/bin/env python3
"""Generate Benchmarks/Fixtures/large-style.json: a valid 1.2 MB style of 941 layers, for the
validation benchmark.

The layers are modelled on published vector styles: roads, water, land use, buildings, labels and
POIs, each with the zoom curves, `match` and `case` filters, `coalesce`d names, `format`ted labels
and metadata that such styles carry. Deterministic (a fixed seed, stdlib only). Run from the
repository root:

    python3 scripts/generate-large-style.py [LAYERS]
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Benchmarks", "Fixtures", "large-style.json")
LAYERS = int(sys.argv[1]) if len(sys.argv) > 1 else 941
rng = random.Random(941)

CLASSES = ["motorway", "trunk", "primary", "secondary", "tertiary", "street", "service", "path", "track", "pedestrian"]
COLORS = ["hsl(35, 12%, 89%)", "#f2efe9", "rgba(120, 160, 200, 0.8)", "hsl(205, 76%, 70%)", "#d9d0c9", "rgb(240, 240, 235)", "darkslategray"]


def color():
    return rng.choice(COLORS)


def zoom_curve(lo, hi):
    z0 = rng.randint(3, 10)
    return ["interpolate", ["exponential", 1.5], ["zoom"], z0, lo, z0 + 8, hi]


def metadata(i):
    return {"mapbox:group": f"group-{i % 17}", "mapsim:featureComponent": rng.choice(["roads", "land", "water", "labels", "pois"]),
            "mapsim:notes": "Generated for the validation benchmark. " + "n" * rng.randint(240, 420)}


def road(i):
    cls = rng.sample(CLASSES, 3)
    return {"id": f"road-{i}", "type": "line", "source": "composite", "source-layer": "road", "minzoom": rng.randint(4, 12),
            "filter": ["all", ["match", ["get", "class"], cls, True, False],
                       ["match", ["get", "structure"], ["none", "ford"], True, False], ["==", ["geometry-type"], "LineString"]],
            "layout": {"line-cap": ["step", ["zoom"], "butt", 14, "round"], "line-join": ["step", ["zoom"], "miter", 14, "round"]},
            "paint": {"line-width": zoom_curve(0.5, rng.randint(12, 40)),
                      "line-color": ["match", ["get", "class"], cls[:1], color(), cls[1:2], color(), color()],
                      "line-opacity": ["interpolate", ["linear"], ["zoom"], 5, 0, 6, 1],
                      "line-dasharray": ["step", ["zoom"], ["literal", [1, 0]], 15, ["literal", [1.75, 1]]]},
            "metadata": metadata(i)}


def area(i):
    return {"id": f"landuse-{i}", "type": "fill", "source": "composite", "source-layer": "landuse", "minzoom": 5,
            "filter": ["match", ["get", "class"], ["park", "cemetery", "hospital", "school", "wood"], True, False],
            "paint": {"fill-color": ["match", ["get", "class"], "park", color(), "cemetery", color(), "hospital", color(), color()],
                      "fill-opacity": ["interpolate", ["linear"], ["zoom"], 5, 0, 6, ["match", ["get", "class"], "wood", 0.8, 0.2]],
                      "fill-outline-color": ["to-color", ["coalesce", ["get", "outline"], color()]]},
            "metadata": metadata(i)}


def building(i):
    return {"id": f"building-{i}", "type": "fill-extrusion", "source": "composite", "source-layer": "building", "minzoom": 15,
            "filter": ["all", ["!=", ["get", "type"], "building:part"], ["==", ["get", "underground"], "false"]],
            "paint": {"fill-extrusion-color": ["interpolate", ["linear"], ["get", "height"], 0, color(), 200, color()],
                      "fill-extrusion-height": ["interpolate", ["linear"], ["zoom"], 15, 0, 15.05, ["get", "height"]],
                      "fill-extrusion-base": ["interpolate", ["linear"], ["zoom"], 15, 0, 15.05, ["get", "min_height"]],
                      "fill-extrusion-opacity": ["interpolate", ["linear"], ["zoom"], 15, 0, 16, 0.6]},
            "metadata": metadata(i)}


def label(i):
    return {"id": f"place-label-{i}", "type": "symbol", "source": "composite", "source-layer": "place_label",
            "filter": ["all", ["<=", ["get", "filterrank"], rng.randint(1, 5)],
                       ["match", ["get", "class"], ["settlement", "settlement_subdivision"], True, False]],
            "layout": {"text-field": ["format", ["coalesce", ["get", "name_en"], ["get", "name"]], {"font-scale": 1.1},
                                      "\n", {}, ["to-string", ["get", "population"]], {"font-scale": 0.8}],
                       "text-font": ["step", ["zoom"], ["literal", ["DIN Pro Regular", "Arial Unicode MS Regular"]], 8,
                                     ["literal", ["DIN Pro Medium", "Arial Unicode MS Regular"]]],
                       "text-size": ["interpolate", ["cubic-bezier", 0.2, 0, 0.9, 1], ["zoom"], 3, ["step", ["get", "symbolrank"], 12, 9, 11], 13, 18],
                       "text-anchor": ["match", ["get", "text_anchor"], ["left", "right", "top", "bottom"], ["get", "text_anchor"], "center"],
                       "text-max-width": 7, "text-letter-spacing": 0.01,
                       "text-variable-anchor": ["top", "bottom", "left", "right"]},
            "paint": {"text-color": ["case", ["==", ["get", "capital"], 2], color(), color()],
                      "text-halo-color": color(), "text-halo-width": 1.2, "text-halo-blur": 0.5},
            "metadata": metadata(i)}


def poi(i):
    return {"id": f"poi-label-{i}", "type": "symbol", "source": "composite", "source-layer": "poi_label", "minzoom": 6,
            "filter": ["let", "rank", ["number", ["get", "filterrank"], 0],
                       ["<=", ["var", "rank"], ["step", ["zoom"], 0, 16, 1, 17, 2, 18, 3]]],
            "layout": {"icon-image": ["case", ["has", "maki"], ["image", ["concat", ["get", "maki"], "-15"]], ["image", "marker-15"]],
                       "icon-size": ["interpolate", ["linear"], ["zoom"], 10, 0.8, 18, 1.2],
                       "text-field": ["coalesce", ["get", "name_en"], ["get", "name"]],
                       "text-font": ["literal", ["DIN Pro Medium", "Arial Unicode MS Regular"]],
                       "text-size": ["step", ["zoom"], ["step", ["get", "sizerank"], 18, 5, 12], 17, ["step", ["get", "sizerank"], 18, 13, 12]],
                       "text-offset": ["literal", [0, 1.2]], "text-anchor": "top"},
            "paint": {"text-color": ["match", ["get", "class"], "food_and_drink", color(), "park_like", color(), color()],
                      "icon-opacity": ["step", ["zoom"], ["step", ["get", "sizerank"], 0, 5, 1], 17, 1],
                      "text-opacity": ["step", ["zoom"], ["step", ["get", "sizerank"], 0, 5, 1], 17, 1]},
            "metadata": metadata(i)}


def water(i):
    return {"id": f"water-{i}", "type": "fill", "source": "composite", "source-layer": "water",
            "paint": {"fill-color": ["interpolate", ["linear"], ["zoom"], 0, color(), 8, color()],
                      "fill-opacity": ["interpolate", ["linear"], ["zoom"], 0, 1, 12, 0.9]},
            "metadata": metadata(i)}


def circle(i):
    return {"id": f"transit-stop-{i}", "type": "circle", "source": "composite", "source-layer": "transit_stop_label", "minzoom": 12,
            "filter": ["in", ["get", "mode"], ["literal", ["rail", "metro_rail", "light_rail", "tram"]]],
            "paint": {"circle-radius": ["interpolate", ["linear"], ["zoom"], 12, 1.5, 18, ["*", 4, ["coalesce", ["get", "scale"], 1]]],
                      "circle-color": color(), "circle-stroke-width": 1, "circle-stroke-color": color(),
                      "circle-opacity": ["interpolate", ["linear"], ["zoom"], 12, 0, 13, 1]},
            "metadata": metadata(i)}


def compact(value):
    return json.dumps(value, separators=(", ", ": "))


def format_style(style):
    """Layers one member per line, values inline, as style editors write them."""
    lines = ["{"]
    for key, value in style.items():
        if key != "layers":
            lines.append(f'  "{key}": {compact(value)},')
    lines.append('  "layers": [')
    for index, layer in enumerate(style["layers"]):
        members = [f'      "{k}": {compact(v) if k not in ("layout", "paint") else format_properties(v)}' for k, v in layer.items()]
        lines.append("    {\n" + ",\n".join(members) + "\n    }" + ("," if index < len(style["layers"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def format_properties(properties):
    if not properties:
        return "{}"
    return "{\n" + ",\n".join(f'        "{k}": {compact(v)}' for k, v in properties.items()) + "\n      }"


def main():
    makers = [road, road, road, area, building, label, poi, water, circle]
    layers = [{"id": "background", "type": "background", "paint": {"background-color": ["interpolate", ["linear"], ["zoom"], 5, color(), 7, color()]}}]
    layers += [makers[i % len(makers)](i) for i in range(1, LAYERS)]
    style = {"version": 8, "name": "mapsim large benchmark style", "center": [-122.4, 37.8], "zoom": 12,
             "sprite": "https://example.com/sprite", "glyphs": "https://example.com/fonts/{fontstack}/{range}.pbf",
             "sources": {"composite": {"type": "vector", "url": "https://example.com/tiles.json"}},
             "layers": layers}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as out:
        out.write(format_style(style))
    print(f"{len(layers)} layers, {os.path.getsize(OUT)} bytes written to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
