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
    /// The bytes of `path` (`-` reads standard input), refused past `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path, errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw InputFileError(.isDirectory, path: path, "it is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            throw InputFileError(.tooLarge, path: path, "it has \(info.st_size) bytes, more than the limit of \(limit)")
        }
        var bytes: [UInt8] = []
        if (info.st_mode & S_IFMT) == S_IFREG {
            // A regular file's size is known: read straight into one buffer of that size (and a
            // byte more, to see a file that grew), not into a chunk copied into a doubling buffer.
            var error: Int32 = 0
            bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size) + 1) { buffer, count in
                while count < buffer.count {
                    let read = posixRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
                    if read < 0 && errno == EINTR { continue }
                    if read < 0 { error = errno }
                    if read <= 0 { return }
                    count += read
                }
            }
            if error != 0 { throw failure(path, error) }
            if bytes.count <= Int(info.st_size) { return bytes }
            if bytes.count > limit { throw InputFileError(.tooLarge, path: path, "it has more than the limit of \(limit) bytes") }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw InputFileError(.tooLarge, path: path, "it has more than the limit of \(limit) bytes") }
        }
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
