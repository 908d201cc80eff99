import MapSimJSON

extension OwnedFormat {
    /// An MBTiles archive: an SQLite database whose schema names its `metadata` and `tiles`.
    public static let mbtiles = OwnedFormat("an MBTiles archive (SQLite with metadata and tiles)") { bytes in
        begins(bytes, with: "SQLite format 3\u{0}") && contains(bytes, "metadata") && contains(bytes, "tiles")
    }

    /// A PMTiles archive, version 3.
    public static let pmtiles = OwnedFormat("a PMTiles archive") { bytes in
        begins(bytes, with: "PMTiles\u{3}")
    }
}
