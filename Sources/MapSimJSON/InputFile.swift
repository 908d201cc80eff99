#if canImport(Glibc)
import Glibc
private let posixRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let posixRead = Darwin.read
#endif

/// Reads an input file whole, within a size limit checked before anything is read, and says why
/// it cannot when it cannot: missing, not permitted, a directory, or too large.
public enum InputFile {
    /// Why a file cannot be read.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// Why, in words a user can act on.
        public var reason: String

        public var description: String { "cannot read \(path): \(reason)" }
    }

    /// The bytes of `path` (`-` reads standard input), refused past `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(path: path, reason: explain(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(path: path, reason: explain(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(path: path, reason: "it is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            throw Failure(path: path, reason: "it has \(info.st_size) bytes, more than the limit of \(limit)")
        }
        var bytes: [UInt8] = []
        // A regular file's size is known: one buffer of that size, not a doubling one (which would
        // hold the old and the new buffer at once, twice the file, at its last growth).
        if (info.st_mode & S_IFMT) == S_IFREG { bytes.reserveCapacity(Int(info.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: explain(errno))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw Failure(path: path, reason: "it has more than the limit of \(limit) bytes") }
        }
    }

    private static func explain(_ code: Int32) -> String {
        switch code {
        case ENOENT: "there is no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code))
        }
    }
}
