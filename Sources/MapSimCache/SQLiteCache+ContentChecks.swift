import GRDB
import MapSim

extension SQLiteCache {
    /// When a data manager last completed a check of the manifest at `manifestURL` against its
    /// server; nil when it never has — a fresh install, or content that only ever came from a package.
    public func lastContentCheck(manifestURL: String) throws(CacheError) -> HTTPDate? {
        guard let database = existing else { return nil }
        do {
            return try database.read { db in
                try Int64.fetchOne(db, sql: "SELECT checked_at FROM content_checks WHERE manifest_url = ?", arguments: [manifestURL])
            }.map(HTTPDate.init(secondsSince1970:))
        } catch {
            throw CacheError(.cannotRead, path: path, "cannot read the content checks of \(path): \(Self.describe(error))")
        }
    }

    /// Records that a check of the manifest at `manifestURL` completed at `time`.
    public func recordContentCheck(manifestURL: String, at time: HTTPDate) throws(CacheError) {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO content_checks (manifest_url, checked_at) VALUES (?, ?)",
                           arguments: [manifestURL, time.secondsSince1970])
        }
    }
}
