import MapSimStyle

extension LngLatBounds {
    /// Whether the canonical tile `id` overlaps these bounds (touching edges do not count).
    public func intersects(_ id: CanonicalTileID) -> Bool {
        let tiles = Double(1 << id.z)
        let minX = WebMercator.x(longitude: west) * tiles
        let maxX = WebMercator.x(longitude: east) * tiles
        let minY = WebMercator.y(latitude: north) * tiles
        let maxY = WebMercator.y(latitude: south) * tiles
        let x = Double(id.x)
        let y = Double(id.y)
        return x + 1 > minX && x < maxX && y + 1 > minY && y < maxY
    }
}
