#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input file whole, within a size limit checked before anything is read, and says why
/// it cannot when it cannot: missing, not permitted, a directory, or too large.
public enum InputFile {
    /// The bytes of `path` (`-` reads standard input), refused past `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let stream = try InputFileStream(path, limit: limit)
        var bytes: [UInt8] = []
        // A regular file's size is known: one buffer of that size, not a doubling one (which would
        // hold the old and the new buffer at once, twice the file, at its last growth).
        if let size = stream.regularFileSize { bytes.reserveCapacity(size + 1) }
        while try stream.read(upTo: 1 << 16, appendingTo: &bytes) {}
        return bytes
    }

    /// Bytes `range` of `path` (first and last included), refused past `limit` bytes; fewer when the
    /// file ends inside the range (the caller sees how many), refused when it ends before the range
    /// starts.
    public static func read(_ path: String, range: ClosedRange<UInt64>, limit: Int) throws(InputFileError) -> [UInt8] {
        try RandomAccessFile(path: path).read(range, limit: limit)
    }

    /// Why `path` cannot be read, from the system's error number.
    static func failure(_ path: String, _ number: Int32) -> InputFileError {
        switch number {
        case ENOENT: InputFileError(.missing, path: path, "there is no such file")
        case EACCES, EPERM: InputFileError(.notPermitted, path: path, "permission denied")
        case EISDIR: InputFileError(.isDirectory, path: path, "it is a directory")
        default: InputFileError(.unreadable, path: path, String(cString: strerror(number)))
        }
    }
}
