import MapSimJSON

extension OwnedFormat {
    /// A cache — MapLibre Native's offline database, or mapsim's earlier cache — even a damaged
    /// one: SQLite's header, and the schema's text of the cache's tables (SQLite keeps it as
    /// written, at the start of the file).
    public static let offlineDatabase = OwnedFormat("a cache (MapLibre's offline database: SQLite with its resources and tiles tables)") { bytes in
        begins(bytes, with: "SQLite format 3\u{0}") && contains(bytes, "CREATE TABLE resources") && contains(bytes, "CREATE TABLE tiles")
    }
}
