#if canImport(Glibc)
import Glibc
private let posixRead = Glibc.read
private let posixClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let posixRead = Darwin.read
private let posixClose = Darwin.close
#endif

/// An input file read a piece at a time (`-` is standard input), for input too large to hold whole:
/// the same checks and errors as `InputFile.read`, the size limit counted as it is read.
public final class InputFileStream {
    /// The file as the user named it.
    public let path: String
    private let descriptor: Int32
    private let limit: Int
    /// The bytes read so far.
    public private(set) var bytesRead = 0

    /// Opens `path` (`-` for standard input), refused past `limit` bytes.
    public init(_ path: String, limit: Int) throws(InputFileError) {
        self.path = path
        self.limit = limit
        descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputFile.failure(path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let number = errno
            _ = posixClose(descriptor)
            throw InputFile.failure(path, number)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            _ = posixClose(descriptor)
            throw InputFileError(.isDirectory, path: path, "it is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            _ = posixClose(descriptor)
            throw InputFileError(.tooLarge, path: path, "it has \(info.st_size) bytes, more than the limit of \(limit)")
        }
    }

    deinit {
        _ = posixClose(descriptor)
    }

    /// Appends up to `count` (at least 1) more bytes of the file to `bytes`; false at its end.
    public func read(upTo count: Int, appendingTo bytes: inout [UInt8]) throws(InputFileError) -> Bool {
        let count = max(count, 1)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        while true {
            let got = bytes.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress! + start, count) }
            if got < 0 {
                if errno == EINTR { continue }
                let number = errno
                bytes.removeSubrange(start...)
                throw InputFile.failure(path, number)
            }
            bytes.removeSubrange((start + got)...)
            bytesRead += got
            if bytesRead > limit { throw InputFileError(.tooLarge, path: path, "it has more than the limit of \(limit) bytes") }
            return got > 0
        }
    }
}
