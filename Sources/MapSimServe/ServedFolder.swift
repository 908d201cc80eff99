import Foundation
import MapSim
import Synchronization

/// The folder `mapsim serve` serves: a request path maps to a regular file below it or to nothing —
/// never outside it, however the path is written (`..`, percent-encoded, a symbolic link that leads
/// out). Files are read once and kept while they stay the same: on Linux as long as the kernel
/// notices no change to them or their folders (no look at the disk per request), elsewhere while
/// their size and modification time stay the same.
final class ServedFolder: Sendable {
    /// One file as served: its bytes and validators.
    struct File: Sendable {
        var bytes: [UInt8]
        var etag: String
        var modified: HTTPDate
        /// `modified` as a header says it.
        var modifiedText: String
        /// Which file it was read from, and when it was last changed: a file at the same path with
        /// another identity is read again.
        var identity: Identity
        /// Its real path below the folder (symbolic links resolved).
        var realPath: String
        /// Every folder of both its paths is watched: it is served without a look at the disk.
        var isWatched: Bool

        /// A file's device, inode, size and modification time.
        struct Identity: Sendable, Equatable {
            var device: UInt64
            var inode: UInt64
            var size: Int
            var modifiedNanoseconds: Int

            init(_ status: stat) {
                device = UInt64(status.st_dev)
                inode = UInt64(status.st_ino)
                size = Int(status.st_size)
                modifiedNanoseconds = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
            }
        }
    }

    /// The folder, as its real path (symbolic links resolved).
    let root: String
    /// The largest file served.
    let maximumFileSize: Int
    /// The files read, by relative path, and how many times notices of changes dropped some.
    private let held = Mutex<(files: [String: File], generation: Int)>(([:], 0))
    /// The kernel's notices of changes below the folder; nil where there are none.
    private let watch: FolderWatch?

    /// The folder at `path`; nil when it is not a folder.
    init?(path: String, maximumFileSize: Int = 1 << 30) {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        var isFolder: ObjCBool = false
        let resolved = String(cString: real)
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        root = resolved
        self.maximumFileSize = maximumFileSize
        watch = FolderWatch(root: resolved)
    }

    /// The file a request path names (percent-encoded, with or without its leading `/`), or nil
    /// when there is none below the folder.
    func file(atPath requestPath: String) -> (relativePath: String, file: File)? {
        guard let relative = Self.relativePath(requestPath), let file = file(atRelativePath: relative) else { return nil }
        return (relative, file)
    }

    /// The file at a path `relativePath` already made (below the folder, decoded), or nil when
    /// there is none there. A file served before is served again as it is while the kernel notices
    /// no change to it (Linux), or after one `stat` finds the same file (device, inode, size, time)
    /// at the path; anything else is resolved again, symbolic links and all, before it is served.
    func file(atRelativePath relative: String) -> File? {
        // The notices are looked at without the lock — the kernel's count of what is queued, one
        // cheap call — and read under it only when there are some: a request never waits behind
        // another one's look. One made after a change still sees it: the notice is queued until a
        // request reads it under the lock, and sees the change applied when it gets the lock in turn.
        let watchWithNotices = watch.flatMap { $0.hasNotices ? $0 : nil }
        let (kept, generation) = held.withLock { held -> (File?, Int) in
            switch watchWithNotices?.changes() ?? .none {
            case .none: break
            case .everything:
                held.files.removeAll()
                held.generation += 1
            case .paths(let paths):
                held.files = held.files.filter { path, file in !paths.contains { Self.path(path, isAtOrBelow: $0) || Self.path(file.realPath, isAtOrBelow: $0) } }
                held.generation += 1
            }
            return (held.files[relative], held.generation)
        }
        if let kept, kept.isWatched { return kept }
        // Watched before it is looked at: a change while it is read is noticed.
        var isWatched = watch?.watchFolders(of: relative) ?? false
        let path = root + "/" + relative
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let identity = File.Identity(status)
        if let kept, kept.identity == identity {
            // Kept but unwatched (a change was noticed while it was read): watched from now on,
            // unless another change came since this request began.
            if isWatched, kept.realPath == relative || watch?.watchFolders(of: kept.realPath) == true {
                held.withLock { held in
                    if held.generation == generation, held.files[relative]?.identity == identity { held.files[relative]?.isWatched = true }
                }
            }
            return kept
        }
        guard let real = realpath(path, nil) else { return nil }
        let resolved = String(cString: real)
        free(real)
        // A symbolic link may lead anywhere: only what really is below the folder is served.
        guard resolved.hasPrefix(root + "/") else { return nil }
        let realPath = String(resolved.dropFirst(root.count + 1))
        if isWatched, realPath != relative { isWatched = watch?.watchFolders(of: realPath) ?? false }
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= maximumFileSize else { return nil }
        guard let data = FileManager.default.contents(atPath: resolved) else { return nil }
        let bytes = [UInt8](data)
        let modified = HTTPDate(secondsSince1970: Int64(status.st_mtim.tv_sec))
        var file = File(bytes: bytes, etag: SimulatedNetwork.etag(for: bytes), modified: modified, modifiedText: modified.description,
                        identity: File.Identity(status), realPath: realPath, isWatched: isWatched)
        held.withLock { held in
            // A change noticed while it was read: it is checked on disk at the next request.
            if held.generation != generation { file.isWatched = false }
            held.files[relative] = file
        }
        return file
    }

    /// Whether `path` is `other` or below it (both relative to the folder).
    private static func path(_ path: String, isAtOrBelow other: String) -> Bool {
        path == other || (path.hasPrefix(other) && path.utf8.dropFirst(other.utf8.count).first == UInt8(ascii: "/"))
    }

    /// A request path as a path below the folder: percent-decoded, without its query, `.` and empty
    /// segments; nil when it climbs out (`..`) or holds what no file name holds (NUL, a backslash).
    static func relativePath(_ requestPath: String) -> String? {
        // Bytes, not Foundation: this runs on every request.
        let utf8 = requestPath.utf8
        let path = utf8.firstIndex(of: UInt8(ascii: "?")).map { requestPath[..<$0] } ?? Substring(requestPath)
        guard let decoded = PercentDecoder.decode(path) else { return nil }
        guard !decoded.utf8.contains(0), !decoded.utf8.contains(UInt8(ascii: "\\")) else { return nil }
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
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.utf8.index(after: $0)...] } ?? Substring(path)
        let pathExtension = name.utf8.lastIndex(of: UInt8(ascii: ".")).map { name[name.utf8.index(after: $0)...] } ?? ""
        return switch pathExtension.lowercased() {
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
