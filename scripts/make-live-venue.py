#!/usr/bin/env python3
"""Writes the live venue of styles/live/: its locations (rooms.geojson) and its sprite.

The venue "hq" of dataset "acme" has two buildings, "main" and "annex", 375 m apart, each with two
floors of four rooms, and a tracked asset on floor 1 of "main" that has no room. Every location has
the properties MapsIndoors' live data reads (dataset, venue, building, floor, room). The sprite holds
the style's room icons and the icons of mapsim's default live-data display rule
(live-DOMAIN-STATE, live-DOMAIN) for some states, so that others show as style-image-missing.

Run from the repository root: scripts/make-live-venue.py
"""
import json
import struct
import zlib

BUILDINGS = {"main": 12.5680, "annex": 12.5740}
ICONS = [
    ("room-free", (90, 170, 90)), ("room-busy", (200, 70, 60)), ("room-away", (150, 150, 150)),
    ("live-occupancy-free", (60, 160, 60)), ("live-occupancy-busy", (220, 40, 40)),
    ("live-availability-away", (120, 120, 120)), ("live-position", (40, 90, 220)),
]
SIZE = 24


def locations():
    features = []
    for building, west in BUILDINGS.items():
        prefix = "" if building == "main" else "a"
        for floor in (1, 2):
            for number in range(1, 5):
                room = f"{prefix}{floor}0{number}"
                features.append({
                    "type": "Feature", "id": f"room-{room}",
                    "properties": {"name": f"Room {room.upper()}", "dataset": "acme", "venue": "hq", "building": building,
                                   "floor": str(floor), "room": f"r{room}"},
                    "geometry": {"type": "Point", "coordinates": [round(west + 0.0002 * (number - 1), 6), 55.676]},
                })
    features.append({
        "type": "Feature", "id": "asset-1",
        "properties": {"name": "Cart 1", "dataset": "acme", "venue": "hq", "building": "main", "floor": "1"},
        "geometry": {"type": "Point", "coordinates": [12.5695, 55.676]},
    })
    return {"type": "FeatureCollection", "features": features}


def png(width, height, pixels):
    rows = b"".join(b"\x00" + bytes(pixels[y * width * 4:(y + 1) * width * 4]) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def sprite():
    width = SIZE * len(ICONS)
    pixels = []
    for _ in range(SIZE):
        for _, colour in ICONS:
            pixels += [*colour, 255] * SIZE
    index = {name: {"x": i * SIZE, "y": 0, "width": SIZE, "height": SIZE, "pixelRatio": 1} for i, (name, _) in enumerate(ICONS)}
    return png(width, SIZE, pixels), index


def main():
    with open("styles/live/rooms.geojson", "w") as out:
        json.dump(locations(), out, indent=2)
        out.write("\n")
    image, index = sprite()
    with open("styles/live/sprite.png", "wb") as out:
        out.write(image)
    with open("styles/live/sprite.json", "w") as out:
        json.dump(index, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
