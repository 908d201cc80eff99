import MapSimJSON

extension OwnedFormat {
    /// A signed content package mapsim packed: a zip whose first entry is its manifest.
    public static let contentPackage = OwnedFormat("a content package mapsim packed (a zip whose first entry is manifest.json)") { bytes in
        // A zip's local file header: its signature, then the name at offset 30.
        begins(bytes, with: "PK\u{3}\u{4}") && bytes.count > 30 && bytes[30...].starts(with: Array("manifest.json".utf8))
    }

    /// A content manifest: a JSON object that begins with the site.
    public static let contentManifest = OwnedFormat("a content manifest (JSON with \"site\", \"version\" and \"items\")") { bytes in
        firstKey(bytes) == "site"
    }
}
