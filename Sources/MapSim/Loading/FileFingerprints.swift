import Foundation
import Synchronization

/// The ETags of whole files a simulated server answers ranges of, each computed once per version of
/// the file (its size and modification time), so that a range read does not read the whole file.
final class FileFingerprints: Sendable {
    private struct Version: Hashable {
        var path: String
        var size: Int64
        var modified: Int64
    }

    private let known = Mutex<[Version: String]>([:])
    /// The most file versions remembered; the oldest is forgotten past it.
    private static let capacity = 64

    /// The ETag and size of the file at `path`; nil when it is not a readable regular file.
    func etag(of path: String) -> (etag: String, size: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let version = Version(path: path, size: Int64(info.st_size),
                              modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        if let etag = known.withLock({ $0[version] }) { return (etag, UInt64(version.size)) }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var fingerprint = FNV1a()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            fingerprint.add(chunk)
        }
        let etag = fingerprint.etag
        known.withLock { table in
            if table.count >= Self.capacity { table.removeAll() }
            table[version] = etag
        }
        return (etag, UInt64(version.size))
    }
}
