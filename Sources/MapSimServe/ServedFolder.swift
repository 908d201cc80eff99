import Foundation
import MapSim
import Synchronization

/// The folder `mapsim serve` serves: a request path maps to a regular file below it or to nothing —
/// never outside it, however the path is written (`..`, percent-encoded, a symbolic link that leads
/// out). Files are read once and kept while their size and modification time stay the same.
final class ServedFolder: Sendable {
    /// One file as served: its bytes and validators.
    struct File: Sendable {
        var bytes: [UInt8]
        var etag: String
        var modified: HTTPDate
        var size: Int
        var modifiedNanoseconds: Int
    }

    /// The folder, as its real path (symbolic links resolved).
    let root: String
    /// The largest file served.
    let maximumFileSize: Int
    private let files = Mutex<[String: File]>([:])

    /// The folder at `path`; nil when it is not a folder.
    init?(path: String, maximumFileSize: Int = 1 << 30) {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        var isFolder: ObjCBool = false
        let resolved = String(cString: real)
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        root = resolved
        self.maximumFileSize = maximumFileSize
    }

    /// The file a request path names (percent-encoded, with or without its leading `/`), or nil
    /// when there is none below the folder.
    func file(atPath requestPath: String) -> (relativePath: String, file: File)? {
        guard let relative = Self.relativePath(requestPath) else { return nil }
        guard let real = realpath(root + "/" + relative, nil) else { return nil }
        let resolved = String(cString: real)
        free(real)
        // A symbolic link may lead anywhere: only what really is below the folder is served.
        guard resolved.hasPrefix(root + "/") else { return nil }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= maximumFileSize else { return nil }
        let size = Int(status.st_size)
        let nanoseconds = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
        if let held = files.withLock({ $0[resolved] }), held.size == size, held.modifiedNanoseconds == nanoseconds {
            return (relative, held)
        }
        guard let data = FileManager.default.contents(atPath: resolved) else { return nil }
        let bytes = [UInt8](data)
        let file = File(bytes: bytes, etag: SimulatedNetwork.etag(for: bytes), modified: HTTPDate(secondsSince1970: Int64(status.st_mtim.tv_sec)),
                        size: size, modifiedNanoseconds: nanoseconds)
        files.withLock { $0[resolved] = file }
        return (relative, file)
    }

    /// A request path as a path below the folder: percent-decoded, without its query, `.` and empty
    /// segments; nil when it climbs out (`..`) or holds what no file name holds (NUL, a backslash).
    static func relativePath(_ requestPath: String) -> String? {
        let path = requestPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0"), !decoded.contains("\\") else { return nil }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { return nil }
            segments.append(segment)
        }
        return segments.isEmpty ? nil : segments.joined(separator: "/")
    }

    /// The media type of a file, from its name.
    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "json", "tilejson": "application/json"
        case "geojson": "application/geo+json"
        case "pbf", "mvt": "application/x-protobuf"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
